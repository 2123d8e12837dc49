// Package when reads a moment of the past as people type it ("2 days
// ago", "yesterday 18:00", "2026-12-01 18:00"), for every edge that asks
// for one: chat's at: option, the CLI's --at. The grammar is small on
// purpose, so that its one sentence (Grammar) says all of it and every
// edge reads a time the same way; anything else is refused with that
// sentence rather than guessed.
package when

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Grammar is what Parse reads, in words, for an option's or a flag's help.
const Grammar = `a time such as "2026-12-01 18:00" (in the game's zone), "2026-12-01T18:00:00Z" (RFC 3339), ` +
	`"18:00" (today), "yesterday 18:00", "yesterday" (this time yesterday), "2 days ago" ` +
	`(seconds, minutes, hours, days or weeks)`

// Parse reads text as a moment, given the time now and the zone in which a
// time without a zone is meant (the game's own: RULINGS T1, T3):
//
//   - RFC 3339, zone included: "2026-12-01T18:00:00Z", "2026-12-01T12:00:00-06:00";
//   - a date and a time in zone: "2026-12-01 18:00", "2026-12-01 18:00:30",
//     "2026-12-01T18:00"; a date alone is its midnight;
//   - a time of today or yesterday in zone: "18:00", "today 18:00",
//     "yesterday 18:00"; "yesterday" alone is this time yesterday;
//   - a span before now: "2 days ago", "1 hour ago", "an hour ago",
//     "90 minutes ago", "3 weeks ago" (days and weeks are calendar days
//     in zone, so a day across a change of summer time is still a day).
//
// Words are read in any case. It does not refuse a moment in the future:
// whoever reads the moment says what it means then.
func Parse(text string, now time.Time, zone *time.Location) (time.Time, error) {
	if zone == nil {
		zone = time.UTC
	}
	s := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	if s == "" {
		return time.Time{}, fmt.Errorf("no time was given: give %s", Grammar)
	}
	if t, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02t15:04", "2006-01-02t15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, zone); err == nil {
			return t, nil
		}
	}
	local := now.In(zone)
	day := func(back int, clock string) (time.Time, bool) {
		c, err := time.Parse("15:04", clock)
		if err != nil {
			return time.Time{}, false
		}
		y, m, d := local.Date()
		return time.Date(y, m, d-back, c.Hour(), c.Minute(), 0, 0, zone), true
	}
	switch {
	case s == "yesterday":
		return local.AddDate(0, 0, -1), nil
	case strings.HasPrefix(s, "yesterday "):
		if t, ok := day(1, strings.TrimPrefix(s, "yesterday ")); ok {
			return t, nil
		}
	case strings.HasPrefix(s, "today "):
		if t, ok := day(0, strings.TrimPrefix(s, "today ")); ok {
			return t, nil
		}
	case strings.HasSuffix(s, " ago"):
		return ago(strings.TrimSuffix(s, " ago"), local, text)
	default:
		if t, ok := day(0, s); ok {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time this reads: give %s", strings.TrimSpace(text), Grammar)
}

// ago reads "2 days" (of "2 days ago") back from local.
func ago(span string, local time.Time, text string) (time.Time, error) {
	n, unit, ok := strings.Cut(span, " ")
	if !ok {
		return time.Time{}, fmt.Errorf("%q says no span: give a number and a unit, such as \"2 days ago\"", strings.TrimSpace(text))
	}
	count, err := strconv.Atoi(n)
	switch {
	case n == "a" || n == "an":
		count, err = 1, nil
	case err != nil || count < 0:
		return time.Time{}, fmt.Errorf("%q is not a whole number of %s: give one such as \"2 days ago\"", n, unit)
	}
	unit = strings.TrimSuffix(unit, "s")
	switch unit {
	case "second", "sec":
		return local.Add(-time.Duration(count) * time.Second), nil
	case "minute", "min":
		return local.Add(-time.Duration(count) * time.Minute), nil
	case "hour":
		return local.Add(-time.Duration(count) * time.Hour), nil
	case "day":
		return local.AddDate(0, 0, -count), nil
	case "week":
		return local.AddDate(0, 0, -7*count), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a unit of time this reads: give seconds, minutes, hours, days or weeks, such as \"2 days ago\"", unit)
}
