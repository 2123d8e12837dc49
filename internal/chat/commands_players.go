package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/nearest"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
)

// The player commands: membership, status and inventory (private views),
// the player list, dice, the game's description, and help.
func playerCommands() []Command {
	cmds := []Command{
		Command{Name: "help", Private: true, Description: "List the Croupier's commands", NoGame: true, Handler: help,
			Options: []Option{{Name: "command", Description: "A command to describe, e.g. trade"}}},
		Command{Name: "join", Runs: []string{"join"}, Description: "Join the game bound to this server",
			Options: []Option{{Name: "name", Description: "Your display name in the game (default: your name here)"}},
			Handler: join},
		Command{Name: "leave", Runs: []string{"leave"}, Private: true, Description: "Leave the game (your items are destroyed; asks to confirm)", Handler: leave},
		Command{Name: "leave confirm", Runs: []string{"leave"}, Description: "Leave the game for real", Hidden: true, Handler: leaveConfirm},
		Command{Name: "dismiss", Description: "Close a prompt without doing anything", Hidden: true, NoGame: true, Handler: dismiss},
		Command{Name: "status", Private: true, Past: true, Description: "Your status and balances (only you see it)",
			Options: []Option{{Name: "player", Description: "Another player to look at", Type: User}},
			Handler: status},
		Command{Name: "inventory", Private: true, Past: true, Description: "Your cards and packs, with their ids (only you see it)",
			Options: []Option{{Name: "player", Description: "Another player to look at", Type: User}},
			Handler: inventory},
		Command{Name: "players", Past: true, Description: "The game's current players", Handler: playersList},
		Command{Name: "roll", Runs: []string{"roll"}, Description: "Roll dice publicly and verifiably, e.g. 2d6",
			Options: []Option{
				{Name: "dice", Description: "NdK: N dice of K sides, e.g. 1d20", Required: true},
				{Name: "reason", Description: "Why (shown in the log)"},
			},
			Handler: roll},
		Command{Name: "game", Past: true, Description: "The game bound to this server: period, season, admins", Handler: gameInfo},
		Command{Name: "Player status", Private: true, Kind: UserMenu, Description: "A player's status (only you see it)", Handler: userStatus},
	}
	return cmds
}

// help lists the commands compactly, one line per top-level name with its
// subcommands ("/trade offer · accept · ..."), so the list stays inside a
// chat message however many commands the areas register; "help NAME" gives
// each subcommand's description. In a server bound to a game it lists only
// the commands of that game's ruleset (RULINGS R3); elsewhere it describes
// the commands every ruleset has and names the rest by ruleset.
func help(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	topic := strings.TrimPrefix(strings.TrimSpace(inv.Opt("command")), "/")
	cmds := Commands()
	id, bound, err := boundRuleset(ctx, s, inv)
	if err != nil {
		return nil, err
	}
	if bound {
		cmds = CommandsFor(s.Registry, id)
	}
	order, subs, menus := groupCommands(cmds)
	var ls []string
	if topic != "" {
		topic = strings.Join(strings.Fields(topic), " ")
		top, _, _ := strings.Cut(topic, " ")
		cs := slices.DeleteFunc(slices.Clone(subs[top]), func(c Command) bool { return topic != top && c.Name != topic })
		if len(cs) == 0 {
			var paths []string
			for _, t := range order {
				paths = append(paths, t)
				for _, c := range subs[t] {
					paths = append(paths, c.Name)
				}
			}
			return &Reply{Text: fmt.Sprintf("There is no command /%s%s; /help lists them.", topic, didYouMean(topic, slices.Compact(paths))), Ephemeral: true}, nil
		}
		for _, c := range cs {
			ls = append(ls, fmt.Sprintf("%s: %s%s", usage(c), c.Description, adminNote(c)))
			if len(cs) == 1 {
				for _, o := range c.Options {
					ls = append(ls, "• "+optionWords(o))
				}
			}
		}
		if len(cs) > 1 {
			ls = append(ls, fmt.Sprintf("/help command:%s describes one with its options.", cs[0].Name))
		}
		return &Reply{Title: "/" + topic, Text: lines(ls), Ephemeral: true}, nil
	}
	// Unbound, a name some ruleset lacks is listed under each ruleset that
	// has it: every ruleset's lines described would not fit one message.
	everywhere := func(c Command) bool { return true }
	if !bound {
		everywhere = func(c Command) bool {
			for _, id := range s.Registry.Rulesets() {
				if !c.InRuleset(s.Registry, id) {
					return false
				}
			}
			return true
		}
	}
	for _, top := range order {
		cs := subs[top]
		if !everywhere(cs[0]) {
			continue
		}
		if len(cs) == 1 && cs[0].Name == top {
			ls = append(ls, fmt.Sprintf("/%s: %s%s", top, cs[0].Description, adminNote(cs[0])))
			continue
		}
		names := make([]string, len(cs))
		for i, c := range cs {
			names[i] = strings.TrimPrefix(c.Name, top+" ")
		}
		ls = append(ls, fmt.Sprintf("/%s %s", top, strings.Join(names, " · ")))
	}
	if !bound {
		for _, id := range s.Registry.Rulesets() {
			var tops []string
			o, sb, _ := groupCommands(CommandsFor(s.Registry, id))
			for _, top := range o {
				if !everywhere(sb[top][0]) {
					tops = append(tops, "/"+top)
				}
			}
			if len(tops) > 0 {
				ls = append(ls, fmt.Sprintf("In %s games: %s", s.Registry.Title(id), strings.Join(tops, " · ")))
			}
		}
	}
	ls = append(ls, menus...)
	ls = append(ls, "/help command:NAME describes one command's subcommands.")
	return &Reply{Title: "Croupier commands", Text: lines(ls), Ephemeral: true}, nil
}

// groupCommands groups the visible slash commands of cmds by top-level
// name, in order, and lists the menu commands.
func groupCommands(cmds []Command) (order []string, subs map[string][]Command, menus []string) {
	subs = map[string][]Command{}
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		if c.Kind != Slash {
			menus = append(menus, fmt.Sprintf("%q (apps menu): %s", c.Name, c.Description))
			continue
		}
		top, _, _ := strings.Cut(c.Name, " ")
		if _, seen := subs[top]; !seen {
			order = append(order, top)
		}
		subs[top] = append(subs[top], c)
	}
	return order, subs, menus
}

// boundRuleset is the ruleset of the game bound to inv's space, if any.
func boundRuleset(ctx context.Context, s *game.Service, inv *Invocation) (string, bool, error) {
	g := inv.Game
	if g == "" && inv.Guild != "" {
		b, ok, err := s.BindingFor(ctx, inv.Platform, inv.Guild)
		if err != nil || !ok {
			return "", false, err
		}
		g = b.Game
	}
	if g == "" {
		return "", false, nil
	}
	v, err := s.Game(ctx, g)
	if err != nil {
		return "", false, err
	}
	return v.Ruleset, true, nil
}

// usage is how c is typed: "/turns vote proposal:… vote:for|against
// [note:…]", its optional options in brackets.
func usage(c Command) string {
	var b strings.Builder
	b.WriteString("/" + c.Name)
	for _, o := range c.Options {
		v := "…"
		if len(o.Choices) > 0 && len(o.Choices) <= 4 {
			var vs []string
			for _, ch := range o.Choices {
				vs = append(vs, ch.Value)
			}
			v = strings.Join(vs, "|")
		}
		if o.Required {
			fmt.Fprintf(&b, " %s:%s", o.Name, v)
		} else {
			fmt.Fprintf(&b, " [%s:%s]", o.Name, v)
		}
	}
	return b.String()
}

// optionWords says what option o is and takes.
func optionWords(o Option) string {
	ws := o.Name + ": " + o.Description
	var more []string
	switch {
	case len(o.Choices) > 0:
		var vs []string
		for _, ch := range o.Choices {
			vs = append(vs, ch.Value)
		}
		more = append(more, game.OrList(vs))
	case o.Type == User:
		more = append(more, "a player: a mention or a display name")
	case o.Type == Integer && (o.Min != nil || o.Max != nil):
		more = append(more, "a whole number "+game.Arg{Min: o.Min, Max: o.Max}.RangeWords())
	case o.Type == Integer:
		more = append(more, "a whole number")
	case o.Type == Boolean:
		more = append(more, "true or false")
	}
	if o.Complete != "" {
		more = append(more, "suggested as you type")
	}
	if o.Required {
		more = append(more, "required")
	}
	if len(more) > 0 {
		ws += " (" + strings.Join(more, "; ") + ")"
	}
	return ws
}

func adminNote(c Command) string {
	if c.Admin && !strings.Contains(c.Description, "admins") {
		return " (admins)"
	}
	return ""
}

func join(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	name := inv.Opt("name")
	if name == "" {
		name = clip(inv.UserName, 80)
	}
	p, err := decoded[*game.PlayerView](s.Join(ctx, req(inv), game.JoinGame{Name: name}))
	if err != nil {
		return nil, err
	}
	return &Reply{Text: fmt.Sprintf("%s (%s) joined the game %s. Welcome to the table!", displayName(*p), p.ID, p.Game)}, nil
}

func leave(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	p, err := s.Player(ctx, inv.Game, inv.User)
	if err != nil {
		return nil, err
	}
	if !p.Member {
		return nil, players.NotAPlayer()
	}
	return &Reply{
		Title:     "Leave the game?",
		Text:      leaveWarning(p) + " Are you sure?",
		Ephemeral: true,
		Buttons: []Button{
			{Label: "Leave the game", Style: StyleDanger, Action: Action{Command: "leave confirm"}},
			{Label: "Stay", Style: StyleSecondary, Action: Action{Command: "dismiss"}},
		},
	}, nil
}

func leaveConfirm(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	res, err := s.Leave(ctx, req(inv))
	if err != nil {
		return nil, err
	}
	return &Reply{Text: s.Says("leave", res.Body, nil)}, nil
}

func dismiss(context.Context, *game.Service, *Invocation) (*Reply, error) {
	return &Reply{Text: "Nothing was done.", Ephemeral: true}, nil
}

func displayName(p game.PlayerView) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

// who is the player a view command is about: the option, or the caller.
func who(inv *Invocation) string {
	if p := inv.Opt("player"); p != "" {
		return p
	}
	return inv.User
}

func status(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	p, err := s.Player(ctx, inv.Game, who(inv))
	if err != nil {
		return nil, err
	}
	return statusReply(p, inv.Platform), nil
}

func userStatus(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	if inv.TargetUser == "" {
		return nil, refusef("invalid_option", "Use this command on a user.")
	}
	p, err := s.Player(ctx, inv.Game, inv.TargetUser)
	if err != nil {
		return nil, err
	}
	return statusReply(p, inv.Platform), nil
}

func statusReply(p game.PlayerView, platform string) *Reply {
	// The title names the player; the identity of a member of this
	// platform (a mention on Discord and Slack, which render none in a
	// title) opens the text. A member of another platform has no mention
	// here: their name opens it.
	r := &Reply{Title: displayName(p), Ephemeral: true}
	who := p.ID
	if !strings.HasPrefix(p.ID, platform+":") {
		who = displayName(p)
	}
	if !p.Member {
		r.Text = who + " is not a player any more."
		if p.RejoinPossibleAt != nil {
			r.Text += " May rejoin from " + zoned(calendar.Location(p.Zone), func(t time.Time) string { return t.UTC().Format(time.RFC1123) })(*p.RejoinPossibleAt) + "."
		}
		return r
	}
	r.Fields = holdingFields(p)
	r.Text = fmt.Sprintf("%s, playing since %s; %s.", who, p.JoinedAt.In(calendar.Location(p.Zone)).Format("2 Jan 2006"), periodWords(p))
	return r
}

func inventory(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	v, err := s.Player(ctx, inv.Game, who(inv))
	if err != nil {
		return nil, err
	}
	h, ok := gildedhall.HoldingsOf(v)
	if !ok {
		if st, ok := obelisk.StateOf(v); ok {
			return &Reply{Title: fmt.Sprintf("Inventory of %s: %s", displayName(v), st.Components.String()),
				Text: "An Obelisk game's items are its Ritual Components: no cards, no packs.", Ephemeral: true}, nil
		}
		return nil, refusef("not_in_ruleset", "This game has no cards or packs; /status shows what %s has.", displayName(v))
	}
	p := gildedhall.PlayerView{PlayerView: v, PlayerHoldings: h}
	var ls []string
	for _, e := range p.Deck {
		ids := make([]string, len(e.Copies))
		for i, c := range e.Copies {
			ids[i] = c.ID
			if c.Holo {
				ids[i] += " ✨"
			}
		}
		ls = append(ls, fmt.Sprintf("%s ×%d: %s", e.Card, e.Count, strings.Join(ids, ", ")))
	}
	for _, pk := range p.Packs {
		ls = append(ls, fmt.Sprintf("%s ×%d (unopened): %s", pk.Name, pk.Count, strings.Join(pk.IDs, ", ")))
	}
	if len(ls) == 0 {
		ls = []string{"No cards and no packs."}
	}
	return &Reply{
		Title:     fmt.Sprintf("Inventory of %s: %s, %s", displayName(v), plural(p.Inventory.Vertebrae, "Vertebra", "Vertebrae"), plural(p.Inventory.Chips, "Chip", "Chips")),
		Text:      lines(ls),
		Ephemeral: true,
	}, nil
}

// chatPlayers is how many players one chat reply lists: a message holds a
// few thousand characters, and a game may have thousands of players.
const chatPlayers = 30

func playersList(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	ps, next, err := s.PlayersPage(ctx, inv.Game, game.PageRequest{Limit: chatPlayers})
	if err != nil {
		return nil, err
	}
	ls := make([]string, len(ps))
	for i, p := range ps {
		ls[i] = fmt.Sprintf("%s (%s): %s", displayName(p), p.ID, holdingLine(p))
	}
	if len(ls) == 0 {
		ls = []string{"Nobody has joined yet: /join"}
	}
	title := fmt.Sprintf("Players of %s (%d)", inv.Game, len(ps))
	if next != "" {
		title = fmt.Sprintf("Players of %s (the first %d)", inv.Game, len(ps))
		ls = append(ls, "…and more: the game's tracker lists everyone.")
	}
	return &Reply{Title: title, Text: lines(ls)}, nil
}

func roll(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	r, err := decoded[*game.RollResult](s.Roll(ctx, req(inv), game.RollDice{Dice: inv.Opt("dice"), Reason: inv.Opt("reason")}))
	if err != nil {
		return nil, err
	}
	rolls := make([]string, len(r.Rolls))
	for i, n := range r.Rolls {
		rolls[i] = fmt.Sprint(n)
	}
	text := fmt.Sprintf("🎲 %s rolled %s: %s = **%d**", inv.User, r.Dice, clip(strings.Join(rolls, " + "), 1500), r.Total)
	if r.Reason != "" {
		text += " (" + r.Reason + ")"
	}
	return &Reply{Text: text + ". Verifiable with /audit once period " + r.PeriodLabel() + " ends."}, nil
}

// seasonOf names the game's season, or says its ruleset has none (turns).
func seasonOf(g game.GameView) string {
	if g.Season == "" {
		return "none (this ruleset has no seasons)"
	}
	return g.Season
}

// periodOf is the game's current period for people: its ruleset's name
// for it (a turns game's turn), else its id and end.
func periodOf(g game.GameView) string {
	if g.Period.Name != "" {
		return g.Period.Name
	}
	return fmt.Sprintf("%s (%s), ends %s", g.Period.ID, g.Period.Kind, g.Period.End.UTC().Format(time.RFC1123))
}

func gameInfo(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	g, err := s.Game(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	r := &Reply{Title: fmt.Sprintf("%s (%s)", g.Name, g.ID), Fields: []Field{
		{Name: "Ruleset", Value: fmt.Sprintf("%s v%d", g.Ruleset, g.RulesetVersion), Inline: true},
		{Name: "Season", Value: seasonOf(g), Inline: true},
		{Name: "Period", Value: periodOf(g), Inline: false},
		{Name: "Admins", Value: adminNames(ctx, s, inv, g.Admins), Inline: false},
	}}
	if g.Ended {
		r.Text = "The game has ended; the winner is " + whoIn(ctx, s, inv, g.Winner) + "."
	}
	return r, nil
}

// didYouMean names the commands nearest a misspelt one (" (did you mean
// /trade?)"), among names (without their slash).
func didYouMean(name string, names []string) string {
	near := nearest.Names(name, names, 5)
	if len(near) == 0 {
		return ""
	}
	return " (did you mean /" + strings.Join(near, ", /") + "?)"
}
