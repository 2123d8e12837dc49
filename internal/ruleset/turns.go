package ruleset

// TurnsRules holds the numbers seed 003 states (RULINGS R1, R4, U3-U10), so
// a proposal can amend any of them with a path such as /turns/winPoints or
// /turns/appealSupport/num. The rules code (internal/rules/nomic) reads
// them from the ruleset in force; it never hard-codes them.
//
// Every field is required in the turns ruleset (validateTurns): zero is
// never a meaningful value here (a 0-point win or a 0-hour deadline would
// make the game end or a Judge late at once), so a missing field is a
// broken file, not "not used".
type TurnsRules struct {
	// WinPoints: the first player to have this many points wins the round (U6).
	WinPoints int `json:"winPoints"`
	// DefeatPenalty: points a defeated proposal's proposer loses (U5).
	DefeatPenalty int `json:"defeatPenalty"`
	// DissentBonus: points each player who voted against an adopted
	// proposal gains while adoption needs no unanimity (U5).
	DissentBonus int `json:"dissentBonus"`
	// UnanimityTurns: turns 1..UnanimityTurns of a round need unanimity;
	// later ones a simple majority unless the unanimity rule was amended
	// by the end of the last of them (U5: "the second turn").
	UnanimityTurns int `json:"unanimityTurns"`
	// ProposalsPerTurn: rule-change proposals each active player may
	// submit per turn (U3: one).
	ProposalsPerTurn int `json:"proposalsPerTurn"`
	// FirstRuleNumber: the number of the first mutable rule (U3: 201).
	FirstRuleNumber int `json:"firstRuleNumber"`
	// FirstCaseNumber: the case number of a game's first Request for
	// Judgment (U7: 5301).
	FirstCaseNumber int `json:"firstCaseNumber"`
	// JudgeLatePenalty: points a Judge loses for not ruling within
	// JudgeDeadline of the appointment (U9: 25).
	JudgeLatePenalty int `json:"judgeLatePenalty"`
	// JudgeRecusal: a drawn Judge may recuse within this of the
	// appointment (U9: 48 hours).
	JudgeRecusal Duration `json:"judgeRecusal"`
	// JudgeDeadline: a Judge who has not ruled this long after the
	// appointment is late (U9: a week).
	JudgeDeadline Duration `json:"judgeDeadline"`
	// AppealSupport: an appeal replaces the ruling if at least this
	// fraction of those voting on it support it (U10: two-thirds).
	AppealSupport Fraction `json:"appealSupport"`
}

// Fraction is an exact ratio Num/Den, so "two-thirds" stays exact and a
// proposal can amend either part.
type Fraction struct {
	Num int `json:"num"`
	Den int `json:"den"`
}

// AtLeast reports whether part/whole >= f, exactly (whole > 0).
func (f Fraction) AtLeast(part, whole int) bool {
	return whole > 0 && part*f.Den >= f.Num*whole
}

// validateTurns checks the turns section: present exactly when the
// ruleset runs the Chicago turns calendar (seed 003 is the only one with
// these rules), every count positive, the durations positive and the
// recusal window inside the deadline, the appeal fraction in (0, 1].
func (r *Ruleset) validateTurns(v *validator) {
	t := r.Turns
	if t == (TurnsRules{}) {
		if r.Calendar == CalendarChicagoTurns {
			v.add("turns", "is missing: a %q ruleset needs seed 003's numbers (winPoints, defeatPenalty, ...)", CalendarChicagoTurns)
		}
		return
	}
	if r.Calendar != CalendarChicagoTurns {
		v.add("turns", "only a %q ruleset has turns, points and the judicial system of seed 003", CalendarChicagoTurns)
	}
	for _, n := range []struct {
		field string
		value int
	}{
		{"turns.winPoints", t.WinPoints},
		{"turns.defeatPenalty", t.DefeatPenalty},
		{"turns.dissentBonus", t.DissentBonus},
		{"turns.unanimityTurns", t.UnanimityTurns},
		{"turns.proposalsPerTurn", t.ProposalsPerTurn},
		{"turns.firstRuleNumber", t.FirstRuleNumber},
		{"turns.firstCaseNumber", t.FirstCaseNumber},
		{"turns.judgeLatePenalty", t.JudgeLatePenalty},
	} {
		if n.value < 1 {
			v.add(n.field, "must be at least 1 (missing or zero), got %d", n.value)
		}
	}
	for _, d := range []struct {
		field string
		value Duration
	}{
		{"turns.judgeRecusal", t.JudgeRecusal},
		{"turns.judgeDeadline", t.JudgeDeadline},
	} {
		if d.value <= 0 {
			v.add(d.field, "must be greater than 0 (missing or zero), got %s", d.value)
		}
	}
	if t.JudgeRecusal > 0 && t.JudgeDeadline > 0 && t.JudgeRecusal > t.JudgeDeadline {
		v.add("turns.judgeRecusal", "%s is longer than the judgeDeadline %s: a Judge could recuse after being penalised as late", t.JudgeRecusal, t.JudgeDeadline)
	}
	if f := t.AppealSupport; f.Num < 1 || f.Den < 1 || f.Num > f.Den {
		v.add("turns.appealSupport", "must be a fraction num/den with 1 <= num <= den (e.g. 2/3), got %d/%d", f.Num, f.Den)
	}
}
