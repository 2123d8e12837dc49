package trades

// The per-player index of open trades (Player.Trades). A departure withdraws
// every open trade the leaver is a party to (RULINGS P1); it used to read
// every TRADE# item the game ever had, a cost that grows forever. Like the
// live-match index (match_index.go), each player's record lists their open
// trades, written in the commits that open or close a trade:
//
//   - an offer adds the trade to the offerer and the receiver: both records
//     are read for the offer's checks anyway, and are now written too, as a
//     duel request writes its requester and invitees;
//   - an acceptance removes it from both (both are written by the swap);
//   - a withdrawal or a refusal by one party, and the expiry, read the
//     party they lack and remove it from both;
//   - a departure removes the trades it withdraws from the leaver and from
//     each counterparty.
//
// The index is exact: every entry is an open trade, so a departure's reads
// are bounded by the leaver's open trades, not by the game's history. A
// record made before the index existed has TradesIndexed false; its
// departure falls back to reading the game's trades once, and every record
// joined since is indexed from the start.

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/store"
)

// maxLeaveTrades bounds the trades a departure closes in its one commit:
// each writes the trade and may write its counterparty. Any beyond it stay
// in the indexes, can no longer execute (a non-player holds nothing) and
// expire on their timer, which removes them.
const maxLeaveTrades = 40

// indexTrade adds tr to the index of each party; the caller saves them.
func indexTrade(tr *Trade, parties ...Trader) {
	for _, p := range parties {
		if ids, _ := p.OpenTrades(); !slices.Contains(*ids, tr.ID) {
			*ids = append(slices.Clone(*ids), tr.ID)
		}
	}
}

// unindexTrade removes the closed trade tr from both parties' indexes,
// reading in one request the party the command has not read.
func (t *tx) unindexTrade(tr *Trade) error {
	ids := []string{tr.From, tr.To}
	if err := t.Preload(ids); err != nil {
		return err
	}
	for _, pid := range ids {
		p, err := t.trader(pid)
		if err != nil {
			return err
		}
		if p == nil {
			continue
		}
		list, _ := p.OpenTrades()
		if i := slices.Index(*list, tr.ID); i >= 0 {
			*list = slices.Delete(slices.Clone(*list), i, i+1)
			t.Save(recordOf(p))
		}
	}
	return nil
}

// withdrawTradesOf closes the open trades p is a party to, as part of their
// departure (RULINGS P1), reading only the trades of p's index (one
// request) and their counterparties (one more). p's record from before the
// index is read the old way, once: every trade of the game.
func (t *tx) withdrawTradesOf(p Trader) ([]string, error) {
	var open []*Trade
	var err error
	trades, indexed := p.OpenTrades()
	if *indexed {
		open, err = t.indexedTrades(*trades)
	} else {
		open, err = t.scanOpenTrades(p.Core().ID)
	}
	if err != nil {
		return nil, err
	}
	// The leaver's index is exact from now on: it lists the trades this
	// commit has no room to close.
	*indexed = true
	*trades = nil
	for _, tr := range open[min(len(open), maxLeaveTrades):] {
		*trades = append(*trades, tr.ID)
	}
	t.Save(recordOf(p))
	open = open[:min(len(open), maxLeaveTrades)]
	var others []string
	for _, tr := range open {
		others = append(others, tr.From, tr.To)
	}
	if err := t.Preload(others); err != nil {
		return nil, err
	}
	withdrawn := []string{}
	for _, tr := range open {
		tr.Status, tr.ClosedAt, tr.ClosedBy = TradeWithdrawn, t.Now, p.Core().ID
		if err := t.Put(tradeKey(t.Game, tr.ID), tr, time.Time{}); err != nil {
			return nil, err
		}
		if err := t.unindexTrade(tr); err != nil {
			return nil, err
		}
		withdrawn = append(withdrawn, tr.ID)
	}
	return withdrawn, nil
}

// indexedTrades reads the trades of an index in one request, keeping the
// open ones (all of them, the index being exact; a closed one is skipped
// rather than withdrawn again).
func (t *tx) indexedTrades(ids []string) ([]*Trade, error) {
	var keys []store.Key
	for _, id := range ids {
		if k := tradeKey(t.Game, id); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	if err := t.Load(keys...); err != nil {
		return nil, err
	}
	var open []*Trade
	for _, k := range keys {
		it := t.Loaded[k]
		if !it.Exists() {
			continue
		}
		var tr Trade
		if err := json.Unmarshal(it.Data, &tr); err != nil {
			return nil, fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if tr.Status == TradeOpen {
			open = append(open, &tr)
		}
	}
	return open, nil
}

// scanOpenTrades reads every trade of the game for the open ones id is a
// party to: the departure of a record made before the index.
func (t *tx) scanOpenTrades(id string) ([]*Trade, error) {
	var open []*Trade
	err := t.Svc.Scan(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Prefix: tradePrefix}, func(it store.Item) error {
		var tr Trade
		if err := json.Unmarshal(it.Data, &tr); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if tr.Status == TradeOpen && (tr.From == id || tr.To == id) {
			t.Loaded[it.Key] = it
			open = append(open, &tr)
		}
		return nil
	})
	return open, err
}
