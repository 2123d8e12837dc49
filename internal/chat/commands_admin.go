package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/economy"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// The admin commands (the game refuses non-admins with a clear sentence;
// platforms may also hide them from members without a server permission),
// and the public record: log, seeds, audit.
func adminCommands() []Command {
	player := Option{Name: "player", Description: "The player", Type: User, Required: true}
	reason := Option{Name: "reason", Description: "Why (kept in the log)", Required: true}
	channel := func(purpose, desc string) Option {
		return Option{Name: purpose, Description: desc, Type: Channel}
	}
	cmds := []Command{
		Command{Name: "grant", Runs: []string{"grant"}, Description: "Give a player items (admins)", Admin: true,
			Options: []Option{player, reason,
				{Name: "vertebrae", Description: "Vertebrae to add (negative takes)", Type: Integer, Min: intp(-gildedhall.MaxGrant), Max: intp(gildedhall.MaxGrant)},
				{Name: "chips", Description: "Chips to add (negative takes)", Type: Integer, Min: intp(-gildedhall.MaxGrant), Max: intp(gildedhall.MaxGrant)},
				{Name: "card", Description: "A card by name", Complete: Completion(gildedhall.SuggestCardNames.Name), suggest: &gildedhall.SuggestCardNames},
				{Name: "count", Description: "Copies of that card (default 1)", Type: Integer, Min: intp(1), Max: intp(gildedhall.MaxGrantItems)},
				{Name: "holo", Description: "The card copies are holographic", Type: Boolean},
				{Name: "random_cards", Description: "Random cards to draw", Type: Integer, Min: intp(1), Max: intp(gildedhall.MaxGrantItems)},
				{Name: "pack", Description: "A pack kind to add", Complete: Completion(gildedhall.SuggestPackKinds.Name), suggest: &gildedhall.SuggestPackKinds},
				{Name: "packs", Description: "How many of that pack (default 1)", Type: Integer, Min: intp(1), Max: intp(gildedhall.MaxGrantItems)},
			},
			Handler: grant},
		Command{Name: "revoke", Runs: []string{"revoke"}, Description: "Take specific items from a player (admins)", Admin: true,
			Options: []Option{player, reason,
				{Name: "vertebrae", Description: "Vertebrae to take", Type: Integer, Min: intp(0)},
				{Name: "chips", Description: "Chips to take", Type: Integer, Min: intp(0)},
				{Name: "cards", Description: "Card ids, comma-separated", Complete: Completion(gildedhall.SuggestTheirCards.Name), suggest: &gildedhall.SuggestTheirCards},
				{Name: "packs", Description: "Pack ids, comma-separated", Complete: Completion(gildedhall.SuggestTheirPacks.Name), suggest: &gildedhall.SuggestTheirPacks},
			},
			Handler: revoke},
		Command{Name: "amend", Runs: []string{"amend"}, Description: "Amend the game's ruleset numbers with a JSON merge patch (admins)", Admin: true,
			Options: []Option{{Name: "patch", Description: `JSON merge patch, e.g. {"durations":{"tradeWindow":"72h"}}`, Required: true}, reason},
			Handler: amend},
		Command{Name: "bind", Runs: []string{"bind"}, Description: "Bind this server and its channels to a game (the game's admins)", Admin: true, NoGame: true,
			Options: []Option{
				{Name: "game", Description: "The game's id", Required: true},
				channel(game.ChannelProposals, "Where proposals are made"),
				channel(game.ChannelActions, "Where game actions happen"),
				channel(game.ChannelJudgement, "Where requests for justice are judged"),
				channel(game.ChannelAnnouncements, "Where the Croupier announces"),
			},
			Handler: bind},
		Command{Name: "log", Private: true, Description: "The game log's latest entries",
			Options: []Option{{Name: "limit", Description: "How many (default 10)", Type: Integer, Min: intp(1), Max: intp(25)}},
			Handler: logTail},
		Command{Name: "seeds", Private: true, Description: "Each period's seed commitment, and the revealed seeds", Handler: seeds},
		Command{Name: "audit", Private: true, Description: "Recompute every random draw from the revealed seeds", Handler: audit},
	}
	return cmds
}

func grant(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	g := gildedhall.Grant{Player: inv.Opt("player"), Reason: inv.Opt("reason")}
	var err error
	if g.Vertebrae, err = inv.Int("vertebrae"); err != nil {
		return nil, err
	}
	if g.Chips, err = inv.Int("chips"); err != nil {
		return nil, err
	}
	if g.RandomCards, err = inv.Int("random_cards"); err != nil {
		return nil, err
	}
	if name := inv.Opt("card"); name != "" {
		n, err := inv.Int("count")
		if err != nil {
			return nil, err
		}
		g.Cards = []gildedhall.CardGrant{{Name: name, Holo: inv.Bool("holo"), Count: n}}
	}
	if kind := inv.Opt("pack"); kind != "" {
		n, err := inv.Int("packs")
		if err != nil {
			return nil, err
		}
		g.Packs = []gildedhall.PackGrant{{Pack: kind, Count: n}}
	}
	res, err := gildedhall.On(s).Grant(ctx, req(inv), g)
	if err != nil {
		return nil, err
	}
	return &Reply{Text: s.Says("grant", res.Body, playerNames(ctx, s, inv.Game, res.Names))}, nil
}

func revoke(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	r := gildedhall.Revoke{Player: inv.Opt("player"), Reason: inv.Opt("reason"),
		Items: economy.Items{Cards: inv.List("cards"), Packs: inv.List("packs")}}
	var err error
	if r.Vertebrae, err = inv.Int("vertebrae"); err != nil {
		return nil, err
	}
	if r.Chips, err = inv.Int("chips"); err != nil {
		return nil, err
	}
	res, err := gildedhall.On(s).Revoke(ctx, req(inv), r)
	if err != nil {
		return nil, err
	}
	return &Reply{Text: s.Says("revoke", res.Body, playerNames(ctx, s, inv.Game, res.Names))}, nil
}

func amend(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	patch := inv.Opt("patch")
	if !json.Valid([]byte(patch)) {
		return nil, refusef("invalid_amendment", "The patch is not valid JSON; write an object such as {\"durations\":{\"tradeWindow\":\"72h\"}}.")
	}
	res, err := s.Amend(ctx, req(inv), game.Amend{Patch: json.RawMessage(patch), Reason: inv.Opt("reason")})
	if err != nil {
		return nil, err
	}
	return &Reply{Text: s.Says("amend", res.Body, nil)}, nil
}

func bind(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	if inv.Guild == "" {
		return nil, refusef("not_bound", "Run /bind in the server to bind, not in direct messages.")
	}
	b := game.Bind{Platform: inv.Platform, Space: inv.Guild, Channels: map[string]string{}}
	for _, p := range game.ChannelPurposes {
		if ch := inv.Opt(p); ch != "" {
			b.Channels[p] = ch
		}
	}
	before, hadRuleset, err := boundRuleset(ctx, s, inv)
	if err != nil {
		return nil, err
	}
	r := req(inv)
	r.Game = inv.Opt("game")
	nb, err := decoded[*game.Binding](s.Bind(ctx, r, b))
	if err != nil {
		return nil, err
	}
	v, err := s.Game(ctx, nb.Game)
	if err != nil {
		return nil, err
	}
	reply := &Reply{Text: fmt.Sprintf("This server now plays the game %s.", nb.Game)}
	if v.Name != "" && v.Name != nb.Game {
		reply.Text = fmt.Sprintf("This server now plays the game %s, %s.", nb.Game, v.Name)
	}
	if note := registerNote(s, inv, v, before, hadRuleset); note != "" {
		reply.Text += "\n" + note
	}
	for _, p := range game.ChannelPurposes {
		val := "not set"
		if ch := nb.Channels[p]; ch != "" {
			val = channelMention(inv.Platform, ch)
		}
		reply.Fields = append(reply.Fields, Field{Name: p, Value: val, Inline: true})
	}
	return reply, nil
}

// channelMention is how a platform shows a channel by its id: Discord and
// Slack render <#id> as the channel's name, a link; elsewhere #id.
func channelMention(platform, id string) string {
	switch platform {
	case "discord", "slack":
		return "<#" + id + ">"
	}
	return "#" + id
}

// registerNote tells the admin to register the commands of the newly bound
// game's ruleset in this server when they differ from what it offered: the
// commands a server shows are registered with the platform (on Discord by
// croupier discord register), not chosen by the binding. Nothing is said
// when the ruleset is the one bound before, or, on a first binding, Gilded
// Hall's, the default. A global registration offers every ruleset's
// commands (chat.AllCommands) and needs no change; the note is for
// servers registered per ruleset, which show only that ruleset's.
func registerNote(s *game.Service, inv *Invocation, v game.GameView, before string, hadRuleset bool) string {
	if hadRuleset && v.Ruleset == before || !hadRuleset && v.Ruleset == ruleset.Default {
		return ""
	}
	title := v.Ruleset
	if sh, ok := s.Shape(v.Ruleset); ok {
		title = sh.Title
	}
	how := "register this server's commands for it"
	if inv.Platform == "discord" {
		how = fmt.Sprintf("run `croupier discord register --guild %s --ruleset %s`", inv.Guild, v.Ruleset)
	}
	return fmt.Sprintf("Its ruleset is %s: %s so that this server offers only its commands.", title, how)
}

// maxLogPages bounds how much of a long log /log walks to find its end.
const maxLogPages = 40

func logTail(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	n, err := inv.Int("limit")
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		n = 10
	}
	var tail []game.Entry
	cursor := ""
	for range maxLogPages {
		page, err := s.Log(ctx, inv.Game, cursor, 500)
		if err != nil {
			return nil, err
		}
		tail = append(tail, page.Entries...)
		if len(tail) > n {
			tail = tail[len(tail)-n:]
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	// Each event reads as its ruleset narrates it (game.Registry.Sentence,
	// as the CLI's log and the tracker's), with display names: each player
	// the entries name is read once.
	names := map[string]string{}
	name := func(id string) string {
		n, ok := names[id]
		if !ok {
			if v, err := s.Player(ctx, inv.Game, id); err == nil {
				n = v.Name
			}
			names[id] = n
		}
		return n
	}
	at := timeIn(ctx, s, inv.Game, func(t time.Time) string { return t.UTC().Format("Jan 2 15:04") })
	ls := make([]string, len(tail))
	for i, e := range tail {
		says := make([]string, 0, len(e.Events))
		for _, ev := range e.Events {
			says = append(says, s.Sentence(ev, name))
		}
		if len(says) == 0 {
			who := e.Actor
			if n := name(who); n != "" {
				who = n
			}
			says = append(says, fmt.Sprintf("%s: %s.", who, strings.ReplaceAll(e.Command, "-", " ")))
		}
		ls[i] = at(e.At) + " · " + strings.Join(says, " ")
	}
	return &Reply{Title: fmt.Sprintf("Log of %s (latest %d)", inv.Game, len(tail)), Text: lines(ls), Ephemeral: true}, nil
}

func seeds(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	ss, err := s.Seeds(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	ls := make([]string, len(ss))
	for i, sv := range ss {
		ls[i] = fmt.Sprintf("%s: commitment %s", game.Capitalize(calendar.PeriodWords(sv.Period)), sv.Commitment)
		if sv.Seed != "" {
			ls[i] += ", seed " + sv.Seed
		} else {
			ls[i] += ", seed not revealed yet"
		}
	}
	return &Reply{Title: "Seeds of " + inv.Game, Text: lines(ls), Ephemeral: true}, nil
}

func audit(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	rep, err := s.Audit(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	r := &Reply{Title: "Audit of " + inv.Game, Ephemeral: true, Fields: []Field{
		{Name: "Draws checked", Value: fmt.Sprint(rep.Checked), Inline: true},
		{Name: "Pending (seed not revealed)", Value: fmt.Sprint(rep.Pending), Inline: true},
		{Name: "Mismatches", Value: fmt.Sprint(len(rep.Mismatches)), Inline: true},
	}}
	if rep.OK() {
		r.Text = "✅ Every revealed draw recomputes to the logged value."
	} else {
		r.Text = fmt.Sprintf("❌ Verification failed: %d mismatches, bad seeds %v.", len(rep.Mismatches), rep.BadSeeds)
	}
	at := timeIn(ctx, s, inv.Game, func(t time.Time) string { return t.UTC().Format(time.RFC1123) })
	r.Text += fmt.Sprintf(" (as of %s)", at(s.Clock().Now()))
	return r, nil
}
