package calendar

import (
	"strings"
	"testing"
	"time"
)

// TestT3_ChicagoDST: turn moments are Chicago wall-clock times, so their UTC
// instants move by an hour across the 2026 changes (DST starts Sunday
// 2026-03-08 02:00 CST, ends Sunday 2026-11-01 02:00 CDT).
func TestT3_ChicagoDST(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		at                            time.Time
		begin, middle, end, nextBegin time.Time
	}{
		{"turn before DST starts (CST)", utc(2026, 3, 4, 12, 0),
			cst(2026, 3, 2, 22), cst(2026, 3, 5, 10), cst(2026, 3, 7, 22), cdt(2026, 3, 9, 22)},
		{"first turn after DST starts (CDT)", utc(2026, 3, 11, 12, 0),
			cdt(2026, 3, 9, 22), cdt(2026, 3, 12, 10), cdt(2026, 3, 14, 22), cdt(2026, 3, 16, 22)},
		{"last turn before DST ends (CDT)", utc(2026, 10, 28, 12, 0),
			cdt(2026, 10, 26, 22), cdt(2026, 10, 29, 10), cdt(2026, 10, 31, 22), cst(2026, 11, 2, 22)},
		{"first turn after DST ends (CST)", utc(2026, 11, 4, 12, 0),
			cst(2026, 11, 2, 22), cst(2026, 11, 5, 10), cst(2026, 11, 7, 22), cst(2026, 11, 9, 22)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tu := TurnAt(tc.at)
			if !tu.Begin.Equal(tc.begin) || !tu.Middle.Equal(tc.middle) || !tu.End.Equal(tc.end) || !tu.NextBegin.Equal(tc.nextBegin) {
				t.Errorf("TurnAt(%s) = %+v\nwant begin %s middle %s end %s next %s", tc.at, tu,
					tc.begin.UTC(), tc.middle.UTC(), tc.end.UTC(), tc.nextBegin.UTC())
			}
		})
	}
	// The two turns the ruling names, in UTC.
	if b := TurnAt(utc(2026, 3, 10, 12, 0)).Begin; b != utc(2026, 3, 10, 3, 0) {
		t.Errorf("turn beginning Monday 2026-03-09 22:00 CDT = %s, want 03:00 UTC Tuesday", b)
	}
	if b := TurnAt(utc(2026, 3, 3, 12, 0)).Begin; b != utc(2026, 3, 3, 4, 0) {
		t.Errorf("turn beginning Monday 2026-03-02 22:00 CST = %s, want 04:00 UTC Tuesday", b)
	}
}

func TestT3_InterimAcrossDSTChange(t *testing.T) {
	for _, tc := range []struct {
		name           string
		at             time.Time
		interim, whole time.Duration
	}{
		{"ordinary week", utc(2026, 6, 10, 0, 0), 48 * time.Hour, 168 * time.Hour},
		{"DST starts inside the interim: 1h shorter", utc(2026, 3, 4, 0, 0), 47 * time.Hour, 167 * time.Hour},
		{"DST ends inside the interim: 1h longer", utc(2026, 10, 28, 0, 0), 49 * time.Hour, 169 * time.Hour},
	} {
		tu := TurnAt(tc.at)
		in := tu.Periods()[2]
		if in.Kind != KindInterim || in.End.Sub(in.Start) != tc.interim || tu.NextBegin.Sub(tu.Begin) != tc.whole {
			t.Errorf("%s: interim %s lasts %v (week %v), want %v (%v)", tc.name, in.ID,
				in.End.Sub(in.Start), tu.NextBegin.Sub(tu.Begin), tc.interim, tc.whole)
		}
		// The turn halves themselves never contain a change: 60h and 60h.
		halves := tu.Periods()
		for _, p := range halves[:2] {
			if p.End.Sub(p.Start) != 60*time.Hour {
				t.Errorf("%s: %s lasts %v, want 60h", tc.name, p.ID, p.End.Sub(p.Start))
			}
		}
	}
}

func TestT3_PeriodBoundaries(t *testing.T) {
	s := Turns{}
	for _, tc := range []struct {
		name     string
		at       time.Time
		id, kind string
	}{
		{"Monday 22:00 begins the turn", cst(2026, 11, 30, 22), "2026-11-30T22:00-0600.1-first-half", KindTurnFirstHalf},
		{"1ns before is the previous interim", cst(2026, 11, 30, 22).Add(-ns), "2026-11-23T22:00-0600.3-interim", KindInterim},
		{"Monday morning is still the interim", cst(2026, 11, 30, 9), "2026-11-23T22:00-0600.3-interim", KindInterim},
		{"Thursday 10:00 is the middle", cst(2026, 12, 3, 10), "2026-11-30T22:00-0600.2-latter-half", KindTurnLatterHalf},
		{"1ns before the middle", cst(2026, 12, 3, 10).Add(-ns), "2026-11-30T22:00-0600.1-first-half", KindTurnFirstHalf},
		{"Saturday 22:00 ends the turn", cst(2026, 12, 5, 22), "2026-11-30T22:00-0600.3-interim", KindInterim},
		{"1ns before the end", cst(2026, 12, 5, 22).Add(-ns), "2026-11-30T22:00-0600.2-latter-half", KindTurnLatterHalf},
		{"summer turn carries the CDT offset", cdt(2026, 7, 6, 22), "2026-07-06T22:00-0500.1-first-half", KindTurnFirstHalf},
		{"year boundary", cst(2027, 1, 1, 12), "2026-12-28T22:00-0600.2-latter-half", KindTurnLatterHalf},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := s.PeriodAt(tc.at)
			if p.ID != tc.id || p.Kind != tc.kind || !p.Contains(tc.at) {
				t.Errorf("PeriodAt(%s) = %+v, want %s (%s)", tc.at, p, tc.id, tc.kind)
			}
		})
	}
}

func TestT3_YearOfTurns(t *testing.T) {
	ps := walkYear(t, Turns{}, cst(2026, 1, 5, 22), cst(2027, 1, 4, 22))
	if len(ps) != 3*52 {
		t.Fatalf("got %d periods in 52 game weeks, want 156", len(ps))
	}
	wall := map[string]struct {
		day  time.Weekday
		hour int
	}{
		KindTurnFirstHalf:  {time.Monday, 22},
		KindTurnLatterHalf: {time.Thursday, 10},
		KindInterim:        {time.Saturday, 22},
	}
	for _, p := range ps {
		l := p.Start.In(Chicago())
		if w := wall[p.Kind]; l.Weekday() != w.day || l.Hour() != w.hour || l.Minute() != 0 {
			t.Errorf("%s starts %s local, want %s %02d:00", p.ID, l, w.day, w.hour)
		}
	}
}

func TestT3_ParseRejectsJunk(t *testing.T) {
	for id, want := range map[string]string{
		"":                                    "want <Monday>T22:00<offset>.<part>",
		"2026-11-30T22:00-0600":               "want <Monday>T22:00<offset>.<part>",
		"2026-11-30T22:00-0600.first":         `part "first" is not`,
		"2026-11-30T22:00-0600.1-first-half.": `part "1-first-half." is not`,
		"2026-11-31T22:00-0600.3-interim":     `"2026-11-31" is not a date`,
		"2026-12-01T22:00-0600.1-first-half":  "2026-12-01 is a Tuesday; turns begin on Mondays",
		"2026-11-30T21:00-0600.1-first-half":  "the turn beginning that day is 2026-11-30T22:00-0600",
		"2026-07-06T22:00-0600.1-first-half":  "the turn beginning that day is 2026-07-06T22:00-0500",
		"2026-11-30T22:00Z.1-first-half":      "is not a turn beginning",
		"2026-W49-I":                          "want <Monday>T22:00<offset>.<part>",
	} {
		_, err := Turns{}.Parse(id)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"`+id+`"`) {
			t.Errorf("Parse(%q) error = %v, want it to quote the id and say %q", id, err, want)
		}
	}
}

func TestT3_TurnOrdinal(t *testing.T) {
	roundStart := cst(2026, 2, 25, 15) // a Wednesday: the first turn begins Monday 2026-03-02 22:00 CST
	for _, tc := range []struct {
		name string
		at   time.Time
		want int
	}{
		{"round started, no turn begun", cst(2026, 2, 28, 12), 0},
		{"1ns before the first turn", cst(2026, 3, 2, 22).Add(-ns), 0},
		{"first turn begins", cst(2026, 3, 2, 22), 1},
		{"first turn's interim, across DST start", cdt(2026, 3, 9, 21), 1},
		{"second turn begins in CDT", cdt(2026, 3, 9, 22), 2},
		{"across DST end", cst(2026, 11, 2, 22), 36},
		{"the week before", cdt(2026, 10, 26, 22), 35},
	} {
		if got := TurnOrdinal(roundStart, tc.at); got != tc.want {
			t.Errorf("%s: TurnOrdinal = %d, want %d", tc.name, got, tc.want)
		}
	}
	// A round starting exactly at a turn's beginning: that turn is the first.
	if got := TurnOrdinal(cst(2026, 3, 2, 22), cst(2026, 3, 3, 1)); got != 1 {
		t.Errorf("round starting at a turn beginning: ordinal %d, want 1", got)
	}
	if got, ok := TurnDesignation(3, roundStart, cdt(2026, 3, 10, 8)); !ok || got != "3-2" {
		t.Errorf("TurnDesignation = %q, %v; want 3-2", got, ok)
	}
	if _, ok := TurnDesignation(3, roundStart, roundStart); ok {
		t.Error("TurnDesignation before the first turn succeeded")
	}
}

// A turns period reads by its turn in the game's zone, across daylight
// saving; a phase's id is left as it is.
func TestT3_PeriodWords(t *testing.T) {
	for id, want := range map[string]string{
		"2026-03-02T22:00-0600.1-first-half":  "the first half of the turn beginning Mon 2 Mar 22:00 CST",
		"2026-03-09T22:00-0500.2-latter-half": "the latter half of the turn beginning Mon 9 Mar 22:00 CDT",
		"2026-10-26T22:00-0500.3-interim":     "the interim after the turn beginning Mon 26 Oct 22:00 CDT",
		"2026-W10-I":                          "2026-W10-I",
		"2026-03-03T22:00-0600.1-first-half":  "2026-03-03T22:00-0600.1-first-half", // a Tuesday: not a period
	} {
		if got := PeriodWords(id); got != want {
			t.Errorf("PeriodWords(%q) = %q, want %q", id, got, want)
		}
	}
	if Location("America/Chicago") != Chicago() || Location("") != time.UTC || Zone(ChicagoTurns) != Chicago() || Zone(UTCPhases) != time.UTC {
		t.Error("the zones of the calendars are not Chicago for the turns and UTC otherwise")
	}
}
