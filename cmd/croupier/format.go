package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"croupier/internal/client"
	"croupier/internal/fair"
	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// The text forms of the API's answers: one sentence a player can read, or a
// small table. --json prints the server's own JSON instead.

// stamp formats a moment the way the whole CLI does: RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// stampIn formats moments as the texts of a game keeping zone do: in a
// game with a zone of its own (GameView.Zone: a turns game's
// America/Chicago, RULINGS T3) "Mon 9 Mar 22:00 CDT", as its commands'
// answers do; otherwise stamp.
func stampIn(zone string) func(time.Time) string {
	if zone == "" {
		return stamp
	}
	loc := calendar.Location(zone)
	return func(t time.Time) string { return calendar.When(loc, t) }
}

// who is the player as people read them: their name, or the bare id when
// they have no other (--json gives the ids, for machines).
func who(id, name string) string {
	if name == "" {
		return id
	}
	return name
}

func plural(n int, one, many string) string { return game.Count(n, one, many) }

// holdings is what the game's ruleset shows of v, then their standing:
// "Vertebrae 0, Chips 0, deck 0 cards; active; not yet reputable." (Gilded
// Hall), "Holds 9⚡; active; reputable." (the Obelisk), "0 points; active;
// not in the Judicial Pool." (turns, where neither reputation nor a battle
// exists: RULINGS U1, U2).
func holdings(v game.PlayerView) string {
	if st, ok := turns.StandingOf(v); ok {
		return turnsStanding(v, st)
	}
	s := ""
	gh, isGH := gildedhall.HoldingsOf(v)
	if isGH {
		inv := gh.Inventory
		s = fmt.Sprintf("Vertebrae %d, Chips %d, deck %s", inv.Vertebrae, inv.Chips, plural(gh.DeckSize, "card", "cards"))
		if len(inv.Packs) > 0 {
			s += ", " + plural(len(inv.Packs), "pack", "packs")
		}
	}
	if o := obeliskState(v); o != "" {
		s = o // an obelisk player holds Ritual Components, not cards
	}
	if !v.Member {
		return strings.TrimPrefix(s+"; not a member.", "; ")
	}
	if s != "" {
		s += "; "
	}
	if v.Active {
		s += "active"
	} else {
		s += "inactive"
	}
	if v.Reputable {
		s += "; reputable"
	} else {
		s += "; not yet reputable"
	}
	if gh.Battle != "" {
		s += "; engaged in " + gh.Battle + " (it starts when this phase ends)"
	}
	return s + "."
}

// turnsStanding is a turns player's points and part in the game.
func turnsStanding(v game.PlayerView, st turns.Standing) string {
	s := plural(st.Points, "point", "points")
	if !v.Member {
		return s + "; not a member."
	}
	if v.Active {
		s += "; active"
	} else {
		s += "; inactive"
	}
	if st.InPool {
		s += "; in the Judicial Pool"
	} else {
		s += "; not in the Judicial Pool"
	}
	if len(st.Judging) > 0 {
		ns := make([]string, len(st.Judging))
		for i, n := range st.Judging {
			ns[i] = strconv.Itoa(n)
		}
		s += "; Judge of case " + strings.Join(ns, ", ")
	}
	return s + "."
}

// periodText is the current period of v as people read it: the ruleset's
// name for it, or "period 2026-W10-I".
func periodText(v game.PlayerView) string {
	if v.PeriodName != "" {
		return v.PeriodName
	}
	return "period " + v.Period
}

func statusText(v game.PlayerView) string {
	at := stampIn(v.Zone)
	if !v.Member {
		s := fmt.Sprintf("%s is not a player of %s", who(v.ID, v.Name), v.Game)
		if v.LeftAt != nil {
			s += "; left at " + at(*v.LeftAt)
		}
		if v.RejoinPossibleAt != nil {
			s += "; may rejoin from " + at(*v.RejoinPossibleAt)
		} else {
			s += "; may rejoin now"
		}
		return s + "."
	}
	return fmt.Sprintf("%s in %s (%s): %s Joined %s.", who(v.ID, v.Name), v.Game, periodText(v), holdings(v), at(v.JoinedAt))
}

func playersText(g string, ps []game.PlayerView) string {
	if len(ps) == 0 {
		return fmt.Sprintf("%s has no players yet.", g)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s has %s:\n", g, plural(len(ps), "player", "players"))
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	// The columns are the game's ruleset's: Gilded Hall's money and decks,
	// the Obelisk's components, the turns game's points.
	head, row := "PLAYER\tVERTEBRAE\tCHIPS\tDECK\tSTANDING", func(p game.PlayerView, standing string) string {
		h := gildedhall.ViewOf(p)
		return fmt.Sprintf("%s\t%d\t%d\t%d\t%s", who(p.ID, p.Name), h.Inventory.Vertebrae, h.Inventory.Chips, h.DeckSize, standing)
	}
	if _, ok := obelisk.StateOf(ps[0]); ok {
		head, row = "PLAYER\tHOLDS\tSTANDING", func(p game.PlayerView, standing string) string {
			s, _ := obelisk.StateOf(p)
			return fmt.Sprintf("%s\t%s\t%s", who(p.ID, p.Name), s.Components.String(), standing)
		}
	}
	if _, ok := turns.StandingOf(ps[0]); ok {
		head, row = "PLAYER\tPOINTS\tSTANDING", func(p game.PlayerView, _ string) string {
			s, _ := turns.StandingOf(p)
			standing := "inactive"
			if p.Active {
				standing = "active"
			}
			if s.InPool {
				standing += ", in the Judicial Pool"
			}
			return fmt.Sprintf("%s\t%d\t%s", who(p.ID, p.Name), s.Points, standing)
		}
	}
	fmt.Fprintln(tw, head)
	for _, p := range ps {
		standing := "inactive"
		if p.Active {
			standing = "active"
		}
		if p.Reputable {
			standing += ", reputable"
		}
		fmt.Fprintln(tw, row(p, standing))
	}
	tw.Flush()
	return strings.TrimRight(b.String(), "\n")
}

func rollText(actor string, v game.RollResult) string {
	parts := make([]string, len(v.Rolls))
	for i, r := range v.Rolls {
		parts[i] = strconv.Itoa(r)
	}
	s := fmt.Sprintf("%s rolled %s: ", actor, v.Dice)
	switch len(v.Rolls) {
	case 0:
		s += "no dice, total 0"
	case 1:
		s += parts[0]
	default:
		s += strings.Join(parts, " + ") + " = " + strconv.Itoa(v.Total)
	}
	s += because(v.Reason)
	return s + fmt.Sprintf(". Period %s; verifiable once its seed is revealed.", v.PeriodLabel())
}

// gameText is the game's view, its admins named for actor ("you").
func gameText(v game.GameView, name func(string) string, actor string) string {
	s := fmt.Sprintf("game %s", v.ID)
	if v.Name != "" && v.Name != v.ID {
		s += fmt.Sprintf(" (%q)", v.Name)
	}
	s += fmt.Sprintf(", ruleset %s; %s. ", v.Ruleset, adminsText(v.Admins, name, actor))
	if v.Period.Name != "" { // the ruleset names its periods (turns): its id is a calendar key
		s += "It is " + v.Period.Name
	} else {
		s += fmt.Sprintf("Period %s (%s) runs until %s", v.Period.ID, v.Period.Kind, stamp(v.Period.End))
	}
	if v.Season != "" { // a ruleset without seasons (turns) has none
		s += "; season " + v.Season
	}
	s += "."
	if v.Ended {
		s += " The game has ended"
		if v.Winner != "" {
			s += "; won by " + v.Winner
		}
		s += "."
	}
	return s
}

func seedsText(g string, seeds []game.SeedView, at func(time.Time) string) string {
	if len(seeds) == 0 {
		return fmt.Sprintf("%s has no seed commitments yet.", g)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Seeds of %s (sha256 commitment published at the period's start, seed revealed at its end):\n", g)
	for _, s := range seeds {
		fmt.Fprintf(&b, "%s\n  committed %s  sha256 %s\n", game.Capitalize(calendar.PeriodWords(s.Period)), at(s.CommittedAt), s.Commitment)
		if s.Seed != "" && s.RevealedAt != nil {
			fmt.Fprintf(&b, "  revealed  %s  seed   %s\n", at(*s.RevealedAt), s.Seed)
		} else {
			b.WriteString("  not revealed yet (secret until the period ends)\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// logText is a log page: each entry's time, command and actor, then its
// events as the components narrate them (the sentences the tracker and the
// announcements show), then its draws.
func logText(g string, entries []game.Entry, next string, say func(game.Event) string, name func(string) string, at func(time.Time) string) string {
	var b strings.Builder
	if len(entries) == 0 {
		fmt.Fprintf(&b, "The log of %s is empty.", g)
	}
	for i, e := range entries {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s  %-10s %s", at(e.At), e.CommandWords(), name(e.Actor))
		for _, ev := range e.Events {
			b.WriteString("\n    " + say(ev))
		}
		if len(e.Draws) > 0 {
			ds := make([]string, len(e.Draws))
			for j, d := range e.Draws {
				ds[j] = fmt.Sprintf("#%d %s=%d", d.Index, d.Purpose, d.Value)
			}
			fmt.Fprintf(&b, "\n    draws (%s, command %s; raw values from 0): %s", game.PeriodWords(e.Draws[0].Period), e.CommandID, strings.Join(ds, ", "))
		}
	}
	if next != "" {
		fmt.Fprintf(&b, "\n(more: croupier play log --cursor %s, or --all)", next)
	}
	return b.String()
}

// clockText is the clock's answer; zone is the game's (GameView.Zone) when
// one is given, whose time it says.
func clockText(v client.ClockResult, zone string) string {
	s := fmt.Sprintf("The server's clock is now %s (%s).", stamp(v.Now), v.Now.UTC().Weekday())
	if zone != "" {
		s = fmt.Sprintf("The server's clock is now %s.", stampIn(zone)(v.Now))
	}
	if len(v.Ran.Transitions) == 0 && len(v.Ran.Expired) == 0 && len(v.Ran.Done) == 0 {
		s += " No scheduled work fell due."
	}
	if len(v.Ran.Transitions) > 0 {
		ended := make([]string, len(v.Ran.Transitions))
		for i, t := range v.Ran.Transitions {
			ended[i] = periodWords(t)
		}
		s += " Ended: " + strings.Join(ended, ", ") + " (their seeds are now revealed)."
	}
	if len(v.Ran.Expired) > 0 {
		s += " Trades expired: " + strings.Join(v.Ran.Expired, ", ") + "."
	}
	for _, kind := range slices.Sorted(maps.Keys(v.Ran.Done)) {
		if kind == "turns" {
			moments := make([]string, len(v.Ran.Done[kind]))
			for i, d := range v.Ran.Done[kind] {
				moments[i] = turnsMomentWords(d)
			}
			s += " Turns: " + strings.Join(moments, ", ") + "."
			continue
		}
		s += fmt.Sprintf(" Timers (%s): %s.", kind, strings.Join(v.Ran.Done[kind], ", "))
	}
	for _, f := range v.Ran.Failed {
		s += "\nFailed (will be retried): " + f
	}
	return s
}

// reportText is the verdict of verify and audit: one summary line when all
// is well, else every bad seed and every mismatching draw, exactly.
func reportText(g string, r fair.Report) string {
	var b strings.Builder
	if r.OK() {
		fmt.Fprintf(&b, "verified %s of game %s: all match", plural(r.Checked, "draw", "draws"), g)
		if r.Pending > 0 {
			fmt.Fprintf(&b, " (%d pending until their seeds are revealed: %s)", r.Pending, strings.Join(pendingWords(r.PendingPeriods), ", "))
		} else {
			b.WriteString(" (0 pending)")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "game %s FAILS verification: %d of %d checked draws do not match", g, len(r.Mismatches), r.Checked)
	if len(r.BadSeeds) > 0 {
		fmt.Fprintf(&b, ", %s bad", plural(len(r.BadSeeds), "seed is", "seeds are"))
	}
	if r.Pending > 0 {
		fmt.Fprintf(&b, " (%d more pending)", r.Pending)
	}
	b.WriteString(":")
	for _, p := range r.BadSeeds {
		fmt.Fprintf(&b, "\n  seed of %s: the revealed seed does not match its published commitment", game.PeriodWords(p))
	}
	for _, m := range r.Mismatches {
		rec := m.Record
		fmt.Fprintf(&b, "\n  %s, command %s, index %d, purpose %s: ", game.PeriodWords(rec.Period), rec.Command, rec.Index, rec.Purpose)
		if m.Reason == fair.ReasonValueDiffers {
			fmt.Fprintf(&b, "logged %d, recomputed %d", rec.Value, m.Want)
		} else {
			fmt.Fprintf(&b, "logged %d, cannot recompute: %s", rec.Value, m.Reason)
		}
	}
	return b.String()
}

// pendingWords are the periods whose seeds are not revealed, as people
// read them (calendar.PeriodWords: a turns period by its turn).
func pendingWords(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = calendar.PeriodWords(id)
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// periodWords says an ended period ("game/period") as people do: a turns
// game's by its turn, in the game's zone, never its key ("nomic: the first
// half of the turn beginning Mon 2 Mar 22:00 CST", calendar.PeriodWords);
// a phase (2026-W10-I) is its own name.
func periodWords(t string) string {
	g, id, ok := strings.Cut(t, "/")
	if w := calendar.PeriodWords(id); ok && w != id {
		return g + ": " + w
	}
	return t
}

// turnsMomentWords says a turns timer the clock ran ("game/turn-begin
// 1-1") as what happened: "nomic: turn 1-1 began".
func turnsMomentWords(d string) string {
	g, rest, ok := strings.Cut(d, "/")
	kind, what, ok2 := strings.Cut(rest, " ")
	if !ok || !ok2 {
		return d
	}
	switch kind {
	case "turn-begin":
		return g + ": turn " + what + " began"
	case "turn-middle":
		return g + ": turn " + what + " reached its middle"
	case "turn-end":
		return g + ": turn " + what + " ended"
	case "judge-deadline":
		return g + ": case " + what + "'s Judge deadline passed"
	}
	return d
}

// adminsText names a game's admins as people read them: "you", a
// player's display name, and an admin who is no player (who has no name)
// as such, never by id.
func adminsText(ids []string, name func(string) string, actor string) string {
	var ws []string
	others := 0
	for _, id := range ids {
		switch n := name(id); {
		case id == actor:
			ws = append(ws, "you")
		case n != "" && n != id:
			ws = append(ws, n)
		default:
			others++
		}
	}
	switch {
	case len(ids) == 0:
		return "it has no admin"
	case len(ids) == 1 && others == 1:
		return "its admin is not a player"
	case others == 1:
		ws = append(ws, "an admin who is not a player")
	case others > 1:
		ws = append(ws, fmt.Sprintf("%d admins who are not players", others))
	}
	if len(ids) == 1 {
		return "its admin is " + ws[0]
	}
	return "its admins are " + game.AndList(ws)
}
