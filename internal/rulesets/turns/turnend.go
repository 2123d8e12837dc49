package turns

// A turn end in bounded steps (issue 22). A turn may hold a proposal of
// every active player, each with a vote of every active player: applied
// in one commit, 99 proposals already make 101 operations, over
// DynamoDB's 100 per transaction, and every later run of the due work
// failed the same way. So a turn end is a sequence of steps, each one
// commit of at most votePage votes and a handful of items, whose progress
// is stored in the game item (gameItem.End) under its version:
//
//  0. the fence: Closing names the turn, End starts; every vote on the
//     turn's proposals and appeals committed before it is counted, and
//     every later one is refused as late (castVote, RULINGS T5);
//  1. each proposal in submission order (U5), in passes over its votes
//     (TVOTE# items, a page a step): the 👍/👎 reactions read at the end
//     become the votes of the active players who cast none (U4); the
//     count, of active voters only, marking each counted voter who sits in
//     the pool (VotedIn, for U8; nobody enters or leaves the pool while a
//     turn end is applied: every command applies what is due first); the decision (nomic.DecideCounted: rule and data changes,
//     the defeat penalty); under majority, the dissenters' bonus in two
//     passes: the first finds who, in the order the votes were cast, is
//     the first to reach the winning points (the bonus is the same for
//     everyone, so that is decided by their own points alone), the second
//     awards everyone cast up to them, exactly as the pure rule awards them
//     one by one until one wins (U6);
//  2. each appeal voted on in the turn, the same way without points (U10);
//  3. the pool's removals of members who voted on no proposal (U8), and
//     the end: Closing cleared, the moment moved.
//
// Each step runs under an idempotency key naming the turn end and the
// step's number, and checks that the game item is at that step: a runner
// that dies mid-way leaves the game item at the next step for any other
// to take, concurrent runners commit each step once (the others find its
// record, or the item moved on), and a repeated step changes nothing. A
// win ends the round at once: the proposals and appeals left are void,
// as nomic.State.ApplyDue makes them (TestIssue22_TheTurnEndInStepsIsThePureRules).

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/ruleset"
	"croupier/internal/store"

	"github.com/oklog/ulid/v2"
)

// votePage is how many votes (or reactions) one page reads and may write:
// with the game item, the log entry, the proposals decided, the rules and
// META a step stays under maxStepOps of DynamoDB's 100 operations. A
// variable so tests cut a few dozen votes into pages as thousands are cut.
var votePage = 50

// A step takes on the next piece of work (a page, a decision) while the
// most that piece can add keeps it under maxStepOps operations and its log
// entry under maxStepEvents events (a few hundred bytes each: the entry
// stays far below the item limit), and it has read fewer than
// maxStepPages pages: a turn of many proposals with few votes each takes
// a step for many of them, not several steps for each.
const (
	maxStepOps    = 90
	maxStepEvents = 200
	maxStepPages  = 4
)

// Stages and passes of a turn end.
const (
	stageProposals = "proposals"
	stageAppeals   = "appeals"
	stagePool      = "pool"

	passReactions = "reactions" // reactions become votes
	passCount     = "count"
	passCutoff    = "cutoff" // who is the first dissenter to win, if any
	passAward     = "award"  // the dissenters' bonus
	// passWin: after a data change, who already has the winning points
	// (U6: the most, ties to the one who joined first), a walk over every
	// player item a few pages a step.
	passWin = "win"
)

// endProgress is a turn end being applied: the step it is at and what
// that step resumes.
type endProgress struct {
	Turn string `json:"turn"`
	// Step is the number of the next step (its idempotency key).
	Step  int    `json:"step"`
	Stage string `json:"stage"`
	// Proposals is how many of the turn's proposals were taken on so far
	// (U8 removes members who voted on none only after a turn that had
	// some).
	Proposals int `json:"proposals"`
	// Item is the proposal or appeal being counted ("" between two), Case
	// the appeal's case.
	Item string `json:"item,omitempty"`
	Case int    `json:"case,omitempty"`
	Pass string `json:"pass,omitempty"`
	// Cursor is where the pass resumes: the page of the item's votes, or
	// the last reactor made a vote.
	Cursor  string `json:"cursor,omitempty"`
	For     int    `json:"for"`
	Against int    `json:"against"`
	// Cutoff is the dissenter whose bonus wins the round: votes cast after
	// theirs gain nothing (U6).
	Cutoff *castAt `json:"cutoff,omitempty"`
	// Best is the player with the most points found so far by the win
	// pass, and Dissent whether the dissenters' bonus passes follow it.
	Best    *leader `json:"best,omitempty"`
	Dissent bool    `json:"dissent,omitempty"`
	// Last is the log entry of the step before: each step's entry id is
	// greater (stepEntryID), so the log's order of the steps, all logged
	// at the turn's end, is their commit order (RULINGS T6) whichever
	// runner made each.
	Last string `json:"last,omitempty"`
}

// leader is a player the win pass found with the most points so far.
type leader struct {
	ID       string    `json:"id"`
	Points   int       `json:"points"`
	JoinedAt time.Time `json:"joined_at"`
}

// over reports whether p comes before l: more points, or as many and
// joined earlier (the pure rules' list order is the order of joining).
func (l *leader) over(p *nomic.Player) bool {
	if l == nil {
		return true
	}
	return cmp.Or(cmp.Compare(l.Points, p.Points), p.JoinedAt.Compare(l.JoinedAt), strings.Compare(p.ID, l.ID)) < 0
}

// castAt orders votes as cast (nomic's standing votes: by time, then voter).
type castAt struct {
	Voter string    `json:"voter"`
	At    time.Time `json:"at"`
}

func (a castAt) before(b castAt) bool {
	return cmp.Or(a.At.Compare(b.At), strings.Compare(a.Voter, b.Voter)) < 0
}

// storedVote is a TVOTE# item: a vote, and Void once a turn end found its
// voter no longer active (it is not counted, U4, and no view lists it).
type storedVote struct {
	nomic.Vote
	Void bool `json:"void,omitempty"`
}

// maxEndSteps bounds one run's loop over a turn end's steps.
const maxEndSteps = 1 << 20

// applyEnd applies the turn end d step by step, from the step the game
// item is at, until it is done or another runner is ahead of it. It
// reports whether it committed any step.
func applyEnd(s *engine.Service, ctx context.Context, game string, d due) (bool, error) {
	applied := false
	for range maxEndSteps {
		t, err := s.View(ctx, game, stateKey(game))
		if err != nil {
			return applied, err
		}
		t.Ctx = ctx
		w, err := open(t)
		if err != nil {
			return applied, err
		}
		step := 0
		if e := w.g.End; e != nil && e.Turn == d.Turn {
			step = e.Step
		} else if next, ok := w.g.next(t.Rules.Turns.JudgeDeadline.Std()); !ok || !next.same(d) {
			return applied, nil
		}
		res, err := s.Run(ctx, engine.Spec{Req: engine.Request{Game: game, Actor: engine.SchedulerActor, Key: d.key() + "#" + strconv.Itoa(step)},
			Command: kindEnd, Body: d,
			Keys:  func(g string) []store.Key { return []store.Key{stateKey(g)} },
			Apply: func(t *engine.Tx) (any, error) { return endStep(t, d, step) }})
		switch {
		case errors.Is(err, errNotDue) || err == nil && res.Replayed:
		case err != nil:
			return applied, err
		default:
			applied = true
		}
	}
	return applied, fmt.Errorf("turns: the end of turn %s did not finish in %d steps", d.Turn, maxEndSteps)
}

// endStep applies step number step of the turn end d, if the game item is
// at it.
func endStep(t *engine.Tx, d due, step int) (any, error) {
	w, err := open(t)
	if err != nil {
		return nil, err
	}
	e := w.g.End
	switch {
	case step == 0:
		if e != nil && e.Turn == d.Turn {
			return nil, errNotDue
		}
		if next, ok := w.g.next(t.Rules.Turns.JudgeDeadline.Std()); !ok || !next.same(d) {
			return nil, errNotDue
		}
	case e == nil || e.Turn != d.Turn || e.Step != step:
		return nil, errNotDue
	}
	// Applied as of the moment it was due (RULINGS T4).
	t.Now, t.Entry.At = d.At, d.At
	last := ""
	if e != nil && e.Turn == d.Turn {
		last = e.Last
	}
	t.Entry.ID = stepEntryID(t.Svc.NewLogID(d.At), last)
	n := len(t.Entry.Events)
	if step == 0 {
		if err := w.fenceTurn(d); err != nil {
			return nil, w.failed(err)
		}
	} else {
		e.Step++
		for {
			if err := w.endWork(d); err != nil {
				return nil, w.failed(err)
			}
			if w.g.End == nil || !w.roomForMore() {
				break
			}
		}
	}
	if w.g.End != nil {
		w.g.End.Last = t.Entry.ID
	}
	resp := Applied{Due: d, Turn: w.s.Turn(d.At), Events: len(t.Entry.Events) - n}
	return resp, w.save()
}

// stepEntryID is id, or the id just after last when id does not sort
// after it: the steps of a turn end are all logged at its moment, in one
// millisecond, and a runner taking over from another (whose monotonic ids
// it does not share) could otherwise log a later step before an earlier
// one, and a read of the past at an entry of the turn end would then mix
// the steps (issue 25).
func stepEntryID(id, last string) string {
	if last == "" || id > last {
		return id
	}
	u, err := ulid.ParseStrict(last)
	if err != nil {
		return id
	}
	// The entropy, the last 10 bytes, plus one: the same millisecond.
	for i := len(u) - 1; i >= 6; i-- {
		u[i]++
		if u[i] != 0 {
			break
		}
	}
	return u.String()
}

// roomForMore reports whether the step may take on another piece of work.
// Not after a page that wrote votes (reactions made votes, votes found
// void): the next pass reads the votes from the store, so it must see
// them committed.
func (w *work) roomForMore() bool {
	t := w.t
	if len(t.Puts) > 0 || w.ruled {
		return false
	}
	// What save writes: the proposals, cases, rules and players loaded
	// that changed (players are held in memory, so a later page sees
	// them), the game item, META; and the log entry. The next piece adds
	// at most a page of votes (or of players) and a decision: the
	// proposal and the rules it changes.
	staged := len(w.s.Proposals) - len(w.stubs) + len(w.cases) + len(w.s.Rules) + w.changedPlayers() + 3
	if w.g.End != nil && w.g.End.Stage == stagePool && staged+2*poolPageSize() > maxStepOps {
		return false // a page of the pool's removals writes two players each
	}
	return staged+votePage+MaxChanges+1 <= maxStepOps && len(t.Entry.Events)+votePage+2*MaxChanges+5 <= maxStepEvents && w.pages < maxStepPages
}

// fenceTurn is the turn end's first step: the fence (Closing) and the
// turn end's start; votes check the game item's version, so none commits
// after it unnoticed.
func (w *work) fenceTurn(d due) error {
	_, ev := w.s.BeginTurnEnd(d.At)
	w.emit(ev)
	w.g.Closing = d.Turn
	w.g.End = &endProgress{Turn: d.Turn, Step: 1, Stage: stageProposals}
	return nil
}

// openPage is how many open proposals a turn end reads at a time: few,
// each loaded one counts against the step's operations (roomForMore).
const openPage = 10

// turnProposals are the next open proposals voted on in turn, in
// submission order: the first page of the open proposals' index, less
// those decided in this step, and less those of an ended round (each read
// void, and written so: out of the index). more: the page held none of
// the turn's but was full, so the next step reads on (once this one's
// commit has taken the decided ones out of the index).
func (w *work) turnProposals(turn string) (props []nomic.Proposal, more bool, err error) {
	t := w.t
	page, err := t.Svc.Store().Query(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Index: store.IndexOrder, Prefix: openOrder, Limit: openPage})
	if err != nil {
		return nil, false, err
	}
	var ids []string
	for _, it := range page.Items {
		if _, ok := t.Loaded[it.Key]; !ok {
			t.Loaded[it.Key] = it
		}
		ids = append(ids, strings.TrimPrefix(it.SK, propPrefix))
	}
	if err := w.load(ids, nil, false); err != nil {
		return nil, false, err
	}
	skipped := 0
	for _, id := range ids {
		p := w.s.Proposal(id)
		switch {
		case p == nil || p.Status != nomic.ProposalOpen:
			skipped++ // decided in this step, or void (its round ended): written out of the index
		case p.Turn == turn:
			props = append(props, *p)
		default:
			return props, false, nil // a later turn's: the turn's are done
		}
	}
	return props, len(props) == 0 && skipped > 0 && page.Next != "", nil
}

// endWork does one step's work of the turn end in progress.
func (w *work) endWork(d due) error {
	e := w.g.End
	switch e.Stage {
	case stageProposals:
		if e.Item == "" {
			props, more, err := w.turnProposals(d.Turn)
			if err != nil {
				return err
			}
			if more {
				w.pages = maxStepPages // the next step reads on
				return nil
			}
			if len(props) == 0 {
				w.emit(w.s.MajorityFrom(w.s.Round.TurnsEnded, d.At, w.t.Rules)...)
				e.Stage = stageAppeals
				return nil
			}
			if w.s.Round.Over { // void, a page of them a step
				for _, p := range props {
					w.emit(w.s.VoidProposal(w.s.Proposal(p.ID), d.Turn, d.At))
				}
				return nil
			}
			e.Proposals++ // the turn had proposals (U8 removes those who voted on none)
			e.Item, e.Pass, e.Cursor, e.For, e.Against, e.Cutoff = props[0].ID, passReactions, "", 0, 0, nil
		}
		return w.countPass(d, true)
	case stageAppeals:
		if e.Item == "" {
			c, ap := w.nextAppeal(d.Turn)
			if c == 0 {
				e.Stage = stagePool
				return nil
			}
			if w.s.Round.Over {
				if err := w.load(nil, []int{c}, false); err != nil {
					return err
				}
				if a := w.openAppeal(c); a != nil {
					a.Status = nomic.AppealVoid
				}
				return nil
			}
			e.Item, e.Case, e.Pass, e.Cursor, e.For, e.Against, e.Cutoff = ap, c, passReactions, "", 0, 0, nil
		}
		return w.countPass(d, false)
	case stagePool:
		if !w.s.Round.Over && e.Proposals > 0 {
			if done, err := w.poolPage(d); err != nil || !done {
				return err
			}
		}
		w.g.Moment, w.g.Closing, w.g.End = d.At, "", nil
		return nil
	}
	return fmt.Errorf("turns: turn end %s at an unknown stage %q", d.Turn, e.Stage)
}

// poolPage is a page of the pool's removals of members who voted on no
// proposal of the turn (U8), walking the pool's slots from the last down
// (the ordered index, descending, from where the last page stopped): a
// member who leaves frees their slot to the last one, already walked and
// staying, so every member is met once (as nomic's turn end walks them).
// done: the walk is over.
func (w *work) poolPage(d due) (done bool, err error) {
	t, e := w.t, w.g.End
	page, err := t.Svc.Store().Query(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Index: store.IndexOrder, Prefix: poolOrder,
		Desc: true, Limit: poolPageSize(), Cursor: e.Cursor})
	if err != nil {
		return false, err
	}
	w.pages++
	for _, it := range page.Items {
		if _, ok := t.Loaded[it.Key]; !ok {
			t.Loaded[it.Key] = it
		}
	}
	for _, it := range page.Items {
		if p := w.s.Player(strings.TrimPrefix(it.SK, playerPrefix)); p != nil && p.InPool && p.VotedIn != d.Turn {
			w.emit(w.s.LeavesPoolNoVote(p, d.Turn, d.At))
		}
	}
	e.Cursor = page.Next
	return page.Next == "", nil
}

// poolPageSize is how many members a page of the pool's removals walks:
// each removal writes two players (the one leaving, the last one moving
// into their slot).
func poolPageSize() int { return max(1, votePage*4/5) }

// nextAppeal is the open appeal voted on in turn with the lowest sequence,
// and its case (0: none).
func (w *work) nextAppeal(turn string) (int, string) {
	best, id, seq := 0, "", 0
	for _, r := range w.g.Cases {
		if r.Appeal == "" || nomic.TurnID(r.AppealRound, r.AppealOrdinal) != turn {
			continue
		}
		if a := w.openAppeal(r.Number); w.cases[r.Number] && (a == nil || a.ID != r.Appeal) {
			continue // decided in this step
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(r.Appeal, "A"))
		if best == 0 || n < seq {
			best, id, seq = r.Number, r.Appeal, n
		}
	}
	return best, id
}

func (w *work) openAppeal(c int) *nomic.Appeal {
	cs := w.s.Case(c)
	if cs == nil {
		return nil
	}
	for j := range cs.Appeals {
		if cs.Appeals[j].Status == nomic.AppealOpen {
			return &cs.Appeals[j]
		}
	}
	return nil
}

// countPass does one page of the pass the item in progress is at.
func (w *work) countPass(d due, proposal bool) error {
	e := w.g.End
	switch e.Pass {
	case passReactions:
		return w.reactionPage(d)
	case passCount:
		return w.countPage(d, proposal)
	case passCutoff, passAward:
		return w.dissentPage(d)
	case passWin:
		return w.winPage(d)
	}
	return fmt.Errorf("turns: turn end %s at an unknown pass %q", d.Turn, e.Pass)
}

// reactionPage makes the next page of the item's 👍/👎 reactions, read as
// of the turn's end, the votes of the active players who cast none (U4:
// a command vote, being explicit, is taken; both reactions are against).
// Reactors are taken in id order after the last one done, so a page is
// the same whenever it runs.
func (w *work) reactionPage(d due) error {
	t, e := w.t, w.g.End
	if e.Case == 0 { // a proposal's message is in its item (appeals have none)
		if err := w.load([]string{e.Item}, nil, false); err != nil {
			return err
		}
	}
	m, ok := w.messages[e.Item]
	var todo []string
	var down []string
	if ok {
		// Counted means counted (RULINGS T5): the pushed reactions are
		// sealed as of the end before they are read, so a push arriving
		// after this read is refused as late rather than left out. The
		// seal is its own commit, idempotent, like the fence.
		if err := t.Svc.SealReactions(t.Ctx, t.Game, []engine.MessageRef{m}, d.At); err != nil {
			return err
		}
		snap, err := t.Svc.ReactionsAt(t.Ctx, t.Game, m, d.At)
		if err != nil {
			return err
		}
		down = snap.Down
		all := append(slices.Clone(snap.Up), snap.Down...)
		slices.Sort(all)
		for _, id := range slices.Compact(all) {
			if id != "" && id > e.Cursor && len(todo) < max(1, votePage/2) {
				todo = append(todo, id)
			}
		}
	}
	if len(todo) == 0 {
		e.Pass, e.Cursor = passCount, ""
		return w.countPage(d, e.Case == 0)
	}
	w.pages++
	// Who reacted may not have met the rules yet: a player's reaction is
	// their vote all the same.
	if err := w.sync(todo...); err != nil {
		return err
	}
	var keys []store.Key
	for _, id := range todo {
		keys = append(keys, voteKey(t.Game, e.Item, id))
	}
	if err := t.Load(keys...); err != nil {
		return err
	}
	for i, id := range todo {
		p := w.s.Player(id)
		if p == nil || !p.Member || !p.Active || t.Loaded[keys[i]].Exists() {
			continue
		}
		v := nomic.Vote{Voter: id, For: !slices.Contains(down, id), At: d.At, Via: nomic.VoteReaction}
		if err := t.Put(keys[i], storedVote{Vote: v}, time.Time{}); err != nil {
			return err
		}
	}
	e.Cursor = todo[len(todo)-1]
	return nil
}

// votePageOf reads the next page of the item's votes.
func (w *work) votePageOf() ([]store.Item, string, error) {
	t, e := w.t, w.g.End
	page, err := t.Svc.Store().Query(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Prefix: votePrefix + e.Item + "#", Limit: votePage, Cursor: e.Cursor})
	if err != nil {
		return nil, "", err
	}
	for _, it := range page.Items {
		t.Loaded[it.Key] = it
	}
	w.pages++
	return page.Items, page.Next, nil
}

// loadVoters reads the player items of a page's voters, in one request.
func (w *work) loadVoters(items []store.Item) error {
	var ids []string
	for _, it := range items {
		if _, voter, ok := strings.Cut(strings.TrimPrefix(it.SK, votePrefix), "#"); ok {
			ids = append(ids, voter)
		}
	}
	return w.loadPlayers(ids, false)
}

func decodeVote(it store.Item) (storedVote, error) {
	var v storedVote
	if err := json.Unmarshal(it.Data, &v); err != nil {
		return v, fmt.Errorf("decoding vote %s: %w", it.Key, err)
	}
	return v, nil
}

// countPage counts the next page of the item's votes: those of active
// players (U4), each counted voter marked as having voted in the turn
// (U8); the others are void. After the last page the item is decided.
func (w *work) countPage(d due, proposal bool) error {
	t, e := w.t, w.g.End
	items, next, err := w.votePageOf()
	if err != nil {
		return err
	}
	if err := w.loadVoters(items); err != nil {
		return err
	}
	for _, it := range items {
		v, err := decodeVote(it)
		if err != nil {
			return err
		}
		if v.Void {
			continue
		}
		p := w.s.Player(v.Voter)
		if p == nil || !p.Member || !p.Active {
			v.Void = true
			if err := t.Put(it.Key, v, time.Time{}); err != nil {
				return err
			}
			continue
		}
		if v.For {
			e.For++
		} else {
			e.Against++
		}
		if proposal && p.InPool { // U8 asks it of pool members only (who stay in the pool during the end)
			p.VotedIn = d.Turn
		}
	}
	if e.Cursor = next; next != "" {
		return nil
	}
	if proposal {
		return w.decideProposal(d)
	}
	return w.decideAppeal(d)
}

// decideProposal applies the counted proposal's result (U5).
func (w *work) decideProposal(d due) error {
	t, e := w.t, w.g.End
	if err := w.load([]string{e.Item}, nil, false); err != nil {
		return err
	}
	p := w.s.Proposal(e.Item)
	if p == nil {
		return fmt.Errorf("turns: proposal %s of turn %s is missing", e.Item, d.Turn)
	}
	if err := w.loadRules(changedRules(p.Changes)...); err != nil {
		return err
	}
	_, evs, dissent := w.s.DecideCounted(p, w.s.Round.TurnsEnded, d.At, t.Rules, nomic.Result{For: e.For, Against: e.Against})
	if slices.ContainsFunc(evs, func(ev nomic.Event) bool {
		return ev.Kind == nomic.EvRuleChanged || ev.Kind == nomic.EvDataChanged || ev.Kind == nomic.EvSwitchCancelled
	}) {
		// The step ends with it (roomForMore): its log entry is the
		// moment the change applied, and a later adoption's is another,
		// so the rules between two adoptions of one turn end can be read
		// (issue 25).
		w.ruled = true
	}
	for _, ev := range evs {
		w.emit(ev)
		if ev.Kind != nomic.EvDataChanged {
			continue
		}
		var c ruleset.Change
		if err := json.Unmarshal(p.Data, &c); err != nil {
			return fmt.Errorf("proposal %s: decoding its data change: %w", p.ID, err)
		}
		if _, err := t.ApplyChange(c, "proposal "+p.ID+" adopted at the end of turn "+d.Turn, "turns-proposal"); err != nil {
			return err
		}
	}
	if changed := slices.ContainsFunc(evs, func(ev nomic.Event) bool { return ev.Kind == nomic.EvDataChanged }); changed && !w.s.Round.Over {
		// The pure rules end the round here if someone already has the
		// winning points the change set (reachedWin): a walk over every
		// player finds them.
		e.Pass, e.Cursor, e.Best, e.Dissent = passWin, "", nil, dissent
		return nil
	}
	return w.afterDecision(dissent)
}

// afterDecision goes on from a decided proposal: to the dissenters' bonus,
// or to the next item.
func (w *work) afterDecision(dissent bool) error {
	e := w.g.End
	if dissent && e.Against > 0 && !w.s.Round.Over {
		e.Pass, e.Cursor = passCutoff, ""
		return nil
	}
	e.Item = ""
	return nil
}

// winPage is a page of the win pass: every player item, in id order, for
// the one with the most points (those held by this step as they are now).
// After the last page, if they have the winning points, they win the
// round (U6), as the pure rules' reachedWin decides.
func (w *work) winPage(d due) error {
	t, e := w.t, w.g.End
	page, err := t.Svc.Store().Query(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Prefix: playerPrefix, Cursor: e.Cursor})
	if err != nil {
		return err
	}
	w.pages++
	for _, it := range page.Items {
		if _, ok := t.Loaded[it.Key]; !ok {
			t.Loaded[it.Key] = it
		}
		if p := w.s.Player(strings.TrimPrefix(it.SK, playerPrefix)); p != nil && e.Best.over(p) {
			e.Best = &leader{ID: p.ID, Points: p.Points, JoinedAt: p.JoinedAt}
		}
	}
	if e.Cursor = page.Next; page.Next != "" {
		return nil
	}
	if b := e.Best; b != nil && b.Points >= t.Rules.Turns.WinPoints {
		w.emit(w.s.WinByPoints(b.ID, d.At))
	}
	dissent := e.Dissent
	e.Best, e.Dissent = nil, false
	return w.afterDecision(dissent)
}

// dissentPage is a page of the dissenters' bonus (U5, U6): the cutoff
// pass finds the first voter against, in the order cast, whom the bonus
// takes to the winning points; the award pass gives the bonus to every
// voter against cast up to them (to all of them when nobody wins).
func (w *work) dissentPage(d due) error {
	t, e := w.t, w.g.End
	items, next, err := w.votePageOf()
	if err != nil {
		return err
	}
	if err := w.loadVoters(items); err != nil {
		return err
	}
	bonus, win := nomic.DissentBonus(t.Rules), t.Rules.Turns.WinPoints
	for _, it := range items {
		v, err := decodeVote(it)
		if err != nil {
			return err
		}
		p := w.s.Player(v.Voter)
		if v.Void || v.For || p == nil {
			continue
		}
		at := castAt{Voter: v.Voter, At: v.At}
		if e.Pass == passCutoff {
			if p.Points+bonus >= win && (e.Cutoff == nil || at.before(*e.Cutoff)) {
				e.Cutoff = &at
			}
			continue
		}
		if e.Cutoff == nil || !e.Cutoff.before(at) {
			evs, _ := w.s.Award(v.Voter, bonus, nomic.PointsDissent, d.At, t.Rules, d.Turn)
			w.emit(evs...)
		}
	}
	if e.Cursor = next; next != "" {
		return nil
	}
	if e.Pass == passCutoff {
		e.Pass = passAward
		return nil
	}
	e.Item = ""
	return nil
}

// decideAppeal applies the counted appeal's result (U10, U11).
func (w *work) decideAppeal(d due) error {
	t, e := w.t, w.g.End
	if err := w.load(nil, []int{e.Case}, false); err != nil {
		return err
	}
	c, ap := w.s.Case(e.Case), w.openAppeal(e.Case)
	if c == nil || ap == nil || ap.ID != e.Item {
		return fmt.Errorf("turns: appeal %s of case %d is missing", e.Item, e.Case)
	}
	w.emit(w.s.DecideAppealCounted(c, ap, nomic.Result{For: e.For, Against: e.Against}, d.At, t.Rules)...)
	e.Item, e.Case = "", 0
	return nil
}
