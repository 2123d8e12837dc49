package nomic

import (
	"encoding/json"
	"fmt"
	"time"

	"croupier/internal/fair"
	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
)

// Due kinds: the scheduled effects Advance applies.
const (
	DueTurnEnd       = "turn_end"
	DueJudgeDeadline = "judge_deadline"
)

// Due is the next scheduled effect of the game.
type Due struct {
	Kind string    `json:"kind"`
	At   time.Time `json:"at"`
	Turn string    `json:"turn,omitempty"` // DueTurnEnd
	Case int       `json:"case,omitempty"` // DueJudgeDeadline
}

// NextDue returns the earliest effect not yet applied: the end of the
// round's next turn, or a Judge's deadline (U9). A round that is over has
// none. At the same instant a turn end comes first.
func (s *State) NextDue(rs *ruleset.Ruleset) (Due, bool) {
	n, err := numbers(rs)
	if err != nil || s.Round.Over {
		return Due{}, false
	}
	ord := s.Round.TurnsEnded + 1
	d := Due{Kind: DueTurnEnd, At: turnOf(s.Round.Start, ord).End, Turn: TurnID(s.Round.Number, ord)}
	for _, c := range s.Cases { // by case number, so equal deadlines apply in that order
		if a := c.current(); a != nil && !a.Administrator {
			if at := a.At.Add(n.JudgeDeadline.Std()); at.Before(d.At) {
				d = Due{Kind: DueJudgeDeadline, At: at, Case: c.Number}
			}
		}
	}
	return d, true
}

// Advance applies, in time order, every scheduled effect due by now, each
// as of the moment it was due (RULINGS T4): turn ends (U5, U8, U10) and
// Judges' deadlines (U9). Running it late applies what was missed, as it
// would have been applied on time; running it twice applies nothing more.
// reactions holds the 👍/👎 read at the turn end on proposals' and
// appeals' messages, by proposal or appeal id (U4). The ruleset returned
// is the one in force afterwards: adopted data changes apply to it (R4).
// Draws for new Judges come from src. The engine runs it before every
// command, so that a command sees the effects due before its moment (a
// turn end's pool removals before a Judge is drawn, for instance).
func (s *State) Advance(now time.Time, rs *ruleset.Ruleset, src fair.Source, reactions map[string]Reactions) (*ruleset.Ruleset, []Event, error) {
	if _, err := numbers(rs); err != nil {
		return rs, nil, err
	}
	var evs []Event
	for {
		d, ok := s.NextDue(rs)
		if !ok || d.At.After(now) {
			return rs, evs, nil
		}
		var more []Event
		switch d.Kind {
		case DueTurnEnd:
			rs, more = s.endTurn(d.At, rs, reactions)
		default:
			more = s.judgeLate(s.Case(d.Case), d.At, rs, src)
		}
		evs = append(evs, more...)
	}
}

// judgeLate applies a Judge's deadline (U9): they lose the penalty as of
// the deadline and a new Judge is drawn, excluding every Judge already
// appointed to the case.
func (s *State) judgeLate(c *Case, at time.Time, rs *ruleset.Ruleset, src fair.Source) []Event {
	n, _ := numbers(rs)
	judge := c.current().Judge
	evs := s.endAppointment(c, JudgeLate, at)
	pts, _ := s.award(judge, -n.JudgeLatePenalty, PointsLateJudge, at, n, "")
	evs = append(evs, pts...)
	return append(evs, s.drawJudge(c, at, src)...)
}

// endTurn applies the end of the round's next turn at its moment at:
// its proposals in submission order (U5), then its appeals (U10), then the
// pool's removals of members who voted on no proposal (U8). A win ends the
// round at once (U6): whatever of the turn end remains does not happen,
// and its undecided proposals and appeals are void. An engine that stores
// the game in parts applies the same steps in bounded commits of its own
// (BeginTurnEnd, DecideCounted, Award, DecideAppealCounted, LeavesPoolNoVote,
// MajorityFrom), in the same order.
func (s *State) endTurn(at time.Time, rs *ruleset.Ruleset, reactions map[string]Reactions) (*ruleset.Ruleset, []Event) {
	ord, ev := s.BeginTurnEnd(at)
	turn := TurnID(s.Round.Number, ord)
	evs := []Event{ev}

	var props []*Proposal
	for i := range s.Proposals {
		if p := &s.Proposals[i]; p.Status == ProposalOpen && p.Round == s.Round.Number && p.Ordinal == ord {
			props = append(props, p)
		}
	}
	order.Sort(props, func(a, b *Proposal) int { return a.Seq - b.Seq })
	voted := map[string]bool{}
	for _, p := range props {
		if s.Round.Over {
			evs = append(evs, s.VoidProposal(p, turn, at))
			continue
		}
		var more []Event
		rs, more = s.decideProposal(p, ord, at, rs, reactions[p.ID], voted)
		evs = append(evs, more...)
	}
	evs = append(evs, s.MajorityFrom(ord, at, rs)...)
	evs = append(evs, s.decideAppeals(ord, at, rs, reactions)...)
	// The pool is walked from its last slot down (issue 22: an engine
	// walks it a page at a time): a member who leaves frees their slot to
	// the last one, already walked, so every member is met once.
	if !s.Round.Over && len(props) > 0 {
		s.checkPool()
		for slot := s.PoolSize - 1; slot >= 0; slot-- {
			if p := s.PoolMember(slot); p != nil && !voted[p.ID] {
				evs = append(evs, s.LeavesPoolNoVote(p, turn, at))
			}
		}
	}
	return rs, evs
}

// BeginTurnEnd starts applying the end of the round's next turn at at:
// it is the turn end applied from now on (TurnsEnded), and its first event.
func (s *State) BeginTurnEnd(at time.Time) (ordinal int, ev Event) {
	ord := s.Round.TurnsEnded + 1
	s.Round.TurnsEnded = ord
	turn := TurnID(s.Round.Number, ord)
	return ord, Event{Kind: EvTurnEnded, At: at, Turn: turn, Text: fmt.Sprintf("Turn %s ends.", turn)}
}

// VoidProposal makes a proposal of a turn end that a win cut short void.
func (s *State) VoidProposal(p *Proposal, turn string, at time.Time) Event {
	p.Status = ProposalVoid
	return Event{Kind: EvProposalVoid, At: at, Proposal: p.ID, Turn: turn,
		Text: fmt.Sprintf("Proposal %s is void: the round ended first.", p.ID)}
}

// MajorityFrom is the event of the end of the last unanimity turn (U5): from
// the next turn a simple majority adopts, unless the unanimity rule was
// amended in time. Applied after the turn's proposals.
func (s *State) MajorityFrom(ord int, at time.Time, rs *ruleset.Ruleset) []Event {
	n, _ := numbers(rs)
	if s.Round.Over || ord != n.UnanimityTurns || s.Round.SwitchCancelled {
		return nil
	}
	turn := TurnID(s.Round.Number, ord)
	return []Event{{Kind: EvMajority, At: at, Turn: turn, Rule: s.unanimityRule(),
		Text: fmt.Sprintf("The unanimity rule was not amended by the end of turn %s: from turn %s, a simple majority adopts a rule-change.", turn, TurnID(s.Round.Number, ord+1))}}
}

// LeavesPoolNoVote takes a pool member who voted on no proposal of the
// turn ending out of the pool (U8).
func (s *State) LeavesPoolNoVote(p *Player, turn string, at time.Time) Event {
	s.leavePool(p)
	return Event{Kind: EvPoolLeft, At: at, Player: p.ID, Reason: PoolNoVote, Turn: turn,
		Text: fmt.Sprintf("%s leaves the Judicial Pool: they voted on no proposal in turn %s.", p.Name, turn)}
}

func (s *State) unanimityRule() int {
	if s.UnanimityRule != 0 {
		return s.UnanimityRule
	}
	for _, r := range s.Rules {
		if r.Role == RoleUnanimity {
			return r.Number
		}
	}
	return 0
}

// decideProposal counts a proposal's standing votes at its turn's end and
// applies the result (U5, DecideCounted); under majority, each dissenter
// gains the bonus in the order the votes were cast, until one of them wins.
func (s *State) decideProposal(p *Proposal, ord int, at time.Time, rs *ruleset.Ruleset, r Reactions, voted map[string]bool) (*ruleset.Ruleset, []Event) {
	votes := s.standingVotes(p.Votes, r, at)
	for _, v := range votes {
		voted[v.Voter] = true
	}
	p.Votes = votes
	res := count(votes)
	rs, evs, dissent := s.DecideCounted(p, ord, at, rs, res)
	if dissent {
		for _, id := range res.AgainstVoters {
			pts, won := s.Award(id, DissentBonus(rs), PointsDissent, at, rs, p.Turn)
			evs = append(evs, pts...)
			if won {
				break
			}
		}
	}
	return rs, evs
}

// DecideCounted applies a proposal's result at its turn's end from the
// count of its standing votes (res: For and Against, and the voters'
// lists where the caller holds them): adopted, its rule changes and data
// change take effect; defeated, its proposer loses the penalty (U5). The
// thresholds are those in force at that moment, after the proposals
// adopted before it in the same turn end (seed 003: a rule-change "takes
// full effect at the moment of the completion of the vote"). dissent
// reports that each voter against it now gains DissentBonus (adopted by
// majority with the round still in play), in the order the votes were
// cast, until one of them wins: the caller awards them (Award).
func (s *State) DecideCounted(p *Proposal, ord int, at time.Time, rs *ruleset.Ruleset, res Result) (*ruleset.Ruleset, []Event, bool) {
	n, _ := numbers(rs)
	mode, _ := s.Mode(ord, rs)
	if res.ForVoters == nil {
		res.ForVoters, res.AgainstVoters = []string{}, []string{}
	}
	res = decide(res, mode)
	var evs []Event
	if !res.Passed {
		p.Status, p.Result = ProposalDefeated, &res
		evs = append(evs, Event{Kind: EvProposalDefeated, At: at, Proposal: p.ID, Player: p.Proposer, Turn: p.Turn,
			Text: fmt.Sprintf("Proposal %s by %s is %s.", p.ID, s.Name(p.Proposer), res.Reason)})
		pts, _ := s.award(p.Proposer, -n.DefeatPenalty, PointsDefeat, at, n, p.Turn)
		return rs, append(evs, pts...), false
	}
	p.Status = ProposalAdopted
	evs = append(evs, Event{Kind: EvProposalAdopted, At: at, Proposal: p.ID, Player: p.Proposer, Turn: p.Turn,
		Text: fmt.Sprintf("Proposal %s by %s is %s.", p.ID, s.Name(p.Proposer), res.Reason)})
	ruleEvs, notes, unanimity := s.applyChanges(p, at)
	evs = append(evs, ruleEvs...)
	if len(p.Data) > 0 {
		var c ruleset.Change
		next, applied, moved, err := rs, ruleset.Change(nil), []string(nil), json.Unmarshal(p.Data, &c)
		if err == nil {
			next, applied, moved, err = ruleset.Apply(rs, c)
		}
		if err != nil {
			notes = append(notes, "its data change could not apply: "+err.Error())
			evs = append(evs, Event{Kind: EvDataNotApplied, At: at, Proposal: p.ID, Turn: p.Turn, Text: err.Error()})
		} else {
			text := ruleset.Summary(rs, applied)
			notes = append(notes, moved...)
			rs = next
			evs = append(evs, Event{Kind: EvDataChanged, At: at, Proposal: p.ID, Turn: p.Turn, Text: text})
			n, _ = numbers(rs)
			evs = append(evs, s.reachedWin(n, at)...)
		}
	}
	if unanimity && ord <= n.UnanimityTurns && !s.Round.SwitchCancelled {
		s.Round.SwitchCancelled = true
		evs = append(evs, Event{Kind: EvSwitchCancelled, At: at, Proposal: p.ID, Turn: p.Turn, Rule: s.unanimityRule(),
			Text: fmt.Sprintf("Proposal %s amended the unanimity rule in turn %s: adoption keeps needing unanimity after turn %s.", p.ID, p.Turn, TurnID(s.Round.Number, n.UnanimityTurns))})
	}
	res.Notes = notes
	p.Result = &res
	// The bonus in force once this proposal took effect.
	return rs, evs, mode == Majority && !s.Round.Over
}

// DissentBonus is the points a voter against a proposal adopted by
// majority gains (U5), in the ruleset rs.
func DissentBonus(rs *ruleset.Ruleset) int { n, _ := numbers(rs); return n.DissentBonus }

// Award changes a player's points by delta for reason at at under the
// numbers of rs, and ends the round if they reached the winning points
// first (U6); won reports that this award ended the round.
func (s *State) Award(id string, delta int, reason string, at time.Time, rs *ruleset.Ruleset, turn string) (evs []Event, won bool) {
	n, _ := numbers(rs)
	return s.award(id, delta, reason, at, n, turn)
}

// decideAppeals decides the appeals voted on in turn ord (U10): upheld
// with at least turns.appealSupport of those voting, replacing the ruling;
// a paradox upheld as TRUE ends the round (U11).
func (s *State) decideAppeals(ord int, at time.Time, rs *ruleset.Ruleset, reactions map[string]Reactions) []Event {
	type ref struct {
		c  *Case
		ap *Appeal
	}
	var due []ref
	for i := range s.Cases {
		for j := range s.Cases[i].Appeals {
			if ap := &s.Cases[i].Appeals[j]; ap.Status == AppealOpen && ap.Round == s.Round.Number && ap.Ordinal == ord {
				due = append(due, ref{&s.Cases[i], ap})
			}
		}
	}
	order.Sort(due, func(a, b ref) int { return a.ap.Seq - b.ap.Seq })
	var evs []Event
	for _, d := range due {
		if s.Round.Over {
			d.ap.Status = AppealVoid
			continue
		}
		votes := s.standingVotes(d.ap.Votes, reactions[d.ap.ID], at)
		d.ap.Votes = votes
		evs = append(evs, s.DecideAppealCounted(d.c, d.ap, count(votes), at, rs)...)
	}
	return evs
}

// DecideAppealCounted decides an appeal from the count of its standing
// votes (res: For and Against): upheld with at least turns.appealSupport
// of those voting, replacing the ruling; a paradox upheld as TRUE ends the
// round (U10, U11).
func (s *State) DecideAppealCounted(c *Case, ap *Appeal, res Result, at time.Time, rs *ruleset.Ruleset) []Event {
	n, _ := numbers(rs)
	if res.ForVoters == nil {
		res.ForVoters, res.AgainstVoters = []string{}, []string{}
	}
	res.Passed = n.AppealSupport.AtLeast(res.For, res.For+res.Against)
	need := fmt.Sprintf("%d/%d of those voting must support it", n.AppealSupport.Num, n.AppealSupport.Den)
	res.Reason = fmt.Sprintf("%d for, %d against; %s", res.For, res.Against, need)
	ap.Result = &res
	if !res.Passed {
		ap.Status = AppealRejected
		return []Event{{Kind: EvAppealRejected, At: at, Case: c.Number, Player: ap.By,
			Text: fmt.Sprintf("The appeal %s of case %d fails (%s); the ruling stands.", ap.ID, c.Number, res.Reason)}}
	}
	ap.Status = AppealUpheld
	c.Rulings = append(c.Rulings, Ruling{Value: ap.Value, Reasons: ap.Reasons, By: ap.By, Appeal: ap.ID, At: at})
	evs := []Event{{Kind: EvAppealUpheld, At: at, Case: c.Number, Player: ap.By, Reason: ap.Value,
		Text: fmt.Sprintf("The appeal %s of case %d is upheld (%s): case %d is now ruled %s.", ap.ID, c.Number, res.Reason, c.Number, ap.Value)}}
	if c.Paradox && ap.Value == True {
		evs = append(evs, s.win(c.Petitioner, WinParadox, c.Number, at))
	}
	return evs
}

// StartRound begins the next round at now, once the current one is over
// (U6): everyone's points back to 0, the rules as they stand, turn
// ordinals from 1. The caller checks that the administrator asked.
// Proposals and appeals left undecided are void; an open case keeps its
// Judge, whose recusal window and deadline run again from now, because
// no deadline is applied while no round is in play (RULINGS is silent on
// cases across rounds; this is the reading that penalises no Judge for a
// pause they could not rule in).
func (s *State) StartRound(now time.Time, rs *ruleset.Ruleset) ([]Event, error) {
	n, err := numbers(rs)
	if err != nil {
		return nil, err
	}
	if !s.Round.Over {
		return nil, rules.Refuse("round_in_play", "Round %d is still being played; a new round starts only once it has a winner.", s.Round.Number)
	}
	var evs []Event
	for i := range s.Players {
		if p := &s.Players[i]; p.Points != 0 {
			pts, _ := s.award(p.ID, -p.Points, PointsRoundStart, now, n, "")
			evs = append(evs, pts...)
		}
	}
	for i := range s.Proposals {
		if p := &s.Proposals[i]; p.Status == ProposalOpen {
			p.Status = ProposalVoid
			evs = append(evs, Event{Kind: EvProposalVoid, At: now, Proposal: p.ID, Text: fmt.Sprintf("Proposal %s is void: its round ended.", p.ID)})
		}
	}
	for i := range s.Cases {
		c := &s.Cases[i]
		for j := range c.Appeals {
			if c.Appeals[j].Status == AppealOpen {
				c.Appeals[j].Status = AppealVoid
			}
		}
		if a := c.current(); a != nil {
			a.At = now
		}
	}
	s.Round = Round{Number: s.Round.Number + 1, Start: now}
	return append(evs, Event{Kind: EvRoundStarted, At: now, Text: fmt.Sprintf("Round %d begins: everyone has 0 points.", s.Round.Number)}), nil
}

// ApplyDue applies the one scheduled effect d as of d.At (RULINGS T4), as
// Advance does when d is the next one due: an engine that stores the game
// in parts applies each effect in a commit of its own, with the parts the
// effect reads (the turn's proposals and appeals for a turn end, the case
// for a Judge's deadline). It refuses an effect that is not the next one
// of its kind (already applied, or not the case's deadline any more).
func (s *State) ApplyDue(d Due, rs *ruleset.Ruleset, src fair.Source, reactions map[string]Reactions) (*ruleset.Ruleset, []Event, error) {
	n, err := numbers(rs)
	if err != nil {
		return rs, nil, err
	}
	if s.Round.Over {
		return rs, nil, rules.Refuse("not_due", "Round %d is over: nothing is due.", s.Round.Number)
	}
	switch d.Kind {
	case DueTurnEnd:
		ord := s.Round.TurnsEnded + 1
		if end := turnOf(s.Round.Start, ord).End; TurnID(s.Round.Number, ord) != d.Turn || !end.Equal(d.At) {
			return rs, nil, rules.Refuse("not_due", "The next turn to end is %s, at %s, not %s.", TurnID(s.Round.Number, ord), when(end), d.Turn)
		}
		rs, evs := s.endTurn(d.At, rs, reactions)
		return rs, evs, nil
	case DueJudgeDeadline:
		c := s.Case(d.Case)
		if c == nil {
			return rs, nil, rules.Refuse("not_due", "There is no case %d.", d.Case)
		}
		a := c.current()
		if a == nil || a.Administrator || !a.At.Add(n.JudgeDeadline.Std()).Equal(d.At) {
			return rs, nil, rules.Refuse("not_due", "Case %d has no Judge whose deadline is %s.", d.Case, when(d.At))
		}
		return rs, s.judgeLate(c, d.At, rs, src), nil
	}
	return rs, nil, rules.Refuse("not_due", "%q is not a scheduled effect.", d.Kind)
}

// TurnOf returns the calendar turn with the given ordinal (from 1) of a
// round that started at roundStart.
func TurnOf(roundStart time.Time, ordinal int) calendar.Turn { return turnOf(roundStart, ordinal) }
