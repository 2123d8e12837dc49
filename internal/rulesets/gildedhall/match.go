package gildedhall

// Exoptosis matches (RULINGS X1-X11) in the game layer: storage of a match,
// the moves players make, the timers that act for absent players (X7), and
// settlement (X8-X10). The rules themselves are internal/rules/exoptosis; this
// file composes them with storage the way the economy does (see economy.go):
// one read, the pure rules, one atomic commit with the log entry.
//
// One item per match, MATCH#<id>, holds the engine's Match and the game's own
// data about it (duel request and answers, battle engagement). Its Due is the
// engine's next deadline, so the due index finds expiring turns and choices
// without scans. A move writes only that item and its log entry, unless Chips
// move (a bet writes the bettor's player item too, the Chips leave the
// inventory at once, X8) or the match ends (settlement writes the players
// who are paid, and every participant leaves the match from their index of
// live matches, in the same commit as the end; see match_index.go).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/fair"
	engine "croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

const matchPrefix = "MATCH#"

func matchKey(g, id string) store.Key { return store.Key{PK: engine.GamePK(g), SK: matchPrefix + id} }

// Match kinds.
const (
	MatchDuel   = "duel"   // requested by a player of a group (X11)
	MatchBattle = "battle" // the collective match of a phase's engaged players (X10)
)

// Match statuses: the game's view of a match's life. The engine's Phase
// (selection, betting, play, ended) refines MatchPlaying.
const (
	MatchRequested = "requested" // a duel waiting for its invitees' answers
	MatchForming   = "forming"   // a battle whose phase ended; it is set up at StartsAt by the scheduler
	MatchPlaying   = "playing"   // the engine runs it
	MatchEnded     = "ended"     // over and settled
	MatchCancelled = "cancelled" // a declined or withdrawn duel, or a battle with too few players
)

// Answers to a duel request.
const (
	AnswerAccepted = "accepted"
	AnswerDeclined = "declined"
)

// MaxDuelPlayers bounds a duel's group: with 54 cards and hands of at least
// 4, at most 13 participants can hold a hand at once (X1).
const MaxDuelPlayers = 13

// MatchRecord is the stored MATCH#<id> item.
type MatchRecord struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	// RequestedBy is the duel's requester.
	RequestedBy string `json:"requested_by,omitempty"`
	// Players are the duel's group (requester first) or the battle's
	// engaged players, in the order they become participants.
	Players []string `json:"players,omitempty"`
	// Answers holds each duel player's answer (the requester's acceptance
	// is their request).
	Answers map[string]string `json:"answers,omitempty"`
	// Period is the period of the request, or the phase the battle's
	// players engaged in.
	Period    string    `json:"period"`
	CreatedAt time.Time `json:"created_at"`
	// StartsAt is when a forming battle is set up (its phase's end).
	StartsAt     time.Time `json:"starts_at,omitzero"`
	StartedAt    time.Time `json:"started_at,omitzero"`
	EndedAt      time.Time `json:"ended_at,omitzero"`
	CancelReason string    `json:"cancel_reason,omitempty"`
	CancelledBy  string    `json:"cancelled_by,omitempty"`
	// Match is the engine's state, from the start on.
	Match      *exoptosis.Match     `json:"match,omitempty"`
	Settlement []exoptosis.Transfer `json:"settlement,omitempty"`
	Reward     *BattleReward        `json:"reward,omitempty"`
	// Entrants, for a battle of more than battleInline engaged players,
	// counts them: they are kept in ROSTER# items rather than in Players and
	// the engine's participants, and Roster holds the first player id of
	// each roster item (battle_roster.go).
	Entrants int      `json:"entrants,omitempty"`
	Roster   []string `json:"roster,omitempty"`
}

// BattleReward is what a battle's winner received besides the pool (X10):
// one of the ruleset's battle rewards, chosen with equal odds.
type BattleReward struct {
	Kind      string         `json:"kind"` // cards, vertebrae or chips
	Cards     []players.Card `json:"cards,omitempty"`
	Vertebrae int            `json:"vertebrae,omitempty"`
	Chips     int            `json:"chips,omitempty"`
}

// due is the record's timer: a forming battle's setup, or the running
// match's next deadline (X7); none otherwise.
func (t *tx) matchDue(r *MatchRecord) time.Time {
	switch r.Status {
	case MatchForming:
		return r.StartsAt
	case MatchPlaying:
		if r.Match != nil {
			if at, ok := r.Match.Deadline(t.Rules); ok {
				return at
			}
		}
	}
	return time.Time{}
}

func matchNotFound(id string) *rules.Error {
	return rules.Refuse("match_not_found", "There is no match %q in this game.", id)
}

// matchRecord decodes a match the command read.
func (t *tx) matchRecord(id string) (*MatchRecord, error) {
	it := t.Loaded[matchKey(t.Game, id)]
	if !it.Exists() {
		return nil, matchNotFound(id)
	}
	var r MatchRecord
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return nil, fmt.Errorf("decoding match %s: %w", id, err)
	}
	return &r, nil
}

// saveMatch stages the match with its timer; a match that is over leaves
// its players' indexes in the same commit (match_index.go).
func (t *tx) saveMatch(r *MatchRecord) error {
	if !liveStatus(r.Status) {
		if err := t.unindexMatch(r); err != nil {
			return err
		}
	}
	k := matchKey(t.Game, r.ID)
	// The hands being selected are secret (X1): the log's change of the
	// match says that it changed, not how, until the change that reveals
	// them, which holds the whole match (engine.Change.Secret).
	if selecting(r) {
		t.MarkSecret(k)
	} else if old := t.Loaded[k]; old.Exists() {
		var was MatchRecord
		if err := json.Unmarshal(old.Data, &was); err == nil && selecting(&was) {
			t.MarkRevealed(k)
		}
	}
	return t.Put(k, r, t.matchDue(r))
}

// selecting: the match's hands are being selected, so what they hold is
// secret.
func selecting(r *MatchRecord) bool {
	return r.Match != nil && r.Match.Phase == exoptosis.PhaseSelection && liveStatus(r.Status)
}

// lazySource is the engine's random source for one command: it opens the
// period's seed only when the engine first draws (most moves never draw, and
// then pay no seed read). A failure to open the seed is kept and returned by
// the caller after the engine call; the changed match is then discarded.
type lazySource struct {
	t   *tx
	err error
}

func (l *lazySource) Intn(purpose string, n int) int {
	if l.err != nil {
		return 0
	}
	src, err := l.t.Source()
	if err != nil {
		l.err = err
		return 0
	}
	return src.Intn(purpose, n)
}

var _ fair.Source = (*lazySource)(nil)

// startMatch makes the engine's match for r's players as of t.now: each
// entrant's deck is the names of the cards in their inventory (X1) and their
// Chips are their inventory's. Players who are no longer members are left
// out. With fewer than 2 playable entrants the match is cancelled instead.
func (t *tx) startMatch(r *MatchRecord) error {
	if r.Entrants > 0 {
		return t.startRosterBattle(r)
	}
	if err := t.Preload(r.Players); err != nil {
		return err
	}
	var entrants []exoptosis.Entrant
	for _, id := range r.Players {
		p, err := t.member(id)
		if err != nil {
			return err
		}
		if p == nil {
			continue
		}
		deck := make([]string, 0, len(p.Inventory.Cards))
		for _, c := range p.Inventory.Cards {
			if _, known := t.Rules.Card(c.Name); known {
				deck = append(deck, c.Name)
			}
		}
		entrants = append(entrants, exoptosis.Entrant{ID: p.ID, Deck: deck, Chips: p.Inventory.Chips})
	}
	m, evs, err := exoptosis.New(t.Rules, r.ID, entrants, t.Now)
	if err != nil {
		var re *rules.Error
		if !errors.As(err, &re) {
			return err
		}
		r.Status, r.CancelReason, r.CancelledBy, r.EndedAt = MatchCancelled, re.Code, t.Entry.Actor, t.Now
		t.Emit(r.Kind+"_cancelled", "", map[string]any{"match": r.ID, "reason": re.Code, "detail": re.Message})
		return nil
	}
	r.Match, r.Status, r.StartedAt = m, MatchPlaying, t.Now
	// The Chips each entrant brought are the replay's starting point (their
	// decks never change, X1, so the match item keeps those).
	chips := make(map[string]int, len(entrants))
	for _, e := range entrants {
		chips[e.ID] = e.Chips
	}
	t.Emit("match_started", "", map[string]any{"match": r.ID, "kind": r.Kind, "participants": r.Players, "chips": chips})
	if err := t.indexMatch(r, r.everyone()); err != nil { // a duel's players have it since the request
		return err
	}
	return t.mirror(r, evs, exoptosis.PhaseSelection)
}

// mirror applies the engine's events to the game: Chips bet leave the
// bettor's inventory at once and refunds return to it (X8), and every event
// goes to the log as "match_<kind>". Selections are secret until the hands
// are revealed (X1), so the log never holds a selected hand's cards, nor a
// hand that leaves the match during selection.
func (t *tx) mirror(r *MatchRecord, evs []exoptosis.Event, phaseBefore exoptosis.Phase) error {
	secret := phaseBefore == exoptosis.PhaseSelection
	// Taken before the selections' cards are cut from their events: at the
	// reveal, or at an end before any (a forfeit leaving one standing), when
	// the hands held are no secret any more and the replay needs them.
	var revealed map[string][]string
	if i := slices.IndexFunc(evs, func(ev exoptosis.Event) bool {
		return ev.Kind == exoptosis.EvHandsRevealed || secret && ev.Kind == exoptosis.EvEnded
	}); i >= 0 {
		revealed = revealedHands(r.Match, evs, i)
	}
	for i := range evs {
		ev := &evs[i]
		var hands map[string][]string
		step := 0
		switch ev.Kind {
		case exoptosis.EvHandsRevealed, exoptosis.EvEnded:
			if secret {
				secret = false
				hands = revealed
			}
		case exoptosis.EvSelected:
			ev.Cards = nil
		case exoptosis.EvForfeited:
			if secret {
				ev.Cards = nil
			}
			if ev.Reason == exoptosis.MoveForfeit && !strings.HasPrefix(t.Entry.Command, "match-") {
				step = r.Match.Steps // a departure's forfeit: its change's one step
			}
		case exoptosis.EvRaised, exoptosis.EvMatched:
			p, err := t.member(ev.Participant)
			if err != nil {
				return err
			}
			if p == nil || p.Inventory.Chips < ev.Chips {
				// The engine checked the bettor's refreshed Chips: a bug if reached.
				return fmt.Errorf("internal: %s cannot pay the %d Chips the engine took", ev.Participant, ev.Chips)
			}
			p.Inventory.Chips -= ev.Chips
			t.Save(p)
		case exoptosis.EvRefunded:
			if err := t.credit(r, ev.Participant, ev.Chips, "refund"); err != nil {
				return err
			}
		}
		t.Emit("match_"+ev.Kind, ev.Participant, matchEvent{Match: r.ID, Event: *ev, Hands: hands, Step: step})
	}
	return nil
}

// matchEvent is the data of a match_* log event.
type matchEvent struct {
	Match string `json:"match"`
	exoptosis.Event
	// Hands, on hands_revealed (or on ended, when the match ends before the
	// reveal), are the hands selected: secret until then, so the select
	// moves before it are logged without their cards, and a replay takes
	// them from here.
	Hands map[string][]string `json:"hands,omitempty"`
	// Step, on a departure's forfeit, is its number in the match: the
	// departure's entry (the engine's LeaveResult) holds no steps, and the
	// log's order of entries made in one millisecond by different
	// processes is not the order they committed in, so the replay places
	// the forfeit by this number (match_replay.go).
	Step int `json:"step,omitempty"`
}

// revealedHands is what each participant selected, as the hands are
// revealed by evs[i]: their hands now, except the selections made by this
// change (evs before i) and hands that left by a forfeit after the reveal
// (evs after i), which the events carry.
func revealedHands(m *exoptosis.Match, evs []exoptosis.Event, i int) map[string][]string {
	out := map[string][]string{}
	for _, p := range m.Participants {
		if p.Selected && len(p.Hand) > 0 {
			out[p.ID] = slices.Clone(p.Hand)
		}
	}
	for j, ev := range evs {
		if (j < i && ev.Kind == exoptosis.EvSelected) || (j > i && ev.Kind == exoptosis.EvForfeited && len(ev.Cards) > 0) {
			out[ev.Participant] = slices.Clone(ev.Cards)
		}
	}
	return out
}

// credit pays Chips out of a match to a player. A player who has left
// owns nothing: Chips due to them are destroyed (seed 002 Items), and the
// log says so.
func (t *tx) credit(r *MatchRecord, id string, chips int, why string) error {
	p, err := t.member(id)
	if err != nil {
		return err
	}
	if p == nil {
		t.Emit("chips_destroyed", id, map[string]any{"match": r.ID, "chips": chips, "reason": why})
		return nil
	}
	p.Inventory.Chips += chips
	t.Save(p)
	return nil
}

// settle pays out a match the engine has just ended, in the same commit:
// the pool to the winner or the bets back on termination (X8, X9), and a
// battle winner's random reward (X10). Winnings count towards the winning
// Chips (C7): flush checks every saved player at commit.
func (t *tx) settle(r *MatchRecord, src fair.Source) error {
	m := r.Match
	if m == nil || m.Phase != exoptosis.PhaseEnded || r.Status != MatchPlaying {
		return nil
	}
	transfers, err := exoptosis.Settle(m)
	if err != nil {
		return err
	}
	// Everyone's record is written at the end (the index, the payouts):
	// read the ones not read yet in one request.
	if err := t.Preload(r.everyone()); err != nil {
		return err
	}
	for _, tr := range transfers {
		if err := t.credit(r, tr.To, tr.Chips, tr.Reason); err != nil {
			return err
		}
	}
	r.Status, r.EndedAt, r.Settlement = MatchEnded, m.Ended, transfers
	if r.Kind == MatchBattle && m.Winner != "" && len(t.Rules.BattleRewards) > 0 {
		if r.Reward, err = t.reward(m.Winner, src); err != nil {
			return err
		}
	}
	t.Emit("match_settled", m.Winner, map[string]any{"match": r.ID, "kind": r.Kind, "winner": m.Winner,
		"end_reason": m.EndReason, "pool": m.Betting.Pool, "transfers": transfers, "reward": r.Reward})
	return nil
}

// Draw purposes of the game layer's own random choices.
const (
	PurposeBattleReward    = "battle.reward"           // which reward a battle winner gets (X10)
	PurposeRewardVertebrae = "battle.reward.vertebrae" // how many Vertebrae, uniform in min..max
)

// reward draws and grants a battle winner's reward (X10): one of the
// ruleset's rewards with equal odds.
func (t *tx) reward(winner string, src fair.Source) (*BattleReward, error) {
	p, err := t.member(winner)
	if err != nil || p == nil {
		return nil, err
	}
	rw := t.Rules.BattleRewards[src.Intn(PurposeBattleReward, len(t.Rules.BattleRewards))]
	out := &BattleReward{Kind: rw.Kind}
	switch rw.Kind {
	case "cards":
		out.Cards = cards.RandomN(src, t.Rules, rw.Count, t.Rules.Chances.HoloGranted, t.newID)
		p.Inventory.Cards = append(p.Inventory.Cards, out.Cards...)
	case "vertebrae":
		out.Vertebrae = rw.Min + src.Intn(PurposeRewardVertebrae, rw.Max-rw.Min+1)
		p.Inventory.Vertebrae += out.Vertebrae
	case "chips":
		out.Chips = rw.Count
		p.Inventory.Chips += out.Chips
	}
	t.Save(p)
	t.Emit("battle_rewarded", p.ID, out)
	return out, nil
}

// MatchMove is the payload of a move in a match (RULINGS X1-X9). Kind is one
// of select (Cards: the hand), raise or bet (Amount: the new level, the
// total each participant must have bet), match, decline, pass, play (Card),
// add (Card), giver (Target), give (Card), target (Targets; plus Card for a
// Queen), forfeit, terminate.
type MatchMove struct {
	Match   string   `json:"match"`
	Kind    string   `json:"kind"`
	Card    string   `json:"card,omitempty"`
	Cards   []string `json:"cards,omitempty"`
	Target  string   `json:"target,omitempty"`
	Targets []string `json:"targets,omitempty"`
	Amount  int      `json:"amount,omitempty"`
	// Guessed is set by a caller that took Match from its own memory of the
	// mover's only running match (a chat move with no match named): the
	// move is then refused ErrStaleGuess, nothing written, unless Match is
	// still the mover's only live match and running, and the caller looks
	// the match up and moves again. It saves that look-up's reads.
	Guessed bool `json:"-"`
}

// CodeStaleGuess refuses a Guessed move whose match is no longer the
// mover's only running one.
const CodeStaleGuess = "stale_match_guess"

func staleGuess(id string) error {
	return rules.Refuse(CodeStaleGuess, "%s is not your only running match.", id)
}

var moveKinds = []string{exoptosis.MoveSelect, exoptosis.MoveRaise, exoptosis.MoveBet, exoptosis.MoveMatch,
	exoptosis.MoveDecline, exoptosis.MovePass, exoptosis.MovePlay, exoptosis.MoveAdd, exoptosis.MoveGiver,
	exoptosis.MoveGive, exoptosis.MoveTarget, exoptosis.MoveForfeit, exoptosis.MoveTerminate}

// MoveKinds lists the kinds of MatchMove.
func MoveKinds() []string { return slices.Clone(moveKinds) }

func validMatchID(id string) error {
	if id == "" || len(id) > 64 || strings.ContainsAny(id, "#/ \t\n") {
		return rules.Refuse("invalid_request", "%q is not a match id.", id)
	}
	return nil
}

func (mv *MatchMove) check() error {
	mv.Match = strings.TrimSpace(mv.Match)
	mv.Kind = strings.ToLower(strings.TrimSpace(mv.Kind))
	if err := validMatchID(mv.Match); err != nil {
		return err
	}
	if !slices.Contains(moveKinds, mv.Kind) {
		return rules.Refuse("invalid_move", "%q is not a move; the moves are %s.", mv.Kind, strings.Join(moveKinds, ", "))
	}
	if len(mv.Cards) > 54 || len(mv.Targets) > 2 {
		return rules.Refuse("invalid_request", "A move names at most 54 cards and 2 targets.")
	}
	for _, s := range append(append([]string{mv.Card, mv.Target}, mv.Cards...), mv.Targets...) {
		if len(s) > 100 {
			return rules.Refuse("invalid_request", "A card or player name is at most 100 characters long.")
		}
	}
	if mv.Amount < 0 || mv.Amount > MaxGrant {
		return rules.Refuse("invalid_request", "A bet amount is from 1 to %d Chips.", MaxGrant)
	}
	return nil
}

// MoveResult is the response of a move: the match as everyone sees it
// after the move, what the move (and any deadline that passed before it)
// did, and the steps it took in the match, which is how the log records
// the match move by move (match_replay.go).
type MoveResult struct {
	Match  MatchView         `json:"match"`
	Events []exoptosis.Event `json:"events"`
	Steps  []MatchStep       `json:"steps"`
}

// Move makes one move in a running match for the actor. A deadline that
// passed before the move is acted on first, as of that deadline (X7), so
// the move meets the state the deadline produced. Moves and bets are
// actions (RULINGS P2). Refusals are the engine's rule errors
// (not_your_turn, illegal_play, must_play...) or match_not_found,
// match_not_started, duel_closed.
func (s *Service) Move(ctx context.Context, req engine.Request, mv MatchMove) (*engine.Result, error) {
	if err := mv.check(); err != nil {
		return nil, err
	}
	// A target named by mention or id costs no read; by name, the index's.
	if mv.Target != "" {
		t, err := s.ResolvePlayer(ctx, req, mv.Target)
		if err != nil {
			return nil, err
		}
		mv.Target = t
	}
	if len(mv.Targets) > 0 {
		ts, err := s.ResolvePlayers(ctx, req, mv.Targets)
		if err != nil {
			return nil, err
		}
		mv.Targets = ts
	}
	return s.run(ctx, spec{
		Req: req, Command: "match-" + mv.Kind, Body: mv,
		Keys: func(g string) []store.Key { return []store.Key{matchKey(g, mv.Match), engine.PlayerKey(g, req.Actor)} },
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			if ids := liveMatchIDs(p, t.Period.ID); mv.Guessed && (len(ids) != 1 || ids[0] != mv.Match) {
				return nil, staleGuess(mv.Match)
			}
			r, err := t.matchRecord(mv.Match)
			if err != nil {
				return nil, err
			}
			if mv.Guessed && r.Status != MatchPlaying {
				return nil, staleGuess(mv.Match)
			}
			if err := notRunning(r, t.PlayerNames); err != nil {
				return nil, err
			}
			if err := t.prepareRoster(r, p.ID, true); err != nil {
				return nil, err
			}
			m := r.Match
			before := m.Phase
			src := &lazySource{t: t}
			var evs []exoptosis.Event
			var steps []MatchStep
			if at, ok := m.Deadline(t.Rules); ok && !t.Now.Before(at) {
				n := m.Steps
				evs = exoptosis.Timeout(m, t.Rules, t.Now, src)
				steps = timeoutStep(steps, n, m.Steps, time.Time{}) // as of the entry's time
			}
			step := MatchStep{N: m.Steps + 1}
			if m.Phase == exoptosis.PhaseBetting {
				// The engine's idea of the bettor's Chips may be stale (a
				// purchase or trade since): bets are checked against the
				// inventory read in this command.
				for i := range m.Participants {
					if m.Participants[i].ID == p.ID {
						m.Participants[i].Chips = p.Inventory.Chips
						chips := p.Inventory.Chips
						step.Chips = &chips
					}
				}
			}
			emv := exoptosis.Move{Kind: mv.Kind, Actor: p.ID, Card: mv.Card,
				Cards: mv.Cards, Target: mv.Target, Targets: mv.Targets, Amount: mv.Amount}
			more, err := exoptosis.Apply(m, t.Rules, emv, t.Now, src)
			if err != nil {
				return nil, err
			}
			evs = append(evs, more...)
			logged := emv
			logged.Actor = "" // the entry's actor, at the entry's time
			if logged.Kind == exoptosis.MoveSelect {
				logged.Cards = nil // secret until the hands are revealed (X1): the reveal logs them
			}
			step.Move = &logged
			steps = t.noteSeated(append(steps, step))
			if evs, err = t.finishMatchChange(r, evs, before, src); err != nil {
				return nil, err
			}
			if err := t.Acted(p); err != nil {
				return nil, err
			}
			return MoveResult{Match: t.matchView(r, ""), Events: nonNil(evs), Steps: steps}, nil
		},
	})
}

// finishMatchChange mirrors the engine's events, settles an ended match and
// stages the match item: the common end of moves, timeouts and departures.
// A large battle's entrants who are out leave the match item first, and
// the events it returns (for the response) then sum up a crowd of
// forfeits (battle_roster.go).
func (t *tx) finishMatchChange(r *MatchRecord, evs []exoptosis.Event, before exoptosis.Phase, src *lazySource) ([]exoptosis.Event, error) {
	if src.err != nil {
		return nil, src.err
	}
	out, err := t.unseatForfeits(r, evs)
	if err != nil {
		return nil, err
	}
	evs, sums := summarizeForfeits(r, evs, out)
	if err := t.mirror(r, evs, before); err != nil {
		return nil, err
	}
	t.Entry.Events = append(t.Entry.Events, sums...)
	if len(t.seated) > 0 {
		var still []string
		for _, id := range t.seated {
			if _, in := r.Match.Participant(id); in {
				still = append(still, id)
			}
		}
		if err := t.indexMatch(r, still); err != nil {
			return nil, err
		}
	}
	if err := t.settle(r, src); err != nil {
		return nil, err
	}
	if src.err != nil {
		return nil, src.err
	}
	return evs, t.saveMatch(r)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// notRunning refuses moves in a match the engine is not running yet or any
// more (an ended match is left to the engine, which says match_over).
func notRunning(r *MatchRecord, names func(ids ...string) string) error {
	switch r.Status {
	case MatchRequested:
		return rules.Refuse("match_not_started", "Duel %s has not started: it waits for %s to accept.", r.ID, names(r.waitingFor()...)).
			With("waiting_for", r.waitingFor())
	case MatchForming:
		return rules.Refuse("match_not_started", "Battle %s starts at %s.", r.ID, r.StartsAt.UTC().Format(time.RFC1123)).
			With("starts_at", r.StartsAt.UTC())
	case MatchCancelled:
		return rules.Refuse("duel_closed", "Match %s was cancelled (%s).", r.ID, engine.Words(r.CancelReason)).With("match_status", r.Status)
	}
	if r.Match == nil {
		return fmt.Errorf("internal: match %s is %s without engine state", r.ID, r.Status)
	}
	return nil
}

// waitingFor lists the duel players who have not answered.
func (r *MatchRecord) waitingFor() []string {
	out := []string{}
	for _, id := range r.Players {
		if r.Answers[id] == "" {
			out = append(out, id)
		}
	}
	return out
}

// Convenience wrappers: each is Move with one kind, for callers that map
// one command to one method.

// Select submits the actor's hand (X1): at least 4 cards of their deck.
func (s *Service) Select(ctx context.Context, req engine.Request, match string, cards []string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MoveSelect, Cards: cards})
}

// Bet makes a betting move (X8): kind raise (amount = the new level), match,
// decline or pass.
func (s *Service) Bet(ctx context.Context, req engine.Request, match, kind string, amount int) (*engine.Result, error) {
	switch kind {
	case exoptosis.MoveRaise, exoptosis.MoveBet, exoptosis.MoveMatch, exoptosis.MoveDecline, exoptosis.MovePass:
	default:
		return nil, rules.Refuse("invalid_move", "%q is not a betting move; use raise, match, decline or pass.", kind)
	}
	return s.Move(ctx, req, MatchMove{Match: match, Kind: kind, Amount: amount})
}

// Play plays a card from the actor's hand (X3).
func (s *Service) Play(ctx context.Context, req engine.Request, match, card string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MovePlay, Card: card})
}

// Add adds a card of the actor's deck to their hand when nothing can be
// played (X4).
func (s *Service) Add(ctx context.Context, req engine.Request, match, card string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MoveAdd, Card: card})
}

// ChooseGiver names who must give the actor a card when nothing can be
// played or added (X4), or when a forced draw finds the deck exhausted (X5).
func (s *Service) ChooseGiver(ctx context.Context, req engine.Request, match, giver string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MoveGiver, Target: giver})
}

// Give gives the pending receiver a card of the actor's hand (X4).
func (s *Service) Give(ctx context.Context, req engine.Request, match, card string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MoveGive, Card: card})
}

// Target answers an effect's choice (X5): Ace one other participant, King
// two participants, Queen one participant and Card, a card of their hand.
func (s *Service) Target(ctx context.Context, req engine.Request, match string, targets []string, card string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MoveTarget, Targets: targets, Card: card})
}

// Forfeit takes the actor out of the match (X9).
func (s *Service) Forfeit(ctx context.Context, req engine.Request, match string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MoveForfeit})
}

// Terminate records the actor's consent to end the match without a winner;
// with every remaining participant's consent the bets are refunded (X9).
func (s *Service) Terminate(ctx context.Context, req engine.Request, match string) (*engine.Result, error) {
	return s.Move(ctx, req, MatchMove{Match: match, Kind: exoptosis.MoveTerminate})
}
