package serve

import "time"

// burst is how many seconds' worth of input may arrive at once.
const burst = 4

// bucket is a token bucket for a participant's input: rate tokens a
// second, up to four times that banked, so bursts (a command pasted by a
// terminal without bracketed paste arrives as one key per character) pass
// while a key held down or a script flooding the session does not. rate 0
// means no limit.
type bucket struct {
	rate   float64
	tokens float64
	last   time.Time
}

func newBucket(rate int, now time.Time) bucket {
	return bucket{rate: float64(rate), tokens: burst * float64(rate), last: now}
}

// take spends a token at now, reporting whether there was one.
func (b *bucket) take(now time.Time) bool {
	if b.rate <= 0 {
		return true
	}
	b.tokens = min(burst*b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
