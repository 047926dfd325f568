package manifest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"podlab.dev/podlab/engine/api"
)

// fieldError is a validation finding on a field path, worded like
// apimachinery's field.Error ("spec.x: Invalid value: 0: must be …").
type fieldError struct {
	path, msg, hint string
	// at is the path whose position the error is reported at when it is
	// not path itself (a label key inside the labels map).
	at      string
	warning bool
	// note marks a warning as SeverityInfo: something the lab explains
	// that the API server does silently.
	note bool
}

func (e fieldError) withHint(h string) fieldError { e.hint = h; return e }

// renderValue prints a bad value as field.Error.ErrorBody does.
func renderValue(v any) string {
	switch t := v.(type) {
	case int, int32, int64, bool:
		return fmt.Sprint(t)
	case string:
		return strconv.Quote(t)
	case *api.LabelSelector:
		// metav1.LabelSelector's JSON form
		type req struct {
			Key      string   `json:"key"`
			Operator string   `json:"operator"`
			Values   []string `json:"values,omitempty"`
		}
		sel := struct {
			MatchLabels      map[string]string `json:"matchLabels,omitempty"`
			MatchExpressions []req             `json:"matchExpressions,omitempty"`
		}{MatchLabels: t.MatchLabels}
		for _, r := range t.MatchExpressions {
			sel.MatchExpressions = append(sel.MatchExpressions, req(r))
		}
		v = sel
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

func invalid(path string, value any, detail string) fieldError {
	return fieldError{path: path, msg: "Invalid value: " + renderValue(value) + ": " + detail}
}

func required(path, detail string) fieldError {
	msg := "Required value"
	if detail != "" {
		msg += ": " + detail
	}
	return fieldError{path: path, msg: msg}
}

func forbidden(path, detail string) fieldError {
	return fieldError{path: path, msg: "Forbidden: " + detail}
}

func duplicate(path string, value any) fieldError {
	return fieldError{path: path, msg: "Duplicate value: " + renderValue(value)}
}

func notSupported(path string, value any, valid ...string) fieldError {
	q := make([]string, len(valid))
	for i, v := range valid {
		q[i] = strconv.Quote(v)
	}
	return fieldError{path: path, msg: "Unsupported value: " + renderValue(value) + ": supported values: " + strings.Join(q, ", ")}
}

// Messages of apimachinery's validation helpers.
const (
	msgNotPositive = "must be greater than zero"
	msgNegative    = "must be greater than or equal to 0"
)

func positive(path string, v int64) []fieldError {
	if v <= 0 {
		return []fieldError{invalid(path, v, msgNotPositive)}
	}
	return nil
}

func nonNegative(path string, v int64) []fieldError {
	if v < 0 {
		return []fieldError{invalid(path, v, msgNegative)}
	}
	return nil
}
