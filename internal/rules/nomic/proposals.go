package nomic

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
	"croupier/internal/ruleset"
)

// Proposal statuses.
const (
	ProposalOpen     = "open"     // submitted, voted on until its turn's end
	ProposalAdopted  = "adopted"  // at its turn's end
	ProposalDefeated = "defeated" // at its turn's end
	ProposalVoid     = "void"     // the round ended before its turn's end was applied
)

// Adoption modes (U5).
const (
	Unanimity = "unanimity" // at least one vote and none against
	Majority  = "majority"  // more for than against
)

// Proposal is a rule-change proposal (U3): changes to the numbered rules
// and optionally to the ruleset data (R4), voted on in its turn.
type Proposal struct {
	ID       string       `json:"id"`
	Seq      int          `json:"seq"` // submission order in the game (U5: results apply in it)
	Proposer string       `json:"proposer"`
	Round    int          `json:"round"`
	Ordinal  int          `json:"ordinal"`
	Turn     string       `json:"turn"` // "{round}-{ordinal}" it is voted on in
	At       time.Time    `json:"at"`
	Text     string       `json:"text,omitempty"` // what the proposer says it does
	Changes  []RuleChange `json:"changes,omitempty"`
	// Data is the ruleset data change (a ruleset.Change with each
	// operation's base), Summary says what it changes.
	Data    json.RawMessage `json:"data,omitempty"`
	Summary string          `json:"summary,omitempty"`
	Votes   []Vote          `json:"votes"`
	Status  string          `json:"status"`
	Result  *Result         `json:"result,omitempty"`
}

// Vote is one player's standing vote (U4). At is when it was last cast.
type Vote struct {
	Voter string    `json:"voter"`
	For   bool      `json:"for"`
	At    time.Time `json:"at"`
	Via   string    `json:"via,omitempty"` // VoteCommand or VoteReaction
}

// How a vote was cast.
const (
	VoteCommand  = "command"  // a command or a button
	VoteReaction = "reaction" // 👍/👎 read at the turn's end
)

// Result is how a proposal or an appeal was decided at its turn's end.
type Result struct {
	Mode          string   `json:"mode,omitempty"` // Unanimity or Majority (proposals)
	For           int      `json:"for"`
	Against       int      `json:"against"`
	ForVoters     []string `json:"for_voters"`
	AgainstVoters []string `json:"against_voters"` // in the order their votes were cast
	Passed        bool     `json:"passed"`
	Reason        string   `json:"reason"`
	Notes         []string `json:"notes,omitempty"`
}

// Submission is what a player sends to propose a rule change.
type Submission struct {
	ID      string          `json:"id"` // chosen by the caller (e.g. a ULID)
	Text    string          `json:"text,omitempty"`
	Changes []RuleChange    `json:"changes,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"` // a ruleset change (operations or a merge patch)
}

// Reactions are the people behind the 👍 and 👎 reactions on a proposal's
// or appeal's message, read at its turn's end (U4).
type Reactions struct {
	Up   []string `json:"up"`
	Down []string `json:"down"`
}

// submissionTurn returns the ordinal a proposal submitted at now is for
// (U3: from the end of the previous turn until the turn's middle; before
// the round's first turn, for turn 1), or a refusal in a latter half.
func (s *State) submissionTurn(now time.Time) (int, error) {
	info := s.Turn(now)
	switch info.Part {
	case BeforeFirstTurn:
		return 1, nil
	case FirstHalf:
		return info.Ordinal, nil
	case Interim:
		return info.Ordinal + 1, nil
	}
	return 0, rules.Refuse("submission_closed",
		"Proposals for turn %s closed at its middle, %s; proposals for turn %s can be submitted from this turn's end, %s, until %s.",
		info.ID, when(info.Middle), TurnID(info.Round, info.Ordinal+1), when(info.End), when(turnOf(s.Round.Start, info.Ordinal+1).Middle)).
		With("opens_at", info.End.UTC())
}

// Submit records a rule-change proposal by an active player at now (U3):
// one per active player per turn (the ruleset's turns.proposalsPerTurn),
// in the submission window of the turn it is voted on. It must change
// something: rule changes that apply to the rules as they stand, a data
// change that applies cleanly to the ruleset in force, or both.
func (s *State) Submit(sub Submission, by string, now time.Time, rs *ruleset.Ruleset) (Proposal, error) {
	n, err := numbers(rs)
	if err != nil {
		return Proposal{}, err
	}
	if err := s.mustBePlaying(); err != nil {
		return Proposal{}, err
	}
	p, err := s.mustBeActive(by, "submit rule-change proposals")
	if err != nil {
		return Proposal{}, err
	}
	if strings.TrimSpace(sub.ID) == "" {
		return Proposal{}, rules.Refuse("invalid_id", "A proposal needs an id.")
	}
	if s.proposal(sub.ID) != nil || s.appeal(sub.ID) != nil {
		return Proposal{}, rules.Refuse("duplicate_id", "A proposal or appeal %q already exists.", sub.ID)
	}
	ord, err := s.submissionTurn(now)
	if err != nil {
		return Proposal{}, err
	}
	turn := TurnID(s.Round.Number, ord)
	// What the proposal says is checked before the limit, so a bad one is
	// told what is wrong with it whether or not its proposer has proposed.
	hasData := len(bytes.TrimSpace(sub.Data)) > 0 && !bytes.Equal(bytes.TrimSpace(sub.Data), []byte("null"))
	if len(sub.Changes) == 0 && !hasData {
		return Proposal{}, rules.Refuse("empty_proposal", "A rule-change proposal must enact, amend or repeal a rule, or change the ruleset data.")
	}
	if err := s.checkChanges(sub.Changes); err != nil {
		return Proposal{}, err
	}
	prop := Proposal{
		ID: sub.ID, Proposer: by, Round: s.Round.Number, Ordinal: ord, Turn: turn, At: now,
		Text: sub.Text, Changes: slices.Clone(sub.Changes), Votes: []Vote{}, Status: ProposalOpen,
	}
	if hasData {
		c, err := ruleset.Prepare(rs, sub.Data)
		if err != nil {
			return Proposal{}, rules.Refuse("invalid_amendment", "The data change cannot apply to the rules as they are: %v", err)
		}
		if prop.Data, err = json.Marshal(c); err != nil {
			return Proposal{}, err
		}
		prop.Summary = ruleset.Summary(rs, c)
	}
	mine := 0
	for _, q := range s.Proposals {
		if q.Round == s.Round.Number && q.Ordinal == ord && q.Proposer == by {
			mine++
		}
	}
	if mine >= n.ProposalsPerTurn {
		return Proposal{}, rules.Refuse("proposal_limit",
			"%s has already submitted %d rule-change proposal(s) for turn %s; each active player may submit %d per turn.",
			p.Name, mine, turn, n.ProposalsPerTurn).With("turn", turn)
	}
	s.NextSeq++
	prop.Seq = s.NextSeq
	s.Proposals = append(s.Proposals, prop)
	return prop, nil
}

func (s *State) proposal(id string) *Proposal {
	for i := range s.Proposals {
		if s.Proposals[i].ID == id {
			return &s.Proposals[i]
		}
	}
	return nil
}

// Proposal returns the proposal with id, or nil.
func (s *State) Proposal(id string) *Proposal { return s.proposal(id) }

// Vote records an active player's vote for or against an open proposal at
// now (U4): one standing vote per player, changeable until the turn ends.
func (s *State) Vote(proposalID, voter string, support bool, now time.Time) error {
	v, err := s.CheckVote(proposalID, voter, support, now)
	if err != nil {
		return err
	}
	p := s.proposal(proposalID)
	p.Votes = castVote(p.Votes, v.Voter, v.For, v.At, v.Via)
	return nil
}

// CheckVote is Vote without recording it: the vote it would cast, or the
// refusal. An engine that stores each vote as its own item (so a vote
// writes one small item, not the proposal) uses it, and fills the
// proposal's Votes with the standing votes before the turn end.
func (s *State) CheckVote(proposalID, voter string, support bool, now time.Time) (Vote, error) {
	if err := s.mustBePlaying(); err != nil {
		return Vote{}, err
	}
	p := s.proposal(proposalID)
	if p == nil {
		return Vote{}, rules.Refuse("unknown_proposal", "There is no proposal %q.", proposalID)
	}
	if _, err := s.mustBeActive(voter, "vote on proposals"); err != nil {
		return Vote{}, err
	}
	end := turnOf(s.Round.Start, p.Ordinal).End
	if p.Status != ProposalOpen || p.Round != s.Round.Number || !now.Before(end) {
		return Vote{}, rules.Refuse("voting_closed", "Voting on proposal %s closed at the end of turn %s, %s.", p.ID, p.Turn, when(end)).
			With("closed_at", end.UTC())
	}
	return Vote{Voter: voter, For: support, At: now, Via: VoteCommand}, nil
}

// LateVote is the refusal of a vote on what (a proposal or an appeal voted
// on during turn ordinal) that arrives once that turn's end has begun to be
// counted: refused as late whatever the voter's clock says, so that an
// acknowledged vote is always a counted vote (RULINGS T5).
func (s *State) LateVote(what string, ordinal int) error {
	end := turnOf(s.Round.Start, ordinal).End
	return rules.Refuse("voting_closed", "Voting on %s closed at the end of turn %s, %s; the votes are being counted.",
		what, TurnID(s.Round.Number, ordinal), when(end)).With("closed_at", end.UTC())
}

// castVote replaces voter's standing vote, or adds it: at most one vote
// per player per proposal (U4).
func castVote(vs []Vote, voter string, support bool, now time.Time, via string) []Vote {
	for i := range vs {
		if vs[i].Voter == voter {
			vs[i] = Vote{Voter: voter, For: support, At: now, Via: via}
			return vs
		}
	}
	return append(vs, Vote{Voter: voter, For: support, At: now, Via: via})
}

// standingVotes are the votes that count at a turn's end: each active
// player's command vote, or else their reactions read at the end (👍 for,
// 👎 against, both against, as G1 reads them; RULINGS is silent on a player
// with both a command vote and a reaction, and the command vote, being
// explicit, is taken). Votes of players no longer active do not count
// (U4: each *active* player has one vote). The result is in the order the
// votes were cast.
func (s *State) standingVotes(vs []Vote, r Reactions, at time.Time) []Vote {
	active := func(id string) bool { p := s.Player(id); return p != nil && p.Member && p.Active }
	out := []Vote{}
	has := map[string]bool{}
	for _, v := range vs {
		if active(v.Voter) {
			out = append(out, v)
			has[v.Voter] = true
		}
	}
	up, down := sortedIDs(r.Up), sortedIDs(r.Down)
	for _, id := range sortedIDs(append(slices.Clone(up), down...)) {
		if has[id] || !active(id) {
			continue
		}
		out = append(out, Vote{Voter: id, For: !slices.Contains(down, id), At: at, Via: VoteReaction})
	}
	order.Stable(out, func(a, b Vote) int { return cmp.Or(a.At.Compare(b.At), strings.Compare(a.Voter, b.Voter)) })
	return out
}

func count(vs []Vote) (res Result) {
	res.ForVoters, res.AgainstVoters = []string{}, []string{}
	for _, v := range vs {
		if v.For {
			res.For++
			res.ForVoters = append(res.ForVoters, v.Voter)
		} else {
			res.Against++
			res.AgainstVoters = append(res.AgainstVoters, v.Voter)
		}
	}
	return res
}

// Mode returns how proposals voted on in turn ordinal of the current round
// are adopted (U5): unanimity in the round's first turns.unanimityTurns
// turns, and after them too if the unanimity rule was amended by then;
// simple majority otherwise.
func (s *State) Mode(ordinal int, rs *ruleset.Ruleset) (string, error) {
	n, err := numbers(rs)
	if err != nil {
		return "", err
	}
	if ordinal <= n.UnanimityTurns || s.Round.SwitchCancelled {
		return Unanimity, nil
	}
	return Majority, nil
}

func decide(res Result, mode string) Result {
	votes := fmt.Sprintf("%d for, %d against", res.For, res.Against)
	res.Mode = mode
	switch mode {
	case Unanimity:
		res.Passed = res.For > 0 && res.Against == 0
		res.Reason = votes + "; unanimity is needed: at least one vote and none against"
	default:
		res.Passed = res.For > res.Against
		res.Reason = votes + "; a simple majority is needed: more for than against"
	}
	if res.Passed {
		res.Reason = "adopted: " + res.Reason
	} else {
		res.Reason = "defeated: " + res.Reason
	}
	return res
}
