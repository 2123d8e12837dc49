package game

import (
	"encoding/json"
	"fmt"
	"slices"

	"croupier/internal/rules/exoptosis"
	"croupier/internal/store"
)

// leaveRoom is the transaction room one match's departure may need: the
// match item plus the players a settlement pays (at most 13 can have bet,
// X1) and a battle reward.
const leaveRoom = 16

// leaveMatches applies a departure to the leaver's matches, in the Leave
// commit (RULINGS P1): they forfeit every match they play in (X9), their
// duel requests and the duels they are invited to are cancelled, and their
// battle engagement is withdrawn. Leaving is rare, so reading the game's
// matches here costs less than a per-player index kept on every move.
// Chips refunded to the leaver are destroyed with their other items.
func (t *tx) leaveMatches(p *Player) error {
	p.BattlePeriod = ""
	t.save(p)
	return t.s.scan(t.ctx, store.Query{PK: gamePK(t.game), Prefix: matchPrefix}, func(it store.Item) error {
		if len(t.puts)+len(t.checks)+leaveRoom > store.MaxTxItems-2 {
			// Out of room in this commit: the rest are left to their timers
			// (a non-player's turns are skipped).
			return nil
		}
		var r MatchRecord
		if err := json.Unmarshal(it.Data, &r); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		switch r.Status {
		case MatchRequested:
			if !slices.Contains(r.Players, p.ID) {
				return nil
			}
			t.loaded[it.Key] = it
			t.cancelDuel(&r, p.ID, "left")
		case MatchForming:
			if !slices.Contains(r.Players, p.ID) {
				return nil
			}
			t.loaded[it.Key] = it
			r.Players = slices.DeleteFunc(r.Players, func(id string) bool { return id == p.ID })
			t.emit("battle_withdrawn", p.ID, map[string]any{"match": r.ID})
		case MatchPlaying:
			if r.Match == nil {
				return nil
			}
			if part, ok := r.Match.Participant(p.ID); !ok || part.Status != exoptosis.StatusActive {
				return nil
			}
			t.loaded[it.Key] = it
			before := r.Match.Phase
			src := &lazySource{t: t}
			evs, err := exoptosis.Apply(r.Match, t.rs, exoptosis.Move{Kind: exoptosis.MoveForfeit, Actor: p.ID}, t.now, src)
			if err != nil {
				return err
			}
			return t.finishMatchChange(&r, evs, before, src)
		default:
			return nil
		}
		return t.saveMatch(&r)
	})
}
