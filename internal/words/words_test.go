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
