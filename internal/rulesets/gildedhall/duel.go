package gildedhall

import (
	"context"
	"slices"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/store"
)

// RequestDuel is the payload of a duel request: the players invited to play
// with the requester (RULINGS X11).
type RequestDuel struct {
	Invitees []string `json:"invitees"`
}

// RequestDuel asks a group of players to a duel (X11). The request is the
// requester's own acceptance; the match starts as soon as every invitee
// accepts, and any decline cancels it. The duel's id is in the response
// (MatchView.id). A request is an action (RULINGS P2). It writes every
// player's record: the duel joins their index of live matches.
func (s *Service) RequestDuel(ctx context.Context, req engine.Request, d RequestDuel) (*engine.Result, error) {
	var invitees []string
	named, err := s.ResolvePlayers(ctx, req, d.Invitees)
	if err != nil {
		return nil, err
	}
	for _, id := range named {
		if !engine.ValidIdentity(id) {
			return nil, rules.Refuse("invalid_request", "%q is not a platform identity such as discord:1234.", id)
		}
		if id == req.Actor {
			return nil, rules.Refuse("invalid_request", "You cannot invite yourself to a duel; name the other players.")
		}
		if slices.Contains(invitees, id) {
			return nil, rules.Refuse("invalid_request", "%s is invited twice.", id)
		}
		invitees = append(invitees, id)
	}
	if len(invitees) == 0 {
		return nil, rules.Refuse("invalid_request", "Name at least one player to duel with.")
	}
	if len(invitees)+1 > MaxDuelPlayers {
		return nil, rules.Refuse("invalid_request", "A duel has at most %d players (54 cards, hands of at least 4); this one has %d.",
			MaxDuelPlayers, len(invitees)+1)
	}
	d.Invitees = invitees
	return s.run(ctx, spec{
		Req: req, Command: "duel-request", Body: d,
		Keys: func(g string) []store.Key {
			keys := []store.Key{engine.PlayerKey(g, req.Actor)}
			for _, id := range invitees {
				keys = append(keys, engine.PlayerKey(g, id))
			}
			return keys
		},
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			for _, id := range invitees {
				m, err := t.member(id)
				if err != nil {
					return nil, err
				}
				if m == nil {
					return nil, rules.Refuse("not_a_player", "%s is not a player in this game; duels are between players.", id).With("player", id)
				}
			}
			r := &MatchRecord{ID: "d" + t.Entry.CommandID[:12], Kind: MatchDuel, Status: MatchRequested, RequestedBy: p.ID,
				Players: append([]string{p.ID}, invitees...), Answers: map[string]string{p.ID: AnswerAccepted},
				Period: t.Period.ID, CreatedAt: t.Now}
			if err := t.saveMatch(r); err != nil {
				return nil, err
			}
			// Every player's record was read to check membership; the
			// request writes each to index the duel (match_index.go).
			if err := t.indexMatch(r, r.Players); err != nil {
				return nil, err
			}
			t.Emit("duel_requested", p.ID, map[string]any{"match": r.ID, "invitees": invitees})
			return t.matchView(r, ""), t.Acted(p)
		},
	})
}

// AnswerDuel is the payload of a reply to a duel request.
type AnswerDuel struct {
	Match  string `json:"match"`
	Accept bool   `json:"accept"`
}

// AnswerDuel records an invitee's answer (X11): a decline cancels the duel
// (the requester declining withdraws it); the last acceptance starts the
// match with each player's deck and Chips as they are now. A reply is an
// action (RULINGS P2). A cancellation reads and writes every player's
// record, to take the duel out of their index of live matches. Refusals: match_not_found, not_a_duel, not_invited,
// duel_closed (it was cancelled or has started), already_answered.
func (s *Service) AnswerDuel(ctx context.Context, req engine.Request, a AnswerDuel) (*engine.Result, error) {
	a.Match = strings.TrimSpace(a.Match)
	if err := validMatchID(a.Match); err != nil {
		return nil, err
	}
	command := "duel-decline"
	if a.Accept {
		command = "duel-accept"
	}
	return s.run(ctx, spec{
		Req: req, Command: command, Body: a,
		Keys: func(g string) []store.Key { return []store.Key{matchKey(g, a.Match), engine.PlayerKey(g, req.Actor)} },
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			r, err := t.matchRecord(a.Match)
			if err != nil {
				return nil, err
			}
			if r.Kind != MatchDuel {
				return nil, rules.Refuse("not_a_duel", "Match %s is a %s; only duels are answered.", r.ID, r.Kind)
			}
			if !slices.Contains(r.Players, p.ID) {
				return nil, rules.Refuse("not_invited", "You are not invited to duel %s; its players are %s.", r.ID, t.PlayerNames(r.Players...))
			}
			if r.Status != MatchRequested {
				return nil, rules.Refuse("duel_closed", "Duel %s is %s; it takes no more answers.", r.ID, r.Status).With("match_status", r.Status)
			}
			if !a.Accept {
				r.Answers[p.ID] = AnswerDeclined
				t.cancelDuel(r, p.ID, "declined")
			} else {
				if r.Answers[p.ID] != "" {
					return nil, rules.Refuse("already_answered", "You have already accepted duel %s; it waits for %s.",
						r.ID, t.PlayerNames(r.waitingFor()...))
				}
				r.Answers[p.ID] = AnswerAccepted
				t.Emit("duel_accepted", p.ID, map[string]any{"match": r.ID})
				if len(r.waitingFor()) == 0 {
					if err := t.startMatch(r); err != nil {
						return nil, err
					}
				}
			}
			if err := t.saveMatch(r); err != nil {
				return nil, err
			}
			return t.matchView(r, ""), t.Acted(p)
		},
	})
}

// cancelDuel closes a requested duel: a decline, a withdrawal (the requester
// declines), or a departure (RULINGS P1, X11). No Chips were bet yet.
func (t *tx) cancelDuel(r *MatchRecord, by, reason string) {
	if by == r.RequestedBy && reason == "declined" {
		reason = "withdrawn"
	}
	r.Status, r.CancelReason, r.CancelledBy, r.EndedAt = MatchCancelled, reason, by, t.Now
	t.Emit("duel_cancelled", by, map[string]any{"match": r.ID, "reason": reason})
}

// onlyDuel is the duel an answer (accept: one another player requested)
// means when it names none: the only requested duel the actor is in that
// fits. With none or several it refuses, naming them.
func (s *Service) onlyDuel(ctx context.Context, req engine.Request, accept bool) (string, error) {
	live, err := s.LiveMatches(ctx, req.Game, req.Actor)
	if err != nil {
		return "", err
	}
	var ids []string
	for _, m := range live {
		if m.Kind == MatchDuel && m.Status == MatchRequested && (!accept || len(m.Players) > 0 && m.Players[0] != req.Actor) {
			ids = append(ids, m.ID)
		}
	}
	switch len(ids) {
	case 1:
		return ids[0], nil
	case 0:
		return "", rules.Refuse("match_not_found", "No duel is waiting for your answer.")
	}
	return "", rules.Refuse("ambiguous_match", "%d duels are waiting for your answer: %s; name one.", len(ids), strings.Join(ids, ", ")).With("candidates", ids)
}
