package scheduler

import "sync"

// minChunk is the smallest number of items worth a goroutine: below it the
// hand-off costs more than the work. Starting a goroutine and waking an
// idle P for it (newproc, wakep, a futex) costs a few CPU microseconds;
// filtering or scoring a node costs tens of nanoseconds, so at 64 a
// cluster of 500 nodes spent about as much CPU handing off its three
// phases as it saved, and was slower in wall time too (BenchmarkDayHPA,
// docs/benchmarks.md). 5,000 nodes still use every worker.
const minChunk = 256

// parallelize splits [0,n) into at most workers contiguous chunks, fixed by
// n alone, and runs fn on each; it returns the number of chunks, the last one on the calling goroutine. The
// partition never depends on timing, and every fn writes only its own
// slots, so results are the same for any number of workers.
func parallelize(workers, n int, fn func(worker, lo, hi int)) int {
	if workers > n/minChunk {
		workers = n / minChunk
	}
	if workers <= 1 {
		fn(0, 0, n)
		return 1
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers-1; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, lo, hi)
		}()
	}
	fn(workers-1, (workers-1)*chunk, n)
	wg.Wait()
	return workers
}

// runWorkers runs fn(0..workers-1), the last on the calling goroutine.
func runWorkers(workers int, fn func(worker int)) {
	if workers <= 1 {
		fn(0)
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers-1; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w)
		}()
	}
	fn(workers - 1)
	wg.Wait()
}
