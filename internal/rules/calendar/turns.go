package calendar

import (
	_ "embed"
	"fmt"
	"strings"
	"time"
)

//go:generate go run gen_chicago.go

// chicagoTZif is America/Chicago out of the Go release's zone database
// (the copy time/tzdata embeds; `go generate` refreshes it and
// TestChicagoZoneIsCurrent fails while it is stale). Lambda's
// provided.al2023 image has no zoneinfo, so the zone is embedded; only this
// one, not time/tzdata's every zone, which was 0.4 MiB of every function.
//
//go:embed chicago.tzif
var chicagoTZif string

// chicago is America/Chicago ("North American Central Time, observing
// daylight savings time", seed 003; RULINGS T3). The zone is embedded, so
// loading cannot fail at run time; if it did, the build is broken and every
// turn computation would be wrong, so init fails loudly.
var chicago = func() *time.Location {
	loc, err := time.LoadLocationFromTZData("America/Chicago", []byte(chicagoTZif))
	if err != nil {
		panic("calendar: embedded America/Chicago does not load: " + err.Error())
	}
	return loc
}()

// Chicago returns the America/Chicago location the turns calendar uses.
func Chicago() *time.Location { return chicago }

// Turn is one game week of the turns calendar (RULINGS T3): the turn from
// Begin (Monday 22:00 Chicago) through Middle (Thursday 10:00) to End
// (Saturday 22:00), then the interim to NextBegin (next Monday 22:00). All
// times are UTC instants; their UTC hour moves with daylight saving, and a
// game week containing a change is an hour shorter or longer than 168h.
type Turn struct {
	Begin, Middle, End, NextBegin time.Time
}

// keyLayout formats a turn's beginning in its period ids.
const keyLayout = "2006-01-02T15:04-0700"

// Period id suffixes, in time order within a game week.
const (
	suffixFirstHalf  = "1-first-half"
	suffixLatterHalf = "2-latter-half"
	suffixInterim    = "3-interim"
)

// turnFrom builds the turn beginning on the local Monday y-m-d. 22:00 and
// 10:00 never fall in Chicago's 02:00 daylight-saving gap or overlap, so
// time.Date is unambiguous here.
func turnFrom(y int, m time.Month, d int) Turn {
	at := func(day, hour int) time.Time {
		return time.Date(y, m, d+day, hour, 0, 0, 0, chicago).UTC()
	}
	return Turn{Begin: at(0, 22), Middle: at(3, 10), End: at(5, 22), NextBegin: at(7, 22)}
}

// TurnAt returns the game week containing t: the last turn that began at or
// before t, with its interim.
func TurnAt(t time.Time) Turn {
	local := t.In(chicago)
	y, m, d := local.Date()
	d -= (int(local.Weekday()) + 6) % 7 // back to Monday
	tu := turnFrom(y, m, d)
	if tu.Begin.After(t) { // Monday before 22:00: still last week's interim
		tu = turnFrom(y, m, d-7)
	}
	return tu
}

// Next returns the following game week.
func (tu Turn) Next() Turn { return TurnAt(tu.NextBegin) }

// Prev returns the previous game week.
func (tu Turn) Prev() Turn { return TurnAt(tu.Begin.Add(-time.Nanosecond)) }

// Key is the turn's beginning in Chicago wall-clock time with its UTC
// offset, e.g. "2026-11-30T22:00-0600"; period ids start with it.
func (tu Turn) Key() string { return tu.Begin.In(chicago).Format(keyLayout) }

// Periods returns the turn's first half, latter half and interim.
func (tu Turn) Periods() [3]Period {
	k := tu.Key() + "."
	return [3]Period{
		{ID: k + suffixFirstHalf, Kind: KindTurnFirstHalf, Start: tu.Begin, End: tu.Middle},
		{ID: k + suffixLatterHalf, Kind: KindTurnLatterHalf, Start: tu.Middle, End: tu.End},
		{ID: k + suffixInterim, Kind: KindInterim, Start: tu.End, End: tu.NextBegin},
	}
}

// monday returns the turn's local Monday as a UTC midnight, for counting
// weeks by calendar date (durations across DST are not multiples of 168h).
func (tu Turn) monday() time.Time {
	y, m, d := tu.Begin.In(chicago).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// TurnOrdinal returns the ordinal of the turn whose game week contains t,
// in a round that started at roundStart (seed 003: "Turns are designated as
// {round}-{ordinal}. The ordinal of the first turn of a round is 1"). The
// first turn of a round is the first turn *beginning* at or after
// roundStart, because proposals are submitted at a turn's beginning. A t
// before that beginning gives 0: no turn of the round has begun.
func TurnOrdinal(roundStart, t time.Time) int {
	first := TurnAt(roundStart)
	if first.Begin.Before(roundStart) {
		first = first.Next()
	}
	if t.Before(first.Begin) {
		return 0
	}
	days := TurnAt(t).monday().Sub(first.monday()) / (24 * time.Hour)
	return int(days/7) + 1
}

// TurnDesignation returns "{round}-{ordinal}" for the turn containing t, or
// false before the round's first turn begins.
func TurnDesignation(round int, roundStart, t time.Time) (string, bool) {
	n := TurnOrdinal(roundStart, t)
	if n == 0 {
		return "", false
	}
	return fmt.Sprintf("%d-%d", round, n), true
}

// Turns is the "chicago-turns" Schedule (RULINGS T3).
type Turns struct{}

// Name returns ChicagoTurns.
func (Turns) Name() string { return ChicagoTurns }

// PeriodAt returns the first half, latter half or interim containing t.
func (Turns) PeriodAt(t time.Time) Period {
	ps := TurnAt(t).Periods()
	for _, p := range ps[:2] {
		if t.Before(p.End) {
			return p
		}
	}
	return ps[2]
}

// Next returns the period starting at p.End.
func (s Turns) Next(p Period) Period { return s.PeriodAt(p.End) }

// Prev returns the period ending at p.Start.
func (s Turns) Prev(p Period) Period { return s.PeriodAt(p.Start.Add(-time.Nanosecond)) }

// Parse is the inverse of Period.ID for turns: the turn's key (its local
// beginning with offset) and a part, e.g. "2026-11-30T22:00-0600.3-interim".
func (Turns) Parse(id string) (Period, error) {
	bad := func(format string, args ...any) (Period, error) {
		return Period{}, fmt.Errorf("turn period id %q: %s", id, fmt.Sprintf(format, args...))
	}
	key, part, ok := strings.Cut(id, ".")
	if !ok {
		return bad(`want <Monday>T22:00<offset>.<part>, e.g. "2026-11-30T22:00-0600.1-first-half"`)
	}
	var idx int
	switch part {
	case suffixFirstHalf:
		idx = 0
	case suffixLatterHalf:
		idx = 1
	case suffixInterim:
		idx = 2
	default:
		return bad("part %q is not %s, %s or %s", part, suffixFirstHalf, suffixLatterHalf, suffixInterim)
	}
	if len(key) != len(keyLayout) {
		return bad("%q is not a turn beginning like 2026-11-30T22:00-0600", key)
	}
	day, err := time.Parse("2006-01-02", key[:10])
	if err != nil {
		return bad("%q is not a date", key[:10])
	}
	if day.Weekday() != time.Monday {
		return bad("%s is a %s; turns begin on Mondays", key[:10], day.Weekday())
	}
	tu := turnFrom(day.Date())
	if want := tu.Key(); key != want {
		return bad("the turn beginning that day is %s (22:00 America/Chicago), not %s", want, key)
	}
	return tu.Periods()[idx], nil
}

// Zone is the time zone the players of a calendar kind keep: America/Chicago
// for the turns (RULINGS T3), UTC for the phases (T1).
func Zone(kind string) *time.Location {
	if kind == ChicagoTurns {
		return chicago
	}
	return time.UTC
}

// Location is the zone a game view names (GameView.Zone, an IANA name):
// America/Chicago, which is embedded; UTC for no name or any other.
func Location(name string) *time.Location {
	if name == chicago.String() {
		return chicago
	}
	return time.UTC
}

// When is a moment as the texts of a game keeping zone loc give it: "Mon 9
// Mar 22:00 CDT".
func When(loc *time.Location, t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	return t.In(loc).Format("Mon 2 Jan 15:04 MST")
}

// PeriodWords names a period of the turns calendar as people read it: by
// its turn, the part of the turn and the turn's beginning in the game's
// zone ("the first half of the turn beginning Mon 9 Mar 22:00 CDT"), never
// by its id. Any other id (a phase's 2026-W10-I) is returned as it is.
func PeriodWords(id string) string {
	p, err := Turns{}.Parse(id)
	if err != nil {
		return id
	}
	begin := "the turn beginning " + When(chicago, TurnAt(p.Start).Begin)
	switch p.Kind {
	case KindTurnFirstHalf:
		return "the first half of " + begin
	case KindTurnLatterHalf:
		return "the latter half of " + begin
	}
	return "the interim after " + begin
}
