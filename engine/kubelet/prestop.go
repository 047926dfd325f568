package kubelet

import (
	"path"
	"strings"
	"time"

	"podlab.dev/podlab/engine/api"
)

// PreStopDuration is how long a container's preStop hook runs, read from
// real fields: lifecycle.preStop.sleep.seconds, or an exec hook that
// sleeps (command ["sleep", "N"], or an `sh -c` string whose last command
// is `sleep N`). Other hooks (httpGet, other commands) take no time.
// ok is false when the container has no preStop hook.
func PreStopDuration(c *api.Container) (d time.Duration, ok bool) {
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil {
		return 0, false
	}
	h := c.Lifecycle.PreStop
	if h.SleepSeconds != nil {
		return api.SecondsDuration(*h.SleepSeconds), true
	}
	return execSleep(h.ExecCommand), true
}

// execSleep finds the sleep of an exec hook's command line.
func execSleep(cmd []string) time.Duration {
	if len(cmd) == 0 {
		return 0
	}
	base := path.Base(cmd[0])
	if base == "sleep" && len(cmd) >= 2 {
		return parseSleepArg(cmd[1])
	}
	if (base == "sh" || base == "bash" || base == "ash" || base == "dash") && len(cmd) >= 3 && cmd[1] == "-c" {
		return shellLastSleep(cmd[2])
	}
	return 0
}

// shellLastSleep takes the last command of a shell string (separated by
// ';', '&&', '||' or newlines) and returns its sleep, if it is one.
func shellLastSleep(script string) time.Duration {
	s := strings.NewReplacer("&&", ";", "||", ";", "\n", ";").Replace(script)
	parts := strings.Split(s, ";")
	for i := len(parts) - 1; i >= 0; i-- {
		p := strings.TrimSpace(parts[i])
		if p == "" {
			continue
		}
		f := strings.Fields(p)
		if len(f) >= 2 && path.Base(f[0]) == "sleep" {
			return parseSleepArg(f[1])
		}
		return 0
	}
	return 0
}

// parseSleepArg reads coreutils sleep's argument: seconds, optionally
// with an s/m/h/d suffix.
func parseSleepArg(a string) time.Duration {
	mult := time.Second
	switch {
	case strings.HasSuffix(a, "s"):
		a = strings.TrimSuffix(a, "s")
	case strings.HasSuffix(a, "m"):
		a, mult = strings.TrimSuffix(a, "m"), time.Minute
	case strings.HasSuffix(a, "h"):
		a, mult = strings.TrimSuffix(a, "h"), time.Hour
	case strings.HasSuffix(a, "d"):
		a, mult = strings.TrimSuffix(a, "d"), 24*time.Hour
	}
	d, err := ParseLabDuration(a)
	if err != nil {
		return 0
	}
	return time.Duration(float64(d) / float64(time.Second) * float64(mult))
}
