package game

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/governance"
	"croupier/internal/store"
)

const proposalPrefix = "PROPOSAL#"

func proposalKey(g, id string) store.Key { return store.Key{PK: GamePK(g), SK: proposalPrefix + id} }

// ProposalRecord is a stored proposal (seed 000 Proposals): the governance
// rules' Proposal plus what the service adds. Its item is due at VotingEnd
// while open.
type ProposalRecord struct {
	governance.Proposal
	Title string `json:"title,omitempty"`
	// RulesetVersion is the ruleset version the adopted amendment produced.
	RulesetVersion int `json:"ruleset_version,omitempty"`
	// AmendmentError says why an adopted proposal's amendment could not
	// apply to the rules as they were at adoption (an earlier amendment
	// removed what it changes, or its result is invalid); the proposal is
	// adopted, its data change is not made.
	AmendmentError string `json:"amendment_error,omitempty"`
	// BaseMoved says, for each of the amendment's operations whose value
	// changed between submission and adoption, what it replaced: it was
	// applied as written to its own path (RULINGS R4).
	BaseMoved []string `json:"base_moved,omitempty"`
	// Kind is the proposal's kind when a component of the game's ruleset
	// adds it (Component.Proposals: the Obelisk's "banishment"), with its
	// Params; adoption applies them. EffectError says why they could not
	// apply at adoption.
	Kind        string          `json:"kind,omitempty"`
	Params      json.RawMessage `json:"params,omitempty"`
	EffectError string          `json:"effect_error,omitempty"`
}

func (r *ProposalRecord) due() time.Time {
	if r.Status == governance.StatusOpen {
		return r.VotingEnd
	}
	return time.Time{}
}

// ProposalView is a proposal as queries and commands return it.
type ProposalView struct {
	ProposalRecord
	// Live is the tally as it would be if voting ended now: the current
	// reactions from the reaction source and the current players. Only
	// open proposals have it.
	Live *governance.Result `json:"live,omitempty"`
	// LiveError says why Live is missing for an open proposal (the
	// reaction source could not be read); the proposal itself is fine.
	LiveError string `json:"live_error,omitempty"`
}

// SubmitProposal is the payload of a proposal: the chat message it was made
// in (its reactions are the votes), its class ("standard", the default, or
// "urgent" for reputable players), a title and text for announcements, and
// optionally a machine-readable amendment that adoption applies (RULINGS
// G3, R4): operations on ruleset paths such as
// [{"op":"replace","path":"/shop/random-card/price","value":2}], or a merge
// patch, turned into the operations it amounts to at submission.
type SubmitProposal struct {
	Message   MessageRef       `json:"message"`
	Class     governance.Class `json:"class,omitempty"`
	Title     string           `json:"title,omitempty"`
	Text      string           `json:"text,omitempty"`
	Amendment json.RawMessage  `json:"amendment,omitempty"`
	// Kind and Params: a proposal of a kind a component of the game's
	// ruleset adds (ProposalKind), e.g. "banishment" with
	// {"player": "discord:2", "duration": "72h"}.
	Kind   string          `json:"kind,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Bounds of a proposal's prose.
const (
	MaxTitle        = 200
	MaxProposalText = 4000
)

// SubmitProposal records a proposal by the acting player (RULINGS G2): its
// voting period is the whole phase after this one (standard) or 48 hours
// (urgent, reputable players only). It is tallied at the end of the period
// from the reactions on its message. Proposals are not actions (P2).
func (s *Service) SubmitProposal(ctx context.Context, req Request, p SubmitProposal) (*Result, error) {
	if len(p.Title) > MaxTitle {
		return nil, rules.Refuse("invalid_request", "The title is %d characters long; at most %d are allowed.", len(p.Title), MaxTitle)
	}
	if len(p.Text) > MaxProposalText {
		return nil, rules.Refuse("invalid_request", "The text is %d characters long; at most %d are allowed.", len(p.Text), MaxProposalText)
	}
	if err := checkMessage(p.Message, "proposal"); err != nil {
		return nil, err
	}
	p.Amendment = bytes.TrimSpace(p.Amendment)
	if string(p.Amendment) == "null" {
		p.Amendment = nil
	}
	if len(p.Amendment) > 0 {
		if len(p.Amendment) > MaxPatch {
			return nil, rules.Refuse("invalid_amendment", "The amendment is %d bytes; at most %d are allowed.", len(p.Amendment), MaxPatch)
		}
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "proposal-submit", Body: p,
		Keys: func(g string) []store.Key { return []store.Key{PlayerKey(g, req.Actor), messageKey(g, p.Message)} },
		Apply: func(t *Tx) (any, error) {
			author, err := t.Player(req.Actor)
			if err != nil {
				return nil, err
			}
			cfg, err := t.govConfig()
			if err != nil {
				return nil, err
			}
			gp, err := governance.Submit(governance.Submission{ID: t.orderedID(), Class: p.Class, Message: p.Message, Text: p.Text, Amendment: p.Amendment},
				author, t.Now, cfg)
			if err != nil {
				return nil, err
			}
			rec := ProposalRecord{Proposal: gp, Title: p.Title}
			if p.Kind != "" {
				k, err := t.proposalKind(p.Kind)
				if err != nil {
					return nil, err
				}
				params, err := s.resolveParams(t.Ctx, req, p.Params, k.Players)
				if err != nil {
					return nil, err
				}
				if err := k.Check(t, params); err != nil {
					return nil, err
				}
				rec.Kind, rec.Params = p.Kind, params
			}
			if err := t.claimMessage(p.Message, UseProposal, rec.ID, rec.Title); err != nil {
				return nil, err
			}
			if err := t.Put(proposalKey(t.Game, rec.ID), rec, rec.due()); err != nil {
				return nil, err
			}
			t.Emit("proposal_submitted", rec.Author, rec)
			return ProposalView{ProposalRecord: rec}, nil
		},
	})
}

// WithdrawProposal lets the author take back their open proposal before its
// voting period ends.
func (s *Service) WithdrawProposal(ctx context.Context, req Request, id string) (*Result, error) {
	if err := checkRecordID(id, "proposal"); err != nil {
		return nil, err
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "proposal-withdraw", Body: map[string]string{"proposal": id},
		Keys: func(g string) []store.Key { return []store.Key{proposalKey(g, id)} },
		Apply: func(t *Tx) (any, error) {
			rec, err := t.proposal(id)
			if err != nil {
				return nil, err
			}
			if err := governance.Withdraw(&rec.Proposal, req.Actor, t.Now); err != nil {
				return nil, err
			}
			if err := t.Put(proposalKey(t.Game, id), rec, rec.due()); err != nil {
				return nil, err
			}
			t.Emit("proposal_withdrawn", req.Actor, rec)
			return ProposalView{ProposalRecord: *rec}, nil
		},
	})
}

// proposalKind returns the game's ruleset's kind of proposal kind.
func (t *Tx) proposalKind(kind string) (ProposalKind, error) {
	m := t.module()
	if k, ok := m.proposals[kind]; ok {
		return k, nil
	}
	kinds := make([]string, 0, len(m.proposals))
	for k := range m.proposals {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	if len(kinds) == 0 {
		return ProposalKind{}, rules.Refuse("unknown_proposal_kind", "This game's ruleset has no kind of proposal %q: its proposals have text and may amend the ruleset, nothing else.", kind)
	}
	return ProposalKind{}, rules.Refuse("unknown_proposal_kind", "This game's ruleset has no kind of proposal %q; its kinds are %s.", kind, strings.Join(kinds, ", ")).With("kinds", kinds)
}

// checkRecordID refuses an id that cannot name a stored record.
func checkRecordID(id, what string) error {
	if id == "" || len(id) > 64 || strings.ContainsAny(id, "# /\t\n") {
		return rules.Refuse("invalid_request", "%q is not a %s id.", id, what)
	}
	return nil
}

func (t *Tx) proposal(id string) (*ProposalRecord, error) {
	r, err := record[ProposalRecord](t, proposalKey(t.Game, id))
	if err == nil && r == nil {
		err = rules.Refuse("unknown_proposal", "There is no proposal %q in this game.", id)
	}
	return r, err
}

// TallyProposals tallies every open proposal of game whose voting period
// has ended by now, each as of its VotingEnd and in adoption order (RULINGS
// G1: proposals that take effect at the same moment do so in creation
// order). RunDue calls it; it returns "game/id" for each proposal it closed.
// If one tally fails (its reactions could not be read) the later ones wait,
// so adoption order is never broken; the next run tries again.
func (s *Service) TallyProposals(ctx context.Context, game string) ([]string, error) {
	return s.tallyProposalsUntil(ctx, game, s.clock.Now())
}

func (s *Service) tallyProposalsUntil(ctx context.Context, game string, until time.Time) ([]string, error) {
	open, err := s.proposalRecords(ctx, game, string(governance.StatusOpen))
	if err != nil {
		return nil, err
	}
	byID := map[string]ProposalRecord{}
	gps := make([]governance.Proposal, 0, len(open))
	for _, r := range open {
		byID[r.ID] = r
		gps = append(gps, r.Proposal)
	}
	var done []string
	for _, p := range governance.Due(gps, until) {
		ok, err := s.tallyProposal(ctx, game, byID[p.ID])
		if err != nil {
			return done, fmt.Errorf("tallying proposal %s: %w", p.ID, err)
		}
		if ok {
			done = append(done, game+"/"+p.ID)
		}
	}
	return done, nil
}

// tallyProposal closes one proposal as of its VotingEnd: the reactions and
// the players of that moment decide (RULINGS G1, G2, T4), the reactions
// sealed first (T5); an adopted
// proposal's amendment is applied in the same commit (G3).
func (s *Service) tallyProposal(ctx context.Context, game string, rec ProposalRecord) (bool, error) {
	// Sealed first, so what is read is final (RULINGS T5).
	snaps, err := s.countedReactions(ctx, game, []MessageRef{rec.Message}, rec.VotingEnd)
	if err != nil {
		return false, err
	}
	snap := snaps[0]
	isPlayer, err := s.membersAt(ctx, game, rec.VotingEnd)
	if err != nil {
		return false, err
	}
	id := rec.ID
	return s.runScheduled(ctx, game, "proposal-tally", "proposal-tally:"+id, []store.Key{proposalKey(game, id)}, func(t *Tx) (any, error) {
		cur, err := t.proposal(id)
		if err != nil {
			return nil, err
		}
		// The reactions and players were read as of rec.VotingEnd: the
		// proposal must still be open and end then (RULINGS T4).
		if cur.Status != governance.StatusOpen || t.Now.Before(cur.VotingEnd) || !cur.VotingEnd.Equal(rec.VotingEnd) {
			return nil, errNothingDue
		}
		t.asOf(cur.VotingEnd)
		cfg, err := t.govConfig()
		if err != nil {
			return nil, err
		}
		if _, err := governance.Close(&cur.Proposal, snap.Votes(), isPlayer, snap.Edited, snap.Deleted, t.Now, cfg); err != nil {
			return nil, err
		}
		if cur.Status == governance.StatusAdopted && len(cur.Amendment) > 0 {
			c, err := storedChange(t.Rules, cur.Amendment)
			var am Amendment
			if err == nil {
				am, err = t.amend(c, fmt.Sprintf("proposal %s adopted", id), "proposal:"+id)
			}
			var re *rules.Error
			switch {
			case errors.As(err, &re):
				cur.AmendmentError = re.Message
				t.Emit("proposal_amendment_failed", cur.Author, map[string]string{"proposal": id, "error": re.Message})
			case err != nil:
				return nil, err
			default:
				cur.RulesetVersion = am.Version
				cur.BaseMoved = am.BaseMoved
			}
		}
		if cur.Status == governance.StatusAdopted && cur.Kind != "" {
			k, err := t.proposalKind(cur.Kind)
			if err == nil {
				err = k.Adopt(t, cur)
			}
			var re *rules.Error
			switch {
			case errors.As(err, &re):
				cur.EffectError = re.Message
				t.Emit("proposal_effect_failed", cur.Author, map[string]string{"proposal": id, "kind": cur.Kind, "error": re.Message})
			case err != nil:
				return nil, err
			}
		}
		if err := t.Put(proposalKey(t.Game, id), cur, cur.due()); err != nil {
			return nil, err
		}
		typ := "proposal_failed"
		if cur.Status == governance.StatusAdopted {
			typ = "proposal_adopted"
		}
		t.Emit(typ, cur.Author, cur)
		return ProposalView{ProposalRecord: *cur}, nil
	})
}

// proposalRecords reads the game's proposals with the status given ("" for
// all), in creation order (their ids are ULIDs).
func (s *Service) proposalRecords(ctx context.Context, game, status string) ([]ProposalRecord, error) {
	return scanRecords(ctx, s, game, proposalPrefix, func(r ProposalRecord) bool {
		return status == "" || string(r.Status) == status
	})
}

// Proposals lists the game's proposals with the status given ("open",
// "adopted", "failed", "withdrawn"; "" for all), oldest first. Open ones
// carry Live: the current counts, from the reaction source, and their
// VotingEnd is the deadline.
func (s *Service) Proposals(ctx context.Context, game, status string) ([]ProposalView, error) {
	switch governance.Status(status) {
	case "", governance.StatusOpen, governance.StatusAdopted, governance.StatusFailed, governance.StatusWithdrawn:
	default:
		return nil, rules.Refuse("invalid_request", "Unknown proposal status %q: use open, adopted, failed or withdrawn.", status)
	}
	t, err := s.ViewIn(ctx, viewProposals, game)
	if err != nil {
		return nil, err
	}
	recs, err := s.proposalRecords(ctx, game, status)
	if err != nil {
		return nil, err
	}
	out := make([]ProposalView, 0, len(recs))
	var isPlayer func(string) bool
	for _, r := range recs {
		v := ProposalView{ProposalRecord: r}
		if r.Status == governance.StatusOpen {
			if isPlayer == nil {
				if isPlayer, err = s.membersAt(ctx, game, t.Now); err != nil {
					return nil, err
				}
			}
			v.setLive(s.live(ctx, t, r, isPlayer))
		}
		out = append(out, v)
	}
	return out, nil
}

// Proposal returns one proposal (with Live counts while open).
func (s *Service) Proposal(ctx context.Context, game, id string) (ProposalView, error) {
	if err := checkRecordID(id, "proposal"); err != nil {
		return ProposalView{}, err
	}
	t, err := s.ViewIn(ctx, viewProposals, game, proposalKey(game, id))
	if err != nil {
		return ProposalView{}, err
	}
	r, err := t.proposal(id)
	if err != nil {
		return ProposalView{}, err
	}
	v := ProposalView{ProposalRecord: *r}
	if r.Status == governance.StatusOpen {
		isPlayer, err := s.membersAt(ctx, game, t.Now)
		if err != nil {
			return ProposalView{}, err
		}
		v.setLive(s.live(ctx, t, *r, isPlayer))
	}
	return v, nil
}

func (v *ProposalView) setLive(res *governance.Result, err error) {
	if err != nil {
		v.LiveError = err.Error()
		return
	}
	v.Live = res
}

// live tallies an open proposal as if its voting ended now (or at its end,
// if that has passed and the tally has not run yet).
func (s *Service) live(ctx context.Context, t *Tx, r ProposalRecord, isPlayer func(string) bool) (*governance.Result, error) {
	at := t.Now
	if r.VotingEnd.Before(at) {
		at = r.VotingEnd
	}
	snap, err := s.reactionsAt(ctx, t.Game, r.Message, at)
	if err != nil {
		return nil, err
	}
	cfg, err := t.govConfig()
	if err != nil {
		return nil, err
	}
	res := governance.Tally(snap.Votes(), isPlayer, snap.Edited, snap.Deleted, r.Class, cfg)
	return &res, nil
}
