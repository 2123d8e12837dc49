package calendar

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// WeekLength is the length of a UTC week; UTC has no daylight saving, so
// every week and phase has a fixed length.
const WeekLength = 7 * 24 * time.Hour

// phase2Offset is where Phase II starts within a week: Friday 00:00.
const phase2Offset = 4 * 24 * time.Hour

// Week is an ISO week in UTC: Monday 00:00 to the next Monday 00:00
// (RULINGS T1). Year is the ISO week-numbering year, which differs from the
// calendar year for some days around New Year.
type Week struct {
	Year, Number int
	Start        time.Time // Monday 00:00 UTC
}

// WeekAt returns the week containing t.
func WeekAt(t time.Time) Week {
	y, m, d := t.UTC().Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	start := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	iy, iw := start.ISOWeek()
	return Week{Year: iy, Number: iw, Start: start}
}

// End returns the moment the week ends: the next Monday 00:00 UTC.
func (w Week) End() time.Time { return w.Start.Add(WeekLength) }

// String formats the week as an ISO 8601 week, e.g. "2026-W49".
func (w Week) String() string { return fmt.Sprintf("%04d-W%02d", w.Year, w.Number) }

// ISOWeek returns ISO week number of year, or an error if year has no such
// week (ISO years have 52 or 53 weeks).
func ISOWeek(year, number int) (Week, error) {
	if number < 1 || number > 53 {
		return Week{}, fmt.Errorf("week %d is out of range 1..53", number)
	}
	jan4 := time.Date(year, time.January, 4, 0, 0, 0, 0, time.UTC) // always in week 1
	start := jan4.AddDate(0, 0, -((int(jan4.Weekday())+6)%7)+7*(number-1))
	if w := WeekAt(start); w.Year != year || w.Number != number {
		return Week{}, fmt.Errorf("ISO year %d has only 52 weeks", year)
	}
	return Week{Year: year, Number: number, Start: start}, nil
}

// Phase is Phase I (Number 1: Monday 00:00 to Friday 00:00 UTC) or Phase II
// (Number 2: Friday 00:00 to Monday 00:00 UTC) of a week (RULINGS T1).
type Phase struct {
	Week       Week
	Number     int // 1 or 2
	Start, End time.Time
}

// PhaseAt returns the phase containing t; a moment exactly at Monday or
// Friday 00:00 belongs to the phase starting then.
func PhaseAt(t time.Time) Phase {
	w := WeekAt(t)
	if t.Before(w.Start.Add(phase2Offset)) {
		return w.phase(1)
	}
	return w.phase(2)
}

func (w Week) phase(n int) Phase {
	if n == 1 {
		return Phase{Week: w, Number: 1, Start: w.Start, End: w.Start.Add(phase2Offset)}
	}
	return Phase{Week: w, Number: 2, Start: w.Start.Add(phase2Offset), End: w.End()}
}

// ID is the phase's period id, e.g. "2026-W49-I" or "2026-W49-II".
func (p Phase) ID() string {
	return p.Week.String() + "-" + strings.Repeat("I", p.Number)
}

// Kind is KindPhase1 or KindPhase2.
func (p Phase) Kind() string {
	if p.Number == 1 {
		return KindPhase1
	}
	return KindPhase2
}

// EndsWeek reports whether the week (and so the season, RULINGS T2) ends
// when this phase ends.
func (p Phase) EndsWeek() bool { return p.Number == 2 }

// Period returns the phase as a generic Period.
func (p Phase) Period() Period {
	return Period{ID: p.ID(), Kind: p.Kind(), Start: p.Start, End: p.End}
}

// Next returns the phase after p.
func (p Phase) Next() Phase { return PhaseAt(p.End) }

// Prev returns the phase before p.
func (p Phase) Prev() Phase { return PhaseAt(p.Start.Add(-time.Nanosecond)) }

// ParsePhase is the inverse of Phase.ID. It accepts exactly the form ID
// produces ("YYYY-Www-I" or "YYYY-Www-II", 4-digit year, 2-digit week).
func ParsePhase(id string) (Phase, error) {
	bad := func(why string) (Phase, error) {
		return Phase{}, fmt.Errorf("phase id %q: %s", id, why)
	}
	const form = `want YYYY-Www-I or YYYY-Www-II, e.g. "2026-W49-I"`
	parts := strings.Split(id, "-")
	if len(parts) != 3 || len(parts[0]) != 4 || len(parts[1]) != 3 || parts[1][0] != 'W' {
		return bad(form)
	}
	year, err1 := strconv.Atoi(parts[0])
	num, err2 := strconv.Atoi(parts[1][1:])
	if err1 != nil || err2 != nil || parts[0][0] == '+' || parts[0][0] == '-' || parts[1][1] == '+' || parts[1][1] == '-' {
		return bad(form)
	}
	var n int
	switch parts[2] {
	case "I":
		n = 1
	case "II":
		n = 2
	default:
		return bad(fmt.Sprintf("phase %q is not I or II", parts[2]))
	}
	w, err := ISOWeek(year, num)
	if err != nil {
		return bad(err.Error())
	}
	return w.phase(n), nil
}

// Phases is the "utc-phases" Schedule (RULINGS T1).
type Phases struct{}

// Name returns UTCPhases.
func (Phases) Name() string { return UTCPhases }

// PeriodAt returns the phase containing t.
func (Phases) PeriodAt(t time.Time) Period { return PhaseAt(t).Period() }

// Next returns the phase starting at p.End.
func (Phases) Next(p Period) Period { return PhaseAt(p.End).Period() }

// Prev returns the phase ending at p.Start.
func (Phases) Prev(p Period) Period { return PhaseAt(p.Start.Add(-time.Nanosecond)).Period() }

// Parse is the inverse of Period.ID for phases.
func (Phases) Parse(id string) (Period, error) {
	p, err := ParsePhase(id)
	if err != nil {
		return Period{}, err
	}
	return p.Period(), nil
}

// Seasons lists the seasons of seed 002 in order; after the last comes the
// first again (RULINGS T2).
var Seasons = []string{"Calm Spring", "Winter", "Long night"}

// NextSeason returns the season after s. A season that is not in Seasons
// "cannot be reasonably determined", and seed 002 says it is then Calm
// Spring, so an unknown s yields "Calm Spring".
func NextSeason(s string) string {
	i := slices.Index(Seasons, s)
	if i < 0 {
		return Seasons[0]
	}
	return Seasons[(i+1)%len(Seasons)]
}

// WeekEnds counts the UTC week ends (Mondays 00:00) in (after, upTo]; zero
// if upTo is not after after.
func WeekEnds(after, upTo time.Time) int {
	n := weekIndex(upTo) - weekIndex(after)
	return int(max(n, 0))
}

// weekIndex is the number of week starts from 1970-01-05 (a Monday) up to
// and including t, floored, so it steps exactly at Monday 00:00 UTC.
func weekIndex(t time.Time) int64 {
	const monday19700105 = 4 * 24 * 60 * 60
	const weekSeconds = int64(WeekLength / time.Second)
	s := t.Unix() - monday19700105 // Unix floors: 1ns before a boundary is the second before
	q := s / weekSeconds
	if s%weekSeconds < 0 {
		q--
	}
	return q
}

// SeasonAt returns the current season at t for a game that started at
// gameStart in startSeason: the season reached by advancing once per week
// end in (gameStart, t] (RULINGS T2). At the week-end moment itself the new
// season already holds. An unknown startSeason is Calm Spring (seed 002).
func SeasonAt(startSeason string, gameStart, t time.Time) string {
	s := startSeason
	if !slices.Contains(Seasons, s) {
		s = Seasons[0]
	}
	i := slices.Index(Seasons, s)
	return Seasons[(i+WeekEnds(gameStart, t))%len(Seasons)]
}
