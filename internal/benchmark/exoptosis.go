package benchmark

import (
	"encoding/json"
	"fmt"
	"slices"

	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// Exoptosis rows of MeasureAPI (issue 4, acceptance 6): the latency and cost
// of a duel's commands through the HTTP API, move by move.

// Command names of the Exoptosis rows.
const (
	cmdDuelRequest = "duel request"
	cmdDuelAccept  = "duel accept (starts match)"
	cmdMatchView   = "match view (mover, legal moves)"
	cmdSelect      = "match select"
	cmdBet         = "match bet (raise/match/pass)"
	cmdPlay        = "match play/add"
	cmdChoice      = "match choice (target/giver/give)"
	cmdForfeit     = "match forfeit (ends, settles)"
	cmdMove5       = "match move 5 (the first play)"
	cmdMove6       = "match move 6 (asks for a card)"
	cmdMove500     = "match move 500 (asks for a card)"
)

// duelCards and duelChips are what each player is granted for duels: 8
// distinct cards (consecutive players hold different ones, so a pair's
// hands never collide) and Chips to bet.
const (
	duelCards = 8
	duelChips = 3
)

// duelPlayMoves is how many play-phase moves each duel makes before one of
// its players forfeits (which ends and settles the match).
const duelPlayMoves = 8

// deckOf is the cards granted to player i: 8 consecutive names of the
// ruleset's card list, starting where player i-1's stopped.
func deckOf(rs *ruleset.Ruleset, i int) []gildedhall.CardGrant {
	out := make([]gildedhall.CardGrant, duelCards)
	for j := range out {
		out[j] = gildedhall.CardGrant{Name: rs.Cards[(i*duelCards+j)%len(rs.Cards)].Name}
	}
	return out
}

// moveBody is the body of POST .../matches/{id}/moves: a listed move
// without its actor (the actor is the request's).
type moveBody struct {
	Kind    string   `json:"kind"`
	Card    string   `json:"card,omitempty"`
	Cards   []string `json:"cards,omitempty"`
	Target  string   `json:"target,omitempty"`
	Targets []string `json:"targets,omitempty"`
	Amount  int      `json:"amount,omitempty"`
}

// duels plays one two-player duel per pair of players (0 with 1, 2 with 3,
// ...) through the API: request, acceptance (which starts the match), both
// selections, the betting round, duelPlayMoves moves, and a forfeit that
// ends and settles the match. Every move is one the mover's view lists as
// legal, read just before it (GET .../matches/{id} as the mover), so every
// measured move succeeds.
func duels(call func(op, string) ([]byte, error), hall string, players []string) error {
	for d := 0; d+1 < len(players); d += 2 {
		if err := duel(call, hall, d/2, players[d], players[d+1]); err != nil {
			return fmt.Errorf("duel %d (%s, %s): %w", d/2, players[d], players[d+1], err)
		}
	}
	return nil
}

func duel(call func(op, string) ([]byte, error), hall string, d int, a, b string) error {
	key := func(s string, i int) string { return fmt.Sprintf("duel-%d-%s-%d", d, s, i) }
	got, err := call(op{cmdDuelRequest, "POST", hall + "/duels", a, gildedhall.RequestDuel{Invitees: []string{b}}, 201}, key("request", 0))
	if err != nil {
		return err
	}
	var v gildedhall.MatchView
	if err := json.Unmarshal(got, &v); err != nil || v.ID == "" {
		return fmt.Errorf("duel request answered %.200s (%v)", got, err)
	}
	id := v.ID
	match := hall + "/matches/" + id
	if got, err = call(op{cmdDuelAccept, "POST", hall + "/duels/" + id + "/answer", b, map[string]bool{"accept": true}, 200}, key("accept", 0)); err != nil {
		return err
	}
	if err := json.Unmarshal(got, &v); err != nil || v.Status != gildedhall.MatchPlaying {
		return fmt.Errorf("the accepted duel is %q, not playing: %.300s (%v)", v.Status, got, err)
	}

	// view reads the match as who; it lists who's legal moves.
	view := func(who string, i int) (gildedhall.MatchView, error) {
		var v gildedhall.MatchView
		got, err := call(op{cmdMatchView, "GET", match, who, nil, 200}, key("view", i))
		if err != nil {
			return v, err
		}
		if err := json.Unmarshal(got, &v); err != nil {
			return v, fmt.Errorf("match view: %.200s (%v)", got, err)
		}
		return v, nil
	}
	step := 0
	// move makes mv as who and returns the match after it.
	move := func(command, who string, mv exoptosis.Move) (gildedhall.MatchView, error) {
		step++
		body := moveBody{Kind: mv.Kind, Card: mv.Card, Cards: mv.Cards, Target: mv.Target, Targets: mv.Targets, Amount: mv.Amount}
		got, err := call(op{command, "POST", match + "/moves", who, body, 200}, key("move", step))
		if err != nil {
			return gildedhall.MatchView{}, err
		}
		var res gildedhall.MoveResult
		if err := json.Unmarshal(got, &res); err != nil {
			return gildedhall.MatchView{}, fmt.Errorf("%s answered %.200s (%v)", command, got, err)
		}
		return res.Match, nil
	}

	// Selection: both choose a hand of 5 (both are movers at once).
	for _, p := range []string{a, b} {
		pv, err := view(p, step)
		if err != nil {
			return err
		}
		sel, ok := listed(pv, exoptosis.MoveSelect)
		if !ok {
			return fmt.Errorf("%s may not select in %s: %+v", p, pv.Phase, pv.LegalMoves)
		}
		sel.Cards = sel.Cards[:min(5, len(sel.Cards))]
		if v, err = move(cmdSelect, p, sel); err != nil {
			return err
		}
	}
	// Betting, then play: whoever the last move's answer says must move
	// reads their view and makes a listed move. The first bettor raises by
	// one (the only raise), the other matches it.
	plays, raised := 0, false
	for round := 0; plays < duelPlayMoves && round < 4*duelPlayMoves; round++ {
		if v.Phase == string(exoptosis.PhaseEnded) {
			return nil // someone emptied their hand: the match settled
		}
		if len(v.Movers) == 0 {
			return fmt.Errorf("nobody may move in %s", v.Phase)
		}
		mover := v.Movers[0]
		if v, err = view(mover, step); err != nil {
			return err
		}
		var mv exoptosis.Move
		var ok bool
		command := cmdPlay
		switch v.Phase {
		case string(exoptosis.PhaseBetting):
			command = cmdBet
			if raised {
				mv, ok = listed(v, exoptosis.MoveMatch, exoptosis.MovePass, exoptosis.MoveDecline)
			} else {
				mv, ok = listed(v, exoptosis.MoveRaise, exoptosis.MoveMatch, exoptosis.MovePass, exoptosis.MoveDecline)
				raised = mv.Kind == exoptosis.MoveRaise
			}
		case string(exoptosis.PhasePlay):
			if mv, ok = listed(v, exoptosis.MovePlay, exoptosis.MoveAdd); !ok {
				command = cmdChoice
				mv, ok = listed(v, exoptosis.MoveTarget, exoptosis.MoveGiver, exoptosis.MoveGive)
			}
			plays++
		default:
			return fmt.Errorf("unexpected phase %q", v.Phase)
		}
		if !ok {
			return fmt.Errorf("%s must move in %s but lists %+v", mover, v.Phase, v.LegalMoves)
		}
		if v, err = move(command, mover, mv); err != nil {
			return err
		}
	}
	if v.Phase == string(exoptosis.PhaseEnded) {
		return nil
	}
	v, err = move(cmdForfeit, b, exoptosis.Move{Kind: exoptosis.MoveForfeit})
	if err == nil && v.Phase != string(exoptosis.PhaseEnded) {
		err = fmt.Errorf("after a forfeit in a duel the match is %s, not ended", v.Phase)
	}
	return err
}

// listed returns the first of the view's legal moves of one of kinds, in
// the order the kinds are given.
func listed(v gildedhall.MatchView, kinds ...string) (exoptosis.Move, bool) {
	for _, k := range kinds {
		if i := slices.IndexFunc(v.LegalMoves, func(m exoptosis.Move) bool { return m.Kind == k }); i >= 0 {
			return v.LegalMoves[i], true
		}
	}
	return exoptosis.Move{}, false
}

// longDuel plays a duel of 500 moves between two players of its own and
// measures its 5th, 6th and 500th move (issue 16: a move costs the same
// whatever the match's length; the 6th and the 500th are the same kind of
// move, a request for a card, whose pending choice the 5th lacks). Their hands never follow the pile's top
// card and their decks are all in their hands (every card red and too far
// from the 5 of Hearts, X3; nothing to add, X4), so after the first play
// each turn is two moves, a request for a card and the gift of one,
// for as long as the players like; then one forfeits.
func longDuel(call func(op, string) ([]byte, error), hall string) error {
	const a, b = "discord:900", "discord:901"
	hands := map[string][]string{
		a: {"5 of Hearts", "2 of Hearts", "2 of Diamonds", "8 of Hearts", "8 of Diamonds"},
		b: {"10 of Hearts", "10 of Diamonds", "9 of Hearts", "9 of Diamonds"},
	}
	key := func(s string, i int) string { return fmt.Sprintf("long-%s-%d", s, i) }
	for _, p := range []string{a, b} {
		g := gildedhall.Grant{Player: p, Reason: "bench"}
		for _, c := range hands[p] {
			g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c})
		}
		if _, err := call(op{"", "POST", hall + "/join", p, map[string]string{"name": "Long " + p[len(p)-1:]}, 200}, key("join-"+p, 0)); err != nil {
			return err
		}
		if _, err := call(op{"", "POST", hall + "/grants", admin, g, 200}, key("grant-"+p, 0)); err != nil {
			return err
		}
	}
	got, err := call(op{"", "POST", hall + "/duels", a, gildedhall.RequestDuel{Invitees: []string{b}}, 201}, key("request", 0))
	if err != nil {
		return err
	}
	var v gildedhall.MatchView
	if err := json.Unmarshal(got, &v); err != nil || v.ID == "" {
		return fmt.Errorf("duel request answered %.200s (%v)", got, err)
	}
	match := hall + "/matches/" + v.ID
	if _, err := call(op{"", "POST", hall + "/duels/" + v.ID + "/answer", b, map[string]bool{"accept": true}, 200}, key("accept", 0)); err != nil {
		return err
	}
	moves := 0
	move := func(who string, body moveBody) error {
		moves++
		command := ""
		switch moves {
		case 5:
			command = cmdMove5
		case 6:
			command = cmdMove6
		case 500:
			command = cmdMove500
		}
		got, err := call(op{command, "POST", match + "/moves", who, body, 200}, key("move", moves))
		if err != nil {
			return err
		}
		var res gildedhall.MoveResult
		if err := json.Unmarshal(got, &res); err != nil || res.Match.Moves != moves {
			return fmt.Errorf("move %d answered %.300s (%v)", moves, got, err)
		}
		v = res.Match
		return nil
	}
	for _, m := range []struct {
		who  string
		body moveBody
	}{
		{a, moveBody{Kind: exoptosis.MoveSelect, Cards: hands[a]}}, {b, moveBody{Kind: exoptosis.MoveSelect, Cards: hands[b]}},
		{a, moveBody{Kind: exoptosis.MovePass}}, {b, moveBody{Kind: exoptosis.MovePass}},
		{a, moveBody{Kind: exoptosis.MovePlay, Card: "5 of Hearts"}},
	} {
		if err := move(m.who, m.body); err != nil {
			return err
		}
	}
	for moves < 500 {
		if v.Phase != string(exoptosis.PhasePlay) {
			return fmt.Errorf("after %d moves the match is %s", moves, v.Phase)
		}
		var err error
		if pd := v.Pending; pd != nil && pd.Kind == exoptosis.ChoiceGive {
			i := slices.IndexFunc(v.Participants, func(p gildedhall.ParticipantView) bool { return p.ID == pd.Owner })
			err = move(pd.Owner, moveBody{Kind: exoptosis.MoveGive, Card: v.Participants[i].Hand[0]})
		} else {
			other := a
			if v.Turn == a {
				other = b
			}
			err = move(v.Turn, moveBody{Kind: exoptosis.MoveGiver, Target: other})
		}
		if err != nil {
			return err
		}
	}
	return move(b, moveBody{Kind: exoptosis.MoveForfeit})
}
