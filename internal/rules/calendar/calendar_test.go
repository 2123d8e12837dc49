package calendar

import (
	"strings"
	"testing"
	"time"

	"croupier/internal/ruleset"

	"pgregory.net/rapid"
)

func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

func cdt(y int, m time.Month, d, h int) time.Time { // fixed offsets so tests do not trust the zone code
	return time.Date(y, m, d, h, 0, 0, 0, time.FixedZone("CDT", -5*3600))
}

func cst(y int, m time.Month, d, h int) time.Time {
	return time.Date(y, m, d, h, 0, 0, 0, time.FixedZone("CST", -6*3600))
}

const ns = time.Nanosecond

func TestFor(t *testing.T) {
	for _, kind := range []string{UTCPhases, ChicagoTurns} {
		s, err := For(kind)
		if err != nil || s.Name() != kind {
			t.Errorf("For(%q) = %v, %v", kind, s, err)
		}
	}
	if _, err := For("lunar"); err == nil || !strings.Contains(err.Error(), `"lunar"`) {
		t.Errorf("For(lunar) error = %v, want one naming the kind", err)
	}
	// Every ruleset's calendar must be one this package implements (R1).
	for _, id := range ruleset.IDs() {
		r, err := ruleset.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := For(r.Calendar); err != nil {
			t.Errorf("ruleset %s: %v", id, err)
		}
	}
}

func TestT1_PhaseBoundaries(t *testing.T) {
	for _, tc := range []struct {
		name       string
		at         time.Time
		id, kind   string
		start, end time.Time
	}{
		{"Monday 00:00 starts Phase I", utc(2026, 11, 30, 0, 0), "2026-W49-I", KindPhase1, utc(2026, 11, 30, 0, 0), utc(2026, 12, 4, 0, 0)},
		{"1ns before Monday is last week's Phase II", utc(2026, 11, 30, 0, 0).Add(-ns), "2026-W48-II", KindPhase2, utc(2026, 11, 27, 0, 0), utc(2026, 11, 30, 0, 0)},
		{"Thursday evening", utc(2026, 12, 3, 23, 59), "2026-W49-I", KindPhase1, utc(2026, 11, 30, 0, 0), utc(2026, 12, 4, 0, 0)},
		{"1ns before Friday is Phase I", utc(2026, 12, 4, 0, 0).Add(-ns), "2026-W49-I", KindPhase1, utc(2026, 11, 30, 0, 0), utc(2026, 12, 4, 0, 0)},
		{"Friday 00:00 starts Phase II", utc(2026, 12, 4, 0, 0), "2026-W49-II", KindPhase2, utc(2026, 12, 4, 0, 0), utc(2026, 12, 7, 0, 0)},
		{"Sunday night", utc(2026, 12, 6, 23, 59), "2026-W49-II", KindPhase2, utc(2026, 12, 4, 0, 0), utc(2026, 12, 7, 0, 0)},
		{"local time is read as UTC", time.Date(2026, 12, 4, 1, 0, 0, 0, time.FixedZone("EET", 2*3600)), "2026-W49-I", KindPhase1, utc(2026, 11, 30, 0, 0), utc(2026, 12, 4, 0, 0)},
		{"ISO week 53 of 2026 starts Monday 28 December", utc(2026, 12, 28, 0, 0), "2026-W53-I", KindPhase1, utc(2026, 12, 28, 0, 0), utc(2027, 1, 1, 0, 0)},
		{"New Year's Day 2027 is in 2026-W53", utc(2027, 1, 1, 0, 0), "2026-W53-II", KindPhase2, utc(2027, 1, 1, 0, 0), utc(2027, 1, 4, 0, 0)},
		{"last moment of 2026-W53", utc(2027, 1, 4, 0, 0).Add(-ns), "2026-W53-II", KindPhase2, utc(2027, 1, 1, 0, 0), utc(2027, 1, 4, 0, 0)},
		{"2027-W01 starts 4 January", utc(2027, 1, 4, 0, 0), "2027-W01-I", KindPhase1, utc(2027, 1, 4, 0, 0), utc(2027, 1, 8, 0, 0)},
		{"2025-12-29 is already 2026-W01", utc(2025, 12, 29, 12, 0), "2026-W01-I", KindPhase1, utc(2025, 12, 29, 0, 0), utc(2026, 1, 2, 0, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Phases{}.PeriodAt(tc.at)
			want := Period{ID: tc.id, Kind: tc.kind, Start: tc.start, End: tc.end}
			if p != want {
				t.Errorf("PeriodAt(%s) = %+v\nwant %+v", tc.at, p, want)
			}
			ph := PhaseAt(tc.at)
			if ph.ID() != tc.id || ph.EndsWeek() != (tc.kind == KindPhase2) {
				t.Errorf("PhaseAt(%s) = %s (ends week %v)", tc.at, ph.ID(), ph.EndsWeek())
			}
		})
	}
}

func TestT1_ISOWeeks(t *testing.T) {
	for _, tc := range []struct {
		year, week int
		start      time.Time
		err        string
	}{
		{2026, 1, utc(2025, 12, 29, 0, 0), ""},
		{2026, 53, utc(2026, 12, 28, 0, 0), ""},
		{2020, 53, utc(2020, 12, 28, 0, 0), ""},
		{2027, 1, utc(2027, 1, 4, 0, 0), ""},
		{2025, 53, time.Time{}, "ISO year 2025 has only 52 weeks"},
		{2027, 53, time.Time{}, "only 52 weeks"},
		{2026, 0, time.Time{}, "out of range"},
		{2026, 54, time.Time{}, "out of range"},
	} {
		w, err := ISOWeek(tc.year, tc.week)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ISOWeek(%d, %d) error = %v, want %q", tc.year, tc.week, err, tc.err)
			}
			continue
		}
		if err != nil || !w.Start.Equal(tc.start) || w.End() != tc.start.Add(WeekLength) {
			t.Errorf("ISOWeek(%d, %d) = %+v, %v; want start %s", tc.year, tc.week, w, err, tc.start)
		}
	}
}

func TestT1_ParseRejectsJunk(t *testing.T) {
	for id, want := range map[string]string{
		"":            "want YYYY-Www-I",
		"2026-W49":    "want YYYY-Www-I",
		"2026-W49-":   `phase "" is not I or II`,
		"2026-W49-IV": `phase "IV" is not I or II`,
		"2026-w49-I":  "want YYYY-Www-I",
		"2026-W9-I":   "want YYYY-Www-I",
		"26-W49-I":    "want YYYY-Www-I",
		"2026-Wxx-I":  "want YYYY-Www-I",
		"+026-W49-I":  "want YYYY-Www-I",
		"2026-W+9-I":  "want YYYY-Www-I",
		"2025-W53-I":  "only 52 weeks",
		"2026-W00-II": "out of range",
		"2026-W49-I ": `phase "I " is not I or II`,
	} {
		_, err := Phases{}.Parse(id)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"`+id+`"`) {
			t.Errorf("Parse(%q) error = %v, want it to quote the id and say %q", id, err, want)
		}
	}
}

// walkYear steps through a year of periods with Next and checks what a
// player reading the schedule would: no gaps, ids increasing, Prev and Parse
// inverse, and the expected number of periods.
func walkYear(t *testing.T, s Schedule, from, to time.Time) []Period {
	t.Helper()
	var ps []Period
	p := s.PeriodAt(from)
	for p.Start.Before(to) {
		ps = append(ps, p)
		n := s.Next(p)
		if !n.Start.Equal(p.End) || !n.End.After(n.Start) {
			t.Fatalf("%s: Next(%s) = %+v does not start at its end", s.Name(), p.ID, n)
		}
		if n.ID <= p.ID {
			t.Fatalf("%s: ids not increasing: %s then %s", s.Name(), p.ID, n.ID)
		}
		if back := s.Prev(n); back != p {
			t.Fatalf("%s: Prev(Next(%s)) = %+v", s.Name(), p.ID, back)
		}
		if q, err := s.Parse(p.ID); err != nil || q != p {
			t.Fatalf("%s: Parse(%q) = %+v, %v; want %+v", s.Name(), p.ID, q, err, p)
		}
		p = n
	}
	return ps
}

func TestT1_YearOfPhases(t *testing.T) {
	ps := walkYear(t, Phases{}, utc(2025, 12, 29, 0, 0), utc(2027, 1, 4, 0, 0))
	if len(ps) != 2*53 { // 2026 has 53 ISO weeks
		t.Fatalf("got %d phases in ISO year 2026, want 106", len(ps))
	}
	for _, p := range ps {
		d, want := p.End.Sub(p.Start), 96*time.Hour
		if p.Kind == KindPhase2 {
			want = 72 * time.Hour
		}
		if d != want || p.Start.Hour() != 0 {
			t.Errorf("%s lasts %v from %s, want %v from 00:00", p.ID, d, p.Start, want)
		}
	}
}

// TestT1_T3_PeriodProperties checks the Schedule contract at random moments
// of both calendars.
func TestT1_T3_PeriodProperties(t *testing.T) {
	lo, hi := utc(1990, 1, 1, 0, 0).UnixNano(), utc(2150, 1, 1, 0, 0).UnixNano()
	for _, s := range []Schedule{Phases{}, Turns{}} {
		t.Run(s.Name(), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				at := time.Unix(0, rapid.Int64Range(lo, hi).Draw(rt, "t"))
				p := s.PeriodAt(at)
				if !p.Contains(at) {
					rt.Fatalf("PeriodAt(%s) = %+v does not contain it", at, p)
				}
				if p.Start.Location() != time.UTC || p.End.Location() != time.UTC {
					rt.Fatalf("period times not in UTC: %+v", p)
				}
				if q, err := s.Parse(p.ID); err != nil || q != p {
					rt.Fatalf("Parse(%q) = %+v, %v; want %+v", p.ID, q, err, p)
				}
				n := s.Next(p)
				if n.Start != p.End || s.Prev(n) != p || n.ID <= p.ID || s.PeriodAt(p.End) != n || s.PeriodAt(p.End.Add(-ns)) != p {
					rt.Fatalf("Next/Prev broken around %+v: next %+v", p, n)
				}
			})
		})
	}
}

func TestT2_SeasonRotation(t *testing.T) {
	start := utc(2026, 11, 30, 10, 0) // Monday of 2026-W49, during Phase I
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{start.Add(-time.Hour), "Calm Spring"}, // before the game: no week end yet
		{start, "Calm Spring"},
		{utc(2026, 12, 7, 0, 0).Add(-ns), "Calm Spring"},
		{utc(2026, 12, 7, 0, 0), "Winter"}, // the week end itself: already advanced
		{utc(2026, 12, 14, 0, 0).Add(-ns), "Winter"},
		{utc(2026, 12, 14, 0, 0), "Long night"},
		{utc(2026, 12, 21, 0, 0), "Calm Spring"},
		{utc(2026, 12, 28, 0, 0), "Winter"},
		{utc(2027, 1, 4, 0, 0), "Long night"}, // across the ISO year boundary
		{utc(2027, 1, 11, 0, 0), "Calm Spring"},
	} {
		if got := SeasonAt("Calm Spring", start, tc.at); got != tc.want {
			t.Errorf("SeasonAt(Calm Spring, %s, %s) = %q, want %q", start, tc.at, got, tc.want)
		}
	}
	// A game starting exactly at a week end does not count that week end.
	if got := SeasonAt("Winter", utc(2026, 12, 7, 0, 0), utc(2026, 12, 13, 0, 0)); got != "Winter" {
		t.Errorf("season after a start at Monday 00:00 = %q, want Winter", got)
	}
	if got := SeasonAt("Spring?", start, utc(2026, 12, 7, 0, 0)); got != "Winter" {
		t.Errorf("unknown start season: got %q after one week, want Winter (it was Calm Spring)", got)
	}
}

func TestT2_NextSeason(t *testing.T) {
	for s, want := range map[string]string{
		"Calm Spring": "Winter",
		"Winter":      "Long night",
		"Long night":  "Calm Spring",
		"":            "Calm Spring",
		"Summer":      "Calm Spring",
		"long night":  "Calm Spring", // names are exact, as in seed 002
	} {
		if got := NextSeason(s); got != want {
			t.Errorf("NextSeason(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestT2_WeekEnds(t *testing.T) {
	for _, tc := range []struct {
		after, upTo time.Time
		want        int
	}{
		{utc(2026, 12, 1, 0, 0), utc(2026, 12, 6, 0, 0), 0},
		{utc(2026, 12, 1, 0, 0), utc(2026, 12, 7, 0, 0), 1},
		{utc(2026, 12, 7, 0, 0), utc(2026, 12, 7, 0, 0), 0},
		{utc(2026, 12, 7, 0, 0).Add(-ns), utc(2026, 12, 7, 0, 0), 1},
		{utc(2026, 12, 1, 0, 0), utc(2027, 12, 1, 0, 0), 52},
		{utc(2026, 12, 9, 0, 0), utc(2026, 12, 1, 0, 0), 0},
		{utc(1969, 12, 28, 0, 0), utc(1970, 1, 6, 0, 0), 2}, // before the Unix epoch too
	} {
		if got := WeekEnds(tc.after, tc.upTo); got != tc.want {
			t.Errorf("WeekEnds(%s, %s) = %d, want %d", tc.after, tc.upTo, got, tc.want)
		}
	}
}

// FuzzParse: no id makes Parse panic, and whatever it accepts is canonical.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"2026-W49-I", "2026-W53-II", "2026-11-30T22:00-0600.3-interim", "2026-07-06T22:00-0500.1-first-half", "x.y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		for _, s := range []Schedule{Phases{}, Turns{}} {
			p, err := s.Parse(id)
			if err != nil {
				continue
			}
			if p.ID != id || s.PeriodAt(p.Start) != p {
				t.Fatalf("%s: Parse(%q) = %+v, which is not the period with that id", s.Name(), id, p)
			}
		}
	})
}
