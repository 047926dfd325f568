package lab

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/lab/check"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// scenarioParser decodes the Scenario document from yaml.Node so that
// every error points at the offending key or value. Unknown fields are
// errors here (unlike in manifests): the header is the lab's own format and
// a typo would silently change a lesson.
type scenarioParser struct {
	file string
	errs []manifest.Diagnostic
}

func (p *scenarioParser) pos(n *yaml.Node) manifest.Position {
	return manifest.Position{File: p.file, Line: n.Line, Col: n.Column}
}

func (p *scenarioParser) errorf(n *yaml.Node, format string, a ...any) {
	// By convention the last argument is always the hint ("" for none).
	hint := a[len(a)-1].(string)
	a = a[:len(a)-1]
	if len(p.errs) >= manifest.DefaultMaxErrors {
		return
	}
	p.errs = append(p.errs, manifest.Diagnostic{File: p.file, Line: n.Line, Col: n.Column,
		Severity: manifest.SeverityError, Message: fmt.Sprintf(format, a...), Hint: hint})
}

// fields walks a mapping, calling f for each known key and reporting
// unknown ones with the list of valid keys.
func (p *scenarioParser) fields(n *yaml.Node, where string, known []string, f func(key string, v *yaml.Node)) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping of fields", where, "")
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if seen[k.Value] {
			p.errorf(k, "%s: field %q is given twice", where, k.Value, "keep one")
			continue
		}
		seen[k.Value] = true
		ok := false
		for _, name := range known {
			if name == k.Value {
				ok = true
			}
		}
		if !ok {
			p.errorf(k, "%s: unknown field %q", where, k.Value, "fields are "+strings.Join(known, ", "))
			continue
		}
		f(k.Value, v)
	}
}

func (p *scenarioParser) str(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "%s must be text", what, "")
		return ""
	}
	return n.Value
}

func (p *scenarioParser) integer(n *yaml.Node, what string, lo, hi int64) int64 {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "%s must be a whole number", what, "")
		return 0
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil || !(v >= lo && v <= hi) { // NaN too
		p.errorf(n, "%s must be a whole number from %d to %d, not %q", what, lo, hi, n.Value, "")
		return 0
	}
	return v
}

func (p *scenarioParser) number(n *yaml.Node, what string, lo, hi float64) float64 {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "%s must be a number", what, "")
		return 0
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || !(v >= lo && v <= hi) { // NaN too
		p.errorf(n, "%s must be a number from %g to %g, not %q", what, lo, hi, n.Value, "")
		return 0
	}
	return v
}

func (p *scenarioParser) boolean(n *yaml.Node, what string) bool {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, "%s must be true or false", what, "")
		return false
	}
	switch n.Value {
	case "true", "True", "TRUE", "yes":
		return true
	case "false", "False", "FALSE", "no":
		return false
	}
	p.errorf(n, "%s must be true or false, not %q", what, n.Value, "")
	return false
}

func (p *scenarioParser) duration(n *yaml.Node, what string) time.Duration {
	s := p.str(n, what)
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		if secs, err2 := strconv.ParseFloat(s, 64); err2 == nil && secs >= 0 && secs*float64(time.Second) < math.MaxInt64 {
			return time.Duration(secs * float64(time.Second))
		}
		p.errorf(n, "%s: bad duration %q", what, s, "use e.g. 30s, 2m, 1h30m")
		return 0
	}
	if d < 0 {
		p.errorf(n, "%s must not be negative", what, "")
	}
	return d
}

func (p *scenarioParser) quantity(n *yaml.Node, what string) string {
	s := p.str(n, what)
	if s == "" {
		return ""
	}
	if _, err := api.ParseQuantity(s); err != nil {
		p.errorf(n, "%s: %v", what, err, "")
	}
	return s
}

func (p *scenarioParser) strings(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode && n.Value != "" {
		return []string{n.Value}
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list", what, "")
		return nil
	}
	var out []string
	for _, e := range n.Content {
		out = append(out, p.str(e, what+" item"))
	}
	return out
}

func (p *scenarioParser) stringMap(n *yaml.Node, what string) map[string]string {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping", what, "")
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = p.str(n.Content[i+1], what+"."+n.Content[i].Value)
	}
	return out
}

func (p *scenarioParser) command(n *yaml.Node, what string) string {
	line := p.str(n, what)
	if line == "" {
		return ""
	}
	// a lesson's commands may name a lane of a fork (@b set spread …)
	_, rest, err := SplitLane(line)
	if err == nil {
		_, err = command.Parse(rest)
	}
	if err != nil {
		p.errorf(n, "%s: %v", what, err, "")
	}
	return line
}

// commands parses a command or a list of them, with where each is (for
// validate's messages about the objects they name).
func (p *scenarioParser) commands(n *yaml.Node, what string) ([]string, []manifest.Position) {
	if n.Kind == yaml.ScalarNode {
		if c := p.command(n, what); c != "" {
			return []string{c}, []manifest.Position{p.pos(n)}
		}
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a command or a list of commands", what, "")
		return nil, nil
	}
	var out []string
	var pos []manifest.Position
	for _, e := range n.Content {
		if c := p.command(e, what); c != "" {
			out = append(out, c)
			pos = append(pos, p.pos(e))
		}
	}
	return out, pos
}

func (p *scenarioParser) scenario(n *yaml.Node) *Scenario {
	s := &Scenario{Pos: p.pos(n)}
	p.fields(n, "Scenario", []string{"apiVersion", "kind", "metadata", "title", "description", "seed", "clock", "cluster", "scheduler", "kubelet", "descheduler", "autoscaler", "timeline", "fork", "lesson"}, func(key string, v *yaml.Node) {
		switch key {
		case "apiVersion":
		case "kind":
			if v.Value != ScenarioKind {
				p.errorf(v, "kind %q: the podlab/v1 document must be kind: %s", v.Value, ScenarioKind, "")
			}
		case "metadata":
			p.fields(v, "metadata", []string{"name", "labels", "annotations"}, func(k string, mv *yaml.Node) {
				if k == "name" {
					s.Name = p.str(mv, "metadata.name")
				}
			})
		case "title":
			s.Title = p.str(v, "title")
		case "description":
			s.Description = p.str(v, "description")
		case "seed":
			s.Seed = p.integer(v, "seed", -1<<62, 1<<62)
		case "clock":
			p.fields(v, "clock", []string{"speed", "paused", "resumeAt"}, func(k string, cv *yaml.Node) {
				switch k {
				case "resumeAt":
					s.Clock.ResumeAt = p.instant(cv, "clock.resumeAt")
				case "speed":
					s.Clock.Speed = p.number(cv, "clock.speed", 0.25, 64)
				case "paused":
					s.Clock.Paused = p.boolean(cv, "clock.paused")
				}
			})
		case "cluster":
			p.cluster(v, &s.Cluster)
		case "scheduler":
			p.schedulerSpec(v, &s.Scheduler)
		case "kubelet":
			p.kubelet(v, &s.Kubelet)
		case "autoscaler":
			s.Autoscaler = p.autoscalerSpec(v)
		case "descheduler":
			p.descheduler(v, &s.Descheduler)
		case "timeline":
			p.timeline(v, s)
		case "fork":
			s.Fork = &ForkSpec{}
			p.fields(v, "fork", []string{"at"}, func(k string, fv *yaml.Node) {
				s.Fork.At = p.instant(fv, "fork.at")
			})
		case "lesson":
			s.Lesson = p.lesson(v)
		}
	})
	return s
}

func (p *scenarioParser) shapeField(k string, v *yaml.Node, where string, sh *NodeShape) {
	switch k {
	case "cpu":
		sh.CPU = p.nonNegativeQuantity(v, where+".cpu")
	case "memory":
		sh.Memory = p.nonNegativeQuantity(v, where+".memory")
	case "pods":
		sh.Pods = strconv.FormatInt(p.integer(v, where+".pods", 1, 10000), 10)
	case "labels":
		sh.Labels = p.stringMap(v, where+".labels")
	case "taints":
		for _, e := range v.Content {
			t := p.str(e, where+".taints item")
			if _, err := command.ParseTaint(t); err != nil {
				p.errorf(e, "%s.taints: %q is not a taint", where, t, "write key=value:Effect with Effect NoSchedule, PreferNoSchedule or NoExecute")
				continue
			}
			sh.Taints = append(sh.Taints, t)
		}
	}
}

var shapeKeys = []string{"cpu", "memory", "pods", "labels", "taints"}

func (p *scenarioParser) cluster(n *yaml.Node, c *ClusterSpec) {
	p.fields(n, "cluster", []string{"zoneLabel", "nodeNames", "node", "zones"}, func(k string, v *yaml.Node) {
		switch k {
		case "zoneLabel":
			c.ZoneLabel = p.str(v, "cluster.zoneLabel")
		case "nodeNames":
			c.NodeNames = p.str(v, "cluster.nodeNames")
			if !strings.Contains(c.NodeNames, "{n}") && !strings.Contains(c.NodeNames, "{i}") {
				p.errorf(v, "cluster.nodeNames %q must contain {n} or {i}", c.NodeNames, "e.g. node-{n} or {zone}-{i}")
			}
		case "node":
			p.fields(v, "cluster.node", shapeKeys, func(k string, sv *yaml.Node) { p.shapeField(k, sv, "cluster.node", &c.Node) })
		case "zones":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "cluster.zones must be a list", "")
				return
			}
			for i, zn := range v.Content {
				z := ZoneSpec{Pos: p.pos(zn), Nodes: -1}
				where := fmt.Sprintf("cluster.zones[%d]", i)
				p.fields(zn, where, append([]string{"name", "nodes", "names"}, shapeKeys...), func(k string, zv *yaml.Node) {
					switch k {
					case "name":
						z.Name = p.str(zv, where+".name")
					case "nodes":
						// the object budget bounds the total (budgetCheck)
						z.Nodes = int(p.integer(zv, where+".nodes", 0, math.MaxInt32))
					case "names":
						z.Names = p.strings(zv, where+".names")
					default:
						p.shapeField(k, zv, where, &z.NodeShape)
					}
				})
				if z.Name == "" {
					p.errorf(zn, "%s needs a name", where, "")
				}
				c.Zones = append(c.Zones, z)
			}
		}
	})
}

func (p *scenarioParser) schedulerSpec(n *yaml.Node, s *SchedulerSpec) {
	p.fields(n, "scheduler", []string{"tieBreak", "defaultConstraints", "defaultingType", percentageKey, configFileKey}, func(k string, v *yaml.Node) {
		switch k {
		case configFileKey:
			s.ConfigFile, s.ConfigFilePos = p.str(v, "scheduler."+configFileKey), p.pos(v)
		case percentageKey:
			s.PercentageOfNodesToScore = p.percentageOfNodesToScore(v)
		case "tieBreak":
			s.TieBreak = p.str(v, "scheduler.tieBreak")
			if s.TieBreak != "random" && s.TieBreak != "name" {
				p.errorf(v, "scheduler.tieBreak must be random or name, not %q", s.TieBreak, "")
			}
		case "defaultingType":
			s.DefaultingType = p.str(v, "scheduler.defaultingType")
			if s.DefaultingType != "System" && s.DefaultingType != "List" {
				p.errorf(v, "scheduler.defaultingType must be System or List, not %q", s.DefaultingType, "")
			}
		case "defaultConstraints":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "scheduler.defaultConstraints must be a list", "")
				return
			}
			for i, cn := range v.Content {
				where := fmt.Sprintf("scheduler.defaultConstraints[%d]", i)
				var dc DefaultConstraint
				p.fields(cn, where, []string{"maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector"}, func(k string, cv *yaml.Node) {
					switch k {
					case "maxSkew":
						dc.MaxSkew = int32(p.integer(cv, where+".maxSkew", 1, 1<<31-1))
					case "topologyKey":
						dc.TopologyKey = p.str(cv, where+".topologyKey")
					case "whenUnsatisfiable":
						dc.WhenUnsatisfiable = p.str(cv, where+".whenUnsatisfiable")
						if dc.WhenUnsatisfiable != api.DoNotSchedule && dc.WhenUnsatisfiable != api.ScheduleAnyway {
							p.errorf(cv, "%s.whenUnsatisfiable must be DoNotSchedule or ScheduleAnyway", where, "")
						}
					case "labelSelector":
						p.errorf(cv, "%s: default constraints may not set labelSelector", where, "the scheduler derives the selector from the pod's owner")
					}
				})
				if dc.MaxSkew == 0 || dc.TopologyKey == "" || dc.WhenUnsatisfiable == "" {
					p.errorf(cn, "%s needs maxSkew, topologyKey and whenUnsatisfiable", where, "")
				}
				s.DefaultConstraints = append(s.DefaultConstraints, dc)
			}
		}
	})
	if len(s.DefaultConstraints) > 0 && s.DefaultingType == "" {
		s.DefaultingType = "List"
	}
}

func (p *scenarioParser) kubelet(n *yaml.Node, k *KubeletSpec) {
	p.fields(n, "kubelet", []string{"evictionHard", "evictionSoft", "evictionSoftGracePeriod", "evictionMaxPodGracePeriod", "startupDelay"}, func(key string, v *yaml.Node) {
		switch key {
		case "evictionHard", "evictionSoft":
			m := p.stringMap(v, "kubelet."+key)
			for sig, q := range m {
				if sig != "memory.available" {
					p.errorf(v, "kubelet.%s: signal %q is not modelled", key, sig, "the lab models memory.available")
				}
				if pct, ok := strings.CutSuffix(q, "%"); ok {
					// checked here, with the file's position, as the
					// session checks it (evictionConfig); NaN fails too
					var f float64
					if _, err := fmt.Sscanf(pct, "%g", &f); err != nil || !(f > 0 && f <= 100) {
						p.errorf(v, "kubelet.%s[%s]: %q is not a percentage in (0, 100]", key, sig, q, "give a percentage such as \"10%\", or a quantity such as 500Mi")
					}
				} else if _, err := api.ParseQuantity(q); err != nil {
					p.errorf(v, "kubelet.%s[%s]: %v", key, sig, err, "")
				}
			}
			if key == "evictionHard" {
				k.EvictionHard = m
			} else {
				k.EvictionSoft = m
			}
		case "evictionSoftGracePeriod":
			k.EvictionSoftGracePeriod = map[string]time.Duration{}
			for sig, d := range p.stringMap(v, "kubelet.evictionSoftGracePeriod") {
				dur, err := time.ParseDuration(d)
				if err != nil {
					p.errorf(v, "kubelet.evictionSoftGracePeriod[%s]: bad duration %q", sig, d, "")
				}
				k.EvictionSoftGracePeriod[sig] = dur
			}
		case "evictionMaxPodGracePeriod":
			k.EvictionMaxPodGracePeriod = p.integer(v, "kubelet.evictionMaxPodGracePeriod", 0, 1<<31)
		case "startupDelay":
			k.StartupDelay = p.duration(v, "kubelet.startupDelay")
		}
	})
	for sig := range k.EvictionSoft {
		if _, ok := k.EvictionSoftGracePeriod[sig]; !ok {
			p.errorf(n, "kubelet.evictionSoft[%s] needs a grace period in evictionSoftGracePeriod", sig, "as the kubelet requires")
		}
	}
}

func (p *scenarioParser) timeline(n *yaml.Node, s *Scenario) {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "timeline must be a list of {at: 10s, do: COMMAND}", "")
		return
	}
	var last time.Duration
	for i, en := range n.Content {
		where := fmt.Sprintf("timeline[%d]", i)
		e := TimelineEntry{Pos: p.pos(en)}
		hasAt := false
		p.fields(en, where, []string{"at", "do", "apply", "lane"}, func(k string, v *yaml.Node) {
			switch k {
			case "lane":
				e.Lane = p.str(v, where+".lane")
				if e.Lane != LaneA && e.Lane != LaneB {
					p.errorf(v, "%s.lane %q: a lane is a or b", where, e.Lane, "drop lane: for a command both lanes ran")
				}
			case "at":
				e.At = p.instant(v, where+".at")
				hasAt = true
			case "do":
				e.Do = p.command(v, where+".do")
				if strings.HasPrefix(e.Do, "@") {
					p.errorf(v, "%s.do: a timeline entry names its lane with lane: a|b, not @", where, "")
				}
			case "apply":
				manifestText := p.str(v, where+".apply")
				if _, err := manifest.Load(fmt.Sprintf("%s:%d (inline)", p.file, v.Line), []byte(manifestText), manifest.Options{}); err != nil {
					p.errorf(v, "%s.apply: %v", where, err, "")
				}
				e.Do = command.Apply{Inline: manifestText}.String()
			}
		})
		if !hasAt {
			p.errorf(en, "%s needs at: (a virtual time such as 30s)", where, "")
		}
		if e.Do == "" {
			p.errorf(en, "%s needs do: COMMAND or apply: MANIFEST", where, "")
		}
		if e.At < last {
			p.errorf(en, "%s: at %s comes before the previous entry (%s)", where, e.At, last, "list the timeline in time order")
		}
		last = e.At
		s.Timeline = append(s.Timeline, e)
	}
}

func (p *scenarioParser) lesson(n *yaml.Node) *Lesson {
	l := &Lesson{}
	step := int64(1)
	p.fields(n, "lesson", []string{"steps", "step"}, func(k string, v *yaml.Node) {
		if k == "step" {
			step = p.integer(v, "lesson.step", 1, 1<<20)
			return
		}
		if v.Kind != yaml.SequenceNode {
			p.errorf(v, "lesson.steps must be a list", "")
			return
		}
		for i, sn := range v.Content {
			where := fmt.Sprintf("lesson.steps[%d]", i)
			st := Step{Pos: p.pos(sn)}
			solutionGiven := false
			p.fields(sn, where, []string{"title", "text", "do", "checks", "solution"}, func(k string, sv *yaml.Node) {
				switch k {
				case "title":
					st.Title = p.str(sv, where+".title")
				case "text":
					st.Text = p.str(sv, where+".text")
				case "do":
					st.Do, st.DoPos = p.commands(sv, where+".do")
				case "solution":
					st.Solution, st.SolutionPos = p.commands(sv, where+".solution")
					solutionGiven = true
				case "checks":
					st.Checks = p.checks(sv, where+".checks")
				}
			})
			if st.Title == "" {
				p.errorf(sn, "%s needs a title", where, "")
			}
			if !solutionGiven {
				st.Solution, st.SolutionPos = st.Do, st.DoPos
			}
			l.Steps = append(l.Steps, st)
		}
	})
	if len(l.Steps) == 0 {
		p.errorf(n, "lesson needs at least one step", "")
	}
	if int(step) > len(l.Steps) && len(l.Steps) > 0 {
		p.errorf(n, "lesson.step %d: the lesson has %d steps", step, len(l.Steps), "")
	}
	l.Step = max(int(step), 1) - 1
	return l
}

func (p *scenarioParser) checks(n *yaml.Node, where string) []StepCheck {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list", where, "")
		return nil
	}
	var out []StepCheck
	for i, cn := range n.Content {
		c := StepCheck{Pos: p.pos(cn)}
		w := fmt.Sprintf("%s[%d]", where, i)
		var exprNode *yaml.Node
		if cn.Kind == yaml.ScalarNode {
			c.Expr, exprNode = cn.Value, cn
		} else {
			p.fields(cn, w, []string{"check", "hint"}, func(k string, v *yaml.Node) {
				switch k {
				case "check":
					c.Expr, exprNode = p.str(v, w+".check"), v
				case "hint":
					c.Hint = p.str(v, w+".hint")
				}
			})
		}
		if exprNode == nil {
			p.errorf(cn, "%s needs check: EXPRESSION", w, "")
			continue
		}
		chk, err := check.Parse(c.Expr)
		if err != nil {
			p.errorf(exprNode, "%s: %v", w, err, "functions are listed by `podlab help checks`")
		}
		c.parsed = chk
		out = append(out, c)
	}
	return out
}
