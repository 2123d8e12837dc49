package words

import (
	"testing"
	"time"
)

// People read durations in words, never as Go prints them (issue 24:
// "168h0m0s", "in 39h0m0s").
func TestDurationReadsAsWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                           "no time",
		45 * time.Second:            "45 seconds",
		time.Minute:                 "1 minute",
		90 * time.Minute:            "1 hour 30 minutes",
		time.Hour:                   "1 hour",
		24 * time.Hour:              "24 hours",
		39 * time.Hour:              "39 hours",
		48 * time.Hour:              "48 hours",
		72 * time.Hour:              "3 days",
		111 * time.Hour:             "4 days 15 hours",
		168 * time.Hour:             "7 days",
		169*time.Hour + time.Minute: "7 days 1 hour",
		-(24 * time.Hour):           "24 hours",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestCountSaysOneInTheSingular(t *testing.T) {
	if got := Count(1, "Chip", "Chips"); got != "1 Chip" {
		t.Errorf("Count(1) = %q", got)
	}
	if got := Count(0, "Chip", "Chips"); got != "0 Chips" {
		t.Errorf("Count(0) = %q", got)
	}
}

// Ago reads the phrases people use to name a moment back from now, and
// nothing else: a typo is not read as some other moment.
func TestAgoReadsHowLongAgoPeopleSay(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"2 days ago":      48 * time.Hour,
		"3 hours ago":     3 * time.Hour,
		"an hour ago":     time.Hour,
		"a week ago":      7 * 24 * time.Hour,
		"90 minutes ago":  90 * time.Minute,
		"1 day ago":       24 * time.Hour,
		"yesterday":       24 * time.Hour,
		" 2  Days  Ago ":  48 * time.Hour,
		"45 seconds ago":  45 * time.Second,
		"0 minutes ago":   0,
		"10 weeks ago":    70 * 24 * time.Hour,
		"Yesterday":       24 * time.Hour,
		"3 hour ago":      3 * time.Hour,
		"12 minute ago":   12 * time.Minute,
		"1 hours ago":     time.Hour,
		"2 days  ago":     48 * time.Hour,
		"100 seconds ago": 100 * time.Second,
	} {
		if got, ok := Ago(s); !ok || got != want {
			t.Errorf("Ago(%q) = %v %v, want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "ago", "2 days", "in 2 days", "2 fortnights ago", "two days ago", "-2 days ago", "2 days ago please", "tomorrow", "2026-12-01"} {
		if d, ok := Ago(s); ok {
			t.Errorf("Ago(%q) = %v, want no moment", s, d)
		}
	}
}
