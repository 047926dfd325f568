package controllers

import "fmt"

// Validation the API server applies to the workload fields the
// controllers rely on (pkg/apis/apps/validation), so user input can never
// put a controller in a state it cannot handle.

func validateReplicas(r *int32) error {
	if r != nil && *r < 0 {
		return fmt.Errorf("spec.replicas: Invalid value: %d: must be greater than or equal to 0", *r)
	}
	return nil
}

func validateStrategy(field, typ string, allowed ...string) error {
	for _, a := range allowed {
		if typ == a {
			return nil
		}
	}
	return fmt.Errorf("%s: Unsupported value: %q: supported values: %q", field, typ, allowed)
}
