package manifest

import (
	"fmt"
	"strconv"
	"strings"
)

// cronFieldRanges are the five fields of a standard cron schedule.
var cronFieldRanges = [5]struct {
	name   string
	lo, hi int
}{{"minute", 0, 59}, {"hour", 0, 23}, {"day of month", 1, 31}, {"month", 1, 12}, {"day of week", 0, 7}}

var cronNames = map[string]string{
	"jan": "1", "feb": "2", "mar": "3", "apr": "4", "may": "5", "jun": "6", "jul": "7", "aug": "8", "sep": "9", "oct": "10", "nov": "11", "dec": "12",
	"sun": "0", "mon": "1", "tue": "2", "wed": "3", "thu": "4", "fri": "5", "sat": "6",
}

// validateCronSchedule checks a schedule as robfig/cron's ParseStandard
// (what the CronJob validation uses) would: five fields or a @macro, with
// an optional TZ=/CRON_TZ= prefix (rejected by the API server in favour of
// spec.timeZone). It returns "" when the schedule is valid.
func validateCronSchedule(s string) string {
	if strings.HasPrefix(s, "TZ=") || strings.HasPrefix(s, "CRON_TZ=") {
		return "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
	}
	if strings.HasPrefix(s, "@") {
		switch s {
		case "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
			return ""
		}
		if strings.HasPrefix(s, "@every ") {
			return ""
		}
		return "unrecognized descriptor: " + s
	}
	fields := strings.Fields(s)
	if len(fields) != 5 {
		return fmt.Sprintf("expected exactly 5 fields, found %d: %s", len(fields), s)
	}
	for i, f := range fields {
		if err := cronField(f, cronFieldRanges[i].lo, cronFieldRanges[i].hi); err != "" {
			return err
		}
	}
	return ""
}

func cronField(field string, lo, hi int) string {
	for _, part := range strings.Split(field, ",") {
		rng, step, hasStep := strings.Cut(part, "/")
		if hasStep {
			if n, err := strconv.Atoi(step); err != nil || n <= 0 {
				return "failed to parse int from " + step
			}
		}
		if rng == "*" || rng == "?" {
			continue
		}
		a, b, isRange := strings.Cut(rng, "-")
		start, err := cronValue(a, lo, hi)
		if err != "" {
			return err
		}
		end := start
		if isRange {
			if end, err = cronValue(b, lo, hi); err != "" {
				return err
			}
		}
		if end < start {
			return fmt.Sprintf("beginning of range (%d) beyond end of range (%d): %s", start, end, part)
		}
	}
	return ""
}

func cronValue(s string, lo, hi int) (int, string) {
	if v, ok := cronNames[strings.ToLower(s)]; ok {
		s = v
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, "failed to parse int from " + s
	}
	if n < lo {
		return 0, fmt.Sprintf("beginning of range (%d) below minimum (%d): %s", n, lo, s)
	}
	if n > hi {
		return 0, fmt.Sprintf("end of range (%d) above maximum (%d): %s", n, hi, s)
	}
	return n, ""
}
