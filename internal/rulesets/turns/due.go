package turns

import (
	"context"
	"errors"
	"strconv"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
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
		if len(w.g.Players) > 0 || len(w.g.Open) > 0 {
			if err := migrate(s, ctx, game); err != nil {
				return done, err
			}
			continue
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
// A turn end is applied in steps (applyEnd).
func applyDue(s *engine.Service, ctx context.Context, game string, d due) (bool, error) {
	if d.Kind == kindEnd {
		return applyEnd(s, ctx, game, d)
	}
	res, err := s.Run(ctx, engine.Spec{Req: engine.Request{Game: game, Actor: engine.SchedulerActor, Key: d.key()},
		Command: d.Kind, Body: d, Random: d.Kind == kindDeadline,
		Keys: func(g string) []store.Key {
			ks := []store.Key{stateKey(g)}
			if d.Kind == kindDeadline {
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
			case kindDeadline:
				if err := w.load(nil, []int{d.Case}, false); err != nil {
					return nil, err
				}
				src, err := t.Source()
				if err != nil {
					return nil, err
				}
				_, evs, err := w.s.ApplyDue(nomic.Due{Kind: nomic.DueJudgeDeadline, At: d.At, Case: d.Case}, t.Rules, src, nil)
				if err != nil {
					return nil, w.failed(err)
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
