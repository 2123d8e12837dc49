package when

import (
	"strings"
	"testing"
	"time"

	"croupier/internal/rules/calendar"
)

// Wednesday 2 December 2026, 15:30 UTC: 09:30 CST in a turns game.
var now = time.Date(2026, 12, 2, 15, 30, 0, 0, time.UTC)

// What people type reads as the moment they mean, a time without a zone
// in the game's own zone.
func TestParseReadsTimesAsPeopleTypeThem(t *testing.T) {
	chicago := calendar.Chicago()
	for _, c := range []struct {
		text string
		zone *time.Location
		want time.Time
	}{
		{"2026-12-01T18:00:00Z", time.UTC, time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01T12:00:00-06:00", time.UTC, time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01t18:00:00z", chicago, time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01 18:00", time.UTC, time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01 18:00", chicago, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)},
		{"2026-12-01 18:00:30", time.UTC, time.Date(2026, 12, 1, 18, 0, 30, 0, time.UTC)},
		{"2026-12-01T18:00", time.UTC, time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01", time.UTC, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{"  2 days   ago ", time.UTC, now.AddDate(0, 0, -2)},
		{"1 day ago", time.UTC, now.AddDate(0, 0, -1)},
		{"an hour ago", time.UTC, now.Add(-time.Hour)},
		{"90 Minutes Ago", time.UTC, now.Add(-90 * time.Minute)},
		{"30 secs ago", time.UTC, now.Add(-30 * time.Second)},
		{"3 weeks ago", time.UTC, now.AddDate(0, 0, -21)},
		{"yesterday", time.UTC, now.AddDate(0, 0, -1)},
		{"yesterday 18:00", time.UTC, time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		// Yesterday in Chicago is 1 December there: 18:00 CST is 00:00 UTC.
		{"Yesterday 18:00", chicago, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)},
		{"today 08:00", time.UTC, time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)},
		{"08:00", chicago, time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)},
	} {
		got, err := Parse(c.text, now, c.zone)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("Parse(%q, %s) = %v, %v; want %v", c.text, c.zone, got.UTC(), err, c.want.UTC())
		}
	}
}

// A day back across the end of summer time is a calendar day in the
// game's zone, not 24 hours.
func TestParseDaysAreCalendarDays(t *testing.T) {
	chicago := calendar.Chicago()
	after := time.Date(2026, 11, 2, 12, 0, 0, 0, chicago) // summer time ended 1 November
	got, err := Parse("2 days ago", after, chicago)
	if want := time.Date(2026, 10, 31, 12, 0, 0, 0, chicago); err != nil || !got.Equal(want) {
		t.Errorf("2 days ago = %v, %v; want %v (noon then too)", got, err, want)
	}
}

// Anything else is refused with a sentence that says what is read.
func TestParseRefusesWithTheGrammar(t *testing.T) {
	for text, want := range map[string]string{
		"":               "no time was given",
		"last tuesday":   `"last tuesday" is not a time this reads: give a time such as "2026-12-01 18:00"`,
		"2026-13-01":     "is not a time this reads",
		"yesterday noon": "is not a time this reads",
		"25:00":          "is not a time this reads",
		"ago":            "is not a time this reads",
		"days ago":       "says no span",
		"two days ago":   `"two" is not a whole number of days`,
		"-2 days ago":    `"-2" is not a whole number`,
		"2 months ago":   `"month" is not a unit of time this reads`,
	} {
		_, err := Parse(text, now, time.UTC)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", text, err, want)
		}
	}
}
