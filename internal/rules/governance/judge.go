package governance

import (
	"fmt"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
	"croupier/internal/words"
)

// Court is a game's judicial state (seed 000 Judgement, RULINGS G4): the
// sole Judge (or none), the requests for justice and the rulings on them.
type Court struct {
	Judge string    `json:"judge,omitempty"` // "" while there is no Judge
	Since time.Time `json:"since,omitzero"`  // when the current Judge took office
	// RemovalAssents are the players who assented to removing the current
	// Judge; judgeRemovalAssents distinct ones (two) remove them. Cleared when the Judge changes.
	RemovalAssents []string  `json:"removal_assents,omitempty"`
	Requests       []Request `json:"requests"`
	Rulings        []Ruling  `json:"rulings"`
}

// RequestKind is the form of a request for justice (seed 000): a
// statement is answered with its truth value, a question with an answer.
type RequestKind string

// Request kinds.
const (
	KindStatement RequestKind = "statement"
	KindQuestion  RequestKind = "question"
)

// Request statuses: open until a binding ruling answers it; reopened when the
// Judge overturns their own ruling on it.
const (
	RequestOpen     = "open"
	RequestAnswered = "answered"
)

// Request is a request for justice.
type Request struct {
	ID        string      `json:"id"`
	Author    string      `json:"author"`
	Kind      RequestKind `json:"kind"`
	Text      string      `json:"text"`
	Message   MessageRef  `json:"message"`
	CreatedAt time.Time   `json:"created_at"`
	Status    string      `json:"status"`
	Ruling    string      `json:"ruling,omitempty"` // the ruling that currently answers it
}

// Truth values, the only answers to a statement.
const (
	True  = "TRUE"
	False = "FALSE"
)

// Ways a ruling is overturned.
const (
	ByJudge      = "judge"           // the Judge who made it, within a week; they rule again
	ByConfidence = "confidence-vote" // a vote of confidence with strictly more 👎 than 👍
)

// Ruling is the Judge's response to a request for justice.
type Ruling struct {
	ID      string    `json:"id"`
	Request string    `json:"request"`
	Judge   string    `json:"judge"`
	Answer  string    `json:"answer"` // TRUE/FALSE for a statement, text for a question
	At      time.Time `json:"at"`
	// Overturned rulings have no bearing on the interpretation of the rules
	// or of the gamestate (seed 000); NoBearing says so to readers.
	Overturned   bool      `json:"overturned,omitempty"`
	OverturnedBy string    `json:"overturned_by,omitempty"` // ByJudge or ByConfidence
	OverturnedAt time.Time `json:"overturned_at,omitzero"`
	NoBearing    bool      `json:"no_bearing,omitempty"`
	// Confidence is the vote of confidence held on the ruling, if any.
	Confidence *ConfidenceVote `json:"confidence,omitempty"`
}

// Binding reports whether the ruling still has bearing (not overturned).
func (r Ruling) Binding() bool { return !r.Overturned }

func (r *Ruling) overturn(by string, at time.Time) {
	r.Overturned, r.OverturnedBy, r.OverturnedAt, r.NoBearing = true, by, at, true
}

func (c *Court) request(id string) (*Request, error) {
	for i := range c.Requests {
		if c.Requests[i].ID == id {
			return &c.Requests[i], nil
		}
	}
	return nil, rules.Refuse("unknown_request", "There is no request for justice %q.", id)
}

func (c *Court) ruling(id string) (*Ruling, error) {
	for i := range c.Rulings {
		if c.Rulings[i].ID == id {
			return &c.Rulings[i], nil
		}
	}
	return nil, rules.Refuse("unknown_ruling", "There is no ruling %q.", id)
}

// RequestJustice files a request for justice by author at now. Anyone may
// file one except the Judge (seed 000: "by a person other than themself").
// Requests filed while there is no Judge wait for the next one.
func RequestJustice(c *Court, id, author string, kind RequestKind, text string, msg MessageRef, now time.Time) (Request, error) {
	if c == nil {
		return Request{}, rules.Refuse("no_court", "This game has no court state.")
	}
	if id == "" || author == "" {
		return Request{}, rules.Refuse("invalid_id", "A request for justice needs an id and an author.")
	}
	if c.Judge != "" && author == c.Judge {
		return Request{}, rules.Refuse("judge_cannot_request", "The Judge cannot submit a request for justice to themself.")
	}
	if kind != KindStatement && kind != KindQuestion {
		return Request{}, rules.Refuse("invalid_kind", "A request for justice is a %q or a %q; got %q.", KindStatement, KindQuestion, kind)
	}
	if strings.TrimSpace(text) == "" {
		return Request{}, rules.Refuse("empty_request", "A request for justice must state its %s.", kind)
	}
	if err := msg.check("request for justice"); err != nil {
		return Request{}, err
	}
	if _, err := c.request(id); err == nil {
		return Request{}, rules.Refuse("duplicate_id", "A request for justice %q already exists.", id)
	}
	r := Request{ID: id, Author: author, Kind: kind, Text: text, Message: msg, CreatedAt: now, Status: RequestOpen}
	c.Requests = append(c.Requests, r)
	return r, nil
}

// Rule answers an open request: only the current Judge may, a statement
// only with TRUE or FALSE (case-insensitive on input, stored upper-case), a
// question with non-empty text.
func Rule(c *Court, rulingID, requestID, by, answer string, now time.Time) (Ruling, error) {
	if c == nil {
		return Ruling{}, rules.Refuse("no_court", "This game has no court state.")
	}
	if c.Judge == "" || by != c.Judge {
		return Ruling{}, notTheJudge(c)
	}
	if rulingID == "" {
		return Ruling{}, rules.Refuse("invalid_id", "A ruling needs an id.")
	}
	if _, err := c.ruling(rulingID); err == nil {
		return Ruling{}, rules.Refuse("duplicate_id", "A ruling %q already exists.", rulingID)
	}
	req, err := c.request(requestID)
	if err != nil {
		return Ruling{}, err
	}
	if req.Status != RequestOpen {
		return Ruling{}, rules.Refuse("already_ruled", "Request %s is already answered by ruling %s.", req.ID, req.Ruling).
			With("ruling", req.Ruling)
	}
	answer = strings.TrimSpace(answer)
	switch req.Kind {
	case KindStatement:
		switch strings.ToUpper(answer) {
		case True, False:
			answer = strings.ToUpper(answer)
		default:
			return Ruling{}, rules.Refuse("truth_value_required",
				"Request %s is a statement: the proper response is its truth value, TRUE or FALSE; got %q.", req.ID, answer)
		}
	default:
		if answer == "" {
			return Ruling{}, rules.Refuse("answer_required", "Request %s is a question: the ruling must answer it.", req.ID)
		}
	}
	r := Ruling{ID: rulingID, Request: req.ID, Judge: by, Answer: answer, At: now}
	req.Status, req.Ruling = RequestAnswered, r.ID
	c.Rulings = append(c.Rulings, r)
	return r, nil
}

func notTheJudge(c *Court) *rules.Error {
	if c.Judge == "" {
		return rules.Refuse("not_the_judge", "There is no Judge at the moment; only the Judge can do this.")
	}
	return rules.Refuse("not_the_judge", "Only the Judge (%s) can do this.", c.Judge).With("judge", c.Judge)
}

// Overturn lets the Judge who made a ruling overturn it within the ruleset's
// judgeOverturn (one week) of making it (seed 000). The ruling loses all
// bearing and its request reopens, because the Judge "shall then issue a new
// ruling on the initial request". The window is [At, At+judgeOverturn).
// The Judge must still hold office, since they must rule again.
func Overturn(c *Court, rulingID, by string, now time.Time, cfg Config) error {
	if c == nil {
		return rules.Refuse("no_court", "This game has no court state.")
	}
	window, err := cfg.duration("judgeOverturn", func(d ruleset.Durations) ruleset.Duration { return d.JudgeOverturn })
	if err != nil {
		return err
	}
	r, err := c.ruling(rulingID)
	if err != nil {
		return err
	}
	if by != r.Judge {
		return rules.Refuse("not_ruling_judge", "Only the Judge who made ruling %s (%s) can overturn it.", r.ID, r.Judge)
	}
	if c.Judge != by {
		return rules.Refuse("not_the_judge", "You are no longer the Judge, so you cannot overturn ruling %s and rule again.", r.ID)
	}
	if r.Overturned {
		return rules.Refuse("already_overturned", "Ruling %s was already overturned (%s).", r.ID, r.OverturnedBy)
	}
	if deadline := r.At.Add(window); !now.Before(deadline) {
		return rules.Refuse("overturn_window_closed",
			"Ruling %s was made on %s; the Judge may overturn it only within %s, until %s.",
			r.ID, when(r.At), words.Duration(window), when(deadline)).With("deadline", deadline.UTC())
	}
	r.overturn(ByJudge, now)
	req, err := c.request(r.Request)
	if err != nil {
		return fmt.Errorf("ruling %s answers unknown request %s: %w", r.ID, r.Request, err)
	}
	req.Status, req.Ruling = RequestOpen, ""
	return nil
}

// AssentRemoval records player by's assent to removing the current Judge
// (seed 000: "removed with the assent of two players"; the count is the
// ruleset's thresholds.governance.judgeRemovalAssents, RULINGS R4). The
// Judge's own assent does not count. It reports whether this assent
// removed the Judge.
func AssentRemoval(c *Court, by string, isPlayer func(string) bool, now time.Time, cfg Config) (removed bool, err error) {
	if c == nil {
		return false, rules.Refuse("no_court", "This game has no court state.")
	}
	if cfg.Ruleset == nil || cfg.Ruleset.Thresholds.Governance.JudgeRemovalAssents < 1 {
		return false, rules.Refuse("not_in_ruleset", "This ruleset has no removal of the Judge by assent (no thresholds.governance.judgeRemovalAssents).")
	}
	if c.Judge == "" {
		return false, rules.Refuse("no_judge", "There is no Judge to remove.")
	}
	if isPlayer == nil || !isPlayer(by) {
		return false, rules.Refuse("not_a_player", "Only players can assent to removing the Judge.")
	}
	if by == c.Judge {
		return false, rules.Refuse("judge_cannot_assent", "The Judge cannot assent to their own removal; they may resign instead.")
	}
	for _, a := range c.RemovalAssents {
		if a == by {
			return false, rules.Refuse("already_assented", "You have already assented to removing the Judge (%s).", c.Judge)
		}
	}
	c.RemovalAssents = append(c.RemovalAssents, by)
	if len(c.RemovalAssents) < cfg.Ruleset.Thresholds.Governance.JudgeRemovalAssents {
		return false, nil
	}
	c.seat("", now)
	return true, nil
}

// Resign ends the Judge's term at their own public statement (seed 000).
func Resign(c *Court, by string, now time.Time) error {
	if c == nil {
		return rules.Refuse("no_court", "This game has no court state.")
	}
	if c.Judge == "" || by != c.Judge {
		return notTheJudge(c)
	}
	c.seat("", now)
	return nil
}

// seat makes judge ("" for none) the Judge from now; pending removal
// assents were about the previous Judge and lapse.
func (c *Court) seat(judge string, now time.Time) {
	c.Judge, c.RemovalAssents = judge, nil
	c.Since = time.Time{}
	if judge != "" {
		c.Since = now
	}
}
