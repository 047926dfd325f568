package lab

import "slices"

// ungateCandidates completes `ungate pod NAME [GATE]...`: first the pods
// that still have scheduling gates, then the gates of the named pod that
// the line does not name yet.
func (s *Session) ungateCandidates(args []string, pos int) []string {
	var out []string
	if pos == 0 {
		// as the lookup finds them: a bare name in default or in the one
		// namespace that has it, else NAMESPACE/NAME
		pods := s.eng.Pods()
		namespaces := map[string]int{}
		inDefault := map[string]bool{}
		for _, p := range pods {
			namespaces[p.Name]++
			inDefault[p.Name] = inDefault[p.Name] || p.Namespace == "default"
		}
		for _, p := range pods {
			switch {
			case len(p.Spec.SchedulingGates) == 0:
			case p.Namespace == "default" || (namespaces[p.Name] == 1 && !inDefault[p.Name]):
				out = append(out, p.Name)
			default:
				out = append(out, p.Key())
			}
		}
		return out
	}
	if len(args) == 0 {
		return nil
	}
	ns, name, err := s.resolve("pod", trimPodPrefix(args[0]))
	if err != nil {
		return nil
	}
	p := s.eng.Pod(ns + "/" + name)
	if p == nil {
		return nil
	}
	for _, g := range p.Spec.SchedulingGates {
		if !slices.Contains(args[1:], g) {
			out = append(out, g)
		}
	}
	return out
}
