package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

// The play commands that read a turns game (seed 003): its turn and what
// comes next, the points and the pool, the numbered rules with their
// history, the proposals with their votes, the cases. Its commands
// (turns-propose, turns-vote, judgment-request ...) are the game's own
// (play_catalogue.go).
func turnsCommands() map[string]playCmd {
	read := func(synopsis string, args int, text func(p *player, pos []string) error) playCmd {
		return playCmd{synopsis: synopsis, needGame: true, setup: func(fs *flag.FlagSet) func(*player, []string) error {
			return func(p *player, pos []string) error {
				if len(pos) > args {
					return usagef("this command takes at most %d argument(s), got %q", args, strings.Join(pos, " "))
				}
				return text(p, pos)
			}
		}}
	}
	return map[string]playCmd{
		"turns": read("turns\n\nThe turn now, what happens next and when, the points, the Judicial Pool,\nthe open proposals with their votes and the open cases.", 0, func(p *player, _ []string) error {
			st, rep, err := p.c.TurnsStatus(p.ctx, p.opts.game)
			if err != nil {
				return err
			}
			return p.out(rep, func() string { return turnsText(st) })
		}),
		"turns-rules": read("turns-rules [NUMBER]\n\nThe numbered rules in force; with NUMBER, that rule's text and history.", 1, func(p *player, pos []string) error {
			rs, rep, err := p.c.TurnsRules(p.ctx, p.opts.game)
			if err != nil {
				return err
			}
			if len(pos) == 1 {
				n, err := strconv.Atoi(pos[0])
				if err != nil {
					return usagef("a rule number, such as 201; got %q", pos[0])
				}
				for _, r := range rs {
					if r.Number == n {
						return p.out(rep, func() string { return ruleText(r) })
					}
				}
				return usagef("there is no rule %d (the rules are numbered %d to %d)", n, rs[0].Number, rs[len(rs)-1].Number)
			}
			return p.out(rep, func() string { return rulesText(rs) })
		}),
		"turns-proposals": read("turns-proposals\n\nEvery rule-change proposal with its votes and result.", 0, func(p *player, _ []string) error {
			ps, rep, err := p.c.TurnsProposals(p.ctx, p.opts.game)
			if err != nil {
				return err
			}
			return p.out(rep, func() string {
				if len(ps) == 0 {
					return "No proposals yet."
				}
				var b strings.Builder
				for _, v := range ps {
					b.WriteString(turnsProposalText(v) + "\n")
				}
				return strings.TrimRight(b.String(), "\n")
			})
		}),
		"turns-cases": read("turns-cases\n\nEvery case with its Judges, deadlines, rulings and appeals.", 0, func(p *player, _ []string) error {
			cs, rep, err := p.c.TurnsCases(p.ctx, p.opts.game)
			if err != nil {
				return err
			}
			return p.out(rep, func() string {
				if len(cs) == 0 {
					return "No cases yet."
				}
				var b strings.Builder
				for _, c := range cs {
					b.WriteString(turnsCaseText(c) + "\n")
				}
				return strings.TrimRight(b.String(), "\n")
			})
		}),
	}
}

// chicagoTime formats a moment in the turns' time zone (RULINGS T3), as
// every text of a turns game does (turns.When).
func chicagoTime(t time.Time) string { return turns.When(t) }

func turnsText(st turns.Status) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, round %d: %s. It is %s.\n", st.Game, st.Round.Number, turns.Where(st.Turn), chicagoTime(st.Now))
	switch {
	case st.Round.Over:
		fmt.Fprintf(&b, "The round is over: %s won it. The administrator may start the next round (round-start).\n", st.WinnerName)
	case st.Next != nil:
		fmt.Fprintf(&b, "Next: %s, %s (in %s). Proposals are adopted by %s.\n", st.Next.Words(), chicagoTime(st.Next.At), st.In, st.Mode)
	}
	b.WriteString("Points:\n")
	for _, p := range st.Players {
		state := []string{map[bool]string{true: "active", false: "inactive"}[p.Active]}
		if p.InPool {
			state = append(state, "in the Judicial Pool")
		}
		fmt.Fprintf(&b, "  %-24s %5d  %s\n", who(p.Player, p.Name), p.Points, strings.Join(state, ", "))
	}
	pool := "nobody"
	if len(st.Pool) > 0 {
		pool = strings.Join(st.Pool, ", ")
	}
	fmt.Fprintf(&b, "Judicial Pool: %s.\n", pool)
	for _, v := range st.Proposals {
		b.WriteString(turnsProposalText(v) + "\n")
	}
	for _, c := range st.Cases {
		b.WriteString(turnsCaseText(c) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func namesOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func changeText(c nomic.RuleChange) string {
	switch c.Op {
	case nomic.RuleEnacted:
		return fmt.Sprintf("enact %q", c.Text)
	case nomic.RuleRepealed:
		return fmt.Sprintf("repeal rule %d", c.Rule)
	}
	return fmt.Sprintf("amend rule %d to %q", c.Rule, c.Text)
}

func turnsProposalText(v turns.ProposalView) string {
	var changes []string
	for _, c := range v.Changes {
		changes = append(changes, changeText(c))
	}
	if v.Summary != "" {
		changes = append(changes, v.Summary)
	}
	s := fmt.Sprintf("Proposal %s by %s for turn %s, %s", v.ID, v.ProposerName, v.Turn, v.Status)
	if v.Status == nomic.ProposalOpen {
		s += fmt.Sprintf(", voting until %s", chicagoTime(v.VotingEnds))
	}
	s = game.EndSentence(s+": "+strings.Join(changes, "; ")) + fmt.Sprintf(" For: %s. Against: %s.", namesOrNone(v.VotesFor), namesOrNone(v.VotesAgainst))
	if v.Result != nil {
		s += " (" + v.Result.Reason + ")"
	}
	return s
}

func turnsCaseText(c turns.CaseView) string {
	var b strings.Builder
	kind := "Case"
	if c.Paradox {
		kind = "Case (a paradox)"
	}
	b.WriteString(game.EndSentence(fmt.Sprintf("%s %d by %s: %q", kind, c.Number, c.PetitionerName, c.Statement)))
	if len(c.MentionedNames) > 0 {
		fmt.Fprintf(&b, " Mentions %s.", strings.Join(c.MentionedNames, ", "))
	}
	switch {
	case c.Administrator:
		b.WriteString(" Judged by the administrator.")
	case c.Judge != "":
		fmt.Fprintf(&b, " Judge %s (may recuse until %s, must rule by %s).", c.JudgeName, chicagoTime(*c.RecuseUntil), chicagoTime(*c.RuleBy))
	}
	if c.Ruling != "" {
		fmt.Fprintf(&b, " Ruled %s.", c.Ruling)
	}
	for _, ap := range c.Appeals {
		fmt.Fprintf(&b, " Appeal %s (for %s, turn %s): %s.", ap.ID, ap.Value, ap.Turn, ap.Status)
	}
	if c.RulesThen != nil { // the rules the Judge considers (seed 003)
		b.WriteString(" " + c.RulesThen.Words())
	}
	return b.String()
}

func rulesText(rs []nomic.Rule) string {
	var b strings.Builder
	for _, r := range rs {
		if r.Repealed {
			fmt.Fprintf(&b, "%d  (repealed)\n", r.Number)
			continue
		}
		text := r.Text
		if len(text) > 90 {
			text = text[:87] + "..."
		}
		fmt.Fprintf(&b, "%d  %s\n", r.Number, text)
	}
	return strings.TrimRight(b.String(), "\n")
}

func ruleText(r nomic.Rule) string {
	var b strings.Builder
	status := ""
	if r.Repealed {
		status = " (repealed)"
	}
	fmt.Fprintf(&b, "Rule %d%s: %s\nHistory:\n", r.Number, status, r.Text)
	for _, h := range r.History {
		by := "at the game's creation"
		if h.Proposal != "" {
			by = fmt.Sprintf("by proposal %s in turn %s", h.Proposal, h.Turn)
		}
		verb := map[string]string{nomic.RuleEnacted: "enacted", nomic.RuleAmended: "amended", nomic.RuleRepealed: "repealed"}[h.Kind]
		fmt.Fprintf(&b, "  %s %s %s\n", chicagoTime(h.At), verb, by)
	}
	return strings.TrimRight(b.String(), "\n")
}
