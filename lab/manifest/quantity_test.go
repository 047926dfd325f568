package manifest

import (
	"testing"

	"podlab.dev/podlab/engine/api"
)

func TestFormatQuantity(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want string
	}{
		{"cpu", "2", "2"}, {"cpu", "1500m", "1500m"}, {"memory", "1Gi", "1Gi"}, {"memory", "1G", "1G"},
		{"memory", "1500M", "1500M"}, {"memory", "1000", "1k"}, {"memory", "1234", "1234"}, {"memory", "0", "0"},
		{"memory", "-1Mi", "-1Mi"}, {"nvidia.com/gpu", "2", "2"},
	} {
		q, err := api.ParseQuantity(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := formatQuantity(tt.name, q); got != tt.want {
			t.Errorf("formatQuantity(%s, %s) = %s, want %s", tt.name, tt.in, got, tt.want)
		}
	}
}
