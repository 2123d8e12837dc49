package turns

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/order"
	"croupier/internal/rules/nomic"
	"croupier/internal/store"
)

// The module's items in the game's partition (docs/architecture.md, "The
// turns module"). The game item is small and read by every command; the
// rules, each proposal, each vote and each case are items of their own,
// read only by the commands that need them, so a vote reads two items and
// writes one.
const (
	// stateSK is the game item (gameItem): the round, the counters (the
	// Judicial Pool's size among them), and an index of the open proposals
	// and of the cases with a timer or an open appeal. Its due time is the
	// next scheduled effect. It holds no player (issue 22).
	stateSK = "TURNS"
	// playerPrefix + id is a player's rule state (playerItem): activity,
	// points and the round they belong to, pool slot, the last turn voted
	// in. A command reads the few it touches.
	playerPrefix = "TPLAYER#"
	// poolOrder + slot (six digits) + "#" is the Order of a pool member's
	// player item: the store's ordered index is the Judicial Pool by slot,
	// so a draw reads the one member of the slot drawn, and a pool change
	// writes only the players it moves (no slot items of their own).
	poolOrder = "TPOOL#"
	// rulePrefix + number (six digits, so they list in number order) is
	// a numbered rule with its history.
	rulePrefix = "TRULE#"
	// legacyRulesSK is every rule in one item, as games before issue 22
	// stored them: read where a rule has no item of its own yet, never
	// written (it outgrew the item limit once rules were adopted).
	legacyRulesSK = "TRULES"
	// propPrefix + id is a proposal (without its open votes), with its
	// chat message (propItem).
	propPrefix = "TPROP#"
	// openOrder + seq (nine digits) is the Order of an open proposal's
	// item: the store's ordered index is the open proposals in submission
	// order (a turn's are a run of it: a later turn's were submitted
	// later), so the game item holds no list of them.
	openOrder = "TOPEN#"
	// votePrefix + proposal or appeal id + "#" + voter is one standing vote.
	votePrefix = "TVOTE#"
	// casePrefix + number is a case with its Judges, rulings and appeals.
	casePrefix = "TCASE#"
	// roundPrefix + number (six digits) is a won round (roundItem),
	// written in the commit that wins it: the rounds' record, an item a
	// round, so the game item holds only the current one.
	roundPrefix = "TROUND#"
)

func stateKey(g string) store.Key       { return store.Key{PK: engine.GamePK(g), SK: stateSK} }
func legacyRulesKey(g string) store.Key { return store.Key{PK: engine.GamePK(g), SK: legacyRulesSK} }
func ruleKey(g string, n int) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: fmt.Sprintf("%s%06d", rulePrefix, n)}
}
func propKey(g, id string) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: propPrefix + id}
}
func voteKey(g, id, voter string) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: votePrefix + id + "#" + voter}
}
func playerKey(g, id string) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: playerPrefix + id}
}
func poolOrderOf(slot int) string { return fmt.Sprintf("%s%06d#", poolOrder, slot) }
func openOrderOf(seq int) string  { return fmt.Sprintf("%s%09d", openOrder, seq) }

// propItem is a TPROP# item: the proposal, and its chat message, whose
// 👍/👎 reactions are votes read at the turn's end (U4).
type propItem struct {
	nomic.Proposal
	Message *engine.MessageRef `json:"message,omitempty"`
}

func roundKey(g string, n int) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: fmt.Sprintf("%s%06d", roundPrefix, n)}
}

// roundItem is a TROUND# item: a won round, and its winner's display name
// as of the win (a former player's name stays known).
type roundItem struct {
	nomic.Round
	WinnerName string `json:"winner_name,omitempty"`
}

func caseKey(g string, n int) store.Key {
	return store.Key{PK: engine.GamePK(g), SK: casePrefix + strconv.Itoa(n)}
}

// gameItem is the stored game item.
type gameItem struct {
	Round nomic.Round `json:"round"`
	// Players is every player, as games before issue 22 stored them: the
	// list is moved out into player items, a bounded page a commit, before
	// any command or scheduled effect runs (migrate); until then a view
	// reads a player not moved yet from here. Moving marks a list being
	// moved (its slots were made consistent by the first page).
	Players  []nomic.Player `json:"players,omitempty"`
	Moving   bool           `json:"moving,omitempty"`
	NextCase int            `json:"next_case"`
	NextSeq  int            `json:"next_seq"`
	// NextProposal and NextAppeal number proposals (P1, P2 ...) and
	// appeals (A1 ...) each on its own, NextSeq ordering them together;
	// a game from before (Counted false) goes on from NextSeq, so no id
	// repeats.
	NextProposal int  `json:"next_proposal,omitempty"`
	NextAppeal   int  `json:"next_appeal,omitempty"`
	Counted      bool `json:"counted,omitempty"`
	// PoolSize is the Judicial Pool's size: its members hold the slots
	// 0..PoolSize-1 (nomic.State.PoolSize; 0 in a game from before slots,
	// whose members take them in joining order).
	PoolSize int `json:"pool_size,omitempty"`
	// NextRule is the number the next enacted rule takes and UnanimityRule
	// the unanimity rule's (U5); 0 in a game from before each rule was an
	// item of its own, until its first command reads them from the one
	// legacy item (LegacyRules: that item holds the rules not yet moved).
	NextRule      int  `json:"next_rule,omitempty"`
	UnanimityRule int  `json:"unanimity_rule,omitempty"`
	LegacyRules   bool `json:"legacy_rules,omitempty"`
	// Moment is the last calendar moment (a turn's beginning, middle or
	// end) applied: the next one is the first after it (RULINGS T4).
	Moment time.Time `json:"moment"`
	// Closing names the turn whose end is being applied: the fence that
	// makes every vote committed before it part of the count (votes check
	// this item's version in their commit).
	Closing string `json:"closing,omitempty"`
	// End is the progress of that turn end, applied in steps (turnend.go).
	End *endProgress `json:"end,omitempty"`
	// Open is the open proposals, as games before their index (openOrder)
	// listed them here: moved into the index first, like Players (migrate).
	Open  []propRef `json:"open,omitempty"`
	Cases []caseRef `json:"cases"`
}

// propRef is an open proposal in the game item's index.
type propRef struct {
	ID       string `json:"id"`
	Proposer string `json:"proposer"`
	Round    int    `json:"round"`
	Ordinal  int    `json:"ordinal"`
	Seq      int    `json:"seq"`
	// Message is the proposal's chat message, whose 👍/👎 reactions are
	// votes read at the turn's end (U4).
	Message *engine.MessageRef `json:"message,omitempty"`
}

// caseRef is a case with a Judge awaiting a ruling or an open appeal.
type caseRef struct {
	Number        int       `json:"number"`
	Judge         string    `json:"judge,omitempty"`
	Administrator bool      `json:"administrator,omitempty"`
	Appointed     time.Time `json:"appointed,omitzero"`
	Appeal        string    `json:"appeal,omitempty"`
	AppealRound   int       `json:"appeal_round,omitempty"`
	AppealOrdinal int       `json:"appeal_ordinal,omitempty"`
}

func (r caseRef) judging() bool { return r.Judge != "" || r.Administrator }

func refOf(c *nomic.Case) (caseRef, bool) {
	r := caseRef{Number: c.Number}
	if a, ok := c.Judge(); ok {
		r.Judge, r.Administrator, r.Appointed = a.Judge, a.Administrator, a.At
	}
	for _, ap := range c.Appeals {
		if ap.Status == nomic.AppealOpen {
			r.Appeal, r.AppealRound, r.AppealOrdinal = ap.ID, ap.Round, ap.Ordinal
		}
	}
	return r, r.judging() || r.Appeal != ""
}

// work is one attempt's view of the game as the pure rules see it: the
// game item, and the parts the command loaded, as a nomic.State. save
// writes back what changed.
type work struct {
	t     *engine.Tx
	g     gameItem
	s     *nomic.State
	fresh bool // the game item did not exist yet
	// raw is each loaded part as read, to write only what changed.
	raw      map[store.Key][]byte
	ruleNums map[int]bool // the rules loaded (or enacted)
	// legacy is the legacy rules item, once read.
	legacy []nomic.Rule
	stubs  map[string]bool // open proposals known from the index only
	cases  map[int]bool    // cases loaded (or new)
	// messages are the open proposals' chat messages, by proposal id.
	messages map[string]engine.MessageRef
	// proposed are the players' proposals of the last turn each proposed
	// for, by player id (playerItem.Proposed).
	proposed map[string][]propRef
	// pages is how many pages of votes a turn-end step read.
	pages int
	// ruled: a turn-end step decided a proposal that changed the rules
	// (the step ends with it).
	ruled bool
	// err is the first failed read of a player the rules looked up.
	err error
}

// errBehind: a scheduled effect is due before the command's moment; the
// command applies it first (catchUp) and runs again.
var errBehind = errors.New("turns: a scheduled effect is due first")

// open reads the game item and makes the working state, creating the game
// item (round 1 from the game's creation, the rules of seed 003) the first
// time. It is the same for every call within an attempt.
func open(t *engine.Tx) (*work, error) {
	if w, ok := t.Scratch.(*work); ok {
		return w, nil
	}
	k := stateKey(t.Game)
	if _, ok := t.Loaded[k]; !ok {
		if err := t.Load(k); err != nil {
			return nil, err
		}
	}
	w := &work{t: t, raw: map[store.Key][]byte{}, stubs: map[string]bool{}, cases: map[int]bool{}, ruleNums: map[int]bool{}, messages: map[string]engine.MessageRef{}, proposed: map[string][]propRef{}}
	it := t.Loaded[k]
	if it.Exists() {
		if err := json.Unmarshal(it.Data, &w.g); err != nil {
			return nil, fmt.Errorf("decoding %s: %w", k, err)
		}
		w.raw[k] = it.Data
		w.legacyList()
		w.s = &nomic.State{Round: w.g.Round, NextCase: w.g.NextCase, NextSeq: w.g.NextSeq, PoolSize: w.g.PoolSize,
			NextRule: w.g.NextRule, UnanimityRule: w.g.UnanimityRule, Proposals: []nomic.Proposal{}, Cases: []nomic.Case{}}
	} else {
		s, err := nomic.New(t.Rules, t.Meta.CreatedAt)
		if err != nil {
			return nil, err
		}
		w.s, w.fresh = s, true
		for _, r := range s.Rules {
			w.ruleNums[r.Number] = true
		}
		w.g.Round, w.g.NextCase = s.Round, s.NextCase
		w.g.Moment = t.Meta.CreatedAt.Add(-time.Nanosecond)
	}
	// The rules hold no player list: they read the players a command
	// touches from their items (roster).
	w.s.Players, w.s.Roster = []nomic.Player{}, roster{w}
	for _, r := range w.g.Open {
		w.s.Proposals = append(w.s.Proposals, nomic.Proposal{ID: r.ID, Proposer: r.Proposer, Round: r.Round, Ordinal: r.Ordinal,
			Turn: nomic.TurnID(r.Round, r.Ordinal), Seq: r.Seq, Status: nomic.ProposalOpen})
		w.stubs[r.ID] = true
		if r.Message != nil {
			w.messages[r.ID] = *r.Message
		}
	}
	t.Scratch = w
	return w, nil
}

// due is the next scheduled effect of the game item: a calendar moment
// (turn begin, middle, end) or a Judge's deadline; at one instant the
// calendar moment comes first.
type due struct {
	Kind string    `json:"kind"` // kindBegin, kindMiddle, kindEnd or kindDeadline
	At   time.Time `json:"at"`
	Turn string    `json:"turn,omitempty"`
	Case int       `json:"case,omitempty"`
}

// Kinds of scheduled effects, each a catalogue command of the scheduler.
const (
	kindBegin    = "turn-begin"
	kindMiddle   = "turn-middle"
	kindEnd      = "turn-end"
	kindDeadline = "judge-deadline"
)

func (d due) key() string {
	id := d.Turn
	if d.Kind == kindDeadline {
		id = strconv.Itoa(d.Case)
	}
	return "turns:" + d.Kind + ":" + id + ":" + d.At.UTC().Format(time.RFC3339Nano)
}

func (g *gameItem) next(deadline time.Duration) (due, bool) {
	if g.Round.Over {
		return due{}, false
	}
	m := nomic.TurnAt(g.Round.Number, g.Round.Start, g.Moment).Next
	kind := map[string]string{nomic.MomentBegin: kindBegin, nomic.MomentMiddle: kindMiddle, nomic.MomentEnd: kindEnd}[m.Kind]
	d := due{Kind: kind, At: m.At, Turn: m.Turn}
	for _, c := range g.Cases {
		if c.Judge != "" && !c.Administrator {
			if at := c.Appointed.Add(deadline); at.Before(d.At) {
				d = due{Kind: kindDeadline, At: at, Case: c.Number}
			}
		}
	}
	return d, true
}

// behind reports whether an effect is due at or before the command's now.
func (w *work) behind() bool {
	d, ok := w.g.next(w.t.Rules.Turns.JudgeDeadline.Std())
	return ok && !d.At.After(w.t.Now)
}

// loadRules reads, in one request, the numbered rules named that are not
// loaded yet (a rule that does not exist is not loaded), and makes sure the
// rule counters are known (a game from before rules were items of their
// own reads them from its legacy item, which it reads from then on for a
// rule not moved yet; a rule moves when it is next written).
func (w *work) loadRules(nums ...int) error {
	t := w.t
	var keys []store.Key
	for _, n := range nums {
		if k := ruleKey(t.Game, n); !w.ruleNums[n] && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	legacy := w.legacy == nil && (w.g.LegacyRules || w.g.NextRule == 0 && !w.fresh)
	if legacy {
		keys = append(keys, legacyRulesKey(t.Game))
	}
	keys = slices.DeleteFunc(keys, func(k store.Key) bool { _, ok := t.Loaded[k]; return ok })
	if len(keys) > 0 {
		if err := t.Load(keys...); err != nil {
			return err
		}
	}
	if legacy {
		w.legacy = []nomic.Rule{}
		if it := t.Loaded[legacyRulesKey(t.Game)]; it.Exists() {
			if err := json.Unmarshal(it.Data, &w.legacy); err != nil {
				return fmt.Errorf("decoding the rules: %w", err)
			}
			w.g.LegacyRules = true
		}
		if w.g.NextRule == 0 {
			next := 0
			for _, r := range w.legacy {
				next = max(next, r.Number+1)
				if r.Role == nomic.RoleUnanimity {
					w.g.UnanimityRule = r.Number
				}
			}
			w.g.NextRule = next
			w.s.NextRule, w.s.UnanimityRule = w.g.NextRule, w.g.UnanimityRule
		}
	}
	for _, n := range nums {
		if w.ruleNums[n] {
			continue
		}
		it := t.Loaded[ruleKey(t.Game, n)]
		var r nomic.Rule
		switch i := slices.IndexFunc(w.legacy, func(r nomic.Rule) bool { return r.Number == n }); {
		case it.Exists():
			if err := json.Unmarshal(it.Data, &r); err != nil {
				return fmt.Errorf("decoding rule %d: %w", n, err)
			}
			w.raw[it.Key] = it.Data
		case i >= 0:
			r = w.legacy[i]
		default:
			continue
		}
		w.s.Rules = append(w.s.Rules, r)
		w.ruleNums[n] = true
	}
	return nil
}

// changedRules are the numbers of the rules a proposal's changes name.
func changedRules(cs []nomic.RuleChange) []int {
	var out []int
	for _, c := range cs {
		if c.Rule != 0 {
			out = append(out, c.Rule)
		}
	}
	return out
}

// load reads, in one request, the parts named that are not loaded yet:
// proposals (with their votes, when votes is set) and cases.
func (w *work) load(props []string, cases []int, votes bool) error {
	t := w.t
	var keys []store.Key
	for _, id := range props {
		if w.stubs[id] || !w.hasProp(id) {
			keys = append(keys, propKey(t.Game, id))
		}
	}
	for _, n := range cases {
		if !w.cases[n] {
			keys = append(keys, caseKey(t.Game, n))
		}
	}
	keys = slices.DeleteFunc(keys, func(k store.Key) bool { _, ok := t.Loaded[k]; return ok })
	if len(keys) > 0 {
		if err := t.Load(keys...); err != nil {
			return err
		}
	}
	for _, id := range props {
		it := t.Loaded[propKey(t.Game, id)]
		if !it.Exists() || !(w.stubs[id] || !w.hasProp(id)) {
			continue
		}
		var pi propItem
		if err := json.Unmarshal(it.Data, &pi); err != nil {
			return fmt.Errorf("decoding proposal %s: %w", id, err)
		}
		p := pi.Proposal
		if pi.Message != nil {
			w.messages[id] = *pi.Message
		}
		if p.Status == nomic.ProposalOpen && p.Round < w.s.Round.Number {
			p.Status = nomic.ProposalVoid // its round ended undecided (round-start)
		}
		w.raw[it.Key] = it.Data
		// Open votes, and those counted by a turn end in steps, are
		// items of their own; a proposal decided in one commit (before
		// issue 22) holds its counted votes.
		if votes && (p.Status == nomic.ProposalOpen || len(p.Votes) == 0) {
			vs, err := w.votes(id)
			if err != nil {
				return err
			}
			p.Votes = vs
		}
		if i := slices.IndexFunc(w.s.Proposals, func(q nomic.Proposal) bool { return q.ID == id }); i >= 0 {
			w.s.Proposals[i] = p
		} else {
			w.s.Proposals = append(w.s.Proposals, p)
		}
		delete(w.stubs, id)
	}
	for _, n := range cases {
		it := t.Loaded[caseKey(t.Game, n)]
		if !it.Exists() || w.cases[n] {
			continue
		}
		var c nomic.Case
		if err := json.Unmarshal(it.Data, &c); err != nil {
			return fmt.Errorf("decoding case %d: %w", n, err)
		}
		w.catchUpCase(&c)
		w.raw[it.Key] = it.Data
		if votes {
			for j := range c.Appeals {
				if ap := &c.Appeals[j]; ap.Status == nomic.AppealOpen || len(ap.Votes) == 0 {
					vs, err := w.votes(ap.ID)
					if err != nil {
						return err
					}
					ap.Votes = vs
				}
			}
		}
		w.s.Cases = append(w.s.Cases, c)
		w.cases[n] = true
	}
	return nil
}

// catchUpCase brings a case item up to what a new round made true without
// writing it (StartRound): its open appeal of an earlier round is void, and
// its current Judge is appointed as of the time the game item's index says,
// when that is later (U6; RULINGS is silent: no deadline runs while no
// round is in play).
func (w *work) catchUpCase(c *nomic.Case) {
	for j := range c.Appeals {
		if ap := &c.Appeals[j]; ap.Status == nomic.AppealOpen && ap.Round < w.s.Round.Number {
			ap.Status = nomic.AppealVoid
		}
	}
	i := slices.IndexFunc(w.g.Cases, func(r caseRef) bool { return r.Number == c.Number })
	n := len(c.Appointments)
	if i < 0 || n == 0 || c.Appointments[n-1].Ended != "" {
		return
	}
	if a := &c.Appointments[n-1]; w.g.Cases[i].Appointed.After(a.At) && a.Judge == w.g.Cases[i].Judge {
		a.At = w.g.Cases[i].Appointed
	}
}

func (w *work) hasProp(id string) bool {
	return slices.ContainsFunc(w.s.Proposals, func(p nomic.Proposal) bool { return p.ID == id })
}

// votes reads the standing votes on a proposal or appeal, in the order
// cast (without those a turn end found void).
func (w *work) votes(id string) ([]nomic.Vote, error) {
	out := []nomic.Vote{}
	err := w.t.Svc.Scan(w.t.Ctx, store.Query{PK: engine.GamePK(w.t.Game), Prefix: votePrefix + id + "#"}, func(it store.Item) error {
		v, err := decodeVote(it)
		if err == nil && !v.Void {
			out = append(out, v.Vote)
		}
		return err
	})
	order.Stable(out, func(a, b nomic.Vote) int { return a.At.Compare(b.At) })
	return out, err
}

// sync makes the rules' players follow the engine's memberships of ids
// (joining and leaving are the engine's common commands): a member the
// rules do not know joins them, active and out of the pool (U2, U8), and
// a name change shows.
func (w *work) sync(ids ...string) error {
	if err := w.loadPlayers(ids, true); err != nil {
		return err
	}
	for _, id := range ids {
		r, err := w.t.Record(id)
		if err != nil {
			return err
		}
		if r == nil {
			continue
		}
		m, p := r.Core(), w.s.Player(id)
		switch {
		case m.Member && (p == nil || !p.Member):
			if _, err := w.s.Join(id, m.Name, m.JoinedAt); err != nil {
				return err
			}
		case p != nil && m.Name != "":
			p.Name = m.Name
		}
	}
	return nil
}

// save stages every part that changed, and the game item with its index
// and its due time (the next scheduled effect).
func (w *work) save() error {
	t, s := w.t, w.s
	if w.err != nil {
		return w.err
	}
	if s.Round.Over && !(w.g.Round.Over && w.g.Round.Number == s.Round.Number) {
		// Won in this commit: the round's record (a new item: no round
		// is won twice).
		if err := w.t.Put(roundKey(t.Game, s.Round.Number), roundItem{Round: s.Round, WinnerName: s.Name(s.Round.Winner)}, time.Time{}); err != nil {
			return err
		}
	}
	w.g.Round, w.g.NextCase, w.g.NextSeq, w.g.PoolSize = s.Round, s.NextCase, s.NextSeq, s.PoolSize
	// A legacy list written back keeps the slots open made consistent
	// (a departure's hook may have moved a member already: their item
	// holds it, and the list's slots are never made again).
	w.g.Moving = len(w.g.Players) > 0
	if s.NextRule != 0 {
		w.g.NextRule, w.g.UnanimityRule = s.NextRule, s.UnanimityRule
	}
	refs := slices.DeleteFunc(slices.Clone(w.g.Cases), func(r caseRef) bool { return w.cases[r.Number] })
	for i := range s.Cases {
		if r, ok := refOf(&s.Cases[i]); ok {
			refs = append(refs, r)
		}
	}
	order.Sort(refs, func(a, b caseRef) int { return a.Number - b.Number })
	w.g.Cases = refs
	if w.g.Cases == nil {
		w.g.Cases = []caseRef{}
	}
	var at time.Time
	if d, ok := w.g.next(t.Rules.Turns.JudgeDeadline.Std()); ok {
		at = d.At
	}
	if err := w.put(stateKey(t.Game), w.g, at); err != nil {
		return err
	}
	for _, r := range s.Rules {
		if err := w.put(ruleKey(t.Game, r.Number), r, time.Time{}); err != nil {
			return err
		}
	}
	for _, p := range s.Proposals {
		if w.stubs[p.ID] {
			continue
		}
		pi, order := propItem{Proposal: p}, ""
		if m, ok := w.messages[p.ID]; ok {
			pi.Message = &m
		}
		if p.Status == nomic.ProposalOpen {
			pi.Votes = []nomic.Vote{} // open votes are items of their own
			order = openOrderOf(p.Seq)
		}
		if err := w.putOrdered(propKey(t.Game, p.ID), pi, order); err != nil {
			return err
		}
	}
	for i := range s.Cases {
		c := s.Cases[i]
		for j := range c.Appeals {
			if c.Appeals[j].Status == nomic.AppealOpen {
				c.Appeals[j].Votes = []nomic.Vote{}
			}
		}
		if err := w.put(caseKey(t.Game, c.Number), c, time.Time{}); err != nil {
			return err
		}
	}
	if err := w.savePlayers(); err != nil {
		return err
	}
	// A put expects the version read: it is the check, too.
	t.Checks = slices.DeleteFunc(t.Checks, func(c store.Check) bool {
		return slices.ContainsFunc(t.Puts, func(p store.Put) bool { return p.Item.Key == c.Key })
	})
	return nil
}

// put stages v at k if it differs from what was read (or the due time does).
func (w *work) put(k store.Key, v any, due time.Time) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", k, err)
	}
	if old, ok := w.raw[k]; ok && bytes.Equal(old, data) && w.t.Loaded[k].Due.Equal(due) {
		return nil
	}
	w.raw[k] = data
	return w.t.Put(k, json.RawMessage(data), due)
}

// putOrdered stages v at k under order (the ordered index; "": out of
// it) if it differs from what was read.
func (w *work) putOrdered(k store.Key, v any, order string) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", k, err)
	}
	if old, ok := w.raw[k]; ok && bytes.Equal(old, data) && w.t.Loaded[k].Order == order {
		return nil
	}
	w.raw[k] = data
	w.t.Puts = append(w.t.Puts, store.Put{Item: store.Item{Key: k, Data: data, Order: order}, Expect: w.t.Loaded[k].Version})
	return nil
}

// emit logs the rules' events (a "turns_" type per kind, the event as data).
func (w *work) emit(evs ...nomic.Event) {
	for _, ev := range evs {
		w.t.Emit(eventPrefix+ev.Kind, ev.Player, ev)
	}
}

// eventPrefix starts the type of every event this module logs.
const eventPrefix = "turns_"

// nextID is the id of the next proposal ("P") or appeal ("A"): a game's
// first appeal is A1 whatever was proposed before it (issue 24 point 10).
func (w *work) nextID(kind string) string {
	if !w.g.Counted {
		w.g.NextProposal, w.g.NextAppeal, w.g.Counted = w.g.NextSeq, w.g.NextSeq, true
	}
	n := &w.g.NextProposal
	if kind == "A" {
		n = &w.g.NextAppeal
	}
	*n++
	return fmt.Sprintf("%s%d", kind, *n)
}
