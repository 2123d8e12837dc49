package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/turns"
)

// The rules of the game and one case, as views every ruleset has (each
// reads it as of a past moment too, Past): a Judge rules on the rules in
// effect at the disputed action (seed 003), so /rules at:… shows them
// then. In a turns game the rules are its numbered rules (turns-rules)
// and a case is a Request for Judgment; in the Gilded Hall and the
// Obelisk the rules are the ruleset's numbers as amended (the ruleset
// view), and a case is a request for justice.
func rulesCommands() []Command {
	return []Command{
		{Name: "rules", Past: true, Description: "The game's rules, numbered in a turns game",
			Options: []Option{{Name: "rule", Description: "A rule's number, for its text and history", Type: Integer, Min: intp(1),
				In: func(rs *ruleset.Ruleset) bool { return rs.Calendar == ruleset.CalendarChicagoTurns }}},
			Handler: rulesView},
		{Name: "case show", Past: true, Description: "A case, or a request for justice",
			Options: []Option{{Name: "case", Description: "The case's number (turns), or the request for justice's id", Required: true}},
			Handler: caseView},
	}
}

// hasTurns reports whether game g's ruleset has the turns institution.
func hasTurns(ctx context.Context, s *game.Service, g string) (bool, error) {
	id, err := s.RulesetOf(ctx, g)
	if err != nil {
		return false, err
	}
	return s.Registry.Has(id, "turns"), nil
}

func rulesView(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	numbered, err := hasTurns(ctx, s, inv.Game)
	if err != nil {
		return nil, err
	}
	if numbered {
		return numberedRules(ctx, s, inv)
	}
	return rulesetNumbers(ctx, s, inv)
}

// numberedRules are a turns game's rules in force (repealed ones counted),
// or one rule's text and history.
func numberedRules(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	rs, err := turns.Rules(ctx, s, inv.Game)
	if err != nil {
		return nil, err
	}
	n, err := inv.Int("rule")
	if err != nil {
		return nil, err
	}
	if n > 0 {
		for _, r := range rs {
			if r.Number == n {
				return ruleReply(r), nil
			}
		}
		lo, hi := 0, 0
		if len(rs) > 0 {
			lo, hi = rs[0].Number, rs[len(rs)-1].Number
		}
		return nil, refusef("unknown_rule", "There is no rule %d: the rules are numbered %d to %d.", n, lo, hi)
	}
	var ls []string
	repealed := 0
	for _, r := range rs {
		if r.Repealed {
			repealed++
			continue
		}
		ls = append(ls, fmt.Sprintf("**%d** %s", r.Number, clip(r.Text, 48)))
	}
	title := fmt.Sprintf("The rules in force (%d)", len(rs)-repealed)
	if repealed > 0 {
		ls = append(ls, fmt.Sprintf("%s repealed.", plural(repealed, "rule", "rules")))
	}
	ls = append(ls, "/rules rule:NUMBER shows a rule's text and history.")
	return &Reply{Title: title, Text: lines(ls)}, nil
}

// ruleReply is one rule: its text as it stands and each change to it.
func ruleReply(r nomic.Rule) *Reply {
	title := fmt.Sprintf("Rule %d", r.Number)
	if r.Repealed {
		title += " (repealed)"
	}
	ls := []string{clip(r.Text, 1200)}
	for _, e := range r.History {
		by := "at the game's creation"
		if e.Proposal != "" {
			by = "by proposal " + e.Proposal
			if e.Turn != "" {
				by += " in turn " + e.Turn
			}
		}
		verb := map[string]string{nomic.RuleEnacted: "Enacted", nomic.RuleAmended: "Amended", nomic.RuleRepealed: "Repealed"}[e.Kind]
		if verb == "" {
			verb = upperFirst(e.Kind)
		}
		ls = append(ls, fmt.Sprintf("%s %s, %s.", verb, by, turns.When(e.At)))
	}
	return &Reply{Title: title, Text: lines(ls)}
}

// rulesetSections are the parts of a ruleset's data that are its rules'
// numbers, in the order shown (the card and pack tables are what the
// tracker shows).
var rulesetSections = []struct{ key, title string }{
	{"shop", "Shop"}, {"trading", "Trading"}, {"chances", "Chances (%)"}, {"thresholds", "Thresholds"},
	{"durations", "Durations"}, {"obelisk", "The Obelisk"}, {"turns", "Turns"},
}

// rulesetNumbers is the ruleset's numbers as the game's amendments leave
// them (the ruleset view), one field a section.
func rulesetNumbers(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	if inv.Opt("rule") != "" {
		return nil, refusef("invalid_option", "This game's rules are not numbered: /rules without rule shows its ruleset's numbers.")
	}
	rs, err := s.Ruleset(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(rs)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	r := &Reply{Title: fmt.Sprintf("%s, version %d", rs.Name, rs.Version),
		Text: "The ruleset's numbers as amended; /game names the period, the tracker shows the card and pack tables."}
	for _, sec := range rulesetSections {
		v, ok := doc[sec.key]
		if !ok {
			continue
		}
		var parts []string
		if sec.key == "shop" {
			for _, it := range rs.Shop {
				parts = append(parts, fmt.Sprintf("%s %d %s", it.Name, it.Price, it.Currency))
			}
		} else {
			flatten("", v, &parts)
		}
		if len(parts) == 0 {
			continue
		}
		r.Fields = append(r.Fields, Field{Name: sec.title, Value: clip(strings.Join(parts, " · "), 1000)})
	}
	return r, nil
}

// flatten lists v's numbers as "path value": an object's members by name
// (sorted), a list's items by their id (a shop item's) or position.
func flatten(path string, v any, out *[]string) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "id" || k == "name" {
				continue
			}
			flatten(join(k), x[k], out)
		}
	case []any:
		for i, it := range x {
			key := strconv.Itoa(i + 1)
			if m, ok := it.(map[string]any); ok {
				for _, idKey := range []string{"id", "season", "kind"} {
					if id, ok := m[idKey].(string); ok {
						key = id
						break
					}
				}
			}
			flatten(join(key), it, out)
		}
	case nil:
	case string:
		// A duration reads in words ("7 days"), as every text gives one.
		if d, err := time.ParseDuration(x); err == nil {
			x = game.Duration(d)
		}
		*out = append(*out, path+" "+x)
	default:
		*out = append(*out, path+" "+fmt.Sprint(x))
	}
}

// momentLayout writes a moment as the at option reads it back (in the
// game's zone, to the second).
const momentLayout = "2006-01-02 15:04:05"

func caseView(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	numbered, err := hasTurns(ctx, s, inv.Game)
	if err != nil {
		return nil, err
	}
	if numbered {
		return turnsCase(ctx, s, inv)
	}
	return justiceCase(ctx, s, inv)
}

// turnsCase is a turns game's case: its statement, petitioner, Judges,
// rulings and appeals, with its players' names.
func turnsCase(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(inv.Opt("case")), "#"))
	if err != nil {
		return nil, refusef("invalid_option", "Option case must be a case's number, such as 5301, not %q.", inv.Opt("case"))
	}
	cs, err := turns.Cases(ctx, s, inv.Game)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if c.Number == n {
			return turnsCaseReply(ctx, s, inv, c), nil
		}
	}
	return nil, refusef("unknown_case", "There is no case %d.", n)
}

func turnsCaseReply(ctx context.Context, s *game.Service, inv *Invocation, c turns.CaseView) *Reply {
	name := playerNames(ctx, s, inv.Game, nil)
	ls := []string{fmt.Sprintf("%s asks whether %q (%s).", c.PetitionerName, clip(c.Statement, 600), turns.When(c.At))}
	if c.Arguments != "" {
		ls = append(ls, "Arguments: "+clip(c.Arguments, 400))
	}
	if len(c.MentionedNames) > 0 {
		ls = append(ls, "It mentions "+game.AndList(c.MentionedNames)+".")
	}
	switch {
	case c.Administrator:
		ls = append(ls, "The administrator judges it.")
	case c.JudgeName != "":
		ls = append(ls, fmt.Sprintf("Its Judge is %s, who may recuse until %s and must rule by %s.", c.JudgeName, turns.When(*c.RecuseUntil), turns.When(*c.RuleBy)))
	}
	for _, r := range c.Rulings {
		by := "the administrator"
		if !r.Administrator && r.By != "" {
			by = name(r.By)
		}
		if r.Appeal != "" {
			by = "appeal " + r.Appeal + " of " + by
		}
		l := fmt.Sprintf("Ruled %s by %s, %s", r.Value, by, turns.When(r.At))
		if r.Reasons != "" {
			l += ": " + clip(r.Reasons, 300)
		}
		ls = append(ls, l+".")
	}
	for _, ap := range c.Appeals {
		ls = append(ls, fmt.Sprintf("Appeal %s by %s for %s, voted on in turn %s: %s.", ap.ID, name(ap.By), ap.Value, ap.Turn, ap.Status))
	}
	// A Judge rules on the rules in effect at the disputed action (seed
	// 003): the view that shows them, at the moment the case names, else
	// as it was filed.
	zone := s.Zone(turns.ID)
	if rt := c.RulesThen; rt != nil && rt.Moment != (game.Moment{At: c.At}).String() {
		ls = append(ls, "The rules in effect at the disputed moment: /rules at:"+rulesMoment(rt.Moment, rt.At, zone))
	} else {
		ls = append(ls, "The rules as they stood when it was filed: /rules at:"+c.At.In(zone).Format(momentLayout))
	}
	title := fmt.Sprintf("Case %d", c.Number)
	if c.Ruling != "" {
		title += ": " + c.Ruling
	}
	return &Reply{Title: title, Text: lines(ls)}
}

// justiceCase is a request for justice of the Gilded Hall or the Obelisk:
// what was asked, by whom, and its rulings.
func justiceCase(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	rec, err := s.JusticeRequest(ctx, inv.Game, inv.Opt("case"))
	if err != nil {
		return nil, err
	}
	who := whoFunc(ctx, s, inv)
	q := rec.Request
	ls := []string{fmt.Sprintf("%s by %s, %s: %s", upperFirst(string(q.Kind)), who(q.Author), when(q.CreatedAt), clip(q.Text, 800)),
		"Status: " + q.Status + "."}
	for _, r := range rec.Rulings {
		l := fmt.Sprintf("Ruling %s by %s, %s: **%s**", r.ID, who(r.Judge), when(r.At), clip(r.Answer, 400))
		if r.Overturned {
			l += "; overturned, no bearing"
		}
		ls = append(ls, l+".")
	}
	if len(rec.Rulings) == 0 {
		ls = append(ls, "No ruling yet.")
	}
	ruleset, _ := s.RulesetOf(ctx, inv.Game) // cached per process
	zone := s.Zone(ruleset)
	if d := rec.Disputed; d != nil {
		ls = append(ls, "The rules in effect at the disputed moment: /rules at:"+rulesMoment(d.Moment, d.At, zone))
	} else {
		ls = append(ls, "The rules as they stood when it was asked: /rules at:"+q.CreatedAt.In(zone).Format(momentLayout))
	}
	return &Reply{Title: "Request for justice " + q.ID, Text: lines(ls)}, nil
}

// rulesMoment is a disputed moment as the at: option reads it: an entry's
// moment as named (before:/after:), a time in the game's zone.
func rulesMoment(moment string, at time.Time, zone *time.Location) string {
	if m, err := game.ParseMoment(moment); err == nil && m.Entry != "" {
		return moment
	}
	return at.In(zone).Format(momentLayout)
}
