package controllers

import (
	"podlab.dev/podlab/engine/api"
)

// scaledValue is intstr.GetScaledValueFromIntOrPercent (api.IntOrString.ScaledValue).
func scaledValue(v *api.IntOrString, total int32, roundUp bool) (int32, error) {
	return v.ScaledValue(total, roundUp)
}

// valueOrZero is intstr.ValueOrDefault(v, FromInt32(0)).
func valueOrZero(v *api.IntOrString) *api.IntOrString {
	if v == nil {
		return &api.IntOrString{}
	}
	return v
}
