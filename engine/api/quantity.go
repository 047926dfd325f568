package api

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Quantity is a resource amount in milli-units (cpu "500m" is 500, memory
// "1Ki" is 1024000). Milli-units give cpu its natural precision and leave
// memory room for 9 PB per value, more than any node the lab models.
type Quantity int64

// Value returns the amount in whole units, rounded up as
// resource.Quantity.Value does.
func (q Quantity) Value() int64 {
	if q >= 0 {
		return (int64(q) + 999) / 1000
	}
	return int64(q) / 1000
}

// MilliValue returns the amount in milli-units.
func (q Quantity) MilliValue() int64 { return int64(q) }

// Milli builds a Quantity from milli-units.
func Milli(m int64) Quantity { return Quantity(m) }

// Units builds a Quantity from whole units (bytes, pods, cores).
func Units(v int64) Quantity { return Quantity(v * 1000) }

var binarySuffixes = map[string]int64{
	"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50, "Ei": 1 << 60,
}

var decimalSuffixes = map[string]int{
	"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}

// ErrQuantityRange reports a quantity the lab cannot represent.
var ErrQuantityRange = fmt.Errorf("quantity is out of range")

// ParseQuantity parses a Kubernetes quantity ("500m", "1.5", "128Mi", "1G",
// "2Gi", "1e3") the way apimachinery's resource.ParseQuantity accepts it.
// Fractions of a milli-unit are rounded up, as Kubernetes rounds a quantity
// up when it is read at a coarser scale.
func ParseQuantity(s string) (Quantity, error) {
	str := strings.TrimSpace(s)
	if str == "" {
		return 0, fmt.Errorf("quantity %q: empty", s)
	}
	i := 0
	if str[0] == '+' || str[0] == '-' {
		i++
	}
	digits := 0
	for i < len(str) && (str[i] >= '0' && str[i] <= '9') {
		i++
		digits++
	}
	if i < len(str) && str[i] == '.' {
		i++
		for i < len(str) && (str[i] >= '0' && str[i] <= '9') {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, fmt.Errorf("quantity %q: must start with a number (e.g. 500m, 1.5, 128Mi, 2Gi)", s)
	}
	num := str[:i]
	suffix := str[i:]
	if q, ok := parseIntegerQuantity(num, suffix); ok {
		return q, nil
	}
	return parseRatQuantity(s, num, suffix)
}

// parseRatQuantity is ParseQuantity's exact path in rational arithmetic,
// for every shape: num is the signed decimal number of s, suffix the rest.
func parseRatQuantity(s, num, suffix string) (Quantity, error) {
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, fmt.Errorf("quantity %q: bad number", s)
	}
	switch {
	case binarySuffixes[suffix] != 0:
		r.Mul(r, new(big.Rat).SetInt64(binarySuffixes[suffix]))
	case isDecimalSuffix(suffix):
		r.Mul(r, pow10Rat(decimalSuffixes[suffix]))
	case len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E'):
		var exp int
		if _, err := fmt.Sscanf(suffix[1:], "%d", &exp); err != nil || fmt.Sprint(exp) != strings.TrimPrefix(suffix[1:], "+") {
			return 0, fmt.Errorf("quantity %q: bad exponent %q", s, suffix)
		}
		if exp > 30 || exp < -30 {
			return 0, fmt.Errorf("quantity %q: %w", s, ErrQuantityRange)
		}
		r.Mul(r, pow10Rat(exp))
	default:
		return 0, fmt.Errorf("quantity %q: unknown suffix %q (use m, k, M, G, T, Ki, Mi, Gi, Ti …)", s, suffix)
	}
	r.Mul(r, big.NewRat(1000, 1))
	// round up (away from zero) to whole milli-units
	n := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(n).Cmp(r) != 0 {
		if r.Sign() > 0 {
			n.Add(n, big.NewInt(1))
		} else {
			n.Sub(n, big.NewInt(1))
		}
	}
	if !n.IsInt64() || n.Int64() > math.MaxInt64/2 || n.Int64() < -math.MaxInt64/2 {
		return 0, fmt.Errorf("quantity %q: %w", s, ErrQuantityRange)
	}
	return Quantity(n.Int64()), nil
}

// parseIntegerQuantity is ParseQuantity's exact fast path for the common
// shapes ("500m", "2", "128Mi", "4G"): an integer of at most 18 digits
// with a binary suffix or a decimal one of milli or coarser, whose value
// fits the lab's range. Anything else (fractions, exponents, n/u, overflow)
// reports !ok and takes the big.Rat path, which also words the errors.
func parseIntegerQuantity(num, suffix string) (Quantity, bool) {
	neg := false
	switch {
	case num[0] == '-':
		neg, num = true, num[1:]
	case num[0] == '+':
		num = num[1:]
	}
	if len(num) == 0 || len(num) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(num); i++ {
		c := num[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	var mult int64
	if b, ok := binarySuffixes[suffix]; ok {
		mult = b * 1000
		if b > math.MaxInt64/2/1000 {
			return 0, false
		}
	} else if e, ok := decimalSuffixes[suffix]; ok && e >= -3 && e+3 <= 18 {
		mult = 1
		for k := 0; k < e+3; k++ {
			mult *= 10
		}
	} else {
		return 0, false
	}
	const limit = math.MaxInt64 / 2
	if n != 0 && n > limit/mult {
		return 0, false
	}
	if neg {
		return Quantity(-n * mult), true
	}
	return Quantity(n * mult), true
}

func isDecimalSuffix(s string) bool {
	_, ok := decimalSuffixes[s]
	return ok
}

func pow10Rat(exp int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
	if exp < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// FormatCPU prints a cpu quantity as kubectl would: whole cores when exact,
// else milli-cores ("2", "500m").
func FormatCPU(q Quantity) string {
	if q%1000 == 0 {
		return fmt.Sprint(int64(q) / 1000)
	}
	return fmt.Sprintf("%dm", int64(q))
}

// FormatBytes prints a memory quantity with the largest exact binary suffix
// ("128Mi", "2Gi", "1500").
func FormatBytes(q Quantity) string {
	if q%1000 != 0 {
		return fmt.Sprintf("%dm", int64(q))
	}
	v := int64(q) / 1000
	if v == 0 {
		return "0"
	}
	for _, s := range []string{"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"} {
		if m := binarySuffixes[s]; v%m == 0 {
			return fmt.Sprintf("%d%s", v/m, s)
		}
	}
	return fmt.Sprint(v)
}

// HumanBytes prints an approximate memory size for display ("1.2Gi").
func HumanBytes(q Quantity) string {
	v := float64(q.Value())
	for _, s := range []string{"Ti", "Gi", "Mi", "Ki"} {
		m := float64(binarySuffixes[s])
		if math.Abs(v) >= m {
			x := v / m
			if x == math.Trunc(x) {
				return fmt.Sprintf("%.0f%s", x, s)
			}
			return fmt.Sprintf("%.1f%s", x, s)
		}
	}
	return fmt.Sprintf("%.0f", v)
}
