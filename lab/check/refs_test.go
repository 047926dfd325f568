package check

import (
	"reflect"
	"testing"
)

func TestRefsListsEveryObjectInSourceOrder(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []Ref
	}{
		{"count(pods) == 3", nil},
		{"skew(deployment/web, zone) <= 1 && !cordoned(node/n1)",
			[]Ref{{Func: "skew", Kind: "deployment", Name: "web", Pos: 5}, {Func: "cordoned", Kind: "node", Name: "n1", Pos: 45}}},
		{"max_over_time(pending@b(statefulset/db)) == 0 || phase(pod/x) in [Running, Pending]",
			[]Ref{{Func: "pending", Kind: "statefulset", Name: "db"}, {Func: "phase", Kind: "pod", Name: "x"}}},
		{"events(Evicted, pod/web-0) > 0", []Ref{{Func: "events", Kind: "pod", Name: "web-0"}}},
	} {
		chk, err := Parse(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		got := chk.Refs()
		if len(got) != len(c.want) {
			t.Fatalf("%s: %+v", c.src, got)
		}
		for i := range got {
			if c.want[i].Pos == 0 {
				got[i].Pos = 0 // only some cases pin offsets
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.src, got, c.want)
		}
	}
}
