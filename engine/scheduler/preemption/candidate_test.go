package preemption

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
)

// victim builds a victim with a priority and a start second (0 ⇒ not started).
func victim(prio int32, start int) *framework.PodInfo {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("v%d-%d", prio, start), Namespace: "default"}}
	p.Spec.Priority = &prio
	if start > 0 {
		t := api.Time(time.Duration(start) * time.Second)
		p.Status.StartTime = &t
	}
	return framework.NewPodInfo(p)
}

func cand(node string, violations int, victims ...*framework.PodInfo) Candidate {
	return NewCandidate(node, victims, violations)
}

// Each criterion of pickOneNodeForPreemption decides once, in upstream's
// order (preemption.go pickOneNodeForPreemption).
func TestPickCriteria(t *testing.T) {
	cases := []struct {
		name  string
		cands []Candidate
		want  string
		by    Criterion
	}{
		{"single candidate", []Candidate{cand("a", 3, victim(9, 1))}, "a", ByOnlyCandidate},
		{"fewest PDB violations beats lower priority",
			[]Candidate{cand("a", 1, victim(1, 1)), cand("b", 0, victim(100, 1))}, "b", ByPDBViolations},
		{"lowest highest-victim priority beats fewer victims",
			[]Candidate{cand("a", 0, victim(50, 1)), cand("b", 0, victim(10, 1), victim(10, 2), victim(10, 3))}, "b", ByHighestPriority},
		{"smallest priority sum",
			[]Candidate{cand("a", 0, victim(10, 1), victim(5, 1)), cand("b", 0, victim(10, 1), victim(1, 1))}, "b", ByPrioritySum},
		{"negative priorities: fewer pods sum less (MaxInt32+1 shift)",
			[]Candidate{cand("a", 0, victim(-10, 1), victim(-10, 1)), cand("b", 0, victim(-10, 1))}, "b", ByPrioritySum},
		{"equal sums and counts: start time decides",
			[]Candidate{cand("a", 0, victim(10, 1), victim(10, 5)), cand("b", 0, victim(10, 2), victim(10, 3))}, "b", ByStartTime},
		{"latest start of the highest-priority victims",
			[]Candidate{cand("a", 0, victim(10, 5), victim(3, 99)), cand("b", 0, victim(10, 7), victim(3, 1))}, "b", ByStartTime},
		{"not started counts as now (latest)",
			[]Candidate{cand("a", 0, victim(10, 5)), cand("b", 0, victim(10, 0))}, "b", ByStartTime},
		{"full tie: smallest name",
			[]Candidate{cand("c", 0, victim(10, 5)), cand("b", 0, victim(10, 5)), cand("d", 0, victim(10, 5))}, "b", ByTieBreak},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			i, by := Pick(tc.cands, nil)
			if i < 0 || tc.cands[i].Node != tc.want || by != tc.by {
				got := "<none>"
				if i >= 0 {
					got = tc.cands[i].Node
				}
				t.Errorf("Pick = %s by %q, want %s by %q", got, by, tc.want, tc.by)
			}
		})
	}
}

// Under the MaxInt32+1 shift equal sums with different counts need a
// victim at priority MinInt32 (it adds 0): then fewest victims decides.
func TestPickFewestVictims(t *testing.T) {
	cands := []Candidate{cand("a", 0, victim(0, 1), victim(math.MinInt32, 1)), cand("b", 0, victim(0, 1))}
	if cands[0].PrioritySum != cands[1].PrioritySum {
		t.Fatalf("sums differ: %d %d", cands[0].PrioritySum, cands[1].PrioritySum)
	}
	if i, by := Pick(cands, nil); i != 1 || by != ByVictimCount {
		t.Errorf("Pick = %d by %q, want b by fewest victims", i, by)
	}
}

func TestPickTieBreak(t *testing.T) {
	cands := []Candidate{cand("a", 0, victim(1, 1)), cand("b", 0, victim(1, 1)), cand("c", 0, victim(2, 1))}
	var offered []string
	i, by := Pick(cands, func(nodes []string) string { offered = nodes; return "b" })
	if cands[i].Node != "b" || by != ByTieBreak || strings.Join(offered, ",") != "a,b" {
		t.Errorf("Pick = %s by %q offered %v", cands[i].Node, by, offered)
	}
	// A tie-break answer outside the tie falls back to the smallest name.
	i, _ = Pick(cands, func([]string) string { return "c" })
	if cands[i].Node != "a" {
		t.Errorf("Pick with bad tie-break = %s, want a", cands[i].Node)
	}
	if i, _ := Pick(nil, nil); i != -1 {
		t.Errorf("Pick(nil) = %d", i)
	}
}

func TestNewCandidate(t *testing.T) {
	c := NewCandidate("n", []*framework.PodInfo{victim(5, 9), victim(7, 4), victim(7, 3), victim(-1, 1)}, 2)
	want := Candidate{Node: "n", PDBViolations: 2, HighestPriority: 7, NumVictims: 4,
		PrioritySum: 5 + 7 + 7 - 1 + 4*(int64(math.MaxInt32)+1), EarliestStart: api.Time(3 * time.Second), Started: true}
	c.Victims = nil
	if fmt.Sprint(c) != fmt.Sprint(want) {
		t.Errorf("NewCandidate = %+v\nwant %+v", c, want)
	}
	if c := NewCandidate("n", []*framework.PodInfo{victim(1, 0)}, 0); c.Started {
		t.Errorf("unstarted victim reported started: %+v", c)
	}
}

func TestFitMessage(t *testing.T) {
	st := func(reasons ...string) *framework.Status {
		return framework.NewStatus(framework.Unschedulable, reasons...)
	}
	statuses := map[string]*framework.Status{}
	for i := 0; i < 10; i++ {
		statuses[fmt.Sprintf("a%d", i)] = st("Insufficient cpu")
	}
	statuses["b0"] = st("Insufficient memory", "Too many pods")
	statuses["b1"] = st("Insufficient memory")
	got := FitMessage(14, statuses, ReasonNotHelpful)
	// Plain string sort: "10 …" before "2 …".
	want := "0/14 nodes are available: 1 Too many pods, 10 Insufficient cpu, 2 Insufficient memory, 2 Preemption is not helpful for scheduling."
	if got != want {
		t.Errorf("FitMessage =\n%q\nwant\n%q", got, want)
	}
	if got := FitMessage(0, nil, ReasonNotHelpful); got != "0/0 nodes are available:" {
		t.Errorf("FitMessage(0) = %q", got)
	}
}

func TestAggregate(t *testing.T) {
	if got := aggregate([]string{"x", "x"}); got != "x" {
		t.Errorf("aggregate dup = %q", got)
	}
	if got := aggregate([]string{"x", "y", "x"}); got != "[x, y]" {
		t.Errorf("aggregate = %q", got)
	}
}

func TestSummary(t *testing.T) {
	cases := []struct {
		cands []Candidate
		want  string
	}{
		{[]Candidate{cand("a", 0, victim(9, 1))}, "a: the only node where preemption helps"},
		{[]Candidate{cand("a", 1, victim(1, 1)), cand("b", 0, victim(100, 1))}, "b: fewest PDB violations (a 1, b 0)"},
		{[]Candidate{cand("a", 0, victim(100, 1)), cand("b", 0, victim(1000, 1)), cand("c", 1, victim(1, 1))},
			"a: lowest highest-victim priority (a 100, b 1000)"},
		{[]Candidate{cand("a", 0, victim(10, 1), victim(5, 1)), cand("b", 0, victim(10, 1), victim(1, 1))},
			"b: smallest sum of victim priorities (a 15, b 11)"},
		{[]Candidate{cand("a", 0, victim(10, 5)), cand("b", 0, victim(10, 0))},
			"b: latest start of the highest-priority victims (a started 5s, b not started)"},
		{[]Candidate{cand("b", 0, victim(10, 5)), cand("a", 0, victim(10, 5))},
			"a: tie-break among b, a (equal on every criterion)"},
	}
	for _, tc := range cases {
		i, by := Pick(tc.cands, nil)
		if got := Summary(tc.cands, i, by); got != tc.want {
			t.Errorf("Summary = %q\nwant      %q", got, tc.want)
		}
	}
}

// sortByImportance orders as a stable sort by util.MoreImportantPod, on
// short lists (insertion sort) and long ones alike.
func TestSortByImportance(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 32, 33, 200} {
		pods := make([]*framework.PodInfo, n)
		for i := range pods {
			pods[i] = victim(int32(r.IntN(3)), r.IntN(4)) // ties on both keys, some never started
		}
		want := append([]*framework.PodInfo(nil), pods...)
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i], want[j]
			if a.Priority != b.Priority {
				return a.Priority > b.Priority
			}
			return startTime(a.Pod) < startTime(b.Pod)
		})
		sortByImportance(pods)
		for i := range pods {
			if pods[i] != want[i] {
				t.Fatalf("n=%d: position %d is %s, want %s", n, i, pods[i].Pod.Name, want[i].Pod.Name)
			}
		}
	}
}
