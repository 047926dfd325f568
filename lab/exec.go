package lab

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"podlab.dev/podlab/engine"
	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/controllers"
	"podlab.dev/podlab/lab/command"
	"podlab.dev/podlab/lab/manifest"
)

// exec applies a parsed command to the engine (no history bookkeeping).
func (s *Session) exec(c command.Command) (string, error) {
	switch c := c.(type) {
	case command.AddZone:
		return s.addZone(c)
	case command.AddNode:
		return s.addNode(c)
	case command.Remove:
		return s.remove(c)
	case command.Label:
		return s.labelNode(c)
	case command.Taint:
		return s.taintNode(c)
	case command.Cordon:
		return s.cordon(c)
	case command.Drain:
		return s.drain(c)
	case command.Scale:
		return s.scale(c)
	case command.Apply:
		return s.apply(c)
	case command.Delete:
		return s.delete(c)
	case command.Rollout:
		return s.rollout(c)
	case command.SetSpread:
		return s.setSpread(c)
	case command.SetPriority:
		return s.setPriority(c)
	case command.SetScheduler:
		return s.setScheduler(c)
	case command.Pressure:
		return s.pressure(c)
	case command.Usage:
		return s.usage(c)
	case command.Autoscale:
		return s.autoscale(c)
	case command.Advance:
		if err := engine.CheckClock(s.eng.Now(), c.D); err != nil {
			return "", fmt.Errorf("advance %s: %w", c.D, err)
		}
		// the clock of the state being changed (Advance would play a
		// rewound session forward instead)
		return fmt.Sprintf("advanced to %s", s.eng.Now().Add(c.D).Clock()), s.advanceTo(s.eng.Now().Add(max(0, c.D)))
	case command.Seed:
		return s.reseed(c.N)
	case command.Fork:
		return "", fmt.Errorf("fork splits the whole lab into two lanes: press F in the terminal lab, or use podlab compare headless")
	case command.Deschedule:
		return s.deschedule(c)
	case command.ProbeFault:
		return s.probeFault(c)
	case command.Ungate:
		return s.ungate(c)
	case command.NodeHealth:
		return s.nodeHealth(c)
	}
	return "", fmt.Errorf("%s: not available here", c.Verb())
}

// needNode checks that a node exists, listing the nodes that do if not.
func (s *Session) needNode(name string) error {
	if s.eng.Node(name) != nil {
		return nil
	}
	var names []string
	for _, n := range s.eng.Nodes() {
		names = append(names, n.Name)
	}
	return fmt.Errorf("unknown node %q; %s", name, nodeRange(names))
}

// nodeRange prints "nodes are node-1…node-6" for numbered names.
func nodeRange(names []string) string {
	if len(names) > 3 {
		return fmt.Sprintf("nodes are %s…%s (%d)", names[0], names[len(names)-1], len(names))
	}
	return summarizeNames("node", names)
}

func (s *Session) zoneLabel() string {
	if s.file.Scenario != nil {
		return s.file.Scenario.Cluster.zoneLabel()
	}
	return api.LabelTopologyZone
}

func (s *Session) zones() []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range s.eng.Nodes() {
		if z, ok := n.Labels[s.zoneLabel()]; ok && !seen[z] {
			seen[z] = true
			out = append(out, z)
		}
	}
	return out
}

func shapeOf(sh command.Shape, labels []command.KV, taints []command.TaintSpec) NodeShape {
	out := NodeShape{CPU: sh.CPU, Memory: sh.Memory, Pods: sh.Pods}
	if len(labels) > 0 {
		out.Labels = map[string]string{}
		for _, kv := range labels {
			out.Labels[kv.Key] = kv.Value
		}
	}
	for _, t := range taints {
		out.Taints = append(out.Taints, t.String())
	}
	return out
}

// nextNodeName picks the next free generated name, as if the names in
// picked (chosen for nodes not yet added) were nodes already.
func (s *Session) nextNodeName(zone string, i int, picked map[string]bool) string {
	pattern := DefaultNodeNames
	if s.file.Scenario != nil && s.file.Scenario.Cluster.NodeNames != "" {
		pattern = s.file.Scenario.Cluster.NodeNames
	}
	for n := s.eng.NumNodes() + len(picked) + 1; ; n++ {
		name := nodeNameFrom(pattern, n, i, zone)
		if s.eng.Node(name) == nil && !picked[name] {
			return name
		}
		if !strings.Contains(pattern, "{n}") {
			i++
		}
	}
}

func (s *Session) addZone(c command.AddZone) (string, error) {
	for _, z := range s.zones() {
		if z == c.Name {
			return "", fmt.Errorf("zone %q exists; add nodes to it with `add node NAME --zone %s`", c.Name, c.Name)
		}
	}
	count := c.Nodes
	if count == 0 {
		count = 1
	}
	if err := s.nodesBudget(c.Name, count); err != nil {
		return "", err
	}
	shape := shapeOf(c.Shape, c.Labels, c.Taints)
	// the zone's nodes register together and the engine settles once
	// (Engine.AddNodes): a DaemonSet then syncs once, not once per node
	var names []string
	nodes := make([]*api.Node, 0, count)
	picked := make(map[string]bool, count)
	for i := 1; i <= count; i++ {
		name := s.nextNodeName(c.Name, i, picked)
		n, err := NewNode(name, s.zoneLabel(), c.Name, shape)
		if err != nil {
			return "", err
		}
		picked[name] = true
		nodes = append(nodes, n)
		names = append(names, name)
	}
	if err := s.eng.AddNodes(nodes); err != nil {
		return "", err
	}
	return fmt.Sprintf("zone %s added with %s", c.Name, strings.Join(names, ", ")), nil
}

func (s *Session) addNode(c command.AddNode) (string, error) {
	if s.eng.Node(c.Name) != nil {
		return "", fmt.Errorf("node %q exists", c.Name)
	}
	n, err := NewNode(c.Name, s.zoneLabel(), c.Zone, shapeOf(c.Shape, c.Labels, c.Taints))
	if err != nil {
		return "", err
	}
	if err := s.eng.AddNode(n); err != nil {
		return "", err
	}
	return fmt.Sprintf("node/%s added to %s", c.Name, c.Zone), nil
}

func (s *Session) remove(c command.Remove) (string, error) {
	if c.Kind == "node" {
		if err := s.needNode(c.Name); err != nil {
			return "", err
		}
		return fmt.Sprintf("node/%s removed", c.Name), s.eng.RemoveNode(c.Name)
	}
	var names []string
	for _, n := range s.eng.Nodes() {
		if n.Labels[s.zoneLabel()] == c.Name {
			names = append(names, n.Name)
		}
	}
	if len(names) == 0 {
		return "", fmt.Errorf("unknown zone %q; %s", c.Name, summarizeNames("zone", s.zones()))
	}
	for _, n := range names {
		if err := s.eng.RemoveNode(n); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("zone %s removed (%s)", c.Name, strings.Join(names, ", ")), nil
}

// controllerKind maps the command language's kinds to the controllers'.
func controllerKind(k string) string {
	switch k {
	case "deployment":
		return controllers.KindDeployment
	case "replicaset":
		return controllers.KindReplicaSet
	case "replicationcontroller":
		return controllers.KindReplicationController
	case "statefulset":
		return controllers.KindStatefulSet
	case "daemonset":
		return controllers.KindDaemonSet
	case "job":
		return controllers.KindJob
	case "cronjob":
		return controllers.KindCronJob
	}
	return k
}

// objectMetas lists the objects of a kind, sorted by namespace/name.
func (s *Session) objectMetas(kind string) []*api.ObjectMeta {
	var out []*api.ObjectMeta
	m := s.ctl.Manager
	switch kind {
	case "deployment":
		for _, d := range m.Deployments() {
			out = append(out, &d.ObjectMeta)
		}
	case "replicaset":
		for _, r := range m.ReplicaSets() {
			out = append(out, &r.ObjectMeta)
		}
	case "replicationcontroller":
		for _, r := range m.ReplicationControllers() {
			out = append(out, &r.ObjectMeta)
		}
	case "statefulset":
		for _, r := range m.StatefulSets() {
			out = append(out, &r.ObjectMeta)
		}
	case "daemonset":
		for _, r := range m.DaemonSets() {
			out = append(out, &r.ObjectMeta)
		}
	case "job":
		for _, r := range m.Jobs() {
			out = append(out, &r.ObjectMeta)
		}
	case "cronjob":
		for _, r := range m.CronJobs() {
			out = append(out, &r.ObjectMeta)
		}
	case "pod":
		for _, p := range s.eng.Pods() {
			out = append(out, &p.ObjectMeta)
		}
	case "pdb":
		for _, p := range s.eng.PDBs() {
			out = append(out, &p.ObjectMeta)
		}
	case "node":
		for _, n := range s.eng.Nodes() {
			out = append(out, &n.ObjectMeta)
		}
	case "priorityclass":
		for _, pc := range s.eng.PriorityClasses() {
			out = append(out, &pc.ObjectMeta)
		}
	case "hpa":
		for _, h := range m.HPAs() {
			out = append(out, &h.ObjectMeta)
		}
	}
	return out
}

// objectNames lists objects of a kind as namespace/name (the name alone
// for nodes and priority classes).
func (s *Session) objectNames(kind string) []string {
	var out []string
	for _, o := range s.objectMetas(kind) {
		out = append(out, o.Key())
	}
	return out
}

// hasObject reports whether the namespaced object ns/name of a kind
// exists (objectNames has "ns/name"), by a direct lookup.
func (s *Session) hasObject(kind, ns, name string) bool {
	if ns == "" {
		return false
	}
	m := s.ctl.Manager
	var o *api.ObjectMeta
	switch kind {
	case "deployment":
		if d := m.Deployment(ns, name); d != nil {
			o = &d.ObjectMeta
		}
	case "replicaset":
		if r := m.ReplicaSet(ns, name); r != nil {
			o = &r.ObjectMeta
		}
	case "statefulset":
		if r := m.StatefulSet(ns, name); r != nil {
			o = &r.ObjectMeta
		}
	case "daemonset":
		if r := m.DaemonSet(ns, name); r != nil {
			o = &r.ObjectMeta
		}
	case "job":
		if r := m.Job(ns, name); r != nil {
			o = &r.ObjectMeta
		}
	case "cronjob":
		if r := m.CronJob(ns, name); r != nil {
			o = &r.ObjectMeta
		}
	case "pod":
		if p := s.eng.Pod(ns + "/" + name); p != nil {
			o = &p.ObjectMeta
		}
	case "pdb":
		for _, b := range s.eng.PDBs() { // a handful, and no getter
			if b.Namespace == ns && b.Name == name {
				o = &b.ObjectMeta
			}
		}
	}
	return o != nil && o.Namespace == ns && o.Name == name
}

// lookup is resolve without the error text: ok is false when the name is
// unknown or, written bare, in several namespaces (then listed in several
// as namespace/name).
func (s *Session) lookup(kind, name string) (ns, n string, several []string, ok bool) {
	if ns, n, qualified := strings.Cut(name, "/"); qualified {
		return ns, n, nil, s.hasObject(kind, ns, n)
	}
	if s.hasObject(kind, "default", name) {
		return "default", name, nil, true
	}
	var found []*api.ObjectMeta
	for _, o := range s.objectMetas(kind) {
		if o.Namespace != "" && o.Name == name {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 0:
		return "", "", nil, false
	case 1:
		return found[0].Namespace, found[0].Name, nil, true
	}
	for _, o := range found {
		several = append(several, o.Key())
	}
	return "", "", several, false
}

// resolve finds a namespaced object by name: "ns/name" is exact; a bare
// name is looked up in "default", else in the one namespace that has it.
// Every name of the kind is listed only for the error.
func (s *Session) resolve(kind, name string) (string, string, error) {
	ns, n, several, ok := s.lookup(kind, name)
	switch {
	case ok:
		return ns, n, nil
	case len(several) > 1:
		return "", "", fmt.Errorf("%s %q exists in several namespaces (%s); write NAMESPACE/NAME", kind, name, strings.Join(several, ", "))
	}
	return "", "", fmt.Errorf("unknown %s %q; %s", kind, name, summarizeNames(kind, s.objectNames(kind)))
}

func (s *Session) apply(c command.Apply) (string, error) {
	data := []byte(c.Inline)
	name := "inline manifest"
	if c.Source != "" {
		name = c.Source
	}
	if c.File != "" {
		b, err := s.readRelative(c.File)
		if err != nil {
			return "", err
		}
		data, name = b, filepath.Base(c.File)
	}
	objs, err := manifest.Load(name, data, manifest.Options{})
	if err != nil {
		return "", err
	}
	if err := budgetCheckObjects(objs, int64(s.eng.ObjectCount()), s.nodeLabels(objs), int64(s.eng.MaxObjects())); err != nil {
		return "", err
	}
	return s.applyObjects(objs)
}

// partialApplyError is an apply that failed after changing some objects;
// the session undoes those (Session.Apply), so a failed command changes
// nothing.
type partialApplyError struct {
	done []string
	err  error
}

func (e *partialApplyError) Error() string {
	return e.err.Error() + "; nothing was applied (undone: " + strings.Join(e.done, ", ") + ")"
}

func (e *partialApplyError) Unwrap() error { return e.err }

// applyObjects creates what is new and updates workloads that exist (as
// kubectl apply would: a changed template starts a rollout).
func (s *Session) applyObjects(objs *manifest.Objects) (string, error) {
	var done []string
	for _, o := range objs.Order {
		var err error
		var what string
		switch v := o.(type) {
		case *api.Namespace:
			err, what = s.eng.AddNamespace(v), "namespace/"+v.Name
		case *api.PriorityClass:
			err, what = s.eng.AddPriorityClass(v), "priorityclass/"+v.Name
		case *api.Node:
			if s.eng.Node(v.Name) != nil {
				n := v
				err = s.eng.UpdateNode(v.Name, func(cur *api.Node) { cur.Labels, cur.Spec = n.Labels, n.Spec })
				what = "node/" + v.Name + " configured"
			} else {
				api.DefaultNode(v)
				err, what = s.eng.AddNode(v), "node/"+v.Name+" created"
			}
		case *api.PodDisruptionBudget:
			err, what = s.eng.AddPDB(v), "poddisruptionbudget/"+v.Name
		case *api.Pod:
			if old := s.eng.Pod(v.Key()); old != nil {
				err = podExistsError(old, v) // exec_ungate.go
			} else {
				err, what = s.eng.CreatePod(v), "pod/"+v.Name+" created"
			}
		case *api.Deployment:
			spec := v.Spec
			what, err = s.applyWorkload("deployment", v.Name, s.ctl.Deployment(v.Namespace, v.Name) != nil,
				func(m *controllers.Manager) error {
					return m.UpdateDeployment(v.Namespace, v.Name, func(cur *api.DeploymentSpec) { *cur = spec })
				},
				func(m *controllers.Manager) error { _, e := m.AddDeployment(v); return e })
		case *api.StatefulSet:
			spec := v.Spec
			what, err = s.applyWorkload("statefulset", v.Name, s.ctl.StatefulSet(v.Namespace, v.Name) != nil,
				func(m *controllers.Manager) error {
					return m.UpdateStatefulSet(v.Namespace, v.Name, func(cur *api.StatefulSetSpec) { *cur = spec })
				},
				func(m *controllers.Manager) error { _, e := m.AddStatefulSet(v); return e })
		case *api.DaemonSet:
			spec := v.Spec
			what, err = s.applyWorkload("daemonset", v.Name, s.ctl.DaemonSet(v.Namespace, v.Name) != nil,
				func(m *controllers.Manager) error {
					return m.UpdateDaemonSet(v.Namespace, v.Name, func(cur *api.DaemonSetSpec) { *cur = spec })
				},
				func(m *controllers.Manager) error { _, e := m.AddDaemonSet(v); return e })
		case *api.ReplicaSet:
			err = s.ctl.Do(func(m *controllers.Manager) error { _, e := m.AddReplicaSet(v); return e })
			what = "replicaset/" + v.Name + " created"
		case *api.ReplicationController:
			err = s.ctl.Do(func(m *controllers.Manager) error { _, e := m.AddReplicationController(v); return e })
			what = "replicationcontroller/" + v.Name + " created"
		case *api.Job:
			err = s.ctl.Do(func(m *controllers.Manager) error { _, e := m.AddJob(v); return e })
			what = "job/" + v.Name + " created"
		case *api.CronJob:
			err = s.ctl.Do(func(m *controllers.Manager) error { _, e := m.AddCronJob(v); return e })
			what = "cronjob/" + v.Name + " created"
		case *api.HorizontalPodAutoscaler:
			what, err = s.applyHPA(v)
		case *api.Service, *manifest.SchedulerConfiguration:
			what, err = s.applyScheduling(v) // exec_scheduler.go
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", objs.PosOf(o), err)
			if len(done) > 0 {
				err = &partialApplyError{done: done, err: err}
			}
			return "", err
		}
		done = append(done, what)
	}
	if len(done) == 0 {
		return "", fmt.Errorf("the manifest holds no objects the lab can apply")
	}
	return strings.Join(done, ", "), nil
}

// applyWorkload is kubectl apply for a kind the controllers own: an
// existing object gets the manifest's spec (update), a new one is created
// (add).
func (s *Session) applyWorkload(kind, name string, exists bool, update, add func(*controllers.Manager) error) (string, error) {
	if exists {
		return kind + "/" + name + " configured", s.ctl.Do(update)
	}
	return kind + "/" + name + " created", s.ctl.Do(add)
}

func (s *Session) delete(c command.Delete) (string, error) {
	switch c.Kind {
	case "node":
		return s.remove(command.Remove{Kind: "node", Name: c.Name})
	case "pod":
		ns, name, err := s.resolve("pod", c.Name)
		if err != nil {
			return "", err
		}
		grace := int64(-1)
		if c.GracePeriod != nil {
			grace = *c.GracePeriod
		}
		if err := s.eng.DeletePod(ns+"/"+name, engine.KubectlDeleteOptions(grace, c.Force)); err != nil {
			return "", err
		}
		return fmt.Sprintf("pod %q deleted", name), nil
	case "pdb":
		ns, name, err := s.resolve("pdb", c.Name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("poddisruptionbudget %q deleted", name), s.eng.RemovePDB(ns + "/" + name)
	case "priorityclass":
		return "", fmt.Errorf("priority classes cannot be deleted in the lab (pods resolved their priority at creation)")
	case "hpa":
		ns, name, err := s.resolve("hpa", c.Name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("horizontalpodautoscaler.autoscaling %q deleted", name), s.ctl.Do(func(m *controllers.Manager) error { return m.DeleteHPA(ns, name) })
	}
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	prop := controllers.PropagationBackground
	switch c.Cascade {
	case "orphan":
		prop = controllers.PropagationOrphan
	case "foreground":
		prop = controllers.PropagationForeground
	}
	if err := s.ctl.Do(func(m *controllers.Manager) error { return m.Delete(controllerKind(c.Kind), ns, name, prop) }); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %q deleted", c.Kind, name), nil
}

func (s *Session) rollout(c command.Rollout) (string, error) {
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	if c.Kind != "deployment" {
		switch c.Action {
		case "restart":
			now := controllers.WallClock(s.eng.Now()).Format(time.RFC3339)
			return fmt.Sprintf("%s/%s restarted", c.Kind, name), s.editTemplate(c.Kind, ns, name, func(t *api.PodTemplateSpec) {
				if t.Annotations == nil {
					t.Annotations = map[string]string{}
				}
				t.Annotations["kubectl.kubernetes.io/restartedAt"] = now
			})
		case "status":
			return s.workloadStatus(c.Kind, ns, name), nil
		}
		return "", fmt.Errorf("rollout %s is available for deployments only in the lab", c.Action)
	}
	switch c.Action {
	case "restart":
		return fmt.Sprintf("deployment/%s restarted", name), s.ctl.Do(func(m *controllers.Manager) error { return m.Restart(ns, name) })
	case "pause", "resume":
		return fmt.Sprintf("deployment/%s %sd", name, c.Action), s.ctl.Do(func(m *controllers.Manager) error { return m.Pause(ns, name, c.Action == "pause") })
	case "undo":
		var msg string
		err := s.ctl.Do(func(m *controllers.Manager) error {
			var e error
			msg, e = m.Undo(ns, name, c.ToRevision)
			return e
		})
		if err != nil {
			return "", err
		}
		if msg == "" {
			msg = fmt.Sprintf("deployment/%s rolled back", name)
		}
		return msg, nil
	case "status":
		return s.workloadStatus(c.Kind, ns, name), nil
	}
	return "", fmt.Errorf("unknown rollout action %q", c.Action)
}

// editTemplate edits the pod template of a workload (a rollout for
// Deployments, StatefulSets and DaemonSets).
func (s *Session) editTemplate(kind, ns, name string, edit func(*api.PodTemplateSpec)) error {
	switch kind {
	case "deployment":
		return s.ctl.Do(func(m *controllers.Manager) error {
			return m.UpdateDeployment(ns, name, func(spec *api.DeploymentSpec) { edit(&spec.Template) })
		})
	case "statefulset":
		return s.ctl.Do(func(m *controllers.Manager) error {
			return m.UpdateStatefulSet(ns, name, func(spec *api.StatefulSetSpec) { edit(&spec.Template) })
		})
	case "daemonset":
		return s.ctl.Do(func(m *controllers.Manager) error {
			return m.UpdateDaemonSet(ns, name, func(spec *api.DaemonSetSpec) { edit(&spec.Template) })
		})
	}
	return fmt.Errorf("%s templates cannot be edited in the lab; use deployment, statefulset or daemonset", kind)
}

func (s *Session) setSpread(c command.SetSpread) (string, error) {
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	var editErr error
	err = s.editTemplate(c.Kind, ns, name, func(t *api.PodTemplateSpec) {
		cs := append([]api.TopologySpreadConstraint(nil), t.Spec.TopologySpreadConstraints...)
		switch {
		case c.Delete:
			if c.Index >= len(cs) {
				editErr = fmt.Errorf("%s/%s has %d spread constraint(s); --remove %d is out of range", c.Kind, name, len(cs), c.Index)
				return
			}
			cs = append(cs[:c.Index], cs[c.Index+1:]...)
		case c.Add:
			sel := &api.LabelSelector{MatchLabels: copyMap(t.Labels)}
			delete(sel.MatchLabels, api.LabelPodTemplateHash)
			nc := api.TopologySpreadConstraint{MaxSkew: 1, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel}
			if editErr = applySpreadFields(&nc, c.Fields, s.zoneLabel()); editErr != nil {
				return
			}
			cs = append(cs, nc)
		default:
			if c.Index >= len(cs) {
				editErr = fmt.Errorf("%s/%s has %d spread constraint(s); use --add to add one", c.Kind, name, len(cs))
				return
			}
			cur := cs[c.Index]
			if editErr = applySpreadFields(&cur, c.Fields, s.zoneLabel()); editErr != nil {
				return
			}
			cs[c.Index] = cur
		}
		t.Spec.TopologySpreadConstraints = cs
	})
	if editErr != nil {
		return "", editErr
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/%s spread constraints updated (new rollout)", c.Kind, name), nil
}

func applySpreadFields(tc *api.TopologySpreadConstraint, p command.SpreadPatch, zoneLabel string) error {
	if p.MaxSkew != nil {
		tc.MaxSkew = *p.MaxSkew
	}
	if p.MinDomains != nil {
		v := *p.MinDomains
		tc.MinDomains = &v
	}
	if p.TopologyKey != nil {
		tc.TopologyKey = expandTopologyKey(*p.TopologyKey, zoneLabel)
	}
	if p.WhenUnsatisfiable != nil {
		tc.WhenUnsatisfiable = *p.WhenUnsatisfiable
	}
	if p.NodeAffinityPolicy != nil {
		v := *p.NodeAffinityPolicy
		tc.NodeAffinityPolicy = &v
	}
	if p.NodeTaintsPolicy != nil {
		v := *p.NodeTaintsPolicy
		tc.NodeTaintsPolicy = &v
	}
	if p.MatchLabelKeys != nil {
		tc.MatchLabelKeys = nil
		if len(p.MatchLabelKeys) > 0 {
			tc.MatchLabelKeys = append([]string(nil), p.MatchLabelKeys...)
		}
	}
	if p.LabelSelector != nil {
		tc.LabelSelector = &api.LabelSelector{MatchLabels: copyMap(p.LabelSelector)}
	}
	if tc.MinDomains != nil && tc.WhenUnsatisfiable != api.DoNotSchedule {
		return fmt.Errorf("minDomains can only be used with whenUnsatisfiable=DoNotSchedule (the API rejects it)")
	}
	return nil
}

// expandTopologyKey lets lessons write zone (the scenario's zone label) /
// hostname / region.
func expandTopologyKey(k, zoneLabel string) string {
	switch k {
	case "zone":
		return zoneLabel
	case "hostname":
		return api.LabelHostname
	case "region":
		return api.LabelTopologyRegion
	}
	return k
}

func (s *Session) setPriority(c command.SetPriority) (string, error) {
	if s.eng.PriorityClass(c.Class) == nil {
		var names []string
		for _, pc := range s.eng.PriorityClasses() {
			names = append(names, pc.Name)
		}
		return "", fmt.Errorf("no PriorityClass with name %s was found; %s", c.Class, summarizeNames("class", names))
	}
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	err = s.editTemplate(c.Kind, ns, name, func(t *api.PodTemplateSpec) {
		t.Spec.PriorityClassName = c.Class
		t.Spec.Priority = nil
		t.Spec.PreemptionPolicy = nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/%s now uses priority class %s (new rollout)", c.Kind, name, c.Class), nil
}

func (s *Session) usage(c command.Usage) (string, error) {
	if c.CPU != "" {
		return s.usageCPU(c)
	}
	if c.Kind == "pod" {
		ns, name, err := s.resolve("pod", c.Name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("pod/%s memory usage %s", name, c.Memory), s.eng.SetPodUsage(ns+"/"+name, c.Memory)
	}
	ns, name, err := s.resolve(c.Kind, c.Name)
	if err != nil {
		return "", err
	}
	pods := s.workloadPods(c.Kind, ns, name)
	if len(pods) == 0 {
		return "", fmt.Errorf("%s/%s has no pods", c.Kind, name)
	}
	for _, p := range pods {
		if err := s.eng.SetPodUsage(p.Key(), c.Memory); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%d pods of %s/%s use %s memory", len(pods), c.Kind, name, c.Memory), nil
}

func (s *Session) reseed(n int64) (string, error) {
	s.eng.Reseed(n)
	s.use(s.eng, s.ctl) // Reseed built a new scheduler
	s.seed = n
	return fmt.Sprintf("seed set to %d", n), nil
}

// readRelative reads a file named in a command, relative to the scenario
// file's directory.
func (s *Session) readRelative(path string) ([]byte, error) {
	if !filepath.IsAbs(path) && s.file.Dir != "" {
		path = filepath.Join(s.file.Dir, path)
	}
	b, _, err := ReadFile(path, nil)
	return b, err
}
