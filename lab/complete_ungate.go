package lab

import "slices"

// ungateCandidates completes `ungate pod NAME [GATE]...`: first the pods
// that still have scheduling gates, then the gates of the named pod that
// the line does not name yet.
func (s *Session) ungateCandidates(args []string, pos int) []string {
	var out []string
	if pos == 0 {
		for _, p := range s.eng.Pods() {
			if len(p.Spec.SchedulingGates) > 0 {
				out = append(out, p.Name)
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
