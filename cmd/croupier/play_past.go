package main

import (
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/when"

	"github.com/oklog/ulid/v2"
)

// Every read of croupier play takes --at T (issue 25): the game as it was
// then, read through the API's ?at= (client.Client.At). T is what a person
// gives: an RFC 3339 time, "2 days ago", "3 hours ago", "yesterday"
// (counted back from the server's clock, which may be a manual one), a log
// entry's id (the moment just after it, as the log lists it), or
// before:<id> / after:<id>. A command with --at is refused by the server:
// the past is read-only.

// momentOf is the API's moment for T; now is the server's clock and zone
// the game's, read only for a time that needs them (internal/when: the
// one reader of people's times, which chat's at: option reads too).
func momentOf(t string, now func() (time.Time, *time.Location, error)) (string, error) {
	s := strings.TrimSpace(t)
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "before:"), strings.HasPrefix(lower, "after:"):
		return lower[:strings.Index(lower, ":")+1] + strings.ToUpper(s[strings.Index(s, ":")+1:]), nil
	case len(s) == ulid.EncodedSize:
		if _, err := ulid.ParseStrict(strings.ToUpper(s)); err == nil {
			return "after:" + strings.ToUpper(s), nil
		}
	}
	if at, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return at.UTC().Format(time.RFC3339Nano), nil
	}
	n, zone, err := now()
	if err != nil {
		return "", err
	}
	at, err := when.Parse(s, n, zone)
	if err != nil {
		return "", usagef("--at %q is not a moment: give %s, or a log entry's id (just after it; before:ID for just before it)", t, when.Grammar)
	}
	return at.UTC().Format(time.RFC3339Nano), nil
}

// asOfText says which moment a read shows, in the game's zone (UTC for a
// game without one): "As of Tue 1 Dec 18:00 UTC (after entry 01K…)."
func asOfText(a game.AsOf, zone string) string {
	when := calendar.When(calendar.Location(zone), a.At)
	m, err := game.ParseMoment(a.Asked)
	switch {
	case err == nil && m.Entry != "" && m.After:
		return "As of " + when + ", just after entry " + m.Entry + "."
	case err == nil && m.Entry != "" && a.Entry == "":
		return "As of " + when + ", just before entry " + m.Entry + ", the first."
	case err == nil && m.Entry != "":
		return "As of " + when + ", just before entry " + m.Entry + " (after entry " + a.Entry + ")."
	case a.Entry == "":
		return "As of " + when + " (before the first entry)."
	}
	return "As of " + when + " (after entry " + a.Entry + ")."
}
