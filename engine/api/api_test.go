package api

import "testing"

func TestParseQuantity(t *testing.T) {
	cases := []struct {
		in        string
		milli     int64
		wantError bool
	}{
		{"500m", 500, false},
		{"1.5", 1500, false},
		{"2", 2000, false},
		{"128Mi", 128 << 20 * 1000, false},
		{"1G", 1e9 * 1000, false},
		{"2Gi", 2 << 30 * 1000, false},
		{"1e3", 1e6, false},
		{"0.1m", 1, false}, // rounds up
		{"100k", 1e8, false},
		{"", 0, true},
		{"abc", 0, true},
		{"1X", 0, true},
		{"1Ei", 0, true}, // beyond milli-unit range
	}
	for _, c := range cases {
		q, err := ParseQuantity(c.in)
		if (err != nil) != c.wantError {
			t.Errorf("%q: err=%v, wantError=%v", c.in, err, c.wantError)
			continue
		}
		if err == nil && q.MilliValue() != c.milli {
			t.Errorf("%q: got %d milli, want %d", c.in, q.MilliValue(), c.milli)
		}
	}
	if got := Quantity(1500).Value(); got != 2 {
		t.Errorf("Value rounds up: got %d", got)
	}
	if got := FormatBytes(Units(128 << 20)); got != "128Mi" {
		t.Errorf("FormatBytes: %s", got)
	}
	if got := FormatCPU(500); got != "500m" {
		t.Errorf("FormatCPU: %s", got)
	}
}

func TestSelector(t *testing.T) {
	nilSel, _ := CompileSelector(nil)
	if nilSel.Matches(map[string]string{}) {
		t.Error("nil selector must match nothing")
	}
	empty, _ := CompileSelector(&LabelSelector{})
	if !empty.Matches(map[string]string{"a": "b"}) {
		t.Error("empty selector must match everything")
	}
	s, err := CompileSelector(&LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []LabelSelectorRequirement{
			{Key: "tier", Operator: "In", Values: []string{"b", "a"}},
			{Key: "canary", Operator: "DoesNotExist"},
			{Key: "env", Operator: "NotIn", Values: []string{"prod"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		labels map[string]string
		want   bool
	}{
		{map[string]string{"app": "web", "tier": "a"}, true},
		{map[string]string{"app": "web", "tier": "c"}, false},
		{map[string]string{"app": "web", "tier": "a", "canary": ""}, false},
		{map[string]string{"app": "web", "tier": "b", "env": "prod"}, false},
		{map[string]string{"app": "web", "tier": "b", "env": "dev"}, true},
	} {
		if got := s.Matches(c.labels); got != c.want {
			t.Errorf("%v: got %v", c.labels, got)
		}
	}
	if _, err := CompileSelector(&LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: "In"}}}); err == nil {
		t.Error("In without values must fail")
	}
	if got := s.AddEquals("pod-template-hash", "abc").Matches(map[string]string{"app": "web", "tier": "a"}); got {
		t.Error("AddEquals must narrow")
	}
}

func TestNodeSelectorGtLt(t *testing.T) {
	n := &Node{ObjectMeta: ObjectMeta{Name: "n1", Labels: map[string]string{"gen": "5"}}}
	gt := []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "gen", Operator: "Gt", Values: []string{"4"}}}}}
	lt := []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{{Key: "gen", Operator: "Lt", Values: []string{"5"}}}}}
	if !MatchNodeSelectorTerms(n, gt) || MatchNodeSelectorTerms(n, lt) {
		t.Error("Gt/Lt")
	}
	if MatchNodeSelectorTerms(n, []NodeSelectorTerm{{}}) {
		t.Error("empty term matches nothing")
	}
	byName := []NodeSelectorTerm{{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"n1"}}}}}
	if !MatchNodeSelectorTerms(n, byName) {
		t.Error("matchFields metadata.name")
	}
}

func TestTolerations(t *testing.T) {
	taint := Taint{Key: "dedicated", Value: "gpu", Effect: TaintEffectNoSchedule}
	for _, c := range []struct {
		tol  Toleration
		want bool
	}{
		{Toleration{Key: "dedicated", Operator: "Equal", Value: "gpu", Effect: "NoSchedule"}, true},
		{Toleration{Key: "dedicated", Value: "gpu"}, true},
		{Toleration{Key: "dedicated", Operator: "Exists"}, true},
		{Toleration{Operator: "Exists"}, true},
		{Toleration{Key: "dedicated", Operator: "Equal", Value: "cpu"}, false},
		{Toleration{Key: "dedicated", Operator: "Exists", Effect: "NoExecute"}, false},
	} {
		if got := c.tol.ToleratesTaint(&taint); got != c.want {
			t.Errorf("%+v: got %v", c.tol, got)
		}
	}
}

func q(s string) Quantity {
	v, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return v
}

func TestPodRequestsSidecarsAndInit(t *testing.T) {
	// Upstream example: sidecar 1 cpu, init 3 cpu started after it, main 2 cpu:
	// max(main 2 + sidecar 1, init 3 + sidecar 1) = 4.
	p := &Pod{Spec: PodSpec{
		InitContainers: []Container{
			{Name: "sidecar", RestartPolicy: "Always", Resources: ResourceRequirements{Requests: ResourceList{"cpu": q("1")}}},
			{Name: "init", Resources: ResourceRequirements{Requests: ResourceList{"cpu": q("3")}}},
		},
		Containers: []Container{{Name: "main", Resources: ResourceRequirements{Requests: ResourceList{"cpu": q("2")}}}},
	}}
	if got := PodRequests(p, PodRequestsOptions{})["cpu"]; got != q("4") {
		t.Errorf("cpu requests = %d, want 4000", got)
	}
	// init before the sidecar does not add the sidecar: max(2+1, 3) = 3.
	p.Spec.InitContainers[0], p.Spec.InitContainers[1] = p.Spec.InitContainers[1], p.Spec.InitContainers[0]
	if got := PodRequests(p, PodRequestsOptions{})["cpu"]; got != q("3") {
		t.Errorf("cpu requests = %d, want 3000", got)
	}
}

func TestDefaultingAndQOS(t *testing.T) {
	limitsOnly := &Pod{Spec: PodSpec{Containers: []Container{{Name: "c", Resources: ResourceRequirements{
		Limits: ResourceList{"cpu": q("1"), "memory": q("1Gi")}}}}}}
	DefaultPod(limitsOnly)
	if limitsOnly.Status.QOSClass != QOSGuaranteed {
		t.Errorf("limits only ⇒ requests defaulted ⇒ Guaranteed, got %s", limitsOnly.Status.QOSClass)
	}
	if limitsOnly.Namespace != "default" || *limitsOnly.Spec.TerminationGracePeriodSeconds != 30 {
		t.Error("namespace/grace defaults")
	}
	be := &Pod{Spec: PodSpec{Containers: []Container{{Name: "c"}}}}
	DefaultPod(be)
	if be.Status.QOSClass != QOSBestEffort {
		t.Errorf("got %s", be.Status.QOSClass)
	}
	burst := &Pod{Spec: PodSpec{Containers: []Container{{Name: "c", Resources: ResourceRequirements{
		Requests: ResourceList{"memory": q("100Mi")}}}}}}
	DefaultPod(burst)
	if burst.Status.QOSClass != QOSBurstable {
		t.Errorf("got %s", burst.Status.QOSClass)
	}
	// init container without limits spoils Guaranteed
	mixed := &Pod{Spec: PodSpec{
		InitContainers: []Container{{Name: "i", Resources: ResourceRequirements{Requests: ResourceList{"cpu": q("100m")}}}},
		Containers: []Container{{Name: "c", Resources: ResourceRequirements{
			Limits: ResourceList{"cpu": q("1"), "memory": q("1Gi")}}}}}}
	DefaultPod(mixed)
	if mixed.Status.QOSClass != QOSBurstable {
		t.Errorf("got %s", mixed.Status.QOSClass)
	}
	// pod-level limits default pod-level requests; QoS follows pod level
	podLevel := &Pod{Spec: PodSpec{
		Resources:  &ResourceRequirements{Limits: ResourceList{"cpu": q("2"), "memory": q("2Gi")}},
		Containers: []Container{{Name: "c"}}}}
	DefaultPod(podLevel)
	if podLevel.Status.QOSClass != QOSGuaranteed {
		t.Errorf("pod-level: got %s", podLevel.Status.QOSClass)
	}
	if got := PodRequests(podLevel, PodRequestsOptions{})["memory"]; got != q("2Gi") {
		t.Errorf("pod-level requests: %d", got)
	}
}

// As intstr's TestGetScaledValueFromIntOrPercent, with upstream's errors.
func TestScaledValue(t *testing.T) {
	for _, c := range []struct {
		v       *IntOrString
		total   int32
		roundUp bool
		want    int32
		err     string
	}{
		{&IntOrString{IntVal: 3}, 10, false, 3, ""},
		{&IntOrString{IsString: true, StrVal: "25%"}, 10, true, 3, ""},
		{&IntOrString{IsString: true, StrVal: "25%"}, 10, false, 2, ""},
		{&IntOrString{IsString: true, StrVal: "0%"}, 10, true, 0, ""},
		{&IntOrString{IsString: true, StrVal: "5"}, 10, true, 0, "invalid value for IntOrString: invalid type: string is not a percentage"},
		{&IntOrString{IsString: true, StrVal: "x%"}, 10, true, 0, `invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax`},
		{nil, 10, true, 0, "nil value for IntOrString"},
	} {
		got, err := c.v.ScaledValue(c.total, c.roundUp)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("%+v of %d (up %v) = %d, %v; want %d, %q", c.v, c.total, c.roundUp, got, err, c.want, c.err)
		}
	}
}
