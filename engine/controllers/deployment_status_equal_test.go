package controllers

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestDeploymentStatusEqualIsDeepEqual: deploymentStatusEqual answers as
// reflect.DeepEqual on random pairs of statuses that differ in one field
// at most (every scalar, nil/empty/longer Conditions, each Condition
// field, nil/equal/different CollisionCount).
func TestDeploymentStatusEqualIsDeepEqual(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	cond := func() Condition {
		return Condition{Type: []string{"Available", "Progressing"}[r.IntN(2)], Status: "True", Reason: "R", Message: "m",
			LastUpdateTime: 5, LastTransitionTime: 3}
	}
	equal, differ := 0, 0
	for n := 0; n < 20000; n++ {
		a := DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2,
			UnavailableReplicas: 1, TerminatingReplicas: 1}
		switch r.IntN(3) {
		case 0:
			a.Conditions = nil
		case 1:
			a.Conditions = []Condition{}
		default:
			a.Conditions = []Condition{cond(), cond()}
		}
		if r.IntN(2) == 0 {
			c := int32(r.IntN(2))
			a.CollisionCount = &c
		}
		b := a
		b.Conditions = append([]Condition(nil), a.Conditions...)
		if a.Conditions != nil && len(a.Conditions) == 0 {
			b.Conditions = []Condition{}
		}
		if a.CollisionCount != nil {
			c := *a.CollisionCount
			b.CollisionCount = &c
		}
		switch r.IntN(16) {
		case 0:
			b.ObservedGeneration++
		case 1:
			b.Replicas++
		case 2:
			b.UpdatedReplicas++
		case 3:
			b.ReadyReplicas++
		case 4:
			b.AvailableReplicas++
		case 5:
			b.UnavailableReplicas++
		case 6:
			b.TerminatingReplicas++
		case 7:
			if b.Conditions == nil {
				b.Conditions = []Condition{}
			} else {
				b.Conditions = nil
			}
		case 8:
			b.Conditions = append(b.Conditions, cond())
		case 9:
			if len(b.Conditions) > 0 {
				i := r.IntN(len(b.Conditions))
				switch r.IntN(6) {
				case 0:
					b.Conditions[i].Type += "x"
				case 1:
					b.Conditions[i].Status = "False"
				case 2:
					b.Conditions[i].Reason += "x"
				case 3:
					b.Conditions[i].Message += "x"
				case 4:
					b.Conditions[i].LastUpdateTime++
				default:
					b.Conditions[i].LastTransitionTime++
				}
			}
		case 10:
			if b.CollisionCount == nil {
				c := int32(0)
				b.CollisionCount = &c
			} else {
				b.CollisionCount = nil
			}
		case 11:
			if b.CollisionCount != nil {
				c := *b.CollisionCount + 1
				b.CollisionCount = &c
			}
		}
		want := reflect.DeepEqual(a, b)
		if got := deploymentStatusEqual(a, b); got != want {
			t.Fatalf("case %d: deploymentStatusEqual(%+v, %+v) = %v, DeepEqual %v", n, a, b, got, want)
		}
		if want {
			equal++
		} else {
			differ++
		}
	}
	if equal < 2000 || differ < 2000 {
		t.Fatalf("%d equal and %d different pairs: the generator is too narrow", equal, differ)
	}
}
