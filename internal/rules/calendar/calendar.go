// Package calendar is the rules' clock arithmetic: which period of the game
// a moment belongs to, when it starts and ends, and what comes next. It is
// pure (no time.Now, no I/O); callers pass the moment.
//
// Two calendars exist, named by a ruleset's "calendar" field:
//
//   - "utc-phases" (gilded-hall, obelisk; RULINGS T1): weeks start Monday
//     00:00 UTC; Phase I runs Monday 00:00 to Friday 00:00, Phase II Friday
//     00:00 to Monday 00:00. Period ids are the ISO week plus the phase in
//     Roman numerals: "2026-W49-I", "2026-W49-II". Weeks are ISO weeks, so
//     the days 2026-12-28 .. 2027-01-03 are "2026-W53" and 2027-01-04 starts
//     "2027-W01".
//
//   - "chicago-turns" (turns; RULINGS T3): America/Chicago wall-clock time
//     with daylight saving. A turn begins Monday 22:00, its middle is
//     Thursday 10:00, it ends Saturday 22:00, and the interim runs to the
//     next Monday 22:00. Each game week has three periods, identified by the
//     local date, time and UTC offset of the turn's beginning plus the part:
//     "2026-11-30T22:00-0600.1-first-half", "2026-11-30T22:00-0600.2-latter-half",
//     "2026-11-30T22:00-0600.3-interim". The offset shows which side of a
//     daylight-saving change a turn starts on; the date and part number make
//     ids sort in time order.
//
// For both calendars, ids sort (as strings) in time order for years 1000 to
// 9999, Parse(p.ID) returns p, and a boundary moment belongs to the period it
// starts (Start <= t < End). Period times are always in UTC so that Periods
// compare with ==.
//
// Seasons (RULINGS T2) advance at each UTC week end: see Seasons, NextSeason
// and SeasonAt.
package calendar

import (
	"fmt"
	"time"
)

// Calendar kinds, as named by ruleset data (ruleset.Calendar*).
const (
	UTCPhases    = "utc-phases"
	ChicagoTurns = "chicago-turns"
)

// Period kinds.
const (
	KindPhase1         = "phase-1"
	KindPhase2         = "phase-2"
	KindTurnFirstHalf  = "turn-first-half"
	KindTurnLatterHalf = "turn-latter-half"
	KindInterim        = "interim"
)

// Period is one span of a calendar: a phase, or part of a turn's game week.
// The engine keys per-period state (randomness seeds, once-per-phase limits)
// by ID.
type Period struct {
	ID    string
	Kind  string    // one of the Kind* constants
	Start time.Time // inclusive, UTC
	End   time.Time // exclusive, UTC
}

// Contains reports whether t lies in the period (Start <= t < End).
func (p Period) Contains(t time.Time) bool { return !t.Before(p.Start) && t.Before(p.End) }

// Schedule is a calendar: it divides all of time into consecutive periods.
type Schedule interface {
	// Name is the calendar kind, UTCPhases or ChicagoTurns.
	Name() string
	// PeriodAt returns the period containing t (Start <= t < End).
	PeriodAt(t time.Time) Period
	// Next returns the period starting at p.End.
	Next(p Period) Period
	// Prev returns the period ending at p.Start.
	Prev(p Period) Period
	// Parse is the inverse of Period.ID; junk gets an error saying why.
	Parse(id string) (Period, error)
}

// For returns the schedule for a ruleset's calendar kind.
func For(kind string) (Schedule, error) {
	switch kind {
	case UTCPhases:
		return Phases{}, nil
	case ChicagoTurns:
		return Turns{}, nil
	}
	return nil, fmt.Errorf("unknown calendar %q (known: %s, %s)", kind, UTCPhases, ChicagoTurns)
}
