package main

import (
	"fmt"
	"io"
	"os"
)

// importProgress prints a big import's progress on stderr when stderr is
// a terminal (one line, redrawn; finished with a newline).
func importProgress(stderr io.Writer, name string) func(done, total int) {
	f, ok := stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(done, total int) {
		const width = 30
		filled := width * done / max(total, 1)
		bar := make([]byte, width)
		for i := range bar {
			bar[i] = '-'
			if i < filled {
				bar[i] = '#'
			}
		}
		fmt.Fprintf(stderr, "\rloading %s [%s] %d/%d objects", name, bar, done, total)
		if done >= total {
			fmt.Fprintln(stderr)
		}
	}
}
