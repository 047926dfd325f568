package noderesources

import (
	"reflect"
	"testing"

	"podlab.dev/podlab/engine/api"
	"podlab.dev/podlab/engine/scheduler/framework"
	tu "podlab.dev/podlab/engine/scheduler/plugins/internal/testutil"
)

const (
	extendedA = "example.com/aaa"
	extendedB = "example.com/bbb"
	hugePageA = "hugepages-2Mi"
)

// The upstream fit_test.go node: makeAllocatableResources(10, 20, 32, 5, 20, 5).
func fitNode(pods ...*api.Pod) *framework.NodeInfo {
	n := tu.MakeNode().Name("node").Capacity(tu.Res{
		"cpu": "10m", "memory": "20", "pods": "32", extendedA: "5", "ephemeral-storage": "20", hugePageA: "5",
	}).Obj()
	return tu.NodeInfo(n, pods...)
}

// usage builds a pod with one container per request map (newResourcePod).
func usage(reqs ...tu.Res) *tu.PodWrapper {
	p := tu.MakePod()
	for _, r := range reqs {
		p.Req(r)
	}
	return p
}

func cm(cpu, mem string) tu.Res { return tu.Res{"cpu": cpu, "memory": mem} }

// Cases follow upstream fit_test.go TestEnoughRequests (the ignored-resource
// and DRA cases need scheduler arguments the lab does not model).
func TestFitFilter(t *testing.T) {
	unsched := func(r ...string) *framework.Status { return framework.NewStatus(framework.Unschedulable, r...) }
	unresolvable := func(r ...string) *framework.Status {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, r...)
	}
	cases := []struct {
		name     string
		pod      *tu.PodWrapper
		existing *tu.PodWrapper
		want     *framework.Status
		wantIR   []InsufficientResource
	}{
		{name: "no resources requested always fits", pod: tu.MakePod(), existing: usage(cm("10m", "20"))},
		{name: "too many resources fails", pod: usage(cm("1m", "1")), existing: usage(cm("10m", "20")),
			want: unsched(ErrReasonInsufficientCPU, ErrReasonInsufficientMemory),
			wantIR: []InsufficientResource{
				{ResourceName: "cpu", Reason: ErrReasonInsufficientCPU, Requested: 1, Used: 10, Capacity: 10},
				{ResourceName: "memory", Reason: ErrReasonInsufficientMemory, Requested: 1, Used: 20, Capacity: 20},
			}},
		{name: "too many resources fails due to init container cpu", pod: usage(cm("1m", "1")).InitReq(cm("3m", "1")),
			existing: usage(cm("8m", "19")), want: unsched(ErrReasonInsufficientCPU),
			wantIR: []InsufficientResource{{ResourceName: "cpu", Reason: ErrReasonInsufficientCPU, Requested: 3, Used: 8, Capacity: 10}}},
		{name: "too many resources fails due to highest init container cpu", pod: usage(cm("1m", "1")).InitReq(cm("3m", "1")).InitReq(cm("2m", "1")),
			existing: usage(cm("8m", "19")), want: unsched(ErrReasonInsufficientCPU)},
		{name: "too many resources fails due to init container memory", pod: usage(cm("1m", "1")).InitReq(cm("1m", "3")),
			existing: usage(cm("9m", "19")), want: unsched(ErrReasonInsufficientMemory)},
		{name: "init container fits because it's the max, not sum", pod: usage(cm("1m", "1")).InitReq(cm("1m", "1")).InitReq(cm("1m", "1")),
			existing: usage(cm("9m", "19"))},
		{name: "both resources fit", pod: usage(cm("1m", "1")), existing: usage(cm("5m", "5"))},
		{name: "one resource memory fits", pod: usage(cm("2m", "1")), existing: usage(cm("9m", "5")), want: unsched(ErrReasonInsufficientCPU)},
		{name: "one resource cpu fits", pod: usage(cm("1m", "2")), existing: usage(cm("5m", "19")), want: unsched(ErrReasonInsufficientMemory)},
		{name: "equal edge case", pod: usage(cm("5m", "1")), existing: usage(cm("5m", "19"))},
		{name: "equal edge case for init container", pod: usage(cm("4m", "1")).InitReq(cm("5m", "1")), existing: usage(cm("5m", "19"))},
		{name: "extended resource fits", pod: usage(tu.Res{extendedA: "1"}), existing: tu.MakePod()},
		{name: "extended resource fits for init container", pod: tu.MakePod().InitReq(tu.Res{extendedA: "1"}), existing: tu.MakePod()},
		{name: "extended resource capacity enforced", pod: usage(tu.Res{"cpu": "1m", "memory": "1", extendedA: "10"}),
			existing: tu.MakePod(), want: unresolvable("Insufficient " + extendedA),
			wantIR: []InsufficientResource{{ResourceName: extendedA, Reason: "Insufficient " + extendedA, Requested: 10, Used: 0, Capacity: 5, Unresolvable: true}}},
		{name: "extended resource allocatable enforced", pod: usage(tu.Res{"cpu": "1m", "memory": "1", extendedA: "1"}),
			existing: usage(tu.Res{extendedA: "5"}), want: unsched("Insufficient " + extendedA)},
		{name: "extended resource allocatable enforced for multiple containers",
			pod:      usage(tu.Res{extendedA: "3"}, tu.Res{extendedA: "3"}),
			existing: usage(tu.Res{extendedA: "2"}), want: unresolvable("Insufficient " + extendedA)},
		{name: "extended resource allocatable admits multiple init containers",
			pod:      tu.MakePod().InitReq(tu.Res{extendedA: "3"}).InitReq(tu.Res{extendedA: "2"}),
			existing: usage(tu.Res{extendedA: "2"})},
		{name: "extended resource allocatable enforced for unknown resource", pod: usage(tu.Res{"cpu": "1m", "memory": "1", extendedB: "1"}),
			existing: tu.MakePod(), want: unresolvable("Insufficient " + extendedB)},
		{name: "hugepages resource capacity enforced", pod: usage(tu.Res{"cpu": "1m", "memory": "1", hugePageA: "10"}),
			existing: tu.MakePod(), want: unresolvable("Insufficient " + hugePageA)},
		{name: "hugepages resource allocatable enforced for multiple containers",
			pod:      usage(tu.Res{hugePageA: "3"}, tu.Res{hugePageA: "3"}),
			existing: usage(tu.Res{hugePageA: "2"}), want: unresolvable("Insufficient " + hugePageA)},
		{name: "resources + pod overhead fits", pod: usage(cm("1m", "1")).Overhead(cm("3m", "13")), existing: usage(cm("5m", "5"))},
		{name: "requests + overhead does not fit for memory", pod: usage(cm("1m", "1")).Overhead(cm("1m", "15")),
			existing: usage(cm("5m", "5")), want: unsched(ErrReasonInsufficientMemory)},
		{name: "zero extended request is skipped", pod: usage(tu.Res{"cpu": "1m", extendedB: "0"}), existing: tu.MakePod()},
		{name: "pod-level cpu does not fit", pod: usage(cm("1m", "1")).PodLevelReq(tu.Res{"cpu": "7m"}),
			existing: usage(cm("5m", "5")), want: unsched(ErrReasonInsufficientCPU)},
		{name: "ephemeral storage", pod: usage(tu.Res{"ephemeral-storage": "10"}),
			existing: usage(tu.Res{"ephemeral-storage": "15"}), want: unsched(ErrReasonInsufficientEphemeralDisk)},
		{name: "every reason in upstream order, unresolvable wins",
			pod:      usage(tu.Res{"cpu": "11m", "memory": "1", "ephemeral-storage": "10", extendedB: "1", extendedA: "1"}),
			existing: usage(tu.Res{"memory": "20", "ephemeral-storage": "15", extendedA: "5"}),
			want: unresolvable(ErrReasonInsufficientCPU, ErrReasonInsufficientMemory, ErrReasonInsufficientEphemeralDisk,
				"Insufficient "+extendedA, "Insufficient "+extendedB)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			node := fitNode(c.existing.Name("existing").Obj())
			pod := c.pod.Name("p").Info()
			pl := NewFit()
			state := framework.NewCycleState()
			if _, st := pl.PreFilter(state, pod, nil); !st.IsSuccess() {
				t.Fatalf("PreFilter %+v", st)
			}
			if got := pl.Filter(state, pod, node); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Filter %+v, want %+v", got, c.want)
			}
			if got := pl.Filter(framework.NewCycleState(), pod, node); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Filter without PreFilter %+v, want %+v", got, c.want)
			}
			if c.wantIR != nil {
				if got := Fits(pod, node); !reflect.DeepEqual(got, c.wantIR) {
					t.Fatalf("Fits %+v, want %+v", got, c.wantIR)
				}
			}
		})
	}
}

// Cases follow upstream fit_test.go TestNotEnoughRequests: "Too many pods"
// is resolvable and comes before the resource reasons.
func TestFitFilterTooManyPods(t *testing.T) {
	n := tu.MakeNode().Name("node").Capacity(tu.Res{"cpu": "10m", "memory": "20", "pods": "1"}).Obj()
	node := tu.NodeInfo(n, usage(cm("10m", "20")).Name("e").Obj())
	cases := []struct {
		name string
		pod  *tu.PodWrapper
		want *framework.Status
	}{
		{"even without requests", tu.MakePod(), framework.NewStatus(framework.Unschedulable, ErrReasonTooManyPods)},
		{"before resource reasons", usage(cm("1m", "1")),
			framework.NewStatus(framework.Unschedulable, ErrReasonTooManyPods, ErrReasonInsufficientCPU, ErrReasonInsufficientMemory)},
		{"with an unresolvable request", usage(cm("11m", "1")),
			framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonTooManyPods, ErrReasonInsufficientCPU, ErrReasonInsufficientMemory)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := NewFit().Filter(framework.NewCycleState(), c.pod.Name("p").Info(), node); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestFitFilterTerminatingPodsStillCount(t *testing.T) {
	n := tu.MakeNode().Name("node").Capacity(tu.Res{"cpu": "1", "memory": "1Gi", "pods": "10"}).Obj()
	node := tu.NodeInfo(n, usage(cm("800m", "0")).Name("leaving").Terminating().Obj())
	got := NewFit().Filter(framework.NewCycleState(), usage(cm("300m", "0")).Name("p").Info(), node)
	if want := framework.NewStatus(framework.Unschedulable, ErrReasonInsufficientCPU); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// The shared statuses of the batch filter say exactly what fitsRequest
// says, for every combination of what a node lacks.
func TestRejectionMatchesFitsRequest(t *testing.T) {
	for _, alloc := range []api.Resources{
		{MilliCPU: 1000, Memory: 1 << 30, EphemeralStorage: 1 << 30, AllowedPods: 2},
		{MilliCPU: 4000, Memory: 8 << 30, EphemeralStorage: 0, AllowedPods: 110},
	} {
		for _, used := range []api.Resources{{}, {MilliCPU: 900, Memory: 1 << 29}, {MilliCPU: 1000, Memory: 1 << 30, EphemeralStorage: 1 << 30}} {
			for pods := 0; pods <= 2; pods++ {
				for _, req := range []api.Resources{{}, {MilliCPU: 200}, {Memory: 1 << 29}, {MilliCPU: 5000, Memory: 1 << 31}, {MilliCPU: 100, Memory: 1, EphemeralStorage: 1 << 31}} {
					ni := &framework.NodeInfo{Node: &api.Node{}, Allocatable: alloc, Requested: used}
					for i := 0; i < pods; i++ {
						ni.Pods = append(ni.Pods, &framework.PodInfo{})
					}
					s := &preFilterState{Resources: req}
					want := statusOf(fitsRequest(s, ni))
					got := rejection(s, ni)
					if (want == nil) != (got == nil) || (want != nil && (got.Code != want.Code || got.Message() != want.Message() || got.Plugin != Name)) {
						t.Errorf("alloc %+v used %+v pods %d req %+v: rejection %+v, fitsRequest %+v", alloc, used, pods, req, got, want)
					}
				}
			}
		}
	}
}
