package lab

import (
	"fmt"
	"io"

	"podlab.dev/podlab/lab/check"
)

// WriteCheckHelp lists the check functions a lesson's checks use, with
// their usage, for `podlab help checks` (where a check that does not
// parse points the author).
func WriteCheckHelp(w io.Writer) {
	fmt.Fprintln(w, "Lesson checks: expressions over the cluster, e.g. skew(deployment/web, zone) <= 1")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Functions:")
	for _, f := range check.Funcs() {
		fmt.Fprintf(w, "  %s\n      %s\n", f.Usage, f.Help)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "A call can name a fork's lane: pending@b(deployment/web).")
	fmt.Fprintln(w, "operators: == != < <= > >= in ([a, b] lists or a domain name), && || ! (and or not)")
}
