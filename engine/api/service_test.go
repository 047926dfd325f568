package api

import "testing"

// TestDefaultSelector follows helper/spread_test.go TestDefaultSelector:
// services and the owner's selector are ANDed; nothing selecting the pod
// leaves the selector empty.
func TestDefaultSelector(t *testing.T) {
	pod := &Pod{ObjectMeta: ObjectMeta{Namespace: "ns", Labels: map[string]string{"app": "web", "tier": "front"}}}
	svc := func(ns string, sel map[string]string) *Service {
		return &Service{ObjectMeta: ObjectMeta{Namespace: ns}, Spec: ServiceSpec{Selector: sel}}
	}
	rs := MustCompileSelector(&LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "x"}})
	cases := []struct {
		name     string
		services []*Service
		owner    *Selector
		want     string
	}{
		{"nothing", nil, nil, ""},
		{"service", []*Service{svc("ns", map[string]string{"app": "web"})}, nil, "app=web"},
		{"service in another namespace", []*Service{svc("other", map[string]string{"app": "web"})}, nil, ""},
		{"service not selecting the pod", []*Service{svc("ns", map[string]string{"app": "db"})}, nil, ""},
		{"nil selector selects nothing", []*Service{svc("ns", nil)}, nil, ""},
		{"two services merge", []*Service{svc("ns", map[string]string{"app": "web"}), svc("ns", map[string]string{"tier": "front"})}, nil, "app=web,tier=front"},
		{"service and owner", []*Service{svc("ns", map[string]string{"tier": "front"})}, &rs, "app=web,pod-template-hash=x,tier=front"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := DefaultSelector(pod, c.services, c.owner)
			if got.String() != c.want {
				t.Fatalf("selector = %q, want %q", got.String(), c.want)
			}
		})
	}
}
