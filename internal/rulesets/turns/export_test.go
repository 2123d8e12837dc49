package turns

import (
	"context"
	"encoding/json"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/store"
)

// SetVotePage sets how many votes a turn-end step reads, for a test, and
// returns the function that restores it.
func SetVotePage(n int) (restore func()) {
	old := votePage
	votePage = n
	return func() { votePage = old }
}

// SeedPlayers writes players straight into game's store in the layout of
// docs/architecture.md (an engine membership and a TPLAYER# item each, 49
// players to a commit), those with InPool taking the pool's next slots,
// and raises the game item's pool size to match: a scale test's or a
// benchmark's thousands of players without thousands of joins. The game
// item must exist (a first command made it).
func SeedPlayers(ctx context.Context, st store.Store, game string, ps []nomic.Player) error {
	k := stateKey(game)
	it, err := st.Get(ctx, k)
	if err != nil {
		return err
	}
	var g gameItem
	if err := json.Unmarshal(it.Data, &g); err != nil {
		return err
	}
	var puts []store.Put
	flush := func() error {
		err := st.Commit(ctx, store.Tx{Puts: puts})
		puts = nil
		return err
	}
	for _, p := range ps {
		p.Member = true
		p.Slot = 0
		if p.InPool {
			p.Slot = g.PoolSize
			g.PoolSize++
		}
		data, err := json.Marshal(playerItem{Player: p, Round: g.Round.Number})
		if err != nil {
			return err
		}
		pi := store.Item{Key: playerKey(game, p.ID), Data: data}
		if p.InPool {
			pi.Order = poolOrderOf(p.Slot)
		}
		m, err := json.Marshal(engine.Player{ID: p.ID, Name: p.Name, Member: true, JoinedAt: p.JoinedAt})
		if err != nil {
			return err
		}
		puts = append(puts, store.Put{Item: pi}, store.Put{Item: store.Item{Key: engine.PlayerKey(game, p.ID), Data: m}})
		if len(puts) >= store.MaxTxItems-2 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if len(puts) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	data, err := json.Marshal(g)
	if err != nil {
		return err
	}
	return st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data, Due: it.Due}, Expect: it.Version}}})
}
