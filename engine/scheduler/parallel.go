package scheduler

import "sync"

// minChunk is the smallest number of items worth a goroutine: below it the
// hand-off costs more than the work.
const minChunk = 64

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
