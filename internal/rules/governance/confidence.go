package governance

import (
	"fmt"
	"slices"
	"time"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
	"croupier/internal/words"
)

// Confidence vote statuses.
const (
	ConfidenceOpen       = "open"
	ConfidenceAffirmed   = "affirmed"
	ConfidenceOverturned = "overturned"
	// ConfidenceMoot: the Judge overturned the ruling themself while the
	// vote ran, so the vote had nothing left to decide.
	ConfidenceMoot = "moot"
)

// ConfidenceVote is a public vote of confidence on a ruling, cast by 👍
// (affirm) and 👎 (overturn) reactions on a poll message (seed 000).
type ConfidenceVote struct {
	OpenedBy string            `json:"opened_by"`
	Poll     MessageRef        `json:"poll"`
	OpenedAt time.Time         `json:"opened_at"`
	EndsAt   time.Time         `json:"ends_at"` // the tally is due at this moment (T4)
	Status   string            `json:"status"`
	Result   *ConfidenceResult `json:"result,omitempty"`
}

// ConfidenceResult is a tallied vote of confidence. The counts are whole;
// the lists are sorted samples of at most VoterSample each (see Result).
type ConfidenceResult struct {
	Affirm      int      `json:"affirm"`
	Overturn    int      `json:"overturn"`
	Affirmers   []string `json:"affirmers"`   // 👍 only, plus Unclear
	Overturners []string `json:"overturners"` // 👎 only
	// Unclear lists players who reacted both: "if a person's vote is
	// unclear, it is to affirm the judgement".
	Unclear      []string `json:"unclear"`
	UnclearCount int      `json:"unclear_count"`
	Ignored      []string `json:"ignored"` // reactors who were not players
	IgnoredCount int      `json:"ignored_count"`
	Overturned   bool     `json:"overturned"`
	Reason       string   `json:"reason"`
}

// TallyConfidence reads a confidence poll's reactions at the end of the vote
// (RULINGS G4): 👍 affirms, 👎 overturns, both is unclear and affirms, only
// players count (nil isPlayer: already filtered). The ruling is overturned
// only if strictly more players vote to overturn than to affirm, so 4 👎
// against 2 👍 and one unclear (4 to 3) overturns, while 3 👎 against 2 👍
// and one unclear (3 to 3) leaves the ruling standing.
func TallyConfidence(r Reactions, isPlayer func(id string) bool) ConfidenceResult {
	c := countReactions(r, isPlayer)
	affirm := slices.Concat(c.up, c.both)
	slices.Sort(affirm)
	res := ConfidenceResult{
		Affirm: len(affirm), Overturn: len(c.down),
		Affirmers: sample(affirm), Overturners: sample(c.down), Unclear: sample(c.both), UnclearCount: len(c.both),
		Ignored: sample(c.ignored), IgnoredCount: len(c.ignored),
	}
	res.Overturned = res.Overturn > res.Affirm
	votes := fmt.Sprintf("%d to overturn, %d to affirm", res.Overturn, res.Affirm)
	if len(c.both) > 0 {
		votes += fmt.Sprintf(" (%d unclear counted as affirming)", len(c.both))
	}
	if res.Overturned {
		res.Reason = "overturned: " + votes + "; strictly more players voted to overturn than to affirm"
	} else {
		res.Reason = "ruling stands: " + votes + "; overturning needs strictly more votes to overturn than to affirm"
	}
	return res
}

// OpenConfidence opens a vote of confidence on a ruling at now, on the
// poll message given, by anyone (seed 000 names no restriction). It must be
// opened within the ruleset's confidenceWindow (4 days) of the ruling,
// i.e. in [At, At+window), on a ruling that still has bearing, and runs for
// confidenceVote (48 h). A ruling gets one vote of confidence: its result is
// final (reading: the text allows "a" vote, and repeated polls on one
// ruling would let the losing side retry until it wins).
func OpenConfidence(c *Court, rulingID, by string, poll MessageRef, now time.Time, cfg Config) (ConfidenceVote, error) {
	if c == nil {
		return ConfidenceVote{}, rules.Refuse("no_court", "This game has no court state.")
	}
	window, err := cfg.duration("confidenceWindow", func(d ruleset.Durations) ruleset.Duration { return d.ConfidenceWindow })
	if err != nil {
		return ConfidenceVote{}, err
	}
	length, err := cfg.duration("confidenceVote", func(d ruleset.Durations) ruleset.Duration { return d.ConfidenceVote })
	if err != nil {
		return ConfidenceVote{}, err
	}
	r, err := c.ruling(rulingID)
	if err != nil {
		return ConfidenceVote{}, err
	}
	if by == "" {
		return ConfidenceVote{}, rules.Refuse("invalid_id", "A vote of confidence needs the person opening it.")
	}
	if err := poll.check("confidence poll"); err != nil {
		return ConfidenceVote{}, err
	}
	if r.Overturned {
		return ConfidenceVote{}, rules.Refuse("already_overturned", "Ruling %s was already overturned (%s); it has no bearing left to vote on.", r.ID, r.OverturnedBy)
	}
	if r.Confidence != nil {
		return ConfidenceVote{}, rules.Refuse("confidence_already_held",
			"A vote of confidence on ruling %s was already opened on %s (%s).", r.ID, when(r.Confidence.OpenedAt), r.Confidence.Status)
	}
	if now.Before(r.At) {
		return ConfidenceVote{}, rules.Refuse("confidence_window_closed", "Ruling %s was made on %s, after this moment.", r.ID, when(r.At))
	}
	if deadline := r.At.Add(window); !now.Before(deadline) {
		return ConfidenceVote{}, rules.Refuse("confidence_window_closed",
			"Ruling %s was made on %s; a vote of confidence can be opened only within %s of it, until %s.",
			r.ID, when(r.At), words.Duration(window), when(deadline)).With("deadline", deadline.UTC())
	}
	v := ConfidenceVote{OpenedBy: by, Poll: poll, OpenedAt: now, EndsAt: now.Add(length), Status: ConfidenceOpen}
	r.Confidence = &v
	return v, nil
}

// CloseConfidence tallies the vote of confidence on a ruling once it has
// ended: the reactions present at EndsAt decide (isPlayer answers for that
// moment), so running late changes nothing (T4), and closing a vote that is
// already closed reports changed=false. An overturned ruling loses its
// bearing; its request stays answered (seed 000 asks a new ruling only after
// the Judge's own overturn; anyone may file a new request).
func CloseConfidence(c *Court, rulingID string, r Reactions, isPlayer func(id string) bool, now time.Time) (changed bool, err error) {
	if c == nil {
		return false, rules.Refuse("no_court", "This game has no court state.")
	}
	ru, err := c.ruling(rulingID)
	if err != nil {
		return false, err
	}
	v := ru.Confidence
	if v == nil {
		return false, rules.Refuse("no_confidence_vote", "No vote of confidence was opened on ruling %s.", ru.ID)
	}
	if v.Status != ConfidenceOpen {
		return false, nil
	}
	if now.Before(v.EndsAt) {
		return false, rules.Refuse("voting_open", "The vote of confidence on ruling %s runs until %s.", ru.ID, when(v.EndsAt)).
			With("ends_at", v.EndsAt.UTC())
	}
	res := TallyConfidence(r, isPlayer)
	switch {
	case ru.Overturned:
		v.Status = ConfidenceMoot
		res.Reason += "; moot: the Judge had already overturned the ruling"
	case res.Overturned:
		v.Status = ConfidenceOverturned
		ru.overturn(ByConfidence, v.EndsAt)
	default:
		v.Status = ConfidenceAffirmed
	}
	v.Result = &res
	return true, nil
}
