package main

// The play commands of Exoptosis (RULINGS X1-X11): duels, battles, the
// moves of a match, and what a player needs to see to make them (the match
// with their legal moves in words, and the replay).

import (
	"encoding/json"
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/client"
	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

// exoptosisCommands are the play commands of duels, battles and matches.
func exoptosisCommands() map[string]playCmd {
	return map[string]playCmd{
		"duel": {
			synopsis: "duel PLAYER... | duel accept [MATCH] | duel decline [MATCH]\n\n" +
				"duel PLAYER... asks the players to an Exoptosis duel with you; it starts\n" +
				"when every one of them accepts. accept and decline answer a duel you are\n" +
				"invited to (without MATCH: the only one waiting for you); a decline cancels\n" +
				"it, and the requester declining withdraws it.",
			needGame: true, needActor: true,
			setup: noFlags(nil, func(p *player, pos []string) error {
				if len(pos) == 0 {
					return usagef("expected the players to duel, e.g. duel Bob Cy, or duel accept|decline [MATCH]")
				}
				if pos[0] == "accept" || pos[0] == "decline" {
					return p.answerDuel(pos[0] == "accept", pos[1:])
				}
				invitees := make([]string, len(pos))
				for i, s := range pos {
					id, err := p.resolvePlayer("duel", s)
					if err != nil {
						return err
					}
					invitees[i] = id
				}
				return show(p, func(v gildedhall.MatchView) string {
					name := p.nameOf()
					return fmt.Sprintf("%s asked %s to duel %s; it starts when all accept (croupier play duel accept %s).",
						name(p.opts.as), game.NameList(name, v.WaitingFor), v.ID, v.ID)
				})(p.c.RequestDuel(p.ctx, p.idem(), p.opts.game, invitees))
			}),
		},
		"battle": {
			synopsis: "battle   (engage in this phase's battle: it starts at the phase's end; needs 4+ cards)",
			needGame: true, needActor: true,
			setup: noFlags(nArgs(0, ""), func(p *player, pos []string) error {
				return show(p, func(v gildedhall.BattleEngagement) string {
					return fmt.Sprintf("%s engaged in battle %s with a deck of %d cards; it starts at %s, the end of %s.",
						p.nameOf()(v.Player), v.Battle, v.DeckSize, stamp(v.StartsAt), v.Period)
				})(p.c.EngageBattle(p.ctx, p.idem(), p.opts.game))
			}),
		},
		"matches": {
			synopsis: "matches [--status S] [--kind duel|battle] [--player P]   (P \"me\" for yours)", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var f gildedhall.MatchFilter
				fs.StringVar(&f.Status, "status", "", "only matches with this `status`: requested, forming, playing, ended, cancelled")
				fs.StringVar(&f.Kind, "kind", "", "only duels or battles")
				fs.StringVar(&f.Player, "player", "", "only matches of this `player` (\"me\" for you)")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					if err := p.meOr(&f.Player); err != nil {
						return err
					}
					return show(p, func(v []gildedhall.MatchSummary) string {
						return matchesText(p.opts.game, v, p.nameOf()) + engagedText(p.roster(), p.nameOf())
					})(p.c.Matches(p.ctx, p.opts.game, f))
				}
			},
		},
		"match": {
			synopsis: "match [MATCH]   (hands, pile, whose turn, pending choice, deadline, pool and your legal moves)",
			needGame: true,
			setup: noFlags(nil, func(p *player, pos []string) error {
				id, err := p.onlyMatchArg(pos)
				if err != nil {
					return err
				}
				return show(p, func(v gildedhall.MatchView) string { return matchText(v, p.lazyNameOf()) })(p.c.Match(p.ctx, p.opts.game, id))
			}),
		},
		"replay": {
			synopsis: "replay [MATCH]   (the match move by move)", needGame: true,
			setup: noFlags(nil, func(p *player, pos []string) error {
				id, err := p.onlyMatchArg(pos)
				if err != nil {
					return err
				}
				return show(p, func(r gildedhall.MatchReplay) string { return replayText(r, p.lazyNameOf()) })(p.c.Replay(p.ctx, p.opts.game, id))
			}),
		},
		"select": moveCmd("select [MATCH] CARD...   (your hand: 4 or more cards of your deck; quote each card or separate them with commas)",
			func(p *player, args []string) (client.MoveRequest, error) {
				cards, err := p.cardList(args)
				if err != nil {
					return client.MoveRequest{}, err
				}
				if len(cards) == 0 {
					return client.MoveRequest{}, usagef("expected the cards of your hand, e.g. select \"2 of Hearts\" \"3 of Hearts\" \"4 of Hearts\" \"5 of Hearts\"")
				}
				return client.MoveRequest{Kind: exoptosis.MoveSelect, Cards: cards}, nil
			}),
		"bet": moveCmd("bet [MATCH] raise N | match | decline | pass   (raise N: N is the new level, the total each must bet)",
			func(p *player, args []string) (client.MoveRequest, error) {
				if len(args) == 0 {
					return client.MoveRequest{}, usagef("expected raise N, match, decline or pass")
				}
				switch kind := strings.ToLower(args[0]); kind {
				case exoptosis.MoveRaise, exoptosis.MoveBet:
					if len(args) != 2 {
						return client.MoveRequest{}, usagef("expected the new level, e.g. bet raise 3")
					}
					n, err := strconv.Atoi(args[1])
					if err != nil || n < 1 {
						return client.MoveRequest{}, usagef("the level of a raise is a whole number of at least 1, not %q", args[1])
					}
					return client.MoveRequest{Kind: exoptosis.MoveRaise, Amount: n}, nil
				case exoptosis.MoveMatch, exoptosis.MoveDecline, exoptosis.MovePass:
					if len(args) != 1 {
						return client.MoveRequest{}, usagef("%s takes no amount", kind)
					}
					return client.MoveRequest{Kind: kind}, nil
				default:
					return client.MoveRequest{}, usagef("a bet is raise N, match, decline or pass, not %q", args[0])
				}
			}),
		"play": cardMoveCmd(exoptosis.MovePlay, "play [MATCH] CARD   (play a card of your hand on the pile)"),
		"add":  cardMoveCmd(exoptosis.MoveAdd, "add [MATCH] CARD   (add a card of your deck to your hand, when you cannot play)"),
		"give": cardMoveCmd(exoptosis.MoveGive, "give [MATCH] CARD   (give the player waiting for it a card of your hand)"),
		"giver": moveCmd("giver [MATCH] PLAYER   (when you can neither play nor add: who must give you a card)",
			func(p *player, args []string) (client.MoveRequest, error) {
				if len(args) != 1 {
					return client.MoveRequest{}, usagef("expected one player, e.g. giver discord:2")
				}
				return client.MoveRequest{Kind: exoptosis.MoveGiver, Target: args[0]}, nil
			}),
		"target": {
			synopsis: "target [MATCH] PLAYER... [--card C]   (an effect's targets: Ace one, King two, Queen one and --card)",
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				card := fs.String("card", "", "for a Queen: the `card` of the target's hand")
				return func(p *player, pos []string) error {
					id, rest, err := p.matchArg(pos)
					if err != nil {
						return err
					}
					if len(rest) < 1 || len(rest) > 2 {
						return usagef("expected one or two players, e.g. target discord:2")
					}
					mv := client.MoveRequest{Kind: exoptosis.MoveTarget, Targets: rest}
					if *card != "" {
						if mv.Card, err = p.cardName(*card); err != nil {
							return err
						}
					}
					return p.move(id, mv)
				}
			},
		},
		"forfeit": moveCmd("forfeit [MATCH]   (leave the match; your bet stays in the pool)",
			func(p *player, args []string) (client.MoveRequest, error) {
				return client.MoveRequest{Kind: exoptosis.MoveForfeit}, wantArgs(args, 0, "")
			}),
		"terminate": moveCmd("terminate [MATCH]   (consent to end the match without a winner; with everyone's consent bets are refunded)",
			func(p *player, args []string) (client.MoveRequest, error) {
				return client.MoveRequest{Kind: exoptosis.MoveTerminate}, wantArgs(args, 0, "")
			}),
	}
}

// moveCmd is a move command: [MATCH] then the move's own arguments.
func moveCmd(synopsis string, build func(p *player, args []string) (client.MoveRequest, error)) playCmd {
	return playCmd{
		synopsis: synopsis, needGame: true, needActor: true,
		setup: noFlags(nil, func(p *player, pos []string) error {
			id, rest, err := p.matchArg(pos)
			if err != nil {
				return err
			}
			mv, err := build(p, rest)
			if err != nil {
				return err
			}
			return p.move(id, mv)
		}),
	}
}

// cardMoveCmd is a move naming one card (play, add, give).
func cardMoveCmd(kind, synopsis string) playCmd {
	return moveCmd(synopsis, func(p *player, args []string) (client.MoveRequest, error) {
		if len(args) == 0 {
			return client.MoveRequest{}, usagef("expected the card, e.g. %s \"7 of Hearts\"", kind)
		}
		name, err := p.cardName(strings.Join(args, " "))
		return client.MoveRequest{Kind: kind, Card: name}, err
	})
}

func (p *player) move(id string, mv client.MoveRequest) error {
	return show(p, func(v gildedhall.MoveResult) string { return moveText(p.opts.as, mv, v, p.nameOf()) })(p.c.Move(p.ctx, p.idem(), p.opts.game, id, mv))
}

func (p *player) answerDuel(accept bool, pos []string) error {
	if len(pos) > 1 {
		return usagef("expected at most the duel's id, got %q", strings.Join(pos, " "))
	}
	// Without MATCH the server takes the only duel waiting for the
	// actor's answer, or says which there are (duel-accept's default).
	ref := gildedhall.MatchRef{}
	if len(pos) == 1 {
		ref.Match = pos[0]
	}
	command := "duel-decline"
	if accept {
		command = "duel-accept"
	}
	raw, rep, err := p.c.Command(p.ctx, p.idem(), p.opts.game, command, ref)
	var v gildedhall.MatchView
	if err == nil {
		if err = json.Unmarshal(raw, &v); err != nil {
			err = fmt.Errorf("decoding the duel: %w", err)
		}
	}
	return show(p, func(v gildedhall.MatchView) string {
		name := p.nameOf()
		switch v.Status {
		case gildedhall.MatchCancelled:
			return fmt.Sprintf("Duel %s is cancelled (%s by %s).", v.ID, game.Words(v.CancelReason), name(v.CancelledBy))
		case gildedhall.MatchPlaying:
			return fmt.Sprintf("%s accepted: duel %s has started between %s. Select your hands: croupier play select %s CARD...",
				name(p.opts.as), v.ID, game.NameList(name, v.Players), v.ID)
		}
		return fmt.Sprintf("%s accepted duel %s; it waits for %s.", name(p.opts.as), v.ID, game.NameList(name, v.WaitingFor))
	})(v, rep, err)
}

func listed(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return " (" + strings.Join(ids, ", ") + ")"
}

// matchID recognises the ids the server gives matches: d + 12 hex digits
// for a duel, b-<phase> for a battle. Anything else is a move's argument.
var matchID = regexp.MustCompile(`^(d[0-9a-f]{12}|b-[A-Za-z0-9-]+)$`)

// matchArg takes the match from the arguments when the first one is a match
// id; otherwise it is the actor's only running match (or, for a viewer
// without one, the only running match of the game).
func (p *player) matchArg(pos []string) (string, []string, error) {
	if len(pos) > 0 && matchID.MatchString(pos[0]) {
		return pos[0], pos[1:], nil
	}
	list, _, err := p.c.Matches(p.ctx, p.opts.game, gildedhall.MatchFilter{Player: p.opts.as, Status: gildedhall.MatchPlaying})
	if err != nil {
		return "", nil, err
	}
	var ids []string
	for _, m := range list {
		ids = append(ids, m.ID)
	}
	if len(ids) != 1 {
		whose := "you have"
		if p.opts.as == "" {
			whose = "the game has"
		}
		return "", nil, usagef("name the match: %s %d running matches%s (croupier play matches lists them)", whose, len(ids), listed(ids))
	}
	return ids[0], pos, nil
}

// onlyMatchArg is matchArg for a command that takes nothing after the match.
func (p *player) onlyMatchArg(pos []string) (string, error) {
	id, rest, err := p.matchArg(pos)
	if err != nil {
		return "", err
	}
	return id, wantArgs(rest, 0, "")
}

// cardList reads a hand from arguments: each argument one card when every
// one has a space ("7 of Hearts" quoted), else the words joined and split
// at commas (7 of Hearts, 8 of Hearts).
func (p *player) cardList(args []string) ([]string, error) {
	parts := args
	if slices.ContainsFunc(args, func(a string) bool { return !strings.Contains(strings.TrimSpace(a), " ") || strings.Contains(a, ",") }) {
		parts = strings.Split(strings.Join(args, " "), ",")
	}
	table, err := p.cardTable()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range parts {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		name, err := spellCard(table, s)
		if err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, nil
}

// cardName spells one card the way the game's card table does, so "7 of
// hearts" works.
func (p *player) cardName(s string) (string, error) {
	table, err := p.cardTable()
	if err != nil {
		return "", err
	}
	return spellCard(table, s)
}

// cardTable maps the lower-cased names of the game's cards to their names.
func (p *player) cardTable() (map[string]string, error) {
	rs, _, err := p.c.Ruleset(p.ctx, p.opts.game)
	if err != nil {
		return nil, err
	}
	table := map[string]string{}
	for _, c := range rs.Cards {
		table[strings.ToLower(c.Name)] = c.Name
	}
	return table, nil
}

func spellCard(table map[string]string, s string) (string, error) {
	s = strings.Join(strings.Fields(s), " ")
	if name, ok := table[strings.ToLower(s)]; ok {
		return name, nil
	}
	return "", usagef("%q is not a card of this game's card table (e.g. \"7 of Hearts\", \"King of Spades\", \"Red Joker\")", s)
}

// engagedText is who engaged in this phase's battle, which has no match
// yet: it forms when the phase ends ("" when no one has).
func engagedText(ps []game.PlayerView, name func(string) string) string {
	var ids []string
	battle := ""
	for _, v := range gildedhall.ViewsOf(ps) {
		if v.Battle != "" {
			ids, battle = append(ids, v.ID), v.Battle
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf("\nEngaged in %s, which forms when this phase ends: %s (%d).", battle, game.NameList(name, ids), len(ids))
}

// matchesText is one line per match.
func matchesText(g string, ms []gildedhall.MatchSummary, name func(string) string) string {
	if len(ms) == 0 {
		return "No matches in " + g + "."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s:", plural(len(ms), "match", "matches"), g)
	for _, m := range ms {
		state := m.Status
		if m.Phase != "" && m.Status == gildedhall.MatchPlaying {
			state += "/" + m.Phase
		}
		who := game.NameList(name, m.Players)
		if m.Entrants > 0 {
			who = fmt.Sprintf("%d entrants", m.Entrants)
		}
		fmt.Fprintf(&b, "\n  %s  %s  %s  %s", m.ID, m.Kind, state, who)
		if m.Status == gildedhall.MatchPlaying && len(m.Movers) > 0 {
			fmt.Fprintf(&b, "; waits for %s", game.NameList(name, m.Movers))
		}
		if m.Deadline != nil {
			fmt.Fprintf(&b, " until %s", stamp(*m.Deadline))
		}
		if m.Status == gildedhall.MatchForming && m.StartsAt != nil {
			fmt.Fprintf(&b, "; starts %s", stamp(*m.StartsAt))
		}
		if m.Pool > 0 {
			fmt.Fprintf(&b, "; pool %d", m.Pool)
		}
		if m.Winner != "" {
			fmt.Fprintf(&b, "; won by %s", name(m.Winner))
		}
	}
	return b.String()
}

// matchText is the whole match as its viewer sees it.
func matchText(v gildedhall.MatchView, name func(string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s", titleKind(v.Kind), v.ID, v.Status)
	if v.Phase != "" {
		fmt.Fprintf(&b, ", phase %s", v.Phase)
	}
	if v.Entrants > 0 {
		// A large battle: its entrants are counted, the seated named.
		fmt.Fprintf(&b, ". %d entrants, %d still to select", v.Entrants, v.Waiting)
		if len(v.Players) > 0 {
			fmt.Fprintf(&b, "; seated: %s", game.NameList(name, v.Players))
		}
		b.WriteString(".")
	} else {
		fmt.Fprintf(&b, ". Players: %s.", game.NameList(name, v.Players))
	}
	switch v.Status {
	case gildedhall.MatchRequested:
		fmt.Fprintf(&b, "\nWaiting for %s to accept.", game.NameList(name, v.WaitingFor))
	case gildedhall.MatchForming:
		if v.StartsAt != nil {
			fmt.Fprintf(&b, "\nStarts at %s.", stamp(*v.StartsAt))
		}
	case gildedhall.MatchCancelled:
		fmt.Fprintf(&b, "\nCancelled: %s (by %s).", game.Words(v.CancelReason), name(v.CancelledBy))
	}
	if len(v.Participants) > 0 {
		b.WriteString("\nHands:")
		for _, pt := range v.Participants {
			fmt.Fprintf(&b, "\n  %s", name(pt.ID))
			var notes []string
			if pt.Status != exoptosis.StatusActive {
				notes = append(notes, pt.Status)
			}
			if pt.Bet > 0 {
				notes = append(notes, fmt.Sprintf("bet %d", pt.Bet))
			}
			if pt.Consented {
				notes = append(notes, "consents to terminate")
			}
			notes = append(notes, fmt.Sprintf("deck %d", pt.DeckSize))
			fmt.Fprintf(&b, " (%s): ", strings.Join(notes, ", "))
			switch {
			case pt.Hidden && pt.Selected:
				b.WriteString("selected, hidden until every hand is in")
			case pt.Hidden:
				b.WriteString("not selected yet")
			case len(pt.Hand) == 0 && v.Phase == string(exoptosis.PhaseSelection):
				b.WriteString("not selected yet")
			case len(pt.Hand) == 0:
				b.WriteString("no cards")
			default:
				fmt.Fprintf(&b, "%s [%d]", strings.Join(pt.Hand, ", "), len(pt.Hand))
			}
		}
	}
	if len(v.Pile) > 0 {
		fmt.Fprintf(&b, "\nPile (%d): top %s", len(v.Pile), v.Top)
		if v.Constraint != "" {
			fmt.Fprintf(&b, "; constraint: %s", v.Constraint)
		}
	}
	if v.Betting != nil && (v.Pool > 0 || v.Phase == string(exoptosis.PhaseBetting)) {
		fmt.Fprintf(&b, "\nPool: %d Chips; level %d", v.Pool, v.Betting.Level)
		if v.Betting.Raiser != "" {
			fmt.Fprintf(&b, " (open raise by %s)", name(v.Betting.Raiser))
		}
		if v.Betting.Final {
			b.WriteString(" (final)")
		}
	}
	if v.Turn != "" {
		fmt.Fprintf(&b, "\nTurn: %s", name(v.Turn))
		if v.TurnStart != nil {
			fmt.Fprintf(&b, " since %s", stamp(*v.TurnStart))
		}
	}
	if v.Pending != nil {
		fmt.Fprintf(&b, "\nPending: %s", pendingText(v.Pending, name))
	}
	if len(v.Draws) > 0 {
		var ds []string
		for _, d := range v.Draws {
			ds = append(ds, fmt.Sprintf("%s draws %d", name(d.Participant), d.Count))
		}
		fmt.Fprintf(&b, "\nOwed draws: %s", strings.Join(ds, "; "))
	}
	if v.Status == gildedhall.MatchPlaying && len(v.Movers) > 0 {
		fmt.Fprintf(&b, "\nWaiting for: %s", game.NameList(name, v.Movers))
	}
	if v.Deadline != nil {
		fmt.Fprintf(&b, "\nDeadline: %s", stamp(*v.Deadline))
		if v.Overdue {
			b.WriteString(" (passed: the scheduler acts next)")
		}
	}
	if v.Status == gildedhall.MatchEnded {
		b.WriteString("\n" + endText(v, name))
	}
	if v.Viewer != "" && v.Status == gildedhall.MatchPlaying {
		if len(v.LegalMoves) == 0 {
			fmt.Fprintf(&b, "\n%s has no moves in this match.", name(v.Viewer))
		} else {
			fmt.Fprintf(&b, "\nYour legal moves (%s):", name(v.Viewer))
			for _, l := range legalText(v.LegalMoves, name) {
				b.WriteString("\n  " + l)
			}
		}
	}
	return b.String()
}

func titleKind(k string) string {
	if k == gildedhall.MatchBattle {
		return "Battle"
	}
	return "Duel"
}

func endText(v gildedhall.MatchView, name func(string) string) string {
	s := "Over: "
	if v.Winner != "" {
		s += fmt.Sprintf("%s won (%s) a pool of %s", name(v.Winner), game.Words(v.EndReason), plural(v.Pool, "Chip", "Chips"))
	} else {
		s += fmt.Sprintf("no winner (%s); bets refunded", game.Words(v.EndReason))
	}
	if v.Reward != nil {
		s += "; battle reward: " + rewardText(v.Reward)
	}
	return s + "."
}

func rewardText(r *gildedhall.BattleReward) string {
	switch r.Kind {
	case "cards":
		var names []string
		for _, c := range r.Cards {
			names = append(names, c.Name)
		}
		return strings.Join(names, ", ")
	case "vertebrae":
		return plural(r.Vertebrae, "Vertebra", "Vertebrae")
	}
	return plural(r.Chips, "Chip", "Chips")
}

func pendingText(pd *exoptosis.Pending, name func(string) string) string {
	var s string
	owner := name(pd.Owner)
	switch pd.Kind {
	case exoptosis.ChoiceAce:
		s = owner + " chooses who draws 2 (Ace)"
	case exoptosis.ChoiceKing:
		s = owner + " chooses two players who draw 1 each (King)"
	case exoptosis.ChoiceQueen:
		s = owner + " chooses a player and a card of their hand (Queen)"
	case exoptosis.ChoiceGiver:
		s = owner + " chooses who gives them a card"
	case exoptosis.ChoiceGive:
		s = owner + " gives " + name(pd.Receiver) + " a card"
	default:
		s = owner + " " + pd.Kind
	}
	return s + " by " + stamp(pd.Deadline)
}

// legalText says the legal moves in words, one line per kind, with the
// command that makes each.
func legalText(moves []exoptosis.Move, name func(string) string) []string {
	// What to type names a player by name too (the server resolves it).
	arg := func(id string) string {
		n := name(id)
		if strings.ContainsAny(n, " \"'") {
			return strconv.Quote(n)
		}
		return n
	}
	var out, plays, adds, gives, raises []string
	for _, m := range moves {
		switch m.Kind {
		case exoptosis.MoveSelect:
			out = append(out, fmt.Sprintf("select 4 or more of: %s   (select CARD...)", strings.Join(m.Cards, ", ")))
		case exoptosis.MovePlay:
			plays = append(plays, m.Card)
		case exoptosis.MoveAdd:
			adds = append(adds, m.Card)
		case exoptosis.MoveGive:
			gives = append(gives, m.Card)
		case exoptosis.MoveRaise:
			raises = append(raises, strconv.Itoa(m.Amount))
		case exoptosis.MoveMatch:
			out = append(out, "match the open bet   (bet match)")
		case exoptosis.MoveDecline:
			out = append(out, "decline the open bet   (bet decline)")
		case exoptosis.MovePass:
			out = append(out, "pass, staying at this level   (bet pass)")
		case exoptosis.MoveGiver:
			out = append(out, fmt.Sprintf("ask %s to give you a card   (giver %s)", name(m.Target), arg(m.Target)))
		case exoptosis.MoveTarget:
			t := game.NameList(name, m.Targets)
			args := make([]string, len(m.Targets))
			for i, id := range m.Targets {
				args[i] = arg(id)
			}
			if m.Card != "" {
				out = append(out, fmt.Sprintf("target %s's %s   (target %s --card %q)", t, m.Card, strings.Join(args, " "), m.Card))
			} else {
				out = append(out, fmt.Sprintf("target %s   (target %s)", t, strings.Join(args, " ")))
			}
		case exoptosis.MoveForfeit:
			out = append(out, "forfeit   (forfeit)")
		case exoptosis.MoveTerminate:
			out = append(out, "consent to end without a winner   (terminate)")
		}
	}
	var head []string
	if len(plays) > 0 {
		head = append(head, fmt.Sprintf("play %s   (play CARD)", strings.Join(plays, " or ")))
	}
	if len(adds) > 0 {
		head = append(head, fmt.Sprintf("add from your deck %s   (add CARD)", strings.Join(adds, " or ")))
	}
	if len(gives) > 0 {
		head = append(head, fmt.Sprintf("give %s   (give CARD)", strings.Join(gives, " or ")))
	}
	if len(raises) > 0 {
		r := raises[0]
		if len(raises) > 1 {
			r += "-" + raises[len(raises)-1]
		}
		head = append(head, fmt.Sprintf("raise to %s   (bet raise N)", r))
	}
	return append(head, out...)
}

// moveText is what a move did, and what the match waits for now.
func moveText(actor string, mv client.MoveRequest, res gildedhall.MoveResult, name func(string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s in %s.", name(actor), mv.Kind, res.Match.ID)
	for _, ev := range res.Events {
		if s := matchEventText(ev, name); s != "" {
			b.WriteString("\n  " + s)
		}
	}
	v := res.Match
	switch {
	case v.Status == gildedhall.MatchEnded:
		b.WriteString("\n" + endText(v, name))
	case len(v.Movers) > 0:
		fmt.Fprintf(&b, "\nNow waiting for %s", game.NameList(name, v.Movers))
		if v.Deadline != nil {
			fmt.Fprintf(&b, " until %s", stamp(*v.Deadline))
		}
		b.WriteString(".")
	}
	return b.String()
}

// matchEventText says one engine event in words.
func matchEventText(ev exoptosis.Event, name func(string) string) string {
	who, other := name(ev.Participant), name(ev.Other)
	switch ev.Kind {
	case exoptosis.EvSelected:
		return who + " selected a hand"
	case exoptosis.EvHandsRevealed:
		return "every hand is in: hands revealed"
	case exoptosis.EvTurnOrder:
		return "turn order: " + game.NameList(name, ev.Cards)
	case exoptosis.EvRaised:
		return fmt.Sprintf("%s raised to %d (paid %d)", who, ev.Level, ev.Chips)
	case exoptosis.EvMatched:
		return fmt.Sprintf("%s matched %d (paid %d)", who, ev.Level, ev.Chips)
	case exoptosis.EvDeclined:
		return who + " declined"
	case exoptosis.EvPassed:
		return who + " passed"
	case exoptosis.EvRefunded:
		return fmt.Sprintf("%s was refunded %s", who, plural(ev.Chips, "Chip", "Chips"))
	case exoptosis.EvBettingClosed:
		return "betting closed"
	case exoptosis.EvPlayStarted:
		return "play started"
	case exoptosis.EvTurnStarted:
		return who + "'s turn"
	case exoptosis.EvTurnSkipped:
		return who + "'s turn was skipped (no move in time)"
	case exoptosis.EvPlayed:
		return who + " played " + ev.Card
	case exoptosis.EvAdded:
		return who + " added " + ev.Card + " from their deck"
	case exoptosis.EvChoicePending:
		return who + " must choose (" + game.Words(ev.Reason) + ")"
	case exoptosis.EvChosenAtRandom:
		return "chosen at random for " + who + " (no answer in time)"
	case exoptosis.EvGiverChosen:
		return who + " asked " + other + " for a card"
	case exoptosis.EvGiven:
		return who + " gave " + other + " " + ev.Card
	case exoptosis.EvDrew:
		return who + " drew " + ev.Card
	case exoptosis.EvCardLeft:
		return ev.Card + " left " + who + "'s hand"
	case exoptosis.EvEffect:
		return ev.Card + " took effect on " + game.NameList(name, ev.Cards)
	case exoptosis.EvForfeited:
		return who + " forfeited" + because(ev.Reason)
	case exoptosis.EvConsented:
		return who + " consents to end without a winner"
	case exoptosis.EvEnded:
		if ev.Participant == "" {
			return "the match ended without a winner" + because(ev.Reason)
		}
		return who + " won the match" + because(ev.Reason)
	}
	return strings.TrimSpace(strings.Join([]string{ev.Kind, who, other, ev.Card}, " "))
}

// replayText lists the match move by move.
func replayText(r gildedhall.MatchReplay, name func(string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Replay of %s %s (%s", strings.ToLower(titleKind(r.Kind)), r.ID, r.Status)
	if r.Winner != "" {
		fmt.Fprintf(&b, "; winner %s, %s", name(r.Winner), game.Words(r.EndReason))
	} else if r.EndReason != "" {
		fmt.Fprintf(&b, "; %s", game.Words(r.EndReason))
	}
	b.WriteString(")")
	if r.StartedAt != nil {
		fmt.Fprintf(&b, ", started %s", stamp(*r.StartedAt))
	}
	b.WriteString(".\nDecks:")
	for _, d := range r.Decks {
		fmt.Fprintf(&b, "\n  %s: %s", name(d.ID), strings.Join(d.Deck, ", "))
	}
	if len(r.Log) == 0 {
		b.WriteString("\nNo moves yet.")
	}
	for i, e := range r.Log {
		fmt.Fprintf(&b, "\n%3d. %s  ", i+1, e.At.UTC().Format(time.DateTime))
		switch {
		case e.Timeout:
			b.WriteString("timeout: the deadline passed, the match acted for the absent player")
		case e.Move != nil:
			b.WriteString(loggedMove(*e.Move, name))
		}
	}
	return b.String()
}

func loggedMove(m exoptosis.Move, name func(string) string) string {
	s := name(m.Actor) + " " + m.Kind
	switch {
	case m.Kind == exoptosis.MoveSelect && len(m.Cards) == 0:
		s += " (hidden until every hand is in)"
	case len(m.Cards) > 0:
		s += " " + strings.Join(m.Cards, ", ")
	}
	if len(m.Targets) > 0 {
		s += " " + game.NameList(name, m.Targets)
	}
	if m.Target != "" {
		s += " " + name(m.Target)
	}
	if m.Card != "" {
		s += " " + m.Card
	}
	if m.Amount > 0 {
		s += " " + strconv.Itoa(m.Amount)
	}
	return s
}
