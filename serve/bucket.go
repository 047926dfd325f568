package serve

import "time"

// bucket is a token bucket for a participant's input: rate tokens a
// second, up to twice that banked, so bursts (a quick double key, a
// paste) pass while a key held down or a script flooding the session does
// not. rate 0 means no limit.
type bucket struct {
	rate   float64
	tokens float64
	last   time.Time
}

func newBucket(rate int, now time.Time) bucket {
	return bucket{rate: float64(rate), tokens: 2 * float64(rate), last: now}
}

// take spends a token at now, reporting whether there was one.
func (b *bucket) take(now time.Time) bool {
	if b.rate <= 0 {
		return true
	}
	b.tokens = min(2*b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
