package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
)

// Exoptosis (RULINGS X1-X11): duels, battles and the moves of a match. The
// commands are "duel request", "duel answer", "battle", "match status" and
// "match move" (every move kind, with its options);
// a match option left empty means the caller's only running match. Card
// options autocomplete with the cards the caller may use now (their legal
// moves: the selectable deck cards, the playable or addable cards, the
// cards they can give).

// The autocomplete kinds of this file.
const (
	// CompleteMyMatches: the running matches (and duels waiting for
	// answers) the caller is in.
	CompleteMyMatches Completion = "my-matches"
	// CompleteMatchCards: the cards the caller's legal moves name in the
	// match of option "match" (or their only running match).
	CompleteMatchCards Completion = "match-cards"
)

func init() {
	match := Option{Name: "match", Description: "The match (default: your only running match)", Complete: CompleteMyMatches}
	var kinds []Choice
	for _, k := range game.MoveKinds() {
		if k != exoptosis.MoveBet { // raise says it
			kinds = append(kinds, Choice{Label: k, Value: k})
		}
	}
	Register(
		Command{Name: "duel request", Description: "Ask players to a duel",
			Options: []Option{
				{Name: "player", Description: "A player to duel", Type: User, Required: true},
				{Name: "player2", Description: "Another player", Type: User},
				{Name: "player3", Description: "Another player", Type: User},
				{Name: "player4", Description: "Another player", Type: User},
			},
			Handler: duelRequest},
		Command{Name: "duel answer", Description: "Accept or decline a duel",
			Options: []Option{{Name: "accept", Description: "true accepts; false declines (cancels the duel)", Type: Boolean, Required: true}, match},
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				return duelAnswer(ctx, s, inv, inv.Bool("accept"))
			}},
		Command{Name: "battle", Description: "Engage in this phase's battle", Handler: battle},
		Command{Name: "match status", Private: true, Description: "A match and your legal moves",
			Options: []Option{match, {Name: "replay", Description: "Show the match move by move instead", Type: Boolean}},
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				if inv.Bool("replay") {
					return matchReplay(ctx, s, inv)
				}
				return matchStatus(ctx, s, inv)
			}},
		// One command for every move: a platform's menus stay short, and
		// the card option completes with exactly the cards the caller's
		// legal moves name, whatever the kind.
		Command{Name: "match move", Description: "Make a move in a match",
			Options: []Option{
				{Name: "kind", Description: "The move", Required: true, Choices: kinds},
				{Name: "card", Description: "play, add, give: the card; select: cards, comma-separated; a Queen's card", Complete: CompleteMatchCards},
				{Name: "player", Description: "giver: who gives you a card; target: the (first) target", Type: User},
				{Name: "player2", Description: "target: a King's second target", Type: User},
				{Name: "level", Description: "raise: the new level (what each must bet in all)", Type: Integer, Min: intp(1)},
				match,
			},
			Handler: moveHandler(buildMove)},
	)
	RegisterCompletion(CompleteMyMatches, func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		ms, err := s.Matches(ctx, inv.Game, game.MatchFilter{Player: inv.User})
		if err != nil {
			return nil, err
		}
		var cs []Choice
		for _, m := range ms {
			if m.Status == game.MatchPlaying || m.Status == game.MatchRequested {
				cs = append(cs, Choice{Label: clip(fmt.Sprintf("%s %s (%s): %s", m.Kind, m.ID, m.Status, strings.Join(m.Players, ", ")), 100), Value: m.ID})
			}
		}
		return filterChoices(cs, partial), nil
	})
	RegisterCompletion(CompleteMatchCards, completeMatchCards)
}

// completeMatchCards suggests the cards the caller's legal moves name. A
// comma-separated option (a selection) completes its last card and keeps
// the ones before it.
func completeMatchCards(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
	id, err := matchOf(ctx, s, inv)
	if err != nil {
		return nil, nil // nothing to suggest; the command itself will say why
	}
	v, err := s.Match(ctx, inv.Game, id, inv.User)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, m := range v.LegalMoves {
		names = append(names, m.Cards...)
		if m.Card != "" {
			names = append(names, m.Card)
		}
	}
	head, last := "", partial
	if i := strings.LastIndex(partial, ","); i >= 0 {
		head, last = partial[:i+1]+" ", strings.TrimSpace(partial[i+1:])
	}
	taken := map[string]bool{}
	for _, t := range strings.Split(head, ",") {
		taken[strings.TrimSpace(t)] = true
	}
	var cs []Choice
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] || taken[n] || len(head+n) > 100 {
			continue
		}
		seen[n] = true
		cs = append(cs, Choice{Label: n, Value: strings.TrimLeft(head, " ") + n})
	}
	return filterChoices(cs, last), nil
}

// matchOf is the match option, or the caller's only running match.
func matchOf(ctx context.Context, s *game.Service, inv *Invocation) (string, error) {
	if id := inv.Opt("match"); id != "" {
		return id, nil
	}
	ms, err := s.Matches(ctx, inv.Game, game.MatchFilter{Player: inv.User, Status: game.MatchPlaying})
	if err != nil {
		return "", err
	}
	if len(ms) != 1 {
		return "", refusef("invalid_option", "You have %d running matches; name one with the match option.", len(ms))
	}
	return ms[0].ID, nil
}

func duelRequest(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	var ps []string
	for _, o := range []string{"player", "player2", "player3", "player4"} {
		if p := inv.Opt(o); p != "" {
			ps = append(ps, p)
		}
	}
	res, err := s.RequestDuel(ctx, req(inv), game.RequestDuel{Invitees: ps})
	if err != nil {
		return nil, err
	}
	v, err := decode[game.MatchView](res)
	if err != nil {
		return nil, err
	}
	accept := Action{Command: "duel answer", Options: map[string]string{"match": v.ID, "accept": "true"}}
	decline := Action{Command: "duel answer", Options: map[string]string{"match": v.ID, "accept": "false"}}
	return &Reply{Title: "Duel " + v.ID,
		Text: fmt.Sprintf("⚔️ %s asks %s to an Exoptosis duel. It starts when everyone accepts; a decline cancels it.",
			inv.User, strings.Join(v.WaitingFor, ", ")),
		Buttons: []Button{{Label: "Accept", Style: StyleSuccess, Action: accept}, {Label: "Decline", Style: StyleDanger, Action: decline}}}, nil
}

func duelAnswer(ctx context.Context, s *game.Service, inv *Invocation, accept bool) (*Reply, error) {
	id := inv.Opt("match")
	if id == "" {
		ms, err := s.Matches(ctx, inv.Game, game.MatchFilter{Player: inv.User, Status: game.MatchRequested, Kind: game.MatchDuel})
		if err != nil {
			return nil, err
		}
		if len(ms) != 1 {
			return nil, refusef("invalid_option", "You have %d duels waiting for an answer; name one with the match option.", len(ms))
		}
		id = ms[0].ID
	}
	res, err := s.AnswerDuel(ctx, req(inv), game.AnswerDuel{Match: id, Accept: accept})
	if err != nil {
		return nil, err
	}
	v, err := decode[game.MatchView](res)
	if err != nil {
		return nil, err
	}
	switch v.Status {
	case game.MatchCancelled:
		return &Reply{Text: fmt.Sprintf("Duel %s is cancelled (%s by %s).", v.ID, v.CancelReason, v.CancelledBy)}, nil
	case game.MatchPlaying:
		return &Reply{Text: fmt.Sprintf("⚔️ Duel %s has started between %s: select your hands (/match move kind:select).", v.ID, strings.Join(v.Players, ", "))}, nil
	}
	return &Reply{Text: fmt.Sprintf("%s accepted duel %s; it waits for %s.", inv.User, v.ID, strings.Join(v.WaitingFor, ", "))}, nil
}

func battle(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	res, err := s.EngageBattle(ctx, req(inv))
	if err != nil {
		return nil, err
	}
	b, err := decode[game.BattleEngagement](res)
	if err != nil {
		return nil, err
	}
	return &Reply{Text: fmt.Sprintf("⚔️ %s engaged in battle %s with %d cards; it starts %s.", b.Player, b.Battle, b.DeckSize,
		b.StartsAt.UTC().Format(time.RFC1123))}, nil
}

// moveHandler runs one move in the match option (or the caller's only
// running match) and answers with what happened and who is next.
func moveHandler(build func(inv *Invocation) (game.MatchMove, error)) Handler {
	return func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
		mv, err := build(inv)
		if err != nil {
			return nil, err
		}
		if mv.Match, err = matchOf(ctx, s, inv); err != nil {
			return nil, err
		}
		res, err := s.Move(ctx, req(inv), mv)
		if err != nil {
			return nil, err
		}
		r, err := decode[game.MoveResult](res)
		if err != nil {
			return nil, err
		}
		var ls []string
		for _, ev := range r.Events {
			if ev.Kind == exoptosis.EvSelected {
				ls = append(ls, ev.Participant+" selected a hand")
				continue
			}
			ls = append(ls, strings.TrimSpace(strings.Join([]string{ev.Participant, strings.ReplaceAll(ev.Kind, "_", " "), ev.Other, ev.Card}, " ")))
		}
		return &Reply{Title: fmt.Sprintf("%s: %s", r.Match.ID, mv.Kind), Text: lines(append(ls, nextText(r.Match)))}, nil
	}
}

// nextText says what the match waits for now, or how it ended.
func nextText(v game.MatchView) string {
	if v.Status == game.MatchEnded {
		if v.Winner == "" {
			return fmt.Sprintf("🏁 The match ended without a winner (%s); bets refunded.", v.EndReason)
		}
		return fmt.Sprintf("🏆 %s won (%s) a pool of %d Chips.", v.Winner, v.EndReason, v.Pool)
	}
	if len(v.Movers) == 0 {
		return ""
	}
	s := "Waiting for " + strings.Join(v.Movers, ", ")
	if v.Deadline != nil {
		s += " until " + v.Deadline.UTC().Format(time.RFC1123)
	}
	return s + "."
}

func matchStatus(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	id, err := matchOf(ctx, s, inv)
	if err != nil {
		return nil, err
	}
	v, err := s.Match(ctx, inv.Game, id, inv.User)
	if err != nil {
		return nil, err
	}
	r := &Reply{Title: fmt.Sprintf("%s %s: %s %s", v.Kind, v.ID, v.Status, v.Phase), Ephemeral: true}
	for _, p := range v.Participants {
		hand := strings.Join(p.Hand, ", ")
		if p.Hidden {
			hand = "hidden until every hand is in"
		}
		r.Fields = append(r.Fields, Field{Name: fmt.Sprintf("%s (%s, bet %d)", p.ID, p.Status, p.Bet), Value: clip(hand, 1000)})
	}
	var ls []string
	if v.Top != "" {
		ls = append(ls, "Pile top: "+v.Top)
	}
	if v.Pool > 0 {
		ls = append(ls, fmt.Sprintf("Pool: %d Chips", v.Pool))
	}
	if v.Pending != nil {
		ls = append(ls, fmt.Sprintf("Pending: %s owes a %s choice", v.Pending.Owner, v.Pending.Kind))
	}
	ls = append(ls, nextText(v))
	var moves []string
	for _, m := range v.LegalMoves {
		moves = append(moves, strings.TrimSpace(fmt.Sprintf("%s %s %s %s", m.Kind, m.Card, m.Target, strings.Join(m.Targets, " & "))))
		if m.Kind == exoptosis.MoveSelect {
			moves[len(moves)-1] = "select 4+ of: " + strings.Join(m.Cards, ", ")
		}
		if m.Kind == exoptosis.MoveRaise {
			moves[len(moves)-1] = fmt.Sprintf("raise to %d", m.Amount)
		}
	}
	if len(moves) > 0 {
		ls = append(ls, "Your moves: "+clip(strings.Join(slices.Compact(moves), "; "), 1500))
	}
	r.Text = lines(ls)
	return r, nil
}

func matchReplay(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	id, err := matchOf(ctx, s, inv)
	if err != nil {
		return nil, err
	}
	rp, err := s.Replay(ctx, inv.Game, id, inv.User)
	if err != nil {
		return nil, err
	}
	var ls []string
	for i, e := range rp.Log {
		switch {
		case e.Timeout:
			ls = append(ls, fmt.Sprintf("%d. timeout", i+1))
		case e.Move != nil:
			m := e.Move
			ls = append(ls, strings.TrimSpace(fmt.Sprintf("%d. %s %s %s %s %s", i+1, m.Actor, m.Kind, m.Card, m.Target, strings.Join(m.Targets, " & "))))
		}
	}
	return &Reply{Title: fmt.Sprintf("Replay of %s %s (%s)", rp.Kind, rp.ID, rp.Status), Ephemeral: true, Text: clip(lines(ls), 3800)}, nil
}

// buildMove reads the options of "match move" as the move of its kind.
func buildMove(inv *Invocation) (game.MatchMove, error) {
	mv := game.MatchMove{Kind: inv.Opt("kind")}
	switch mv.Kind {
	case exoptosis.MoveSelect:
		for _, c := range strings.Split(inv.Opt("card"), ",") {
			if c = strings.TrimSpace(c); c != "" {
				mv.Cards = append(mv.Cards, c)
			}
		}
	case exoptosis.MoveRaise, exoptosis.MoveBet:
		n, err := inv.Int("level")
		if err != nil {
			return mv, err
		}
		mv.Amount = n
	case exoptosis.MoveGiver:
		mv.Target = inv.Opt("player")
	case exoptosis.MoveTarget:
		for _, o := range []string{"player", "player2"} {
			if p := inv.Opt(o); p != "" {
				mv.Targets = append(mv.Targets, p)
			}
		}
		mv.Card = inv.Opt("card")
	default:
		mv.Card = inv.Opt("card")
	}
	return mv, nil
}
