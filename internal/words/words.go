// Package words reads numbers and durations as people write them, for
// every text a person reads: the engine's sentences (internal/game, which
// forwards to it) and the pure rules' refusals (internal/rules, which may
// not depend on the engine). One function for each, so a duration reads
// the same in a refusal, a view and the log.
package words

import (
	"strconv"
	"time"
)

// Count is "1 card" or "3 cards".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Duration reads d as people do: "7 days", "4 days 15 hours", "48
// hours", "1 hour 30 minutes", "45 seconds", never "168h0m0s". Up to three
// days it counts hours; beyond, days and the hours left (no minutes).
func Duration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	const day = 24 * time.Hour
	switch {
	case d == 0:
		return "no time"
	case d >= 3*day:
		s := Count(int(d/day), "day", "days")
		if h := int(d % day / time.Hour); h > 0 {
			s += " " + Count(h, "hour", "hours")
		}
		return s
	case d >= time.Hour:
		s := Count(int(d/time.Hour), "hour", "hours")
		if m := int(d % time.Hour / time.Minute); m > 0 {
			s += " " + Count(m, "minute", "minutes")
		}
		return s
	case d >= time.Minute:
		return Count(int(d/time.Minute), "minute", "minutes")
	}
	return Count(int(d/time.Second), "second", "seconds")
}
