package fair

import "fmt"

// Source is what pure rule code sees: a way to ask for a random choice. It
// never fails, so rules stay free of error plumbing for randomness; the
// Drawer behind it validated the game, period and command up front.
type Source interface {
	// Intn returns a uniform result in [0, n) for the named purpose.
	Intn(purpose string, n int) int
}

// Record is one logged draw: its inputs and the value it produced. The log of
// Records plus the revealed seeds is everything Verify (or a player) needs.
type Record struct {
	Input
	Value int `json:"value"`
}

// Drawer is the Source for one command. Game, period, command and seed are
// fixed; each Intn call uses the next draw index (from 0) and is recorded,
// so the command's draws can be stored with its result and replayed later.
// A Drawer is not safe for concurrent use: a command's rule code is sequential.
type Drawer struct {
	seed                  Seed
	game, period, command string
	records               []Record
}

// NewDrawer returns a Drawer for one command. It rejects game, period or
// command values that Draw would reject (empty, NUL byte, invalid UTF-8), so
// that Intn can only fail through a programmer error in the rule code.
func NewDrawer(seed Seed, game, period, command string) (*Drawer, error) {
	for _, f := range []struct{ name, v string }{{"game", game}, {"period", period}, {"command", command}} {
		if err := checkField(f.name, f.v); err != nil {
			return nil, err
		}
	}
	return &Drawer{seed: seed, game: game, period: period, command: command}, nil
}

// Intn draws a uniform integer in [0, n) with the next draw index and records
// it.
//
// It panics if n < 1 or purpose is empty, contains a NUL byte or is not valid
// UTF-8. Purposes are constants in rule code and n comes from rule logic (a
// deck size, 100 for a percentage), never directly from player input, so such
// a call is a bug in the caller, not bad input; rule code that derives n from
// data must check it is >= 1 first.
func (d *Drawer) Intn(purpose string, n int) int {
	in := Input{Game: d.game, Period: d.period, Command: d.command, Index: len(d.records), Purpose: purpose, N: n}
	v, err := Draw(d.seed, in)
	if err != nil {
		panic(fmt.Sprintf("fair.Drawer.Intn: programmer error: %v", err))
	}
	d.records = append(d.records, Record{Input: in, Value: v})
	return v
}

// Records returns a copy of the draws made so far, in draw order.
func (d *Drawer) Records() []Record {
	out := make([]Record, len(d.records))
	copy(out, d.records)
	return out
}

// Chance reports whether an event with the given percent probability happens:
// Intn(purpose, 100) < percent. It always makes exactly one draw, even for
// percent <= 0 or >= 100, so draw indices (and thus every later draw) do not
// depend on the probability in force.
func Chance(src Source, purpose string, percent int) bool {
	return src.Intn(purpose, 100) < percent
}
