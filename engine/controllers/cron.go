package controllers

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CronSchedule is a parsed standard 5-field cron schedule (minute hour
// day-of-month month day-of-week), the format CronJob uses (robfig/cron's
// ParseStandard: names jan-dec and sun-sat, ranges, steps, lists, "?" as
// "*", day-of-week 7 = Sunday, and the descriptors @yearly, @annually,
// @monthly, @weekly, @daily, @midnight, @hourly). As in cron, when both
// day-of-month and day-of-week are restricted a day matching either runs.
type CronSchedule struct {
	minute, hour, dom, month, dow uint64
	domStar, dowStar              bool
}

var cronDescriptors = map[string]string{
	"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
	"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

var monthNames = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
var dowNames = map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}

// ParseCron parses a standard cron expression.
func ParseCron(spec string) (*CronSchedule, error) {
	spec = strings.TrimSpace(spec)
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		return nil, fmt.Errorf("CRON_TZ or TZ in schedule %q is not supported; use spec.timeZone", spec)
	}
	if d, ok := cronDescriptors[spec]; ok {
		spec = d
	} else if strings.HasPrefix(spec, "@") {
		return nil, fmt.Errorf("unrecognized descriptor: %s", spec)
	}
	f := strings.Fields(spec)
	if len(f) != 5 {
		return nil, fmt.Errorf("expected exactly 5 fields, found %d: %s", len(f), spec)
	}
	s := &CronSchedule{}
	var err error
	if s.minute, _, err = parseCronField(f[0], 0, 59, nil); err != nil {
		return nil, err
	}
	if s.hour, _, err = parseCronField(f[1], 0, 23, nil); err != nil {
		return nil, err
	}
	if s.dom, s.domStar, err = parseCronField(f[2], 1, 31, nil); err != nil {
		return nil, err
	}
	if s.month, _, err = parseCronField(f[3], 1, 12, monthNames); err != nil {
		return nil, err
	}
	if s.dow, s.dowStar, err = parseCronField(f[4], 0, 7, dowNames); err != nil {
		return nil, err
	}
	if s.dow&(1<<7) != 0 { // 7 is Sunday too
		s.dow |= 1
	}
	return s, nil
}

// parseCronField parses one comma-separated field into a bit set; star
// reports a field that is "*" or "?" (possibly with a step of 1).
func parseCronField(field string, lo, hi int, names map[string]int) (uint64, bool, error) {
	var bits uint64
	star := false
	for _, part := range strings.Split(field, ",") {
		rangePart, stepPart, hasStep := strings.Cut(part, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepPart)
			if err != nil || n <= 0 {
				return 0, false, fmt.Errorf("invalid step %q in %q", stepPart, field)
			}
			step = n
		}
		var from, to int
		switch {
		case rangePart == "*" || rangePart == "?":
			from, to = lo, hi
			if step == 1 {
				star = true
			}
		default:
			a, b, isRange := strings.Cut(rangePart, "-")
			var err error
			if from, err = cronValue(a, names); err != nil {
				return 0, false, fmt.Errorf("%w in %q", err, field)
			}
			to = from
			if isRange {
				if to, err = cronValue(b, names); err != nil {
					return 0, false, fmt.Errorf("%w in %q", err, field)
				}
			} else if hasStep {
				to = hi
			}
		}
		if from < lo || to > hi || from > to {
			return 0, false, fmt.Errorf("value out of range (%d-%d): %s", lo, hi, part)
		}
		for v := from; v <= to; v += step {
			bits |= 1 << uint(v)
		}
	}
	return bits, star, nil
}

func cronValue(s string, names map[string]int) (int, error) {
	if v, ok := names[strings.ToLower(s)]; ok {
		return v, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("failed to parse int from %s", s)
	}
	return n, nil
}

func (s *CronSchedule) dayMatches(t time.Time) bool {
	dom := s.dom&(1<<uint(t.Day())) != 0
	dow := s.dow&(1<<uint(t.Weekday())) != 0
	if s.domStar || s.dowStar {
		return dom && dow
	}
	return dom || dow
}

// Next returns the first schedule time strictly after t (zero if none
// within five years), as robfig/cron SpecSchedule.Next.
func (s *CronSchedule) Next(t time.Time) time.Time {
	t = t.Add(time.Minute - time.Duration(t.Nanosecond())*time.Nanosecond - time.Duration(t.Second())*time.Second)
	limit := t.Year() + 5
	for t.Year() <= limit {
		if s.month&(1<<uint(t.Month())) == 0 {
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, t.Location())
			continue
		}
		if !s.dayMatches(t) {
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, t.Location())
			continue
		}
		if s.hour&(1<<uint(t.Hour())) == 0 {
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour()+1, 0, 0, 0, t.Location())
			continue
		}
		if s.minute&(1<<uint(t.Minute())) == 0 {
			t = t.Add(time.Minute)
			continue
		}
		return t
	}
	return time.Time{}
}
