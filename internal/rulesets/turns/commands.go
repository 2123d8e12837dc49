package turns

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
	"croupier/internal/rules/nomic"
	"croupier/internal/store"
)

// op is one command of this module through the engine's command path:
// the game item and the actor's player item in the one read, the keys it
// names, then its rules over the working state, whose changed parts are
// written in the command's commit.
type op struct {
	req     engine.Request
	command string
	body    any
	random  bool
	keys    func(g string) []store.Key
	apply   func(w *work) (any, error)
}

// maxCatchUps bounds how often a command applies the effects due before
// it and runs again (each run sees a later clock; one is the rule).
const maxCatchUps = 5

func run(s *engine.Service, ctx context.Context, o op) (*engine.Result, error) {
	for i := 0; ; i++ {
		res, err := s.Run(ctx, engine.Spec{Req: o.req, Command: o.command, Body: o.body, Random: o.random,
			Keys: func(g string) []store.Key {
				ks := []store.Key{stateKey(g), engine.PlayerKey(g, o.req.Actor), playerKey(g, o.req.Actor)}
				if o.keys != nil {
					ks = append(ks, o.keys(g)...)
				}
				return ks
			},
			Apply: func(t *engine.Tx) (any, error) {
				w, err := open(t)
				if err != nil {
					return nil, err
				}
				// A command sees every effect due before its moment
				// (a turn end's pool removals before a Judge is drawn).
				if len(w.g.Players) > 0 || len(w.g.Open) > 0 {
					return nil, errMigrate
				}
				if w.behind() {
					return nil, errBehind
				}
				if err := w.sync(t.Entry.Actor); err != nil {
					return nil, err
				}
				resp, err := o.apply(w)
				if err != nil {
					return nil, w.failed(err)
				}
				return resp, w.save()
			}})
		if errors.Is(err, errMigrate) {
			if err := migrate(s, ctx, o.req.Game); err != nil {
				return nil, err
			}
			continue
		}
		if !errors.Is(err, errBehind) {
			return res, err
		}
		if i >= maxCatchUps {
			return nil, engine.ErrBusy
		}
		if _, err := CatchUp(s, ctx, o.req.Game); err != nil {
			return nil, err
		}
	}
}

// Propose is the payload of turns-propose: one rule change given by op,
// rule and text (amend 205 "new text"), or several as changes, and/or a
// change to the ruleset data (R4).
type Propose struct {
	// Op is enact, amend or repeal.
	Op string `json:"op,omitempty"`
	// Rule is the number of the rule amended or repealed.
	Rule int `json:"rule,omitempty"`
	// Text is the rule's new text (enact, amend).
	Text string `json:"text,omitempty"`
	// Changes are several rule changes: [{"op":"amend","rule":205,"text":"..."}].
	Changes []nomic.RuleChange `json:"changes,omitempty"`
	// Data is a change to the ruleset data: [{"op":"replace","path":"/turns/winPoints","value":150}].
	Data json.RawMessage `json:"data,omitempty"`
	// Note says what the proposal does, in the proposer's words.
	Note string `json:"note,omitempty"`
	// Message is the proposal's chat message (platform, channel, message):
	// its 👍/👎 reactions are votes read at the turn's end (U4).
	Message *engine.MessageRef `json:"message,omitempty"`
}

// MaxText bounds a rule text, statement, argument or reasons.
const MaxText = 4000

// MaxChanges bounds a proposal's rule changes: the turn end writes the
// rules a proposal changes in one step (turnend.go).
const MaxChanges = 20

func checkLen(what, s string) error {
	if len(s) > MaxText {
		return rules.Refuse("invalid_request", "The %s is %d characters long; at most %d are allowed.", what, len(s), MaxText)
	}
	return nil
}

// ProposalView is a proposal as people read it.
type ProposalView struct {
	nomic.Proposal
	ProposerName string    `json:"proposer_name"`
	VotingEnds   time.Time `json:"voting_ends"`
	VotesFor     []string  `json:"votes_for"`     // display names
	VotesAgainst []string  `json:"votes_against"` // display names
}

func (w *work) proposalView(p nomic.Proposal) ProposalView {
	v := ProposalView{Proposal: p, ProposerName: w.s.Name(p.Proposer), VotesFor: []string{}, VotesAgainst: []string{},
		VotingEnds: nomic.TurnOf(w.s.Round.Start, p.Ordinal).End}
	if p.Round != w.s.Round.Number {
		v.VotingEnds = time.Time{}
	}
	for _, vt := range p.Votes {
		if vt.For {
			v.VotesFor = append(v.VotesFor, w.s.Name(vt.Voter))
		} else {
			v.VotesAgainst = append(v.VotesAgainst, w.s.Name(vt.Voter))
		}
	}
	return v
}

// SubmitProposal submits a rule-change proposal (U3).
func SubmitProposal(s *engine.Service, ctx context.Context, req engine.Request, p Propose) (*engine.Result, error) {
	changes := slices.Clone(p.Changes)
	if p.Op != "" || p.Rule != 0 || p.Text != "" {
		changes = append([]nomic.RuleChange{{Op: strings.ToLower(strings.TrimSpace(p.Op)), Rule: p.Rule, Text: p.Text}}, changes...)
	}
	if len(changes) > MaxChanges {
		return nil, rules.Refuse("invalid_rule_change", "A proposal makes at most %d rule changes; this one makes %d.", MaxChanges, len(changes))
	}
	for _, c := range changes {
		if err := checkLen("rule text", c.Text); err != nil {
			return nil, err
		}
	}
	if err := checkLen("note", p.Note); err != nil {
		return nil, err
	}
	if p.Message != nil {
		if err := engine.CheckMessage(*p.Message, "proposal"); err != nil {
			return nil, err
		}
	}
	if len(p.Data) > engine.MaxPatch {
		return nil, rules.Refuse("invalid_amendment", "The data change is %d bytes; at most %d are allowed.", len(p.Data), engine.MaxPatch)
	}
	return run(s, ctx, op{req: req, command: "turns-propose", body: p,
		keys: func(g string) []store.Key {
			var ks []store.Key
			for _, n := range changedRules(changes) {
				ks = append(ks, ruleKey(g, n))
			}
			return ks
		},
		apply: func(w *work) (any, error) {
			if err := w.loadRules(changedRules(changes)...); err != nil {
				return nil, err
			}
			// The proposer's proposals of their last turn, as stubs: the
			// limit a turn counts them (U3).
			for _, r := range w.proposed[req.Actor] {
				if !w.hasProp(r.ID) {
					w.s.Proposals = append(w.s.Proposals, nomic.Proposal{ID: r.ID, Proposer: r.Proposer, Round: r.Round, Ordinal: r.Ordinal,
						Turn: nomic.TurnID(r.Round, r.Ordinal), Seq: r.Seq, Status: nomic.ProposalOpen})
					w.stubs[r.ID] = true
				}
			}
			id := w.nextID("P")
			prop, err := w.s.Submit(nomic.Submission{ID: id, Text: p.Note, Changes: changes, Data: p.Data}, req.Actor, w.t.Now, w.t.Rules)
			if err != nil {
				return nil, err
			}
			mine := slices.DeleteFunc(slices.Clone(w.proposed[req.Actor]), func(r propRef) bool { return r.Round != prop.Round || r.Ordinal != prop.Ordinal })
			w.proposed[req.Actor] = append(mine, propRef{ID: prop.ID, Proposer: req.Actor, Round: prop.Round, Ordinal: prop.Ordinal, Seq: prop.Seq})
			if p.Message != nil {
				w.messages[prop.ID] = *p.Message
			}
			v := w.proposalView(prop)
			w.t.Emit("turns_proposal_submitted", req.Actor, v)
			return v, nil
		}})
}

// Ballot is the payload of turns-vote: a proposal and for or against.
type Ballot struct {
	Proposal string `json:"proposal"`
	// Vote is for or against (yes/no, 👍/👎).
	Vote string `json:"vote"`
}

// AppealBallot is the payload of appeal-vote: a case's open appeal and for
// (support the appeal) or against.
type AppealBallot struct {
	Case int    `json:"case"`
	Vote string `json:"vote"`
}

func support(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "for", "yes", "y", "aye", "+", "+1", "👍", "true":
		return true, nil
	case "against", "no", "n", "nay", "-", "-1", "👎", "false":
		return false, nil
	}
	return false, rules.Refuse("invalid_vote", "A vote is for or against; got %q.", v)
}

// VoteView is a vote as cast.
type VoteView struct {
	Proposal   string    `json:"proposal,omitempty"`
	Appeal     string    `json:"appeal,omitempty"`
	Case       int       `json:"case,omitempty"`
	Voter      string    `json:"voter"`
	VoterName  string    `json:"voter_name"`
	Vote       string    `json:"vote"` // for or against
	VotingEnds time.Time `json:"voting_ends"`
}

func word(f bool) string { return map[bool]string{true: "for", false: "against"}[f] }

// CastVote records the actor's standing vote on a proposal (U4): one small
// item, with a check of the game item so that a turn end that began
// counting has every vote committed before it (its fence).
func CastVote(s *engine.Service, ctx context.Context, req engine.Request, b Ballot) (*engine.Result, error) {
	f, err := support(b.Vote)
	if err != nil {
		return nil, err
	}
	b.Proposal = strings.TrimSpace(b.Proposal)
	if b.Proposal == "" || strings.ContainsAny(b.Proposal, "#\x00") || len(b.Proposal) > 40 {
		return nil, rules.Refuse("unknown_proposal", "There is no proposal %q.", b.Proposal)
	}
	return run(s, ctx, op{req: req, command: "turns-vote", body: b,
		keys: func(g string) []store.Key {
			return []store.Key{propKey(g, b.Proposal), voteKey(g, b.Proposal, req.Actor)}
		},
		apply: func(w *work) (any, error) {
			if err := w.load([]string{b.Proposal}, nil, false); err != nil {
				return nil, err
			}
			v, err := w.s.CheckVote(b.Proposal, req.Actor, f, w.t.Now)
			if err != nil {
				return nil, err
			}
			p := w.s.Proposal(b.Proposal)
			if err := w.castVote(b.Proposal, p.Turn, w.s.LateVote("proposal "+p.ID, p.Ordinal), v); err != nil {
				return nil, err
			}
			vv := VoteView{Proposal: p.ID, Voter: v.Voter, VoterName: w.s.Name(v.Voter), Vote: word(v.For), VotingEnds: nomic.TurnOf(w.s.Round.Start, p.Ordinal).End}
			w.t.Emit("turns_vote_cast", req.Actor, vv)
			return vv, nil
		}})
}

// castVote stages v on proposal or appeal id, voted on until the end of
// turn (late: its refusal once that end is being counted). A vote whose turn end has begun to be counted (the fence, Closing)
// is refused as late, whatever the voter's clock says: the count may have
// read the votes already, and an acknowledged vote is a counted vote
// (RULINGS T5). A vote that read the game item before the fence fails its
// check of the item's version, runs again and finds the fence.
func (w *work) castVote(id, turn string, late error, v nomic.Vote) error {
	t := w.t
	if w.g.Closing != "" && w.g.Closing == turn {
		return late
	}
	k := stateKey(t.Game)
	t.Checks = append(t.Checks, store.Check{Key: k, Version: t.Loaded[k].Version})
	vk := voteKey(t.Game, id, v.Voter)
	if _, ok := t.Loaded[vk]; !ok {
		if err := t.Load(vk); err != nil {
			return err
		}
	}
	return t.Put(vk, v, time.Time{})
}

// VoteOnAppeal records the actor's vote on a case's open appeal (U10).
func VoteOnAppeal(s *engine.Service, ctx context.Context, req engine.Request, b AppealBallot) (*engine.Result, error) {
	f, err := support(b.Vote)
	if err != nil {
		return nil, err
	}
	return run(s, ctx, op{req: req, command: "appeal-vote", body: b,
		keys: func(g string) []store.Key { return []store.Key{caseKey(g, b.Case)} },
		apply: func(w *work) (any, error) {
			if err := w.load(nil, []int{b.Case}, false); err != nil {
				return nil, err
			}
			c := w.s.Case(b.Case)
			if c == nil {
				return nil, rules.Refuse("unknown_case", "There is no case %d.", b.Case).With("case", b.Case)
			}
			i := slices.IndexFunc(c.Appeals, func(a nomic.Appeal) bool { return a.Status == nomic.AppealOpen })
			if i < 0 {
				return nil, rules.Refuse("no_open_appeal", "Case %d has no open appeal to vote on.", b.Case).With("case", b.Case)
			}
			ap := c.Appeals[i]
			v, err := w.s.CheckAppealVote(ap.ID, req.Actor, f, w.t.Now)
			if err != nil {
				return nil, err
			}
			if err := w.castVote(ap.ID, ap.Turn, w.s.LateVote(fmt.Sprintf("the appeal on case %d", c.Number), ap.Ordinal), v); err != nil {
				return nil, err
			}
			vv := VoteView{Appeal: ap.ID, Case: c.Number, Voter: v.Voter, VoterName: w.s.Name(v.Voter), Vote: word(v.For),
				VotingEnds: nomic.TurnOf(w.s.Round.Start, ap.Ordinal).End}
			w.t.Emit("turns_appeal_vote_cast", req.Actor, vv)
			return vv, nil
		}})
}

// Activity is the payload of turns-active: declare oneself active or not (U2).
type Activity struct {
	Active bool `json:"active"`
}

// PlayerStatus is a player's standing in the turns game.
type PlayerStatus struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
	InPool bool   `json:"in_pool"`
	Points int    `json:"points"`
}

func (w *work) status(id string) PlayerStatus {
	p := w.s.Player(id)
	if p == nil {
		return PlayerStatus{Player: id, Name: w.s.Name(id)}
	}
	return PlayerStatus{Player: id, Name: p.Name, Active: p.Active && p.Member, InPool: p.InPool, Points: p.Points}
}

// judged returns the cases whose current Judge is id.
func (w *work) judged(id string) []int {
	var out []int
	for _, r := range w.g.Cases {
		if r.Judge == id {
			out = append(out, r.Number)
		}
	}
	return out
}

// source is the command's random source, opened only when a Judge is to be
// drawn (the seed's read is not paid by the others).
func (w *work) source(cases []int) (fair.Source, error) {
	if len(cases) == 0 {
		return noDraws{}, nil
	}
	return w.t.Source()
}

// noDraws is the source of a command that draws nothing: a draw from it
// is a programming error (the cases were not loaded).
type noDraws struct{}

func (noDraws) Intn(string, int) int { panic("turns: a draw without a seed") }

// SetActive declares the actor active or inactive (U2); becoming inactive
// leaves the pool and, for a Judge, draws a new Judge (judicial.go).
func SetActive(s *engine.Service, ctx context.Context, req engine.Request, a Activity) (*engine.Result, error) {
	return run(s, ctx, op{req: req, command: "turns-active", body: a,
		apply: func(w *work) (any, error) {
			cases := w.judged(req.Actor)
			if err := w.load(nil, cases, false); err != nil {
				return nil, err
			}
			src, err := w.source(cases)
			if err != nil {
				return nil, err
			}
			evs, err := w.s.SetActive(req.Actor, a.Active, w.t.Now, src)
			if err != nil {
				return nil, err
			}
			w.emit(evs...)
			return w.status(req.Actor), nil
		}})
}

// EnterPool and LeavePool: the Judicial Pool by command (U8).
func EnterPool(s *engine.Service, ctx context.Context, req engine.Request) (*engine.Result, error) {
	return run(s, ctx, op{req: req, command: "pool-enter", body: struct{}{}, apply: func(w *work) (any, error) {
		ev, err := w.s.EnterPool(req.Actor, w.t.Now)
		if err != nil {
			return nil, err
		}
		w.emit(ev)
		return w.status(req.Actor), nil
	}})
}

func LeavePool(s *engine.Service, ctx context.Context, req engine.Request) (*engine.Result, error) {
	return run(s, ctx, op{req: req, command: "pool-leave", body: struct{}{}, apply: func(w *work) (any, error) {
		ev, err := w.s.LeavePool(req.Actor, w.t.Now)
		if err != nil {
			return nil, err
		}
		w.emit(ev)
		return w.status(req.Actor), nil
	}})
}

// Judgment is the payload of judgment-request (U7).
type Judgment struct {
	Statement string `json:"statement"`
	Arguments string `json:"arguments,omitempty"`
	// Mentions are the players the statement mentions (discord:1234...).
	Mentions []string `json:"mentions,omitempty"`
	// Paradox: the statement says that there is a paradox (U11).
	Paradox bool `json:"paradox,omitempty"`
	// At is the moment of the disputed game action: a time (RFC 3339), a
	// log entry's id (the moment just before it: the action and the rules
	// it met), or before:<entry> / after:<entry>; "" the moment of the
	// request. The Judge considers the rules in effect then (seed 003).
	At string `json:"at,omitempty"`
}

// CaseView is a case as people read it.
type CaseView struct {
	nomic.Case
	PetitionerName string   `json:"petitioner_name"`
	MentionedNames []string `json:"mentioned_names"`
	// Judge is the Judge awaiting a ruling ("" when none, or the
	// administrator: Administrator), with the recusal and ruling deadlines.
	Judge         string     `json:"judge,omitempty"`
	JudgeName     string     `json:"judge_name,omitempty"`
	Administrator bool       `json:"administrator_judges,omitempty"`
	RecuseUntil   *time.Time `json:"recuse_until,omitempty"`
	RuleBy        *time.Time `json:"rule_by,omitempty"`
	Ruling        string     `json:"ruling,omitempty"` // the standing ruling, TRUE or FALSE
	// ActorName is the name of who ran the command answered with this
	// view (the Judge who recused or ruled), for its sentence.
	ActorName string `json:"actor_name,omitempty"`
	// RulesThen are the rules in effect at the disputed moment (the case
	// views: Cases; a command's answer leaves them out).
	RulesThen *RulesThen `json:"rules_in_effect,omitempty"`
}

func (w *work) caseView(c *nomic.Case) CaseView {
	v := CaseView{Case: *c, PetitionerName: w.s.Name(c.Petitioner), MentionedNames: []string{}}
	for _, id := range c.Mentioned {
		v.MentionedNames = append(v.MentionedNames, w.s.Name(id))
	}
	if a, ok := c.Judge(); ok {
		v.Administrator = a.Administrator
		if !a.Administrator {
			n := w.t.Rules.Turns
			until, by := a.At.Add(n.JudgeRecusal.Std()), a.At.Add(n.JudgeDeadline.Std())
			v.Judge, v.JudgeName, v.RecuseUntil, v.RuleBy = a.Judge, w.s.Name(a.Judge), &until, &by
		}
	}
	if r, ok := c.Standing(); ok {
		v.Ruling = r.Value
	}
	return v
}

// RequestJudgment files a Request for Judgment and draws its Judge (U7).
func RequestJudgment(s *engine.Service, ctx context.Context, req engine.Request, j Judgment) (*engine.Result, error) {
	for what, v := range map[string]string{"statement": j.Statement, "arguments": j.Arguments} {
		if err := checkLen(what, v); err != nil {
			return nil, err
		}
	}
	named, err := s.ResolvePlayers(ctx, req, j.Mentions)
	if err != nil {
		return nil, err
	}
	for i, m := range named {
		if !engine.ValidIdentity(m) {
			return nil, rules.Refuse("invalid_request", "A mentioned player is a mention, an id or a display name; got %q.", j.Mentions[i])
		}
	}
	j.Mentions = named
	disputed, err := disputedMoment(s, ctx, req.Game, j.At)
	if err != nil {
		return nil, err
	}
	j.At = disputed.Disputed
	return run(s, ctx, op{req: req, command: "judgment-request", body: j, random: true,
		apply: func(w *work) (any, error) {
			if err := w.sync(j.Mentions...); err != nil {
				return nil, err
			}
			src, err := w.t.Source()
			if err != nil {
				return nil, err
			}
			c, evs, err := w.s.RequestJudgment(nomic.Request{Statement: j.Statement, Arguments: j.Arguments, Mentioned: j.Mentions, Paradox: j.Paradox,
				Disputed: disputed.Disputed, DisputedAt: disputed.DisputedAt, RulesThen: disputed.RulesThen},
				req.Actor, w.t.Now, w.t.Rules, src)
			if err != nil {
				return nil, err
			}
			w.cases[c.Number] = true
			v := w.caseView(w.s.Case(c.Number))
			w.t.Emit("turns_judgment_requested", req.Actor, v)
			w.emit(evs...)
			return v, nil
		}})
}

// disputedMoment reads a request's disputed moment (Judgment.At): the
// moment as a read of the past names it, its time, and for a moment named
// by a log entry the rules as the log leaves them there (read once, now:
// the past does not change). "" is the moment of the request: nothing to
// read, and the request costs what it did.
func disputedMoment(s *engine.Service, ctx context.Context, game, at string) (nomic.Request, error) {
	m, when, past, err := s.DisputedPast(ctx, game, at)
	if err != nil || when.IsZero() {
		return nomic.Request{}, err
	}
	r := nomic.Request{Disputed: m.String(), DisputedAt: when}
	if past == nil {
		return r, nil
	}
	rs, err := Rules(ctx, past, game)
	if err != nil {
		return nomic.Request{}, err
	}
	r.RulesThen = []nomic.RuleAt{}
	for _, rl := range rs {
		r.RulesThen = append(r.RulesThen, nomic.RuleAt{Rule: rl.Number, Events: len(rl.History)})
	}
	return r, nil
}

// CaseRef is the payload of judge-recuse.
type CaseRef struct {
	Case int `json:"case"`
}

// Recuse lets a case's Judge recuse within 48 hours (U9).
func Recuse(s *engine.Service, ctx context.Context, req engine.Request, r CaseRef) (*engine.Result, error) {
	return run(s, ctx, op{req: req, command: "judge-recuse", body: r, random: true,
		keys: func(g string) []store.Key { return []store.Key{caseKey(g, r.Case)} },
		apply: func(w *work) (any, error) {
			if err := w.load(nil, []int{r.Case}, false); err != nil {
				return nil, err
			}
			src, err := w.t.Source()
			if err != nil {
				return nil, err
			}
			evs, err := w.s.Recuse(r.Case, req.Actor, w.t.Now, w.t.Rules, src)
			if err != nil {
				return nil, err
			}
			w.emit(evs...)
			v := w.caseView(w.s.Case(r.Case))
			v.ActorName = w.s.Name(req.Actor)
			return v, nil
		}})
}

// Ruling is the payload of judge-rule and ruling-appeal: TRUE or FALSE
// with reasons (U10).
type Ruling struct {
	Case    int    `json:"case"`
	Ruling  string `json:"ruling"`
	Reasons string `json:"reasons,omitempty"`
}

// Rule records the Judge's ruling on a case (U10); the administrator rules
// on a case no player could judge.
func Rule(s *engine.Service, ctx context.Context, req engine.Request, r Ruling) (*engine.Result, error) {
	if err := checkLen("reasons", r.Reasons); err != nil {
		return nil, err
	}
	return run(s, ctx, op{req: req, command: "judge-rule", body: r,
		keys: func(g string) []store.Key { return []store.Key{caseKey(g, r.Case)} },
		apply: func(w *work) (any, error) {
			if err := w.load(nil, []int{r.Case}, false); err != nil {
				return nil, err
			}
			asAdmin := false
			if c := w.s.Case(r.Case); c != nil {
				if a, ok := c.Judge(); ok && a.Administrator {
					asAdmin = slices.Contains(w.t.Meta.Admins, req.Actor)
				}
			}
			evs, err := w.s.RuleOn(r.Case, req.Actor, asAdmin, r.Ruling, r.Reasons, w.t.Now, w.t.Rules)
			if err != nil {
				return nil, err
			}
			w.emit(evs...)
			v := w.caseView(w.s.Case(r.Case))
			v.ActorName = w.s.Name(req.Actor)
			return v, nil
		}})
}

// AppealRuling appeals a case's standing ruling (U10): voted on in the
// next turn.
func AppealRuling(s *engine.Service, ctx context.Context, req engine.Request, r Ruling) (*engine.Result, error) {
	if err := checkLen("reasons", r.Reasons); err != nil {
		return nil, err
	}
	return run(s, ctx, op{req: req, command: "ruling-appeal", body: r,
		keys: func(g string) []store.Key { return []store.Key{caseKey(g, r.Case)} },
		apply: func(w *work) (any, error) {
			if err := w.load(nil, []int{r.Case}, false); err != nil {
				return nil, err
			}
			ap, err := w.s.Appeal(w.nextID("A"), r.Case, req.Actor, r.Ruling, r.Reasons, w.t.Now)
			if err != nil {
				return nil, err
			}
			tu := nomic.TurnOf(w.s.Round.Start, ap.Ordinal)
			v := AppealView{Appeal: ap, Case: r.Case, ByName: w.s.Name(ap.By), VotingBegins: tu.Begin, VotingEnds: tu.End}
			w.t.Emit("turns_appealed", req.Actor, v)
			return v, nil
		}})
}

// AppealView is an appeal as people read it.
type AppealView struct {
	nomic.Appeal
	Case         int       `json:"case"`
	ByName       string    `json:"by_name"`
	VotingBegins time.Time `json:"voting_begins"`
	VotingEnds   time.Time `json:"voting_ends"`
}

// RoundView is what round-start answers.
type RoundView struct {
	Round nomic.Round    `json:"round"`
	Turn  nomic.TurnInfo `json:"turn"`
}

// StartRound starts the next round once the current one has a winner (U6;
// admins only).
func StartRound(s *engine.Service, ctx context.Context, req engine.Request) (*engine.Result, error) {
	return run(s, ctx, op{req: req, command: "round-start", body: struct{}{},
		apply: func(w *work) (any, error) {
			if err := w.t.Admin("start the next round"); err != nil {
				return nil, err
			}
			// The open proposals stay stubs and the cases unread: the
			// rules make the proposals void (and say so in the log), and
			// their items read void from now on; each open case's Judge
			// is appointed anew as of now in the game item's index, and
			// its open appeal is void, which the case item catches up
			// with when next read (load). So the new round's commit does
			// not grow with them (issue 22).
			evs, err := w.s.StartRound(w.t.Now, w.t.Rules)
			if err != nil {
				return nil, err
			}
			kept := []caseRef{}
			for _, r := range w.g.Cases {
				if r.judging() {
					r.Appointed = w.t.Now
					r.Appeal, r.AppealRound, r.AppealOrdinal = "", 0, 0
					kept = append(kept, r)
				}
			}
			w.g.Cases = kept
			w.g.Moment = w.t.Now.Add(-time.Nanosecond)
			w.emit(evs...)
			return RoundView{Round: w.s.Round, Turn: w.s.Turn(w.t.Now)}, nil
		}})
}

// onLeave is the departure's part in the turns game, in the leave's
// commit: no longer active, out of the pool, and a new Judge for any case
// they judged (U2).
func onLeave(t *engine.Tx, r engine.PlayerRecord, _ *engine.LeaveResult) error {
	w, err := open(t)
	if err != nil {
		return err
	}
	id := r.Core().ID
	if p := w.s.Player(id); p == nil || !p.Member {
		return nil // never took part: nothing to end
	}
	cases := w.judged(id)
	if err := w.load(nil, cases, false); err != nil {
		return err
	}
	src, err := w.source(cases)
	if err != nil {
		return err
	}
	evs, err := w.s.Leave(id, t.Now, src)
	if err != nil {
		return w.failed(err)
	}
	w.emit(evs...)
	return w.save()
}
