package manifest

import (
	"math"
	"runtime/debug"
	"testing"
)

// The import's memory limit applies to large inputs only, never raises a
// limit the user set, and is undone afterwards.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	tests := []struct {
		name          string
		user          int64
		size          int
		during, after int64
	}{
		{"large input, no user limit", math.MaxInt64, 8 << 20, importMemoryLimit, math.MaxInt64},
		{"small input", math.MaxInt64, 1 << 20, math.MaxInt64, math.MaxInt64},
		{"higher user limit", 4 << 30, 8 << 20, importMemoryLimit, 4 << 30},
		{"lower user limit kept", 512 << 20, 8 << 20, 512 << 20, 512 << 20},
	}
	for _, tt := range tests {
		debug.SetMemoryLimit(tt.user)
		restore := limitMemory(tt.size, 4<<20)
		during := debug.SetMemoryLimit(-1)
		restore()
		if after := debug.SetMemoryLimit(-1); during != tt.during || after != tt.after {
			t.Errorf("%s: limit %d during the load, %d after; want %d, %d", tt.name, during, after, tt.during, tt.after)
		}
	}
}
