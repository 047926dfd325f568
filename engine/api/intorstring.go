package api

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ScaledValue is intstr.GetScaledValueFromIntOrPercent: an integer is
// taken as is, "N%" is N percent of total, rounded up or down. The errors
// are upstream's words.
func (v *IntOrString) ScaledValue(total int32, roundUp bool) (int32, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	if !v.IsString {
		return v.IntVal, nil
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, errors.New("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %w", v.StrVal, err)
	}
	f := float64(n) * float64(total) / 100
	if roundUp {
		return int32(math.Ceil(f)), nil
	}
	return int32(math.Floor(f)), nil
}
