package governance

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/words"
)

// Class is a proposal's class (seed 000): it decides the voting period and
// what "popular" means (RULINGS G2).
type Class string

// Proposal classes. An unspecified class is Standard (seed 000).
const (
	Standard Class = "standard"
	Urgent   Class = "urgent"
)

// Status is where a proposal stands.
type Status string

// Proposal statuses. Open proposals wait for their VotingEnd; the tally
// makes them Adopted or Failed. Withdrawn is the author's choice while open.
const (
	StatusOpen      Status = "open"
	StatusAdopted   Status = "adopted"
	StatusFailed    Status = "failed"
	StatusWithdrawn Status = "withdrawn"
)

// Proposal is one proposal, tied to the chat message it was made in.
type Proposal struct {
	ID          string     `json:"id"`
	Author      string     `json:"author"`
	Class       Class      `json:"class"`
	Message     MessageRef `json:"message"`
	Text        string     `json:"text,omitempty"` // a copy of the message, for announcements
	CreatedAt   time.Time  `json:"created_at"`
	VotingStart time.Time  `json:"voting_start"`
	VotingEnd   time.Time  `json:"voting_end"` // the tally is due at this moment (T4)
	Status      Status     `json:"status"`
	// Amendment is an optional change to the ruleset data that adoption
	// applies (RULINGS G3, R4): a ruleset.Change, path-level operations with
	// the base each had at submission. (Proposals made before changes were
	// path-level hold an RFC 7396 merge patch object.) Prose changes are
	// applied by admins.
	Amendment json.RawMessage `json:"amendment,omitempty"`
	// Summary says what the amendment changes, with the values at
	// submission, e.g. "Random Card costs 2 Vertebrae, was 5".
	Summary string  `json:"summary,omitempty"`
	Result  *Result `json:"result,omitempty"`
	// ClosedAt is when the proposal left Open: its VotingEnd for a tally
	// (whenever the job ran, T4), the moment of withdrawal otherwise.
	ClosedAt time.Time `json:"closed_at,omitzero"`
}

// Submission is what a player sends to make a proposal.
type Submission struct {
	ID        string          `json:"id"` // chosen by the caller (e.g. a ULID)
	Class     Class           `json:"class,omitempty"`
	Message   MessageRef      `json:"message"`
	Text      string          `json:"text,omitempty"`
	Amendment json.RawMessage `json:"amendment,omitempty"`
}

// Submit makes a proposal by author at now (seed 000 Proposals, RULINGS G2):
//
//   - standard (the default): the voting period is the whole phase after the
//     phase of submission, so a proposal made on a Thursday (Phase I) is
//     voted on during Phase II and tallied on Monday 00:00 UTC;
//   - urgent: only a reputable player (RULINGS P4) may submit one; the
//     voting period is the ruleset's urgentVoting (48 h) from submission.
//
// An amendment (operations, or a merge patch that is turned into the
// operations it amounts to) must apply cleanly to the current ruleset now,
// so that players vote on something that can take effect; the proposal
// stores it as operations with their bases and a summary. Adoption applies
// each operation to its own path (RULINGS R4).
func Submit(s Submission, author *players.Player, now time.Time, cfg Config) (Proposal, error) {
	if s.ID == "" {
		return Proposal{}, rules.Refuse("invalid_id", "A proposal needs an id.")
	}
	if author == nil || !author.Member {
		return Proposal{}, players.NotAPlayer()
	}
	if err := s.Message.check("proposal"); err != nil {
		return Proposal{}, err
	}
	class := s.Class
	if class == "" {
		class = Standard
	}
	p := Proposal{
		ID: s.ID, Author: author.ID, Class: class, Message: s.Message, Text: s.Text,
		CreatedAt: now, Status: StatusOpen,
	}
	switch class {
	case Standard:
		if cfg.Calendar == nil {
			return Proposal{}, rules.Refuse("not_in_ruleset", "This game has no calendar, so standard proposals have no voting period.")
		}
		next := cfg.Calendar.Next(cfg.Calendar.PeriodAt(now))
		p.VotingStart, p.VotingEnd = next.Start, next.End
	case Urgent:
		d, err := cfg.duration("urgentVoting", func(d ruleset.Durations) ruleset.Duration { return d.UrgentVoting })
		if err != nil {
			return Proposal{}, err
		}
		if err := mustBeReputable(author, now, cfg, "submit an urgent proposal"); err != nil {
			return Proposal{}, err
		}
		p.VotingStart, p.VotingEnd = now, now.Add(d)
	default:
		return Proposal{}, rules.Refuse("invalid_class", "A proposal's class is %q or %q; got %q.", Standard, Urgent, s.Class).
			With("classes", []string{string(Standard), string(Urgent)})
	}
	if len(bytes.TrimSpace(s.Amendment)) > 0 && !bytes.Equal(bytes.TrimSpace(s.Amendment), []byte("null")) {
		if cfg.Ruleset == nil {
			return Proposal{}, rules.Refuse("not_in_ruleset", "This game has no ruleset data to amend.")
		}
		c, err := ruleset.Prepare(cfg.Ruleset, s.Amendment)
		if err != nil {
			return Proposal{}, rules.Refuse("invalid_amendment", "The amendment cannot apply to the rules as they are: %v", err)
		}
		if p.Amendment, err = json.Marshal(c); err != nil {
			return Proposal{}, err
		}
		p.Summary = ruleset.Summary(cfg.Ruleset, c)
	}
	return p, nil
}

// mustBeReputable refuses a player who is not reputable at now (RULINGS
// P4), saying when they will be if they stay a player.
func mustBeReputable(p *players.Player, now time.Time, cfg Config, doing string) error {
	tenure, err := cfg.duration("reputableTenure", func(d ruleset.Durations) ruleset.Duration { return d.ReputableTenure })
	if err != nil {
		return err
	}
	grace, err := cfg.duration("reputableGrace", func(d ruleset.Durations) ruleset.Duration { return d.ReputableGrace })
	if err != nil {
		return err
	}
	if players.Reputable(p, now, cfg.GameStart, tenure, grace) {
		return nil
	}
	at := p.JoinedAt.Add(tenure)
	return rules.Refuse("not_reputable",
		"Only a reputable player can %s. You have been a player since %s; a player is reputable after %s of continuous membership (or if they joined within %s of the game starting), so you become reputable on %s if you stay.",
		doing, when(p.JoinedAt), words.Duration(tenure), words.Duration(grace), when(at)).
		With("reputable_at", at.UTC())
}

// Result is a tally: the votes as G1 reads them and whether the proposal
// takes effect. The counts are whole; the voter lists are sorted samples of
// at most VoterSample each, so a result (stored in the proposal and logged
// when it closes) stays small however many players voted. Who voted how is
// in the reactions themselves (the message, or its sealed pushed record).
type Result struct {
	Class   Class `json:"class"`
	For     int   `json:"for"`
	Against int   `json:"against"`
	// ForVoters are players with 👍 only; AgainstVoters are players with 👎
	// only plus the Unclear ones.
	ForVoters     []string `json:"for_voters"`
	AgainstVoters []string `json:"against_voters"`
	// Unclear lists players who reacted both 👍 and 👎: counted against (G1).
	Unclear      []string `json:"unclear"`
	UnclearCount int      `json:"unclear_count"`
	// Ignored lists reactors who were not players when the period ended.
	Ignored      []string `json:"ignored"`
	IgnoredCount int      `json:"ignored_count"`
	Edited       bool     `json:"edited,omitempty"`
	Deleted      bool     `json:"deleted,omitempty"`
	Popular      bool     `json:"popular"`
	// Adopted is Popular and neither Edited nor Deleted: the proposal takes
	// effect (seed 000: "the message ... has been neither deleted nor edited").
	Adopted bool   `json:"adopted"`
	Reason  string `json:"reason"`
}

// VoterSample bounds each voter list a Result keeps.
const VoterSample = 50

// sample is the first VoterSample of ids (sorted), in a slice of its own.
func sample(ids []string) []string {
	return slices.Clone(ids[:min(len(ids), VoterSample)])
}

// Tally reads the reactions present on a proposal's message when its
// voting period ends (RULINGS G1, G2). isPlayer must answer for that moment;
// nil means the reactions are already players' only. A player with both 👍
// and 👎 votes against. Standard is popular if for > against, urgent if
// against is at most the ruleset's thresholds.governance.urgentMaxAgainst
// (seed 000: "no more than two"; ruleset data so a proposal can amend it,
// RULINGS R4), read from cfg: the rules in force when the tally runs. An
// edited or deleted proposal never takes effect, however it was voted.
func Tally(r Reactions, isPlayer func(id string) bool, edited, deleted bool, class Class, cfg Config) Result {
	c := countReactions(r, isPlayer)
	against := slices.Concat(c.down, c.both)
	slices.Sort(against)
	res := Result{
		Class: class, For: len(c.up), Against: len(against),
		ForVoters: sample(c.up), AgainstVoters: sample(against), Unclear: sample(c.both), UnclearCount: len(c.both),
		Ignored: sample(c.ignored), IgnoredCount: len(c.ignored),
		Edited: edited, Deleted: deleted,
	}
	votes := fmt.Sprintf("%d for, %d against", res.For, res.Against)
	if len(c.both) > 0 {
		votes += fmt.Sprintf(" (%d unclear counted against)", len(c.both))
	}
	switch class {
	case Standard:
		res.Popular = res.For > res.Against
		if res.Popular {
			res.Reason = "popular: " + votes + "; a standard proposal needs more votes for than against"
		} else {
			res.Reason = "not popular: " + votes + "; a standard proposal needs more votes for than against"
		}
	case Urgent:
		limit, ok := cfg.urgentMaxAgainst()
		switch {
		case !ok:
			res.Reason = "not popular: " + votes + "; the ruleset has no urgent class (no thresholds.governance), so nothing urgent can be popular"
		case res.Against <= limit:
			res.Popular = true
			res.Reason = fmt.Sprintf("popular: %s; an urgent proposal may have at most %d against", votes, limit)
		default:
			res.Reason = fmt.Sprintf("not popular: %s; an urgent proposal may have at most %d against", votes, limit)
		}
	default:
		res.Reason = fmt.Sprintf("unknown class %q: nothing can be popular", class)
	}
	res.Adopted = res.Popular && !edited && !deleted
	switch {
	case deleted:
		res.Reason += "; the proposal message was deleted, so it does not take effect"
	case edited:
		res.Reason += "; the proposal message was edited, so it does not take effect"
	}
	return res
}

// Close tallies an open proposal whose voting period has ended, marking it
// adopted or failed (RULINGS G1, G2). The outcome is fixed by the reactions
// at VotingEnd, so a tally run late gives the result it would have given on
// time, and ClosedAt is VotingEnd, not now (T4); the thresholds are cfg's,
// the rules in force when the tally runs (after any amendment adopted
// before it at the same moment, RULINGS G1). Closing a proposal that is
// no longer open changes nothing and reports changed=false, so a tally
// delivered twice decides once. Applying an adopted Amendment is the
// caller's next step, in AdoptionOrder.
func Close(p *Proposal, r Reactions, isPlayer func(id string) bool, edited, deleted bool, now time.Time, cfg Config) (changed bool, err error) {
	if p == nil {
		return false, rules.Refuse("unknown_proposal", "No such proposal.")
	}
	if p.Status != StatusOpen {
		return false, nil
	}
	if now.Before(p.VotingEnd) {
		return false, rules.Refuse("voting_open", "Voting on proposal %s is open until %s.", p.ID, when(p.VotingEnd)).
			With("voting_end", p.VotingEnd.UTC())
	}
	res := Tally(r, isPlayer, edited, deleted, p.Class, cfg)
	p.Result = &res
	p.ClosedAt = p.VotingEnd
	p.Status = StatusFailed
	if res.Adopted {
		p.Status = StatusAdopted
	}
	return true, nil
}

// Withdraw lets the author take back their open proposal before its voting
// period ends (a deleted message would make it fail anyway; this says so
// plainly). After VotingEnd the votes are fixed and only the tally decides.
func Withdraw(p *Proposal, by string, now time.Time) error {
	if p == nil {
		return rules.Refuse("unknown_proposal", "No such proposal.")
	}
	if by != p.Author {
		return rules.Refuse("not_author", "Only the author of proposal %s can withdraw it.", p.ID)
	}
	if p.Status != StatusOpen {
		return rules.Refuse("not_open", "Proposal %s is already %s.", p.ID, p.Status)
	}
	if !now.Before(p.VotingEnd) {
		return rules.Refuse("voting_ended", "Voting on proposal %s ended at %s; it can no longer be withdrawn.", p.ID, when(p.VotingEnd))
	}
	p.Status = StatusWithdrawn
	p.ClosedAt = now
	return nil
}

// Due returns the open proposals whose voting period has ended by now, in
// the order their tallies must run: AdoptionOrder.
func Due(ps []Proposal, now time.Time) []Proposal {
	var due []Proposal
	for _, p := range ps {
		if p.Status == StatusOpen && !now.Before(p.VotingEnd) {
			due = append(due, p)
		}
	}
	return AdoptionOrder(due)
}

// AdoptionOrder returns ps sorted by the moment they take effect (VotingEnd)
// and, for the same moment, in creation order (RULINGS G1: "they take
// effect in the order in which they were created"); ids break exact ties so
// the order is total. ps is not modified.
func AdoptionOrder(ps []Proposal) []Proposal {
	out := slices.Clone(ps)
	order.Stable(out, func(a, b Proposal) int {
		return cmp.Or(a.VotingEnd.Compare(b.VotingEnd), a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	return out
}
