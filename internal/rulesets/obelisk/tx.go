package obelisk

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// Service runs the Obelisk's commands and views over the engine.
type Service struct{ *engine.Service }

// On returns svc with the Obelisk's methods.
func On(svc *engine.Service) *Service { return &Service{svc} }

// The Obelisk's items: the game-wide state (one item) and each Gathering.
const (
	obeliskSK       = "OBELISK"
	gatheringPrefix = "GATHERING#"
)

func obeliskKey(g string) store.Key { return store.Key{PK: engine.GamePK(g), SK: obeliskSK} }

func gatheringKey(g, id string) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: gatheringPrefix + id}
}

// tx is the engine's transaction with the Obelisk's state as read.
type tx struct {
	*engine.Tx
	ob      *rob.Obelisk
	obDirty bool
}

// wrap returns the module's view of the engine's transaction, one per
// attempt.
func wrap(t *engine.Tx) *tx {
	return engine.ViewOf(t, func(t *engine.Tx) *tx { return &tx{Tx: t} })
}

// spec is engine.Spec with an apply on the module's transaction.
type spec = engine.ModuleSpec[*tx]

func (s *Service) run(ctx context.Context, sp spec) (*engine.Result, error) {
	apply := sp.Apply
	// The Obelisk item is written once, after the command changed it.
	sp.Apply = func(w *tx) (any, error) {
		res, err := apply(w)
		if err != nil {
			return nil, err
		}
		return res, w.flushObelisk()
	}
	return engine.RunModule(s.Service, ctx, sp, wrap)
}

// obelisk returns the game's Obelisk, read with the command's first read
// (or now); a game that has not touched it yet has the one of its ruleset
// (StartDistance km away, no Cuts, no Grebes: RULINGS O6).
func (t *tx) obelisk() (*rob.Obelisk, error) {
	if t.ob != nil {
		return t.ob, nil
	}
	o, err := readObelisk(t.Tx)
	if err != nil {
		return nil, err
	}
	t.ob = o
	return t.ob, nil
}

// readObelisk decodes the game's Obelisk as t read it, reading it now if
// t has not.
func readObelisk(t *engine.Tx) (*rob.Obelisk, error) {
	if t.Rules.Obelisk == nil {
		return nil, rules.Refuse("not_in_ruleset", "This game's ruleset has no Obelisk.")
	}
	k := obeliskKey(t.Game)
	it, ok := t.Loaded[k]
	if !ok {
		if err := t.Load(k); err != nil {
			return nil, err
		}
		it = t.Loaded[k]
	}
	o := rob.NewObelisk(t.Rules.Obelisk)
	if it.Exists() {
		if err := json.Unmarshal(it.Data, &o); err != nil {
			return nil, fmt.Errorf("decoding the Obelisk of %s: %w", t.Game, err)
		}
	}
	return &o, nil
}

// grants returns the game-level grants as t read them. Inside another
// component's transaction (the trades component keeps its own in
// t.Scratch) the Obelisk is decoded without taking that one's place.
func grants(et *engine.Tx) (*rob.Grants, error) {
	if _, ours := et.Scratch.(*tx); ours || et.Scratch == nil {
		o, err := wrap(et).obelisk()
		if err != nil {
			return nil, err
		}
		return &o.Grants, nil
	}
	o, err := readObelisk(et)
	if err != nil {
		return nil, err
	}
	return &o.Grants, nil
}

// checkGrants makes a command's commit hold only if the Obelisk, and so
// the grants, is still as read. A join and a departure need it: a grant
// committed meanwhile makes them read again, so a joiner's mark is exactly
// the grants before the join (none of them theirs) and a leaver loses
// exactly what they had with every grant of their stint. No other command
// does: a catch-up moves the record's mark forward from what it was, and
// the record's own version check orders its catch-ups, so a record saved
// behind a grant gets the rest at its next read, never twice. A view
// writes nothing and checks nothing; a command that writes the Obelisk
// checks it by its write (flushObelisk).
func checkGrants(et *engine.Tx) {
	if et.Entry == nil {
		return
	}
	k := obeliskKey(et.Game)
	if slices.ContainsFunc(et.Checks, func(c store.Check) bool { return c.Key == k }) ||
		slices.ContainsFunc(et.Puts, func(p store.Put) bool { return p.Item.Key == k }) {
		return
	}
	et.Checks = append(et.Checks, store.Check{Key: k, Version: et.Loaded[k].Version})
}

// catchUp brings an Obelisk record read from the store up to date with
// the game's grants (Module.Decoded; rules/obelisk.CatchUp), in memory: a
// command writes it if it saves the record, a view only shows it.
func catchUp(et *engine.Tx, r engine.PlayerRecord) error {
	p, err := asPlayer(r)
	if err != nil || p == nil || !p.Member {
		return err
	}
	g, err := grants(et)
	if err != nil {
		return err
	}
	rob.CatchUp(&p.Player, g, et.Now)
	return nil
}

// touchObelisk marks the Obelisk to be written at commit.
func (t *tx) touchObelisk() { t.obDirty = true }

func (t *tx) flushObelisk() error {
	if !t.obDirty {
		return nil
	}
	t.obDirty = false
	k := obeliskKey(t.Game)
	// The write holds only at the version read: it replaces the check.
	t.Checks = slices.DeleteFunc(t.Checks, func(c store.Check) bool { return c.Key == k })
	return t.Put(k, t.ob, zeroTime)
}

// gathering decodes the Gathering id as read.
func (t *tx) gathering(id string) (*rob.Gathering, error) {
	k := gatheringKey(t.Game, id)
	it, ok := t.Loaded[k]
	if !ok {
		if err := t.Load(k); err != nil {
			return nil, err
		}
		it = t.Loaded[k]
	}
	if !it.Exists() {
		return nil, rules.Refuse("gathering_not_found", "There is no Gathering %q in this game.", id)
	}
	var g rob.Gathering
	if err := json.Unmarshal(it.Data, &g); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", k, err)
	}
	return &g, nil
}

// putGathering stages g, due at its phase end while open (its failure).
func (t *tx) putGathering(g *rob.Gathering) error {
	due := zeroTime
	if g.Status == rob.StatusOpen {
		due = g.Ends
	}
	return t.Put(gatheringKey(t.Game, g.ID), g, due)
}

// player returns the record of id, nil if they never joined.
func (t *tx) player(id string) (*Player, error) {
	r, err := t.Record(id)
	if err != nil {
		return nil, err
	}
	return asPlayer(r)
}

// actor returns the acting player's record, refusing a non-player.
func (t *tx) actor() (*Player, error) {
	p, err := t.player(t.Entry.Actor)
	if err != nil {
		return nil, err
	}
	if p == nil || !p.Member {
		return nil, players.NotAPlayer()
	}
	return p, nil
}

// records returns the current players among ids, reading in one request
// those not read yet.
func (t *tx) records(ids []string) ([]*Player, error) {
	if err := t.Preload(ids); err != nil {
		return nil, err
	}
	var out []*Player
	for _, id := range ids {
		p, err := t.player(id)
		if err != nil {
			return nil, err
		}
		if p != nil && p.Member {
			out = append(out, p)
		}
	}
	return out, nil
}

// robPlayers is the rules' view of records.
func robPlayers(ps []*Player) []*rob.Player {
	out := make([]*rob.Player, len(ps))
	for i, p := range ps {
		out[i] = &p.Player
	}
	return out
}

// method is the Call of one of this module's command methods.
func method(m any, opts ...engine.CallOption) *engine.Call { return engine.MethodVia(m, via, opts...) }

// via is the module's service over the engine's.
func via(s *engine.Service) any { return On(s) }
