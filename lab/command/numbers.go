package command

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Numbers in commands are checked as the manifest loader and the API check
// the fields they set, with the same messages, so that a command cannot
// set what a file could not (maxSkew=2147483648 once wrapped round and
// failed every node): the field's width (int32 fields refuse what does not
// fit: "integer 2147483648 is out of range [-2147483648, 2147483647]", the
// loader's words) and its lower bound (apimachinery's "must be greater
// than or equal to 0" and "must be greater than zero").

// Lower-bound rules and their API messages.
const (
	atLeastZero = "must be greater than or equal to 0"
	aboveZero   = "must be greater than zero"
	atLeastOne  = "must be greater than or equal to 1"
)

// apiInt32 parses v, the value of field, as an int32 API field that must
// be at least lo (rule is the API's message for that bound).
func apiInt32(field, v string, lo int64, rule string) (int32, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s: Invalid value: %q: must be a whole number", field, v)
	}
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, fmt.Errorf("%s: integer %s is out of range [%d, %d]", field, v, math.MinInt32, math.MaxInt32)
	}
	if n < lo {
		return 0, fmt.Errorf("%s: Invalid value: %d: %s", field, n, rule)
	}
	return int32(n), nil
}
