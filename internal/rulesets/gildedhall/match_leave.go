package gildedhall

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"croupier/internal/rules"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/store"
)

// leaveMatches applies a departure to the leaver's matches, in the Leave
// commit (RULINGS P1): they forfeit every match they play in (X9), their
// duel requests and the duels they are invited to are cancelled, and their
// battle engagement is withdrawn. Only the matches of the leaver's index
// (match_index.go) and the battle they engaged in are read, in one request,
// however many matches the game has had; the index is then dropped, stale
// entries with it. Chips refunded to the leaver are destroyed with their
// other items.
func (t *tx) leaveMatches(p *Player) error {
	ids := liveMatchIDs(p, t.Period.ID)
	p.BattlePeriod, p.Matches = "", nil
	t.Save(p)
	var keys []store.Key
	for _, id := range ids {
		if k := matchKey(t.Game, id); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	if err := t.Load(keys...); err != nil {
		return err
	}
	var rs []*MatchRecord
	var cancelled []string
	for _, k := range keys {
		it := t.Loaded[k]
		if !it.Exists() {
			continue
		}
		var r MatchRecord
		if err := json.Unmarshal(it.Data, &r); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		rs = append(rs, &r)
		if r.Status == MatchRequested && slices.Contains(r.Players, p.ID) {
			cancelled = append(cancelled, r.Players...)
		}
	}
	// The duels cancelled leave their players' indexes: read those players
	// in one request rather than one per duel.
	if err := t.Preload(cancelled); err != nil {
		return err
	}
	for _, r := range rs {
		// The match item, the players it may write (a cancellation's or a
		// settlement's), a battle reward.
		if len(r.everyone())+2 > t.room() {
			// Out of room in this commit: the rest are left to their timers
			// (a non-player's turns are skipped).
			break
		}
		if err := t.leaveMatch(p, r); err != nil {
			return err
		}
	}
	return nil
}

// leaveMatch applies p's departure to one match read for it.
func (t *tx) leaveMatch(p *Player, r *MatchRecord) error {
	switch r.Status {
	case MatchRequested:
		if !slices.Contains(r.Players, p.ID) {
			return nil
		}
		t.cancelDuel(r, p.ID, "left")
	case MatchForming:
		if !slices.Contains(r.Players, p.ID) {
			return nil
		}
		r.Players = slices.DeleteFunc(r.Players, func(id string) bool { return id == p.ID })
		t.Emit("battle_withdrawn", p.ID, map[string]any{"match": r.ID})
	case MatchPlaying:
		if r.Match == nil {
			return nil
		}
		// A departure runs no Timeout: an overdue selection deadline is
		// the scheduler's, which seats everyone for it.
		if err := t.prepareRoster(r, p.ID, false); err != nil {
			if re := (*rules.Error)(nil); errors.As(err, &re) {
				return nil // out of the battle already
			}
			return err
		}
		if part, ok := r.Match.Participant(p.ID); !ok || part.Status != exoptosis.StatusActive {
			return nil
		}
		before := r.Match.Phase
		src := &lazySource{t: t}
		evs, err := exoptosis.Apply(r.Match, t.Rules, exoptosis.Move{Kind: exoptosis.MoveForfeit, Actor: p.ID}, t.Now, src)
		if err != nil {
			return err
		}
		_, err = t.finishMatchChange(r, evs, before, src)
		return err
	default:
		return nil
	}
	return t.saveMatch(r)
}
