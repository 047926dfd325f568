package api

import "testing"

// The integer fast path must give what the rational path gives, for every
// suffix, sign, leading zeros and values at and past the lab's range.
func TestIntegerQuantityFastPathMatchesRational(t *testing.T) {
	nums := []string{"0", "1", "-1", "+7", "007", "500", "-250", "128", "999999999999999999",
		"4611686018427387", "4611686018427388", "9223372036854775", "4503599627370496", "1000000000000000000", "1234567890123"}
	suffixes := []string{"", "m", "k", "M", "G", "T", "P", "E", "n", "u", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "X", "e3"}
	fast := 0
	for _, n := range nums {
		for _, suf := range suffixes {
			want, wantErr := parseRatQuantity(n+suf, n, suf)
			got, ok := parseIntegerQuantity(n, suf)
			if !ok {
				continue
			}
			fast++
			if wantErr != nil || got != want {
				t.Errorf("%s%s: fast path %d, rational path %d (err %v)", n, suf, got, want, wantErr)
			}
		}
	}
	if fast < 80 {
		t.Fatalf("only %d inputs took the fast path", fast)
	}
	for _, in := range []string{"1.5", "1e3", "5n", "3u", "1X", "1000000000000000000", "9223372036854775Gi", "1E", "2Ei"} {
		if _, ok := parseIntegerQuantity(in[:len(in)-len(trimDigits(in))], trimDigits(in)); ok {
			t.Errorf("%s took the fast path", in)
		}
	}
}

// trimDigits is what follows the leading digits of s.
func trimDigits(s string) string {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	return s[i:]
}
