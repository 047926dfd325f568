package helper

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/scheduler/framework"
)

// Cases from upstream plugins/helper/normalize_score_test.go.
func TestDefaultNormalizeScore(t *testing.T) {
	cases := []struct {
		name    string
		reverse bool
		scores  []int64
		want    []int64
	}{
		{"scale", false, []int64{1, 2, 3, 4, 5}, []int64{20, 40, 60, 80, 100}},
		{"scale reversed", true, []int64{1, 2, 3, 4, 5}, []int64{80, 60, 40, 20, 0}},
		{"integer division truncates", false, []int64{1000, 10, 20, 30}, []int64{100, 1, 2, 3}},
		{"integer division truncates reversed", true, []int64{1000, 10, 20, 30}, []int64{0, 99, 98, 97}},
		{"all zero stays zero", false, []int64{0, 0, 0}, []int64{0, 0, 0}},
		{"all zero reversed is max", true, []int64{0, 0, 0}, []int64{100, 100, 100}},
		{"all equal non-zero", false, []int64{7, 7}, []int64{100, 100}},
		{"all equal non-zero reversed", true, []int64{7, 7}, []int64{0, 0}},
		{"empty", true, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var scores []framework.NodeScore
			for _, s := range c.scores {
				scores = append(scores, framework.NodeScore{Score: s})
			}
			if st := DefaultNormalizeScore(framework.MaxNodeScore, c.reverse, scores); !st.IsSuccess() {
				t.Fatalf("status %v", st)
			}
			var got []int64
			for _, s := range scores {
				got = append(got, s.Score)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}
