// Package words reads numbers and durations as people write them, for
// every text a person reads: the engine's sentences (internal/game, which
// forwards to it) and the pure rules' refusals (internal/rules, which may
// not depend on the engine). One function for each, so a duration reads
// the same in a refusal, a view and the log.
package words

import (
	"strconv"
	"strings"
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

// agoUnits are the units a person counts back in ("3 hours ago").
var agoUnits = map[string]time.Duration{
	"second": time.Second, "minute": time.Minute, "hour": time.Hour,
	"day": 24 * time.Hour, "week": 7 * 24 * time.Hour,
}

// Ago reads how long ago a person means, as they say it: "2 days ago",
// "3 hours ago", "an hour ago", "a week ago", "90 minutes ago", or
// "yesterday" (a day ago). A day is 24 hours: "2 days ago" is the same
// clock time two days back. ok is false for anything else.
func Ago(s string) (d time.Duration, ok bool) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 1 && f[0] == "yesterday" {
		return 24 * time.Hour, true
	}
	if len(f) != 3 || f[2] != "ago" {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	switch {
	case f[0] == "a" || f[0] == "an":
		n, err = 1, nil
	case err != nil || n < 0 || n > 100000:
		return 0, false
	}
	// "3 hour ago" and "1 days ago" are forgiven: the count says it.
	unit, ok := agoUnits[strings.TrimSuffix(f[1], "s")]
	if !ok {
		return 0, false
	}
	return time.Duration(n) * unit, true
}
