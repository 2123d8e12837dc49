package obelisk

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
)

// Gathering statuses (RULINGS O8-O10): open until completed by its starter
// or failed at the end of the phase it started in.
const (
	StatusOpen      = "open"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Ledger entry kinds: what happened to a contribution.
const (
	EntryContributed = "contributed" // revoked from the player into the Gathering
	EntryWithdrew    = "withdrew"    // granted back by withdrawing
	EntryRefunded    = "refunded"    // granted back when the Gathering failed
	EntryDestroyed   = "destroyed"   // its contributor is no longer a player, so the refund is destroyed (002 Items)
	EntrySpent       = "spent"       // consumed by the completion
)

// Gathering is one instance of a ritual (002 Rituals).
type Gathering struct {
	ID string `json:"id"`
	// Message is the chat message (in #rituals) that started it; reactions
	// to it contribute and withdraw.
	Message string `json:"message,omitempty"`
	// Ritual is the ritual type as it was when the Gathering started.
	// Reading (RULINGS silent): an amendment to the type during the phase
	// does not change the cost players are contributing towards.
	Ritual    ruleset.RitualType `json:"ritual"`
	Starter   string             `json:"starter"`
	Named     string             `json:"named,omitempty"`
	StartedAt time.Time          `json:"started_at"`
	// Ends is the end of the phase it started in: unless completed before
	// then, it fails at that moment (O10).
	Ends   time.Time `json:"ends"`
	Period string    `json:"period"`
	Status string    `json:"status"`
	// Contributions are the contributions not withdrawn, refunded or spent,
	// in the order made; a player has at most one of each component (O9).
	Contributions []Contribution `json:"contributions,omitempty"`
	// Ledger is every contribution, withdrawal, refund and spending, in
	// order, numbered from 1.
	Ledger   []Entry   `json:"ledger,omitempty"`
	ClosedAt time.Time `json:"closed_at,omitzero"` // completion or failure
}

// Contribution is one component a player has in a Gathering.
type Contribution struct {
	Player    string `json:"player"`
	Component string `json:"component"`
	Amount    int    `json:"amount"`
}

// Entry is one line of a Gathering's ledger.
type Entry struct {
	Seq       int       `json:"seq"`
	Kind      string    `json:"kind"`
	Player    string    `json:"player"`
	Component string    `json:"component"`
	Amount    int       `json:"amount"`
	At        time.Time `json:"at"`
}

// Contributed is the total of the contributions not withdrawn.
func (g *Gathering) Contributed() Components {
	var c Components
	for _, x := range g.Contributions {
		c.Add(x.Component, x.Amount)
	}
	return c
}

// Contributors lists the players with a contribution not withdrawn, in the
// order of their first one.
func (g *Gathering) Contributors() []string {
	var out []string
	for _, x := range g.Contributions {
		if !slices.Contains(out, x.Player) {
			out = append(out, x.Player)
		}
	}
	return out
}

// Covered reports whether the contributions cover the ritual's Cost.
func (g *Gathering) Covered() bool { return g.Contributed().Covers(g.Ritual.Cost) }

// Players lists whom completing g concerns besides the Obelisk: the
// starter, the contributors and the named player. An effect on every
// player is a game-level grant on the Obelisk (grant.go), so it needs no
// player record.
func (g *Gathering) Players() []string {
	ids := append([]string{g.Starter}, g.Contributors()...)
	if g.Named != "" && !slices.Contains(ids, g.Named) {
		ids = append(ids, g.Named)
	}
	return ids
}

func (g *Gathering) entry(kind, player, component string, amount int, at time.Time) {
	g.Ledger = append(g.Ledger, Entry{Seq: len(g.Ledger) + 1, Kind: kind, Player: player, Component: component, Amount: amount, At: at})
}

func checkStart(or *ruleset.ObeliskRules, p *Player, req TaskRequest) (ruleset.RitualType, error) {
	if p.Banished() {
		return ruleset.RitualType{}, banishedRefusal(p, "start a Gathering")
	}
	rt, ok := or.RitualType(req.RitualType)
	if !ok {
		if len(or.RitualTypes) == 0 {
			return rt, rules.Refuse("unknown_ritual_type", "There is no ritual type %q: this game has no ritual types yet; an adopted proposal or an administrator's amendment adds them.", req.RitualType)
		}
		ids := make([]string, len(or.RitualTypes))
		for i, r := range or.RitualTypes {
			ids[i] = r.ID
		}
		return rt, rules.Refuse("unknown_ritual_type", "There is no ritual type %q; the ritual types are %s.", req.RitualType, strings.Join(ids, ", ")).
			With("ritual_types", ids)
	}
	if req.Gathering == "" {
		return rt, rules.Refuse("invalid_gathering", "A Gathering needs an id (the module gives it one).")
	}
	switch {
	case rt.NeedsTarget() && req.Named == "":
		return rt, rules.Refuse("target_required", "%s affects a player you name: say which player when you start the Gathering.", rt.Name)
	case !rt.NeedsTarget() && req.Named != "":
		return rt, rules.Refuse("no_target", "%s affects no named player; start it without naming one.", rt.Name)
	}
	return rt, nil
}

func newGathering(req TaskRequest, rt ruleset.RitualType, p *Player, env Env) *Gathering {
	ph := calendar.PhaseAt(env.Now)
	return &Gathering{ID: req.Gathering, Message: req.Message, Ritual: rt, Starter: p.ID, Named: req.Named,
		StartedAt: env.Now, Ends: ph.End, Period: ph.ID(), Status: StatusOpen}
}

// open refuses an action on a Gathering that is over: completed, failed,
// or past the end of its phase (it fails then; the refund is the failure's,
// so nothing may move in between).
func (g *Gathering) open(now time.Time) error {
	switch {
	case g.Status == StatusCompleted:
		return rules.Refuse("gathering_completed", "The Gathering of %s was completed on %s; its contributions were spent.", g.Ritual.Name, g.ClosedAt.UTC().Format(time.RFC1123))
	case g.Status == StatusFailed:
		return rules.Refuse("gathering_failed", "The Gathering of %s failed at the end of its phase (%s); every contribution was refunded.", g.Ritual.Name, g.Ends.UTC().Format(time.RFC1123))
	case !now.Before(g.Ends):
		return rules.Refuse("gathering_failed", "The Gathering of %s was not completed by the end of its phase (%s), so it failed; every contribution is refunded.", g.Ritual.Name, g.Ends.UTC().Format(time.RFC1123)).
			With("ends", g.Ends)
	}
	return nil
}

func banishedRefusal(p *Player, what string) error {
	return rules.Refuse("banished", "You are banished (since %s) and a banished player cannot %s.", p.Banishment.Since.UTC().Format(time.RFC1123), what).
		With("banished_since", p.Banishment.Since)
}

// Moved is what a contribution or a withdrawal did.
type Moved struct {
	Gathering   string     `json:"gathering"`
	Player      string     `json:"player"`
	Component   string     `json:"component"`
	Amount      int        `json:"amount"`
	Covered     bool       `json:"covered"` // the Cost is covered after it
	Contributed Components `json:"contributed"`
	Changes     []Delta    `json:"changes"`
}

// Contribute revokes one of component (an id or its emoji) from p into g
// and makes p its Contributor (RULINGS O9). Refused for a banished player,
// one who holds none, a current Contributor of that component, and a
// Gathering that is over.
func Contribute(g *Gathering, p *Player, component string, env Env) (Moved, error) {
	if err := member(p); err != nil {
		return Moved{}, err
	}
	if p.Banished() {
		return Moved{}, banishedRefusal(p, "contribute to a Gathering")
	}
	if err := g.open(env.Now); err != nil {
		return Moved{}, err
	}
	c, ok := ruleset.Component(component)
	if !ok {
		return Moved{}, unknownComponent(component)
	}
	if slices.ContainsFunc(g.Contributions, func(x Contribution) bool { return x.Player == p.ID && x.Component == c.ID }) {
		return Moved{}, rules.Refuse("already_contributing", "You already contribute %s %s to this Gathering; withdraw it before contributing it again.", c.Emoji, c.Name)
	}
	if p.Components.Get(c.ID) < 1 {
		return Moved{}, rules.Refuse("no_component", "You hold no %s %s to contribute.", c.Emoji, c.Name).With("component", c.ID)
	}
	m := Moved{Gathering: g.ID, Player: p.ID, Component: c.ID, Amount: 1}
	change(p, c.ID, -1, CauseContribution, &m.Changes)
	g.Contributions = append(g.Contributions, Contribution{Player: p.ID, Component: c.ID, Amount: 1})
	g.entry(EntryContributed, p.ID, c.ID, 1, env.Now)
	m.Covered, m.Contributed = g.Covered(), g.Contributed()
	return m, nil
}

// Withdraw grants p back everything of component they contributed to g and
// that was not refunded, and ends their being its Contributor (O9). A
// banished player may withdraw (002 forbids starting, contributing and
// completing only).
func Withdraw(g *Gathering, p *Player, component string, env Env) (Moved, error) {
	if err := member(p); err != nil {
		return Moved{}, err
	}
	if err := g.open(env.Now); err != nil {
		return Moved{}, err
	}
	c, ok := ruleset.Component(component)
	if !ok {
		return Moved{}, unknownComponent(component)
	}
	i := slices.IndexFunc(g.Contributions, func(x Contribution) bool { return x.Player == p.ID && x.Component == c.ID })
	if i < 0 {
		return Moved{}, rules.Refuse("not_contributing", "You do not contribute %s %s to this Gathering, so there is nothing to withdraw.", c.Emoji, c.Name)
	}
	x := g.Contributions[i]
	m := Moved{Gathering: g.ID, Player: p.ID, Component: c.ID, Amount: x.Amount}
	change(p, c.ID, x.Amount, CauseWithdrawal, &m.Changes)
	g.Contributions = slices.Delete(slices.Clone(g.Contributions), i, i+1)
	g.entry(EntryWithdrew, p.ID, c.ID, x.Amount, env.Now)
	m.Covered, m.Contributed = g.Covered(), g.Contributed()
	return m, nil
}

func unknownComponent(ref string) error {
	var s []string
	for _, c := range ruleset.ComponentList {
		s = append(s, c.Emoji+" "+c.ID)
	}
	return rules.Refuse("unknown_component", "%q is not a Ritual Component; they are %s.", ref, strings.Join(s, ", ")).
		With("components", ruleset.ComponentIDs())
}

// EffectResult is one effect a completion applied, in words.
type EffectResult struct {
	Kind    string   `json:"kind"`
	Text    string   `json:"text"`
	Players []string `json:"players,omitempty"` // whom it concerned
	Summons []Summon `json:"summons,omitempty"`
	// Grant is an effect on every player, made as a game-level grant to
	// every member at once (grant.go).
	Grant *Grant `json:"grant,omitempty"`
}

// Completed is what completing a Gathering did.
type Completed struct {
	Gathering string         `json:"gathering"`
	Ritual    string         `json:"ritual"`
	Name      string         `json:"name,omitempty"` // the ritual type's name, for the log's sentence
	Spent     Components     `json:"spent"`          // every contribution, consumed
	Effects   []EffectResult `json:"effects"`
	Changes   []Delta        `json:"changes"`
}

// Complete completes g for by, its starter, and applies its ritual's
// effects (RULINGS O10): only while it is open, before its phase ends, the
// contributions cover the Cost and every Prerequisite holds; by must not be
// banished. Every contribution is spent. roster holds the players the
// effects concern (Gathering.Players); a grant to a player not in it, or
// no longer a player, is not made (002 Items: a non-player owns nothing).
// An effect on every player is a game-level grant on o (grant.go).
func Complete(g *Gathering, o *Obelisk, by *Player, roster []*Player, env Env) (Completed, error) {
	or, err := env.obelisk()
	if err != nil {
		return Completed{}, err
	}
	if err := member(by); err != nil {
		return Completed{}, err
	}
	if by.ID != g.Starter {
		return Completed{}, rules.Refuse("not_starter", "Only the player who started the Gathering of %s can complete it.", g.Ritual.Name).
			With("starter", g.Starter)
	}
	if by.Banished() {
		return Completed{}, banishedRefusal(by, "complete a Gathering")
	}
	if err := g.open(env.Now); err != nil {
		return Completed{}, err
	}
	if !g.Covered() {
		short := g.Contributed().Short(g.Ritual.Cost)
		return Completed{}, rules.Refuse("cost_not_covered", "%s costs %s; the contributions are %s, so %s is missing.",
			g.Ritual.Name, g.Ritual.Cost, g.Contributed(), short).With("cost", g.Ritual.Cost).With("missing", short)
	}
	for _, pr := range g.Ritual.Prerequisites {
		if ok, why := prerequisite(pr, o, g, env); !ok {
			return Completed{}, rules.Refuse("prerequisite_unmet", "%s can only be completed if %s.", g.Ritual.Name, why).
				With("prerequisite", pr)
		}
	}

	byID := map[string]*Player{}
	for _, p := range roster {
		if p != nil && p.Member {
			byID[p.ID] = p
		}
	}
	res := Completed{Gathering: g.ID, Ritual: g.Ritual.ID, Name: g.Ritual.Name, Spent: g.Contributed()}
	contributors := g.Contributors() // before the contributions are spent
	targets := func(t string) []*Player {
		var ids []string
		switch t {
		case ruleset.TargetStarter:
			ids = []string{g.Starter}
		case ruleset.TargetNamed:
			ids = []string{g.Named}
		case ruleset.TargetContributors:
			ids = contributors
		}
		var out []*Player
		for _, id := range ids {
			if p := byID[id]; p != nil {
				out = append(out, p)
			}
		}
		return out
	}
	for _, x := range g.Contributions {
		g.entry(EntrySpent, x.Player, x.Component, x.Amount, env.Now)
	}
	g.Contributions = nil
	for _, e := range g.Ritual.Effects {
		er := EffectResult{Kind: e.Kind}
		switch e.Kind {
		case ruleset.EffectAddCuts:
			o.Cuts += e.Amount
			er.Text = fmt.Sprintf("the Obelisk gains %s (now %d)", cuts(e.Amount), o.Cuts)
		case ruleset.EffectRemoveCuts:
			n := min(e.Amount, o.Cuts)
			o.Cuts -= n
			er.Text = fmt.Sprintf("the Obelisk loses %s (now %d)", cuts(n), o.Cuts)
		case ruleset.EffectMoveAway:
			o.Distance += e.Amount
			er.Text = fmt.Sprintf("the Obelisk moves %d km away (now %d km)", e.Amount, o.Distance)
		case ruleset.EffectMoveCloser:
			n := o.moveCloser(e.Amount)
			er.Text = fmt.Sprintf("the Obelisk moves %d km closer (now %d km)", n, o.Distance)
		case ruleset.EffectSummonGrebes:
			for range e.Amount {
				er.Summons = append(er.Summons, o.summon(or.MaxGrebes))
			}
			er.Text = fmt.Sprintf("%d Grebes are summoned to aid the Obelisk (%d aid it now)", e.Amount, len(o.AidingObelisk()))
			if e.Amount == 1 {
				er.Text = fmt.Sprintf("1 Grebe is summoned to aid the Obelisk (%d aid it now)", len(o.AidingObelisk()))
			}
		case ruleset.EffectDismissGrebes:
			// Reading (RULINGS silent): the most recently summoned go first.
			aiding := o.AidingObelisk()
			gone := aiding[max(len(aiding)-e.Amount, 0):]
			o.Grebes = slices.DeleteFunc(o.Grebes, func(gr Grebe) bool { return slices.Contains(gone, gr.Number) })
			er.Text = fmt.Sprintf("%d Grebes aiding the Obelisk cease to exist (%d aid it now)", len(gone), len(o.AidingObelisk()))
		case ruleset.EffectGrant:
			if e.Target == ruleset.TargetEveryPlayer {
				gr := o.Grants.GrantComponents(e.Components, CauseRitual, env.Now)
				er.Grant = &gr
			}
			for _, p := range targets(e.Target) {
				changeAll(p, e.Components, +1, CauseRitual, &res.Changes)
				er.Players = append(er.Players, p.ID)
			}
			er.Text = fmt.Sprintf("%s gain %s each", targetWords(e.Target), e.Components)
		case ruleset.EffectBoost:
			until := calendar.PhaseAt(env.Now).End
			if e.Target == ruleset.TargetEveryPlayer {
				gr := o.Grants.GrantBoost(Boost{Task: e.Task, Until: until, Gathering: g.ID}, env.Now)
				er.Grant = &gr
			}
			for _, p := range targets(e.Target) {
				p.Boosts = append(slices.DeleteFunc(p.Boosts, func(b Boost) bool { return !env.Now.Before(b.Until) }),
					Boost{Task: e.Task, Until: until, Gathering: g.ID})
				er.Players = append(er.Players, p.ID)
			}
			t, _ := or.Tasks.Task(e.Task)
			er.Text = fmt.Sprintf("%s's %s gains are Boosted until the phase ends", targetWords(e.Target), t.Name)
		case ruleset.EffectEndBanishment:
			if e.Target == ruleset.TargetEveryPlayer {
				gr := o.Grants.GrantEndBanishment(env.Now)
				er.Grant = &gr
			}
			for _, p := range targets(e.Target) {
				if p.Banished() {
					p.Banishment = nil
					er.Players = append(er.Players, p.ID)
				}
			}
			er.Text = fmt.Sprintf("%s cease to be banished", targetWords(e.Target))
		}
		res.Effects = append(res.Effects, er)
	}
	g.Status = StatusCompleted
	g.ClosedAt = env.Now
	return res, nil
}

func targetWords(t string) string {
	switch t {
	case ruleset.TargetStarter:
		return "the starter"
	case ruleset.TargetContributors:
		return "the contributors"
	case ruleset.TargetEveryPlayer:
		return "every player"
	case ruleset.TargetNamed:
		return "the named player"
	}
	return t
}

// prerequisite reports whether pr holds, and if not, says what it needs.
func prerequisite(pr ruleset.Prerequisite, o *Obelisk, g *Gathering, env Env) (bool, string) {
	a := pr.Amount
	switch pr.Kind {
	case ruleset.PrereqMinCuts:
		return o.Cuts >= a, fmt.Sprintf("the Obelisk has at least %d Cuts (it has %d)", a, o.Cuts)
	case ruleset.PrereqMaxCuts:
		return o.Cuts <= a, fmt.Sprintf("the Obelisk has at most %d Cuts (it has %d)", a, o.Cuts)
	case ruleset.PrereqMinDistance:
		return o.Distance >= a, fmt.Sprintf("the Obelisk is at least %d km away (it is %d km away)", a, o.Distance)
	case ruleset.PrereqMaxDistance:
		return o.Distance <= a, fmt.Sprintf("the Obelisk is at most %d km away (it is %d km away)", a, o.Distance)
	case ruleset.PrereqMinGrebes:
		n := len(o.AidingObelisk())
		return n >= a, fmt.Sprintf("at least %d Grebes aid the Obelisk (%d do)", a, n)
	case ruleset.PrereqMaxGrebes:
		n := len(o.AidingObelisk())
		return n <= a, fmt.Sprintf("at most %d Grebes aid the Obelisk (%d do)", a, n)
	case ruleset.PrereqSeason:
		want := pr.Season
		if pr.Part != "" {
			want = pr.Part + " " + pr.Season
		}
		return env.inSeason(pr.Season, pr.Part), fmt.Sprintf("it is %s (it is %s, Phase %s)", want, env.season(), strings.Repeat("I", env.phase().Number))
	case ruleset.PrereqMinContributors:
		n := len(g.Contributors())
		return n >= a, fmt.Sprintf("at least %d players contribute (%d do)", a, n)
	}
	// Validation admits only the kinds above; an unknown one never holds.
	return false, fmt.Sprintf("%q holds, which this engine does not know", pr.Kind)
}

// Failed is what the failure of a Gathering did.
type Failed struct {
	Gathering string `json:"gathering"`
	// Applied is false when the Gathering was already over (completed or
	// failed): applying the failure again changes nothing (RULINGS T4).
	Applied bool    `json:"applied"`
	Changes []Delta `json:"changes,omitempty"`
	// Destroyed are refunds due to players who are no longer players.
	Destroyed []Contribution `json:"destroyed,omitempty"`
}

// Fail fails g as of at, the end of its phase or later (RULINGS O10, T4):
// unless it was completed, every contribution not withdrawn is granted back
// to its Contributor. roster holds the contributors (Gathering.Contributors);
// a refund due to someone not in it or no longer a player is destroyed (002
// Items). Failing a Gathering that is already over changes nothing.
func Fail(g *Gathering, roster []*Player, at time.Time) (Failed, error) {
	res := Failed{Gathering: g.ID}
	if g.Status != StatusOpen {
		return res, nil
	}
	if at.Before(g.Ends) {
		return res, rules.Refuse("not_due", "The Gathering of %s can still be completed until %s; it fails only then.", g.Ritual.Name, g.Ends.UTC().Format(time.RFC1123)).
			With("ends", g.Ends)
	}
	byID := map[string]*Player{}
	for _, p := range roster {
		if p != nil && p.Member {
			byID[p.ID] = p
		}
	}
	for _, x := range g.Contributions {
		if p := byID[x.Player]; p != nil {
			change(p, x.Component, x.Amount, CauseRefund, &res.Changes)
			g.entry(EntryRefunded, x.Player, x.Component, x.Amount, g.Ends)
		} else {
			res.Destroyed = append(res.Destroyed, x)
			g.entry(EntryDestroyed, x.Player, x.Component, x.Amount, g.Ends)
		}
	}
	g.Contributions = nil
	g.Status = StatusFailed
	g.ClosedAt = g.Ends
	res.Applied = true
	return res, nil
}

// cuts is "1 Cut" or "2 Cuts".
func cuts(n int) string {
	if n == 1 {
		return "1 Cut"
	}
	return fmt.Sprintf("%d Cuts", n)
}
