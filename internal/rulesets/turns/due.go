package turns

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// dueTurns is the kind of the module's timer in the scheduler's report.
const dueTurns = "turns"

// turnsWork is the module's timer: the game item is due at the game's next
// scheduled effect (gameItem.next).
var turnsWork = engine.DueWork{Kind: dueTurns, Prefix: stateSK, Run: func(s *engine.Service, ctx context.Context, g, _ string) ([]string, error) {
	return CatchUp(s, ctx, g)
}}

// errNotDue: the effect a run meant to apply is not the game's next one
// any more (another run applied it).
var errNotDue = errors.New("turns: not the next effect")

// CatchUp applies, in time order, every scheduled effect of the game due
// by the clock's now: turn beginnings, middles and ends, and Judges'
// deadlines, each in a commit of its own as of its moment (RULINGS T4),
// under an idempotency key naming the effect and the moment, and only if
// the game item still shows it as the next effect (compare-and-set on its
// version). A late run applies what was missed as it would have been
// applied on time; a second or concurrent run applies nothing more. It
// returns what it applied, as "game/kind turn-or-case".
func CatchUp(s *engine.Service, ctx context.Context, game string) ([]string, error) {
	var done []string
	for range 100000 {
		t, err := s.View(ctx, game, stateKey(game))
		if err != nil {
			return done, err
		}
		t.Ctx = ctx
		w, err := open(t)
		if err != nil {
			return done, err
		}
		d, ok := w.g.next(t.Rules.Turns.JudgeDeadline.Std())
		if !ok || d.At.After(s.Clock().Now()) {
			return done, nil
		}
		applied, err := applyDue(s, ctx, game, d)
		if err != nil {
			return done, err
		}
		if applied {
			done = append(done, game+"/"+d.Kind+" "+d.what())
		}
	}
	return done, nil
}

func (d due) what() string {
	if d.Kind == kindDeadline {
		return strconv.Itoa(d.Case)
	}
	return d.Turn
}

func (d due) same(e due) bool {
	return d.Kind == e.Kind && d.Turn == e.Turn && d.Case == e.Case && d.At.Equal(e.At)
}

// Applied is what a scheduled effect's log entry answers.
type Applied struct {
	Due    due            `json:"due"`
	Turn   nomic.TurnInfo `json:"turn"`
	Events int            `json:"events"`
}

// applyDue applies d as of d.At, if it is still the game's next effect.
func applyDue(s *engine.Service, ctx context.Context, game string, d due) (bool, error) {
	res, err := s.Run(ctx, engine.Spec{Req: engine.Request{Game: game, Actor: engine.SchedulerActor, Key: d.key()},
		Command: d.Kind, Body: d, Random: d.Kind == kindDeadline,
		Keys: func(g string) []store.Key {
			ks := []store.Key{stateKey(g)}
			switch d.Kind {
			case kindEnd:
				ks = append(ks, rulesKey(g))
			case kindDeadline:
				ks = append(ks, caseKey(g, d.Case))
			}
			return ks
		},
		Apply: func(t *engine.Tx) (any, error) {
			w, err := open(t)
			if err != nil {
				return nil, err
			}
			if next, ok := w.g.next(t.Rules.Turns.JudgeDeadline.Std()); !ok || !next.same(d) {
				return nil, errNotDue
			}
			// Applied as of the moment it was due (RULINGS T4).
			t.Now, t.Entry.At, t.Entry.ID = d.At, d.At, s.NewLogID(d.At)
			n := len(t.Entry.Events)
			switch d.Kind {
			case kindBegin:
				w.g.Moment = d.At
				w.t.Emit("turns_turn_began", "", w.s.Turn(d.At))
			case kindMiddle:
				w.g.Moment = d.At
				w.t.Emit("turns_turn_middle", "", w.s.Turn(d.At))
			case kindEnd:
				if err := w.endTurn(d); err != nil {
					return nil, err
				}
			case kindDeadline:
				if err := w.load(false, nil, []int{d.Case}, false); err != nil {
					return nil, err
				}
				src, err := t.Source()
				if err != nil {
					return nil, err
				}
				_, evs, err := w.s.ApplyDue(nomic.Due{Kind: nomic.DueJudgeDeadline, At: d.At, Case: d.Case}, t.Rules, src, nil)
				if err != nil {
					return nil, err
				}
				w.emit(evs...)
			}
			resp := Applied{Due: d, Turn: w.s.Turn(d.At), Events: len(t.Entry.Events) - n}
			return resp, w.save()
		}})
	if errors.Is(err, errNotDue) || err == nil && res.Replayed {
		return false, nil
	}
	return err == nil, err
}

// endTurn applies a turn's end (U5, U8, U10): first a fence on the game
// item, in a commit of its own, so that every vote committed before it is
// counted and every later one retries into a closed vote; then the turn's
// proposals and appeals with their votes, decided by the rules; adopted
// data changes go into the game's ruleset (R4).
func (w *work) endTurn(d due) error {
	t := w.t
	if w.g.Closing != d.Turn {
		w.g.Closing = d.Turn
		if err := w.fence(); err != nil {
			return err
		}
	}
	var props []string
	for _, r := range w.g.Open {
		if nomic.TurnID(r.Round, r.Ordinal) == d.Turn {
			props = append(props, r.ID)
		}
	}
	var cases []int
	for _, r := range w.g.Cases {
		if r.Appeal != "" && nomic.TurnID(r.AppealRound, r.AppealOrdinal) == d.Turn {
			cases = append(cases, r.Number)
		}
	}
	if err := w.load(true, props, cases, true); err != nil {
		return err
	}
	reactions, err := w.reactions(d, props, cases)
	if err != nil {
		return err
	}
	// Who reacted may not have met the rules yet: a player's reaction is
	// their vote all the same (U4).
	var reacted []string
	for _, r := range reactions {
		reacted = append(append(reacted, r.Up...), r.Down...)
	}
	if err := w.sync(reacted...); err != nil {
		return err
	}
	_, evs, err := w.s.ApplyDue(nomic.Due{Kind: nomic.DueTurnEnd, At: d.At, Turn: d.Turn}, t.Rules, noDraws{}, reactions)
	if err != nil {
		return err
	}
	for _, ev := range evs {
		w.emit(ev)
		if ev.Kind != nomic.EvDataChanged {
			continue
		}
		p := w.s.Proposal(ev.Proposal)
		var c ruleset.Change
		if err := json.Unmarshal(p.Data, &c); err != nil {
			return fmt.Errorf("proposal %s: decoding its data change: %w", p.ID, err)
		}
		if _, err := t.ApplyChange(c, "proposal "+p.ID+" adopted at the end of turn "+d.Turn, "turns-proposal"); err != nil {
			return err
		}
	}
	w.g.Moment, w.g.Closing = d.At, ""
	return nil
}

// fence commits the game item with Closing set, at once.
func (w *work) fence() error {
	t := w.t
	k := stateKey(t.Game)
	it := t.Loaded[k]
	data, err := json.Marshal(w.g)
	if err != nil {
		return err
	}
	if err := t.Svc.Store().Commit(t.Ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data, Due: it.Due}, Expect: it.Version}}}); err != nil {
		return err
	}
	t.Loaded[k] = store.Item{Key: k, Data: data, Due: it.Due, Version: it.Version + 1}
	w.raw[k] = data
	return nil
}

// reactions reads the 👍/👎 on the messages of the turn's proposals and
// appeals as of the turn's end (U4), for those with a message.
func (w *work) reactions(d due, props []string, cases []int) (map[string]nomic.Reactions, error) {
	out := map[string]nomic.Reactions{}
	read := func(id string) error {
		m, ok := w.messages[id]
		if !ok {
			return nil
		}
		snap, err := w.t.Svc.ReactionsAt(w.t.Ctx, w.t.Game, m, d.At)
		if err != nil {
			return err
		}
		out[id] = nomic.Reactions{Up: snap.Up, Down: snap.Down}
		return nil
	}
	for _, id := range props {
		if err := read(id); err != nil {
			return nil, err
		}
	}
	for _, n := range cases {
		if c := w.s.Case(n); c != nil {
			for _, ap := range c.Appeals {
				if ap.Status == nomic.AppealOpen {
					if err := read(ap.ID); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return out, nil
}
