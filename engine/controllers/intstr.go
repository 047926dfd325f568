package controllers

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// scaledValue is intstr.GetScaledValueFromIntOrPercent: an integer is taken
// as is, "N%" is N percent of total rounded up or down.
func scaledValue(v *api.IntOrString, total int32, roundUp bool) (int32, error) {
	if v == nil {
		return 0, fmt.Errorf("nil value for IntOrString")
	}
	if !v.IsString {
		return v.IntVal, nil
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string %q is not a percentage", v.StrVal)
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

// valueOrZero is intstr.ValueOrDefault(v, FromInt32(0)).
func valueOrZero(v *api.IntOrString) *api.IntOrString {
	if v == nil {
		return &api.IntOrString{}
	}
	return v
}
