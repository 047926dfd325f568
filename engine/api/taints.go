package api

// ToleratesTaint reports whether the toleration tolerates the taint, as
// v1.Toleration.ToleratesTaint: effects must match unless the toleration's
// is empty; keys must match unless the toleration's is empty with
// operator Exists; Exists ignores values, Equal (or empty) compares them.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	}
	return false
}

// TolerationsTolerateTaint reports whether any toleration tolerates the taint.
func TolerationsTolerateTaint(tolerations []Toleration, taint *Taint) bool {
	for i := range tolerations {
		if tolerations[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// FindUntoleratedTaint returns the first taint accepted by the filter that
// no toleration tolerates, as v1helper.FindMatchingUntoleratedTaint.
func FindUntoleratedTaint(taints []Taint, tolerations []Toleration, filter func(*Taint) bool) (Taint, bool) {
	for i := range taints {
		if filter != nil && !filter(&taints[i]) {
			continue
		}
		if !TolerationsTolerateTaint(tolerations, &taints[i]) {
			return taints[i], true
		}
	}
	return Taint{}, false
}

// DoNotScheduleTaint is v1helper's DoNotScheduleTaintsFilterFunc, a
// FindUntoleratedTaint filter: only NoSchedule and NoExecute taints repel.
func DoNotScheduleTaint(t *Taint) bool {
	return t.Effect == TaintEffectNoSchedule || t.Effect == TaintEffectNoExecute
}

// String renders a taint as kubectl does ("key=value:Effect", "key:Effect").
func (t Taint) String() string {
	if t.Value == "" {
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}
