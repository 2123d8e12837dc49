package gildedhall

// Large battles (RULINGS X1, X10). Every player who engaged during a phase
// plays its battle, but a card name may be in a match only once across all
// hands (X1), so at most 54/4 = 13 participants can hold a hand: in a battle
// of thousands nearly everyone forfeits at the selection deadline, having
// found too few free names. Keeping every entrant in the match item would
// outgrow the item limit (1,000 participants made a 155 KB item), so a battle
// of more than battleInline engaged players keeps its entrants in ROSTER#
// items instead, each with the deck and Chips it entered with (X1: the deck
// never changes during the match), and the engine's match holds only the
// entrants who take a seat:
//
//   - an entrant's own move (a selection, a forfeit, a departure) seats them
//     first, in entry order, so the engine checks it exactly as it would
//     with everyone seated; a refused selection seats nobody (nothing is
//     committed);
//   - the selection deadline seats everyone still waiting, in entry order,
//     before the engine's Timeout, which picks random hands for as many as
//     the free names allow and forfeits the rest (X7), as it always does;
//   - entrants who forfeit without a hand or a bet leave the match item
//     again: their roster entry records the forfeit and its reason.
//
// Match.Waiting counts the entrants not seated and not out, so the engine
// does not reveal the hands while any may still select. Waiting entrants
// find the battle through their BattlePeriod (match_index.go), which stays
// set until they are seated.

import (
	engine "croupier/internal/game"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/store"
)

const rosterPrefix = "ROSTER#"

// battleInline is the most engaged players a battle keeps in the match item
// itself (the engine's own shape); a larger one keeps a roster. A variable
// so tests can make small games take the roster path.
var battleInline = 100

// rosterPageSize is how many entrants one ROSTER# item holds: with decks as
// bit masks an entrant takes under 150 bytes, so a page stays far below the
// item limit and a 10,000-player battle writes 20 of them. A variable, like
// the next, so tests can split a few dozen entrants as thousands are split.
var rosterPageSize = 500

// rosterPagesPerCommit is how many roster items one commit writes: the
// setup's own commit holds the first ones, and a battle with more (over
// 20,000 entrants) writes the rest in commits of their own just before,
// so no transaction nears DynamoDB's 100 items or 4 MB.
var rosterPagesPerCommit = 40

func rosterKey(g, match string, page int) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: fmt.Sprintf("%s%s#%04d", rosterPrefix, match, page)}
}

// RosterPage is one ROSTER# item: entrants of a large battle, in entry
// order (the order of their player ids).
type RosterPage struct {
	Match string `json:"match"`
	Page  int    `json:"page"`
	// Names is the page's card dictionary; an entrant's Deck is a bit mask
	// over it (bit i set: the deck holds Names[i]).
	Names    []string        `json:"names"`
	Entrants []RosterEntrant `json:"entrants"`
}

// RosterEntrant is one entrant as they entered the battle.
type RosterEntrant struct {
	ID    string `json:"id"`
	Deck  string `json:"deck"`  // hex bit mask over the page's Names: the distinct names of the deck
	Cards int    `json:"cards"` // copies in the deck
	Chips int    `json:"chips"`
	// Out is set, to the reason (deck_too_small, cannot_select, forfeit,
	// left), once the entrant forfeited without holding a hand or a bet.
	Out string `json:"out,omitempty"`
}

func (p *RosterPage) deck(e *RosterEntrant) []string {
	b, _ := hex.DecodeString(e.Deck) // our own encoding
	var out []string
	for i, n := range p.Names {
		if i/8 < len(b) && b[i/8]&(1<<(i%8)) != 0 {
			out = append(out, n)
		}
	}
	return out
}

func (p *RosterPage) add(id string, deck []string, cards, chips int, dict map[string]int) *RosterEntrant {
	var b []byte
	for _, n := range deck {
		i, ok := dict[n]
		if !ok {
			i = len(p.Names)
			dict[n] = i
			p.Names = append(p.Names, n)
		}
		for len(b) <= i/8 {
			b = append(b, 0)
		}
		b[i/8] |= 1 << (i % 8)
	}
	p.Entrants = append(p.Entrants, RosterEntrant{ID: id, Deck: hex.EncodeToString(b), Cards: cards, Chips: chips})
	return &p.Entrants[len(p.Entrants)-1]
}

// distinctDeck lists the distinct names of p's cards the ruleset knows, in
// the order first held: all the engine uses of a deck (X1, X4, X5).
func (t *tx) distinctDeck(p *Player) []string {
	var out []string
	for _, c := range p.Inventory.Cards {
		if _, known := t.Rules.Card(c.Name); known && !slices.Contains(out, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// startRosterBattle sets up a large battle as of t.now: the players still
// engaged in its phase enter, in id order; those whose decks hold too few
// different names forfeit at once (as the engine's New does), and with
// fewer than 2 who can play there is no match.
func (t *tx) startRosterBattle(r *MatchRecord) error {
	need := exoptosis.HandMin(t.Rules)
	var pages []*RosterPage
	var dict map[string]int
	playable, small := 0, []string{}
	smallCount := 0
	err := t.Svc.Scan(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Prefix: engine.PlayerPrefix}, func(it store.Item) error {
		var p Player
		if err := json.Unmarshal(it.Data, &p); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if !p.Member || p.BattlePeriod != r.Period {
			return nil
		}
		if len(pages) == 0 || len(pages[len(pages)-1].Entrants) == rosterPageSize {
			pages = append(pages, &RosterPage{Match: r.ID, Page: len(pages) + 1, Names: []string{}, Entrants: []RosterEntrant{}})
			dict = map[string]int{}
		}
		deck := t.distinctDeck(&p)
		e := pages[len(pages)-1].add(p.ID, deck, len(p.Inventory.Cards), p.Inventory.Chips, dict)
		if len(deck) < need {
			e.Out = "deck_too_small"
			smallCount++
			if len(small) < engine.ActivitySample {
				small = append(small, p.ID)
			}
		} else {
			playable++
		}
		return nil
	})
	if err != nil {
		return err
	}
	entrants := 0
	for _, p := range pages {
		entrants += len(p.Entrants)
	}
	if playable < 2 {
		r.Status, r.CancelReason, r.CancelledBy, r.EndedAt = MatchCancelled, "too_few_players", t.Entry.Actor, t.Now
		t.Emit(r.Kind+"_cancelled", "", map[string]any{"match": r.ID, "reason": "too_few_players",
			"detail": fmt.Sprintf("A match needs at least 2 participants with %d or more different cards in their deck; %d have them.", need, playable)})
		return nil
	}
	r.Entrants, r.Roster = entrants, make([]string, len(pages))
	for i, p := range pages {
		r.Roster[i] = p.Entrants[0].ID
	}
	if err := t.writeRosterOverflow(r, pages); err != nil {
		return err
	}
	for _, p := range pages[:min(len(pages), rosterPagesPerCommit)] {
		if err := t.Put(rosterKey(t.Game, r.ID, p.Page), p, time.Time{}); err != nil {
			return err
		}
	}
	r.Match = &exoptosis.Match{ID: r.ID, Phase: exoptosis.PhaseSelection, Started: t.Now, TurnStart: t.Now,
		Participants: []exoptosis.Participant{}, Pile: []string{}, Waiting: playable}
	r.Status, r.StartedAt = MatchPlaying, t.Now
	t.Emit("match_started", "", map[string]any{"match": r.ID, "kind": r.Kind, "entrants": entrants, "waiting": playable})
	if smallCount > 0 {
		t.Emit("match_forfeits", "", map[string]any{"match": r.ID, "reason": "deck_too_small", "count": smallCount, "players": small})
	}
	return nil
}

// writeRosterOverflow commits the roster items beyond the setup commit's
// share, in commits of their own, before it. Nothing reads them until the
// setup commits the match naming them; a setup that fails or is retried
// writes them again (a retry recomputes the same roster, or a newer one).
func (t *tx) writeRosterOverflow(r *MatchRecord, pages []*RosterPage) error {
	for from := rosterPagesPerCommit; from < len(pages); from += rosterPagesPerCommit {
		chunk := pages[from:min(len(pages), from+rosterPagesPerCommit)]
		keys := make([]store.Key, len(chunk))
		for i, p := range chunk {
			keys[i] = rosterKey(t.Game, r.ID, p.Page)
		}
		old, err := t.Svc.Store().GetMany(t.Ctx, keys)
		if err != nil {
			return fmt.Errorf("reading roster items of %s: %w", r.ID, err)
		}
		var tx store.Tx
		for i, p := range chunk {
			data, err := json.Marshal(p)
			if err != nil {
				return fmt.Errorf("encoding %s: %w", keys[i], err)
			}
			tx.Puts = append(tx.Puts, store.Put{Item: store.Item{Key: keys[i], Data: data}, Expect: old[i].Version})
		}
		if err := t.Svc.Store().Commit(t.Ctx, tx); err != nil {
			return fmt.Errorf("writing roster items of %s: %w", r.ID, err)
		}
	}
	return nil
}

// rosterPage returns page n of r's roster, read once per command.
func (t *tx) rosterPage(r *MatchRecord, n int) (*RosterPage, error) {
	if p, ok := t.roster[n]; ok {
		return p, nil
	}
	k := rosterKey(t.Game, r.ID, n)
	if _, ok := t.Loaded[k]; !ok {
		if err := t.Load(k); err != nil {
			return nil, err
		}
	}
	it := t.Loaded[k]
	if !it.Exists() {
		return nil, fmt.Errorf("internal: roster page %d of %s is missing", n, r.ID)
	}
	var p RosterPage
	if err := json.Unmarshal(it.Data, &p); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", k, err)
	}
	if t.roster == nil {
		t.roster = map[int]*RosterPage{}
	}
	t.roster[n] = &p
	return &p, nil
}

// pageOf is the roster page that would hold id (pages are in id order).
func (r *MatchRecord) pageOf(id string) int {
	return sort.Search(len(r.Roster), func(i int) bool { return r.Roster[i] > id })
}

// rosterEntrant finds id in r's roster: its page and entry, or nil.
func (t *tx) rosterEntrant(r *MatchRecord, id string) (*RosterPage, *RosterEntrant, error) {
	n := r.pageOf(id)
	if n == 0 {
		return nil, nil, nil
	}
	p, err := t.rosterPage(r, n)
	if err != nil {
		return nil, nil, err
	}
	for i := range p.Entrants {
		if p.Entrants[i].ID == id {
			return p, &p.Entrants[i], nil
		}
	}
	return nil, nil, nil
}

// seat adds a waiting entrant to the engine's participants, keeping them in
// entry order.
func (t *tx) seat(r *MatchRecord, p *RosterPage, e *RosterEntrant) {
	m := r.Match
	part := exoptosis.Participant{ID: e.ID, Deck: p.deck(e), Chips: e.Chips, Hand: []string{}, Status: exoptosis.StatusActive}
	i := sort.Search(len(m.Participants), func(i int) bool { return m.Participants[i].ID > e.ID })
	m.Participants = slices.Insert(m.Participants, i, part)
	m.Waiting--
	t.seated = append(t.seated, e.ID)
}

// prepareRoster seats who a change to a large battle needs before the
// engine sees it: everyone still waiting when the change runs the engine's
// Timeout (timeout) and the selection deadline has passed by t.now, or
// when no more than battleInline wait (then the engine sees the whole
// match again, as a small battle: who is last standing, whether all
// consent); else the actor ("" for none) if they wait. An actor who is
// out is refused as the engine refuses a forfeited participant.
func (t *tx) prepareRoster(r *MatchRecord, actor string, timeout bool) error {
	m := r.Match
	if len(r.Roster) == 0 || m == nil || m.Phase != exoptosis.PhaseSelection || m.Waiting == 0 {
		return nil
	}
	if at, ok := m.Deadline(t.Rules); (timeout && ok && !t.Now.Before(at)) || m.Waiting <= battleInline {
		return t.seatAll(r)
	}
	if actor == "" {
		return nil
	}
	if _, in := m.Participant(actor); in {
		return nil
	}
	p, e, err := t.rosterEntrant(r, actor)
	if err != nil || e == nil {
		return err
	}
	if e.Out != "" {
		return rules.Refuse("forfeited", "%s has forfeited this match (%s).", actor, e.Out)
	}
	t.seat(r, p, e)
	return nil
}

// seatAll seats every entrant still waiting, in entry order: one merge of
// the roster (in id order) with the seated (in id order too).
func (t *tx) seatAll(r *MatchRecord) error {
	m := r.Match
	seated := make(map[string]bool, len(m.Participants))
	for _, p := range m.Participants {
		seated[p.ID] = true
	}
	var add []exoptosis.Participant
	for n := 1; n <= len(r.Roster); n++ {
		p, err := t.rosterPage(r, n)
		if err != nil {
			return err
		}
		for i := range p.Entrants {
			if e := &p.Entrants[i]; e.Out == "" && !seated[e.ID] {
				add = append(add, exoptosis.Participant{ID: e.ID, Deck: p.deck(e), Chips: e.Chips, Hand: []string{}, Status: exoptosis.StatusActive})
				t.seated = append(t.seated, e.ID)
			}
		}
	}
	merged := make([]exoptosis.Participant, 0, len(m.Participants)+len(add))
	i, j := 0, 0
	for i < len(m.Participants) || j < len(add) {
		if j == len(add) || (i < len(m.Participants) && m.Participants[i].ID < add[j].ID) {
			merged = append(merged, m.Participants[i])
			i++
		} else {
			merged = append(merged, add[j])
			j++
		}
	}
	m.Participants, m.Waiting = merged, 0
	return nil
}

// unseatForfeits takes out of a large battle's match item every entrant
// who forfeited holding no hand and no bet and has no part in the turn
// order or a pending choice, recording the forfeit in their roster entry.
// It returns who left, with the reason each forfeited.
func (t *tx) unseatForfeits(r *MatchRecord, evs []exoptosis.Event) (map[string]string, error) {
	m := r.Match
	if len(r.Roster) == 0 || m == nil {
		return nil, nil
	}
	reasons := map[string]string{}
	for _, ev := range evs {
		if ev.Kind == exoptosis.EvForfeited {
			reasons[ev.Participant] = ev.Reason
		}
	}
	out := map[string]string{}
	dirty := map[int]bool{}
	keep := m.Participants[:0:0]
	for _, p := range m.Participants {
		if !idleForfeit(m, &p) {
			keep = append(keep, p)
			continue
		}
		page, e, err := t.rosterEntrant(r, p.ID)
		if err != nil {
			return nil, err
		}
		if e == nil {
			keep = append(keep, p) // not an entrant of the roster: stays
			continue
		}
		e.Out = reasons[p.ID]
		if e.Out == "" {
			e.Out = "forfeit"
		}
		out[p.ID] = e.Out
		dirty[page.Page] = true
	}
	m.Participants = keep
	for n := range dirty {
		if err := t.Put(rosterKey(t.Game, r.ID, n), t.roster[n], time.Time{}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// idleForfeit reports whether p forfeited holding no hand and no bet, and
// has no part in the turn order or a pending choice or draw.
func idleForfeit(m *exoptosis.Match, p *exoptosis.Participant) bool {
	return p.Status == exoptosis.StatusForfeited && len(p.Hand) == 0 && p.Bet == 0 && !slices.Contains(m.Order, p.ID) &&
		(m.Pending == nil || (m.Pending.Owner != p.ID && m.Pending.Receiver != p.ID)) &&
		!slices.ContainsFunc(m.Draws, func(d exoptosis.Draw) bool { return d.Participant == p.ID })
}

// summarizeForfeits replaces, when many entrants left a large battle in one
// change, their forfeit events by one match_forfeits event per reason (a
// count and a sample), so the log entry stays small. A few keep their own
// events.
func summarizeForfeits(r *MatchRecord, evs []exoptosis.Event, out map[string]string) ([]exoptosis.Event, []engine.Event) {
	if len(out) <= engine.ActivitySample {
		return evs, nil
	}
	type group struct {
		count   int
		players []string
	}
	groups := map[string]*group{}
	var reasons []string
	kept := evs[:0:0]
	for _, ev := range evs {
		reason, gone := out[ev.Participant]
		if ev.Kind != exoptosis.EvForfeited || !gone {
			kept = append(kept, ev)
			continue
		}
		g := groups[reason]
		if g == nil {
			g = &group{}
			groups[reason] = g
			reasons = append(reasons, reason)
		}
		g.count++
		if len(g.players) < engine.ActivitySample {
			g.players = append(g.players, ev.Participant)
		}
	}
	var sums []engine.Event
	for _, reason := range reasons {
		g := groups[reason]
		sums = append(sums, engine.MakeEvent("match_forfeits", "", map[string]any{"match": r.ID, "reason": reason, "count": g.count, "players": g.players}))
	}
	return kept, sums
}
