package nomic

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/fair"
	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// PurposeJudge names the draw of a Judge in the draw log (RULINGS N2).
const PurposeJudge = "turns.judge"

// Truth values, the only rulings (U10).
const (
	True  = "TRUE"
	False = "FALSE"
)

// Ways a Judge's appointment ends.
const (
	JudgeRuled    = "ruled"
	JudgeRecused  = "recused"
	JudgeLate     = "late"     // no ruling within the deadline: penalised, replaced (U9)
	JudgeInactive = "inactive" // left the game or became inactive (U2: only active players judge)
)

// Case is a Request for Judgment (U7) with its Judges, rulings and appeals.
type Case struct {
	Number     int       `json:"number"`
	Petitioner string    `json:"petitioner"`
	Statement  string    `json:"statement"`
	Arguments  string    `json:"arguments,omitempty"`
	Mentioned  []string  `json:"mentioned,omitempty"` // ids of the players it mentions, sorted
	Paradox    bool      `json:"paradox,omitempty"`   // it states that there is a paradox (U11)
	Round      int       `json:"round"`
	At         time.Time `json:"at"`
	// Disputed is the moment of the disputed game action, as the request
	// named it: a time (RFC 3339), or before:<entry> or after:<entry> of a
	// log entry; "" for the moment of the request (At). The Judge
	// considers the rules in effect then (seed 003). DisputedAt is its
	// time, and RulesThen, for a moment named by an entry, the rules as
	// they stood at it (a turn end's adoptions share one time: only the
	// log tells which had applied).
	Disputed   string    `json:"disputed,omitempty"`
	DisputedAt time.Time `json:"disputed_at,omitzero"`
	RulesThen  []RuleAt  `json:"rules_then,omitempty"`
	// Appointments are the case's Judges in order; the last one is the
	// current Judge while its Ended is empty.
	Appointments []Appointment `json:"appointments"`
	Rulings      []Ruling      `json:"rulings"` // the last one stands (U10)
	Appeals      []Appeal      `json:"appeals"`
}

// Appointment is one Judge of a case: a player drawn from the pool, or the
// administrator when nobody could be drawn (U7).
type Appointment struct {
	Judge         string    `json:"judge,omitempty"` // "" when the administrator judges
	Administrator bool      `json:"administrator,omitempty"`
	At            time.Time `json:"at"`
	Ended         string    `json:"ended,omitempty"` // JudgeRuled, JudgeRecused, JudgeLate or JudgeInactive
	EndedAt       time.Time `json:"ended_at,omitzero"`
}

// Ruling is a TRUE/FALSE ruling with its reasons, by the case's Judge or
// by an upheld appeal that replaced the ruling before it (U10).
type Ruling struct {
	Value         string    `json:"value"`
	Reasons       string    `json:"reasons,omitempty"`
	By            string    `json:"by,omitempty"` // the Judge, or the appellant for an appeal
	Administrator bool      `json:"administrator,omitempty"`
	Appeal        string    `json:"appeal,omitempty"` // the upheld appeal it comes from
	At            time.Time `json:"at"`
}

// Appeal statuses.
const (
	AppealOpen     = "open"
	AppealUpheld   = "upheld"
	AppealRejected = "rejected"
	AppealVoid     = "void" // the round ended before its turn's end
)

// Appeal is a new ruling proposed for a case, voted on in the turn after
// its submission (U10).
type Appeal struct {
	ID      string    `json:"id"`
	Seq     int       `json:"seq"`
	By      string    `json:"by"`
	Value   string    `json:"value"`
	Reasons string    `json:"reasons"`
	At      time.Time `json:"at"`
	Round   int       `json:"round"`
	Ordinal int       `json:"ordinal"`
	Turn    string    `json:"turn"` // voted on during it
	Votes   []Vote    `json:"votes"`
	Status  string    `json:"status"`
	Result  *Result   `json:"result,omitempty"`
}

// Request is what a petitioner submits (U7).
type Request struct {
	Statement string   `json:"statement"`
	Arguments string   `json:"arguments,omitempty"`
	Mentioned []string `json:"mentioned,omitempty"` // ids of the players the statement mentions
	Paradox   bool     `json:"paradox,omitempty"`
	// Disputed is the disputed moment (below); "" the moment of the request.
	Disputed   string    `json:"disputed,omitempty"`
	DisputedAt time.Time `json:"disputed_at,omitzero"`
	RulesThen  []RuleAt  `json:"rules_then,omitempty"`
}

// Moment is the disputed moment's time: DisputedAt, or the request's.
func (c *Case) Moment() time.Time {
	if c.Disputed == "" || c.DisputedAt.IsZero() {
		return c.At
	}
	return c.DisputedAt
}

// RuleAt is a rule as it stood at a moment: how many of its history's
// events had applied then (0: not yet enacted).
type RuleAt struct {
	Rule   int `json:"rule"`
	Events int `json:"events"`
}

func (c *Case) current() *Appointment {
	if n := len(c.Appointments); n > 0 && c.Appointments[n-1].Ended == "" {
		return &c.Appointments[n-1]
	}
	return nil
}

// Judge returns the case's current appointment, if it awaits a ruling.
func (c *Case) Judge() (Appointment, bool) {
	if a := c.current(); a != nil {
		return *a, true
	}
	return Appointment{}, false
}

// Standing returns the ruling that stands on the case (the latest, U10).
func (c *Case) Standing() (Ruling, bool) {
	if len(c.Rulings) == 0 {
		return Ruling{}, false
	}
	return c.Rulings[len(c.Rulings)-1], true
}

// Case returns the case with the given number, or nil.
func (s *State) Case(number int) *Case {
	for i := range s.Cases {
		if s.Cases[i].Number == number {
			return &s.Cases[i]
		}
	}
	return nil
}

func (s *State) mustCase(number int) (*Case, error) {
	if c := s.Case(number); c != nil {
		return c, nil
	}
	return nil, rules.Refuse("unknown_case", "There is no case %d.", number).With("case", number)
}

// Excluded returns who may not judge the case (U7, U9): the petitioner,
// every player it mentions, and every Judge already appointed to it.
func (c *Case) Excluded() []string {
	out := append([]string{c.Petitioner}, c.Mentioned...)
	for _, a := range c.Appointments {
		if a.Judge != "" {
			out = append(out, a.Judge)
		}
	}
	return sortedIDs(out)
}

// RequestJudgment files a Request for Judgment by an active player at now
// (U7): it gets the next case number and, at once, a Judge drawn uniformly
// from src among the Judicial Pool less the petitioner and the players it
// mentions, or the administrator if nobody is left.
func (s *State) RequestJudgment(req Request, by string, now time.Time, rs *ruleset.Ruleset, src fair.Source) (Case, []Event, error) {
	if _, err := numbers(rs); err != nil {
		return Case{}, nil, err
	}
	if err := s.mustBePlaying(); err != nil {
		return Case{}, nil, err
	}
	if _, err := s.mustBeActive(by, "submit a Request for Judgment"); err != nil {
		return Case{}, nil, err
	}
	if strings.TrimSpace(req.Statement) == "" {
		return Case{}, nil, rules.Refuse("empty_statement", "A Request for Judgment must state what is to be judged TRUE or FALSE.")
	}
	for _, id := range req.Mentioned {
		if s.Player(id) == nil {
			return Case{}, nil, rules.Refuse("unknown_player", "The request mentions %q, who is not a player of this game.", id).With("player", id)
		}
	}
	c := Case{
		Number: s.NextCase, Petitioner: by, Statement: req.Statement, Arguments: req.Arguments,
		Mentioned: sortedIDs(req.Mentioned), Paradox: req.Paradox, Round: s.Round.Number, At: now,
		Disputed: req.Disputed, DisputedAt: req.DisputedAt, RulesThen: req.RulesThen,
		Appointments: []Appointment{}, Rulings: []Ruling{}, Appeals: []Appeal{},
	}
	s.NextCase++
	s.Cases = append(s.Cases, c)
	cp := &s.Cases[len(s.Cases)-1]
	evs := s.drawJudge(cp, now, src)
	return *cp, evs, nil
}

// drawJudge appoints the case's next Judge at at: a uniform draw from src
// over the pool's members less the excluded (U7, U9), by slot: the value
// v among the eligible is the v-th slot not held by an excluded member
// (DrawnSlot), and the event logs the pool's size, the excluded slots and
// the slot drawn, so the draw log is enough to check it without listing
// the pool. The Judge leaves the pool; nobody eligible: the administrator.
func (s *State) drawJudge(c *Case, at time.Time, src fair.Source) []Event {
	s.checkPool()
	excluded := []int{}
	for _, id := range c.Excluded() {
		if p := s.Player(id); p != nil && p.InPool {
			excluded = append(excluded, p.Slot)
		}
	}
	slices.Sort(excluded)
	n := s.PoolSize - len(excluded)
	if n <= 0 {
		c.Appointments = append(c.Appointments, Appointment{Administrator: true, At: at})
		return []Event{{Kind: EvJudgeDrawn, At: at, Case: c.Number,
			Text: fmt.Sprintf("Case %d: nobody in the Judicial Pool may judge it, so the administrator is its Judge.", c.Number)}}
	}
	size, slot := s.PoolSize, DrawnSlot(src.Intn(PurposeJudge, n), excluded)
	p := s.PoolMember(slot)
	if p == nil {
		// Only a Roster that failed to read the slot gets here: its
		// engine fails the command on that error, whatever this says.
		c.Appointments = append(c.Appointments, Appointment{Administrator: true, At: at})
		return []Event{{Kind: EvJudgeDrawn, At: at, Case: c.Number, Text: fmt.Sprintf("Case %d: slot %d of the Judicial Pool could not be read.", c.Number, slot)}}
	}
	j := p.ID
	c.Appointments = append(c.Appointments, Appointment{Judge: j, At: at})
	s.leavePool(p)
	return []Event{
		{Kind: EvJudgeDrawn, At: at, Case: c.Number, Player: j, PoolSize: size, Excluded: excluded, Slot: &slot,
			Text: fmt.Sprintf("Case %d: %s is drawn as Judge (%d eligible of the Judicial Pool's %s).", c.Number, s.Name(j), n, members(size))},
		{Kind: EvPoolLeft, At: at, Case: c.Number, Player: j, Reason: PoolDrawn,
			Text: fmt.Sprintf("%s leaves the Judicial Pool: drawn as Judge of case %d.", s.Name(j), c.Number)},
	}
}

func members(n int) string {
	if n == 1 {
		return "1 member"
	}
	return fmt.Sprintf("%d members", n)
}

func (s *State) endAppointment(c *Case, reason string, at time.Time) []Event {
	a := c.current()
	if a == nil {
		return nil
	}
	a.Ended, a.EndedAt = reason, at
	who := "the administrator"
	if a.Judge != "" {
		who = s.Name(a.Judge)
	}
	words := map[string]string{JudgeRuled: "has ruled", JudgeRecused: "recuses", JudgeLate: "did not rule in time", JudgeInactive: "is no longer an active player"}[reason]
	return []Event{{Kind: EvJudgeEnded, At: at, Case: c.Number, Player: a.Judge, Reason: reason,
		Text: fmt.Sprintf("Case %d: %s %s.", c.Number, who, words)}}
}

// Recuse lets a case's drawn Judge recuse within turns.judgeRecusal of the
// appointment (U9); a new Judge is drawn from src, excluding every Judge
// already appointed to the case. A recused Judge does not return to the
// pool (U8 returns only a Judge who rules).
func (s *State) Recuse(caseNo int, by string, now time.Time, rs *ruleset.Ruleset, src fair.Source) ([]Event, error) {
	n, c, err := s.playingCase(caseNo, rs)
	if err != nil {
		return nil, err
	}
	a := c.current()
	if a == nil || a.Judge != by {
		return nil, s.notTheJudge(c)
	}
	if until := a.At.Add(n.JudgeRecusal.Std()); !now.Before(until) {
		return nil, rules.Refuse("recusal_window_closed",
			"%s was appointed Judge of case %d on %s; a Judge may recuse only within %s of the appointment, until %s.",
			s.Name(by), c.Number, when(a.At), n.JudgeRecusal.Std(), when(until)).With("until", until.UTC())
	}
	evs := s.endAppointment(c, JudgeRecused, now)
	return append(evs, s.drawJudge(c, now, src)...), nil
}

// playingCase returns the ruleset's numbers and case caseNo, refusing while
// no round is in play or for a case that does not exist.
func (s *State) playingCase(caseNo int, rs *ruleset.Ruleset) (ruleset.TurnsRules, *Case, error) {
	n, err := numbers(rs)
	if err != nil {
		return n, nil, err
	}
	if err := s.mustBePlaying(); err != nil {
		return n, nil, err
	}
	c, err := s.mustCase(caseNo)
	return n, c, err
}

func (s *State) notTheJudge(c *Case) *rules.Error {
	a := c.current()
	switch {
	case a == nil:
		return rules.Refuse("not_the_judge", "Case %d has no Judge awaiting a ruling.", c.Number)
	case a.Administrator:
		return rules.Refuse("not_the_judge", "The administrator is the Judge of case %d.", c.Number)
	}
	return rules.Refuse("not_the_judge", "Only the Judge of case %d (%s) can do this.", c.Number, s.Name(a.Judge)).With("judge", a.Judge)
}

// truth reads a ruling value, case-insensitively.
func truth(v string) (string, error) {
	switch u := strings.ToUpper(strings.TrimSpace(v)); u {
	case True, False:
		return u, nil
	}
	return "", rules.Refuse("truth_value_required", "A ruling is TRUE or FALSE; got %q.", v)
}

// RuleOn records the current Judge's ruling on a case at now (U10): TRUE or
// FALSE with optional reasons. by is the Judge, or anyone acting as the
// administrator (asAdmin) when the administrator judges. A Judge may rule
// only before the deadline: at it they are late (U9), whether or not the
// deadline has been applied yet (T4). The Judge returns to the pool (U8).
// A paradox ruled TRUE ends the round with its petitioner as winner (U11).
func (s *State) RuleOn(caseNo int, by string, asAdmin bool, value, reasons string, now time.Time, rs *ruleset.Ruleset) ([]Event, error) {
	n, c, err := s.playingCase(caseNo, rs)
	if err != nil {
		return nil, err
	}
	a := c.current()
	switch {
	case a == nil && len(c.Rulings) > 0:
		return nil, rules.Refuse("already_ruled", "Case %d is already ruled %s; a player who disagrees may appeal.", c.Number, c.Rulings[len(c.Rulings)-1].Value)
	case a == nil:
		return nil, s.notTheJudge(c)
	case a.Administrator && !asAdmin, !a.Administrator && (asAdmin || a.Judge != by):
		return nil, s.notTheJudge(c)
	}
	v, err := truth(value)
	if err != nil {
		return nil, err
	}
	if !a.Administrator {
		if due := a.At.Add(n.JudgeDeadline.Std()); !now.Before(due) {
			return nil, rules.Refuse("judge_late",
				"%s was appointed Judge of case %d on %s and had until %s to rule; a new Judge replaces them.",
				s.Name(by), c.Number, when(a.At), when(due)).With("deadline", due.UTC())
		}
	}
	evs := s.endAppointment(c, JudgeRuled, now)
	c.Rulings = append(c.Rulings, Ruling{Value: v, Reasons: strings.TrimSpace(reasons), By: a.Judge, Administrator: a.Administrator, At: now})
	evs = append(evs, Event{Kind: EvRuled, At: now, Case: c.Number, Player: a.Judge, Reason: v,
		Text: fmt.Sprintf("Case %d is ruled %s.", c.Number, v)})
	if p := s.Player(a.Judge); p != nil && p.Member && p.Active && !p.InPool {
		s.joinPool(p)
		evs = append(evs, Event{Kind: EvPoolReturned, At: now, Player: p.ID, Text: fmt.Sprintf("%s returns to the Judicial Pool.", p.Name)})
	}
	if c.Paradox && v == True {
		evs = append(evs, s.win(c.Petitioner, WinParadox, c.Number, now))
	}
	return evs, nil
}

// Appeal records a player's appeal of a case's standing ruling at now
// (U10): a new TRUE/FALSE with reasons, voted on during the turn after its
// submission. Any player may appeal ("Any player", U10; appealing is not
// among what U2 reserves to active players); one appeal per case is open
// at a time (RULINGS is silent; this keeps "the latest ruling stands"
// unambiguous).
func (s *State) Appeal(id string, caseNo int, by, value, reasons string, now time.Time) (Appeal, error) {
	if err := s.mustBePlaying(); err != nil {
		return Appeal{}, err
	}
	if p := s.Player(by); p == nil || !p.Member {
		return Appeal{}, rules.Refuse("not_a_player", "Only players can appeal a ruling, and %s is not one.", s.Name(by))
	}
	if strings.TrimSpace(id) == "" {
		return Appeal{}, rules.Refuse("invalid_id", "An appeal needs an id.")
	}
	if s.appeal(id) != nil || s.proposal(id) != nil {
		return Appeal{}, rules.Refuse("duplicate_id", "A proposal or appeal %q already exists.", id)
	}
	c, err := s.mustCase(caseNo)
	if err != nil {
		return Appeal{}, err
	}
	if len(c.Rulings) == 0 {
		return Appeal{}, rules.Refuse("not_ruled", "Case %d has no ruling yet; only a ruling can be appealed.", c.Number)
	}
	for _, ap := range c.Appeals {
		if ap.Status == AppealOpen {
			return Appeal{}, rules.Refuse("appeal_pending", "Case %d already has an open appeal (%s), voted on in turn %s.", c.Number, ap.ID, ap.Turn)
		}
	}
	v, err := truth(value)
	if err != nil {
		return Appeal{}, err
	}
	if strings.TrimSpace(reasons) == "" {
		return Appeal{}, rules.Refuse("reasons_required", "An appeal must give its new reasons and arguments.")
	}
	ord := s.Turn(now).Ordinal + 1 // the turn immediately following its submission
	s.NextSeq++
	ap := Appeal{ID: id, Seq: s.NextSeq, By: by, Value: v, Reasons: strings.TrimSpace(reasons), At: now,
		Round: s.Round.Number, Ordinal: ord, Turn: TurnID(s.Round.Number, ord), Votes: []Vote{}, Status: AppealOpen}
	c.Appeals = append(c.Appeals, ap)
	return ap, nil
}

func (s *State) appeal(id string) *Appeal {
	for i := range s.Cases {
		for j := range s.Cases[i].Appeals {
			if s.Cases[i].Appeals[j].ID == id {
				return &s.Cases[i].Appeals[j]
			}
		}
	}
	return nil
}

// VoteAppeal records an active player's vote on an appeal during the turn
// it is voted on (U10, as U4): for supports the appeal.
func (s *State) VoteAppeal(appealID, voter string, support bool, now time.Time) error {
	v, err := s.CheckAppealVote(appealID, voter, support, now)
	if err != nil {
		return err
	}
	ap := s.appeal(appealID)
	ap.Votes = castVote(ap.Votes, v.Voter, v.For, v.At, v.Via)
	return nil
}

// CheckAppealVote is VoteAppeal without recording it (see CheckVote).
func (s *State) CheckAppealVote(appealID, voter string, support bool, now time.Time) (Vote, error) {
	if err := s.mustBePlaying(); err != nil {
		return Vote{}, err
	}
	ap := s.appeal(appealID)
	if ap == nil {
		return Vote{}, rules.Refuse("unknown_appeal", "There is no appeal %q.", appealID)
	}
	if _, err := s.mustBeActive(voter, "vote on appeals"); err != nil {
		return Vote{}, err
	}
	tu := turnOf(s.Round.Start, ap.Ordinal)
	switch {
	case ap.Status != AppealOpen || ap.Round != s.Round.Number || !now.Before(tu.End):
		return Vote{}, rules.Refuse("voting_closed", "Voting on appeal %s closed at the end of turn %s, %s.", ap.ID, ap.Turn, when(tu.End))
	case now.Before(tu.Begin):
		return Vote{}, rules.Refuse("voting_not_open", "Appeal %s is voted on during turn %s, from %s.", ap.ID, ap.Turn, when(tu.Begin)).
			With("opens_at", tu.Begin.UTC())
	}
	return Vote{Voter: voter, For: support, At: now, Via: VoteCommand}, nil
}
