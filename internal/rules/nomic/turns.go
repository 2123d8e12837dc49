package nomic

import (
	"fmt"
	"time"

	"croupier/internal/rules/calendar"
)

// Moments of a game week (seed 003; RULINGS T3, U1).
const (
	BeforeFirstTurn = "before_first_turn" // the round has started, its turn 1 has not begun
	FirstHalf       = "first_half"        // beginning (Monday 22:00) to middle (Thursday 10:00)
	LatterHalf      = "latter_half"       // middle to end (Saturday 22:00)
	Interim         = "interim"           // end to the next beginning

	MomentBegin  = "turn_begin"
	MomentMiddle = "turn_middle"
	MomentEnd    = "turn_end"
)

// Moment is one scheduled instant of the calendar: a turn's beginning,
// middle or end.
type Moment struct {
	Kind string    `json:"kind"` // MomentBegin, MomentMiddle or MomentEnd
	Turn string    `json:"turn"` // the turn it belongs to, "{round}-{ordinal}"
	At   time.Time `json:"at"`
}

// TurnInfo says where a moment falls in a round (U1): the turn
// "{round}-{ordinal}" whose game week contains it, which part of it, and
// what comes next. Before the round's first turn, Ordinal is 0, ID is ""
// and the times are those of turn 1.
type TurnInfo struct {
	Round     int       `json:"round"`
	Ordinal   int       `json:"ordinal"`
	ID        string    `json:"id,omitempty"`
	Part      string    `json:"part"` // BeforeFirstTurn, FirstHalf, LatterHalf or Interim
	Begin     time.Time `json:"begin"`
	Middle    time.Time `json:"middle"`
	End       time.Time `json:"end"`
	NextBegin time.Time `json:"next_begin"`
	Next      Moment    `json:"next"`
}

// TurnID designates a turn (seed 003: "{round}-{ordinal}").
func TurnID(round, ordinal int) string { return fmt.Sprintf("%d-%d", round, ordinal) }

// TurnAt returns where t falls in the round numbered round that started
// at roundStart (RULINGS U1: its turn 1 is the first turn beginning at or
// after roundStart).
func TurnAt(round int, roundStart, t time.Time) TurnInfo {
	ord := calendar.TurnOrdinal(roundStart, t)
	if ord == 0 {
		tu := turnOf(roundStart, 1)
		return TurnInfo{Round: round, Part: BeforeFirstTurn, Begin: tu.Begin, Middle: tu.Middle, End: tu.End, NextBegin: tu.NextBegin,
			Next: Moment{Kind: MomentBegin, Turn: TurnID(round, 1), At: tu.Begin}}
	}
	tu := calendar.TurnAt(t)
	info := TurnInfo{Round: round, Ordinal: ord, ID: TurnID(round, ord), Begin: tu.Begin, Middle: tu.Middle, End: tu.End, NextBegin: tu.NextBegin}
	switch {
	case t.Before(tu.Middle):
		info.Part, info.Next = FirstHalf, Moment{Kind: MomentMiddle, Turn: info.ID, At: tu.Middle}
	case t.Before(tu.End):
		info.Part, info.Next = LatterHalf, Moment{Kind: MomentEnd, Turn: info.ID, At: tu.End}
	default:
		info.Part, info.Next = Interim, Moment{Kind: MomentBegin, Turn: TurnID(round, ord+1), At: tu.NextBegin}
	}
	return info
}

// Turn returns where the round's current moment falls.
func (s *State) Turn(now time.Time) TurnInfo { return TurnAt(s.Round.Number, s.Round.Start, now) }

// turnOf returns the calendar turn with the given ordinal (from 1) of a
// round that started at roundStart. Weeks are counted by calendar date,
// so daylight-saving changes do not shift it.
func turnOf(roundStart time.Time, ordinal int) calendar.Turn {
	first := calendar.TurnAt(roundStart)
	if first.Begin.Before(roundStart) {
		first = first.Next()
	}
	local := first.Begin.In(calendar.Chicago())
	y, m, d := local.Date()
	// 23:00 on the Monday ordinal-1 weeks later is an hour into that turn.
	return calendar.TurnAt(time.Date(y, m, d+7*(ordinal-1), 23, 0, 0, 0, calendar.Chicago()))
}
