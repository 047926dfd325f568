package lab

import (
	"sort"
	"strings"

	"podlab.dev/podlab/lab/command"
)

// Complete returns the candidates for the last word of a partial command
// line (the palette's tab completion): verbs, node and zone names, object
// references, pod names, label keys, flags and spread fields. start is the
// byte offset where the completed word begins.
func (s *Session) Complete(line string) (start int, candidates []string) {
	start = strings.LastIndexAny(line, " \t") + 1
	cur := line[start:]
	words := strings.Fields(line[:start])
	filter := func(all []string) []string {
		var out []string
		seen := map[string]bool{}
		for _, c := range all {
			if strings.HasPrefix(c, cur) && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
		sort.Strings(out)
		return out
	}
	verbs := command.Verbs()
	if len(words) == 0 {
		var firsts []string
		for _, v := range verbs {
			firsts = append(firsts, strings.Fields(v.Name)[0])
		}
		return start, filter(firsts)
	}
	var spec *command.VerbInfo
	used := 0
	for i := range verbs {
		parts := strings.Fields(verbs[i].Name)
		if len(words) >= len(parts) && strings.EqualFold(strings.Join(words[:len(parts)], " "), verbs[i].Name) {
			if spec == nil || len(parts) > used {
				spec, used = &verbs[i], len(parts)
			}
		}
	}
	if spec == nil {
		// second word of a two-word verb
		var seconds []string
		for _, v := range verbs {
			parts := strings.Fields(v.Name)
			if len(parts) == 2 && strings.EqualFold(parts[0], words[0]) && len(words) == 1 {
				seconds = append(seconds, parts[1])
			}
		}
		return start, filter(seconds)
	}
	if strings.HasPrefix(cur, "-") {
		var flags []string
		for _, f := range spec.Flags {
			flags = append(flags, "--"+f)
		}
		return start, filter(flags)
	}
	pos := 0
	for _, w := range words[used:] {
		if !strings.HasPrefix(w, "-") {
			pos++
		}
	}
	// Verbs whose node argument may be written "node NAME".
	if pos > 0 && len(words) > used && words[used] == "node" {
		pos--
	}
	if len(spec.Args) == 0 {
		return start, nil
	}
	kind := spec.Args[min(pos, len(spec.Args)-1)]
	if spec.Name == "set scheduler" {
		return start, filter(schedulerCandidates(words[used:])) // complete_scheduler.go
	}
	if spec.Name == "rollout" && pos == 0 {
		return start, filter([]string{"restart", "undo", "status", "pause", "resume"})
	}
	if spec.Name == "ungate pod" {
		return start, filter(s.ungateCandidates(words[used:], pos)) // complete_ungate.go
	}
	if spec.Name == "break pod" && pos == 1 {
		return start, filter([]string{"readiness", "liveness"})
	}
	return start, filter(s.argCandidates(kind, spec.Name))
}

func (s *Session) argCandidates(kind command.ArgKind, verb string) []string {
	switch kind {
	case command.ArgNode:
		return s.objectNames("node")
	case command.ArgZone:
		return s.zones()
	case command.ArgObject:
		var out []string
		for _, w := range s.Workloads() {
			if w.Kind != "pods" {
				out = append(out, w.Ref())
			}
		}
		if verb == "delete" || verb == "usage" {
			for _, p := range s.eng.Pods() {
				if !p.IsTerminal() {
					out = append(out, "pod/"+p.Name)
				}
			}
		}
		return out
	case command.ArgPod:
		var out []string
		for _, p := range s.eng.Pods() {
			out = append(out, p.Name)
		}
		return out
	case command.ArgLabel, command.ArgTaint:
		seen := map[string]bool{}
		var out []string
		for _, n := range s.eng.Nodes() {
			for k, v := range n.Labels {
				if kind == command.ArgLabel && !seen[k] {
					seen[k] = true
					out = append(out, k+"="+v, k+"-")
				}
			}
			for _, t := range n.Spec.Taints {
				if kind == command.ArgTaint && !seen[t.Key] {
					seen[t.Key] = true
					out = append(out, t.Key+"-")
				}
			}
		}
		if kind == command.ArgTaint {
			out = append(out, "dedicated=gpu:NoSchedule", "spot=true:PreferNoSchedule", "maintenance=true:NoExecute")
		}
		return out
	case command.ArgClass:
		var out []string
		for _, pc := range s.eng.PriorityClasses() {
			out = append(out, pc.Name)
		}
		return out
	case command.ArgField:
		if verb == "pressure" {
			return []string{"memory=90%", "memory=95%", "memory=off"}
		}
		if verb == "usage" {
			return []string{"memory=150%", "memory=1Gi"}
		}
		var out []string
		for _, f := range command.SpreadFields() {
			out = append(out, f+"=")
		}
		return out
	case command.ArgDuration:
		return []string{"10s", "30s", "1m", "5m", "10m"}
	}
	return nil
}
