package controllers

import (
	"testing"
	"time"
)

func TestCronNext(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // a Thursday
	for _, tc := range []struct {
		spec string
		from time.Time
		want time.Time
	}{
		{"* * * * *", base, base.Add(time.Minute)},
		{"*/5 * * * *", base.Add(3 * time.Minute), base.Add(5 * time.Minute)},
		{"0 * * * *", base, base.Add(time.Hour)},
		{"@hourly", base.Add(59 * time.Minute), base.Add(time.Hour)},
		{"30 2 * * *", base, time.Date(2026, 1, 1, 2, 30, 0, 0, time.UTC)},
		{"0 0 * * mon", base, time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)},
		{"0 0 * * 7", base, time.Date(2026, 1, 4, 0, 0, 0, 0, time.UTC)},
		{"0 0 13 * 5", base, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}, // Friday OR the 13th
		{"0 0 1 feb-mar *", base, time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)},
		{"0 0 29 2 *", base, time.Date(2028, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"5,10 1-2 * * *", base, time.Date(2026, 1, 1, 1, 5, 0, 0, time.UTC)},
		{"0 0 31 * *", base.Add(24 * time.Hour), time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)},
	} {
		s, err := ParseCron(tc.spec)
		if err != nil {
			t.Fatalf("%q: %v", tc.spec, err)
		}
		if got := s.Next(tc.from); !got.Equal(tc.want) {
			t.Errorf("%q from %v: %v, want %v", tc.spec, tc.from, got, tc.want)
		}
	}
	for _, bad := range []string{"", "* * * *", "61 * * * *", "* * * * 8", "*/0 * * * *", "@every 5m", "TZ=UTC * * * * *", "a * * * *"} {
		if _, err := ParseCron(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}
