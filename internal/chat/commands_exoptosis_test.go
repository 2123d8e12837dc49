package chat_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// A duel through the chat table: request with buttons, the Accept button's
// action, a selection whose card option autocompletes with the caller's
// selectable cards, a bet, the status view with legal moves, and a refusal
// for a move out of turn.
func TestExoptosisCommands(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	n := 0
	inv := func(user, cmd string, opts map[string]string) *chat.Invocation {
		n++
		return &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, Command: cmd, Options: opts, Key: fmt.Sprintf("k%d", n)}
	}
	must := func(user, cmd string, opts map[string]string) *chat.Reply {
		t.Helper()
		rep := r.Handle(ctx, inv(user, cmd, opts))
		if rep.Refusal {
			t.Fatalf("%s %s %v: %s", user, cmd, opts, rep.Text)
		}
		return rep
	}
	must("slack:ADMIN", "bind", map[string]string{"game": "hall"})
	ada, bo := "slack:U1", "slack:U2"
	for i, p := range []string{ada, bo} {
		must(p, "join", nil)
		g := gildedhall.Grant{Player: p, Chips: 5, Reason: "test"}
		for v := 2; v <= 7; v++ {
			g.Cards = append(g.Cards, gildedhall.CardGrant{Name: fmt.Sprintf("%d of %s", v, []string{"Hearts", "Clubs"}[i])})
		}
		if _, err := gildedhall.On(svc).Grant(ctx, game.Request{Game: "hall", Actor: "slack:ADMIN", Key: "g" + p}, g); err != nil {
			t.Fatal(err)
		}
	}

	rep := must(ada, "duel request", map[string]string{"player": bo})
	if len(rep.Buttons) != 2 || rep.Buttons[0].Action.Command != "duel answer" {
		t.Fatalf("a duel request offers Accept and Decline: %+v", rep)
	}
	accept := rep.Buttons[0].Action
	rep = must(bo, accept.Command, accept.Options)
	if !strings.Contains(rep.Text, "has started") {
		t.Fatalf("the Accept button starts the duel: %s", rep.Text)
	}

	got := r.Complete(ctx, inv(ada, "match move", map[string]string{"kind": "select"}), "card", "2 of Hearts, 3")
	if len(got) != 1 || got[0].Value != "2 of Hearts, 3 of Hearts" {
		t.Fatalf("autocomplete of a selection: %+v", got)
	}
	must(ada, "match move", map[string]string{"kind": "select", "card": "2 of Hearts, 3 of Hearts, 4 of Hearts, 5 of Hearts, 6 of Hearts"})
	must(bo, "match move", map[string]string{"kind": "select", "card": "2 of Clubs, 3 of Clubs, 4 of Clubs, 5 of Clubs"})
	if rep := r.Handle(ctx, inv(bo, "match move", map[string]string{"kind": "pass"})); !rep.Refusal || !strings.Contains(rep.Text, "not your turn") {
		t.Fatalf("Bo bets before Ada: %+v", rep)
	}
	rep = must(ada, "match move", map[string]string{"kind": "raise", "level": "2"})
	if !strings.Contains(rep.Text, "raised") || !strings.Contains(rep.Text, "Waiting for "+bo) {
		t.Fatalf("the raise and who is next: %s", rep.Text)
	}
	rep = must(bo, "match status", nil)
	if !rep.Ephemeral || !strings.Contains(rep.Text, "Your moves: match") || !strings.Contains(rep.Text, "Pool: 2 Chips") {
		t.Fatalf("Bo's private view with his moves: %+v", rep)
	}
	must(bo, "match move", map[string]string{"kind": "match"})
	must(ada, "match move", map[string]string{"kind": "pass"})
	must(bo, "match move", map[string]string{"kind": "pass"})
	// In play, the card option suggests exactly Ada's playable cards.
	ms, err := gildedhall.On(svc).Matches(ctx, "hall", gildedhall.MatchFilter{Player: ada})
	if err != nil || len(ms) != 1 {
		t.Fatalf("one match: %+v %v", ms, err)
	}
	v, err := gildedhall.On(svc).Match(ctx, "hall", ms[0].ID, ada)
	if err != nil || v.Phase != "play" {
		t.Fatalf("play: %+v %v", v.Phase, err)
	}
	var playable []string
	for _, m := range v.LegalMoves {
		if m.Kind == "play" {
			playable = append(playable, m.Card)
		}
	}
	var sugg []string
	for _, c := range r.Complete(ctx, inv(ada, "match move", map[string]string{"kind": "play"}), "card", "") {
		sugg = append(sugg, c.Value)
	}
	if len(playable) == 0 || !slices.Equal(sugg, playable) {
		t.Fatalf("suggested %v, want the playable cards %v", sugg, playable)
	}
	must(ada, "match move", map[string]string{"kind": "play", "card": playable[0]})
	if rep := must(ada, "match status", map[string]string{"replay": "true"}); !strings.Contains(rep.Text, "play "+playable[0]) {
		t.Fatalf("the replay lists the play: %s", rep.Text)
	}
}

// A hand built with the components from a full deck: every select lists
// at most 25 cards and every component id (the picks travel in it) fits
// Discord's 100 characters, even with 30 cards picked; the button selects
// exactly the picked cards; a stale or forged menu is refused.
func TestMatchHandComponentsFitPlatformLimits(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	n := 0
	run := func(user, cmd string, opts map[string]string) *chat.Reply {
		n++
		return r.Handle(ctx, &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, Command: cmd,
			Options: opts, Key: fmt.Sprintf("k%d", n), Component: true})
	}
	run("slack:ADMIN", "bind", map[string]string{"game": "hall"})
	rs, err := svc.Ruleset(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	ada, bo := "slack:U1", "slack:U2"
	deck := gildedhall.Grant{Player: ada, Reason: "all the cards"}
	for _, c := range rs.Cards {
		deck.Cards = append(deck.Cards, gildedhall.CardGrant{Name: c.Name})
	}
	run(ada, "join", nil)
	run(bo, "join", nil)
	if _, err := gildedhall.On(svc).Grant(ctx, game.Request{Game: "hall", Actor: "slack:ADMIN", Key: "g1"}, deck); err != nil {
		t.Fatal(err)
	}
	boCards := []string{rs.Cards[50].Name, rs.Cards[51].Name, rs.Cards[52].Name, rs.Cards[53].Name}
	g := gildedhall.Grant{Player: bo, Reason: "four"}
	for _, c := range boCards {
		g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c})
	}
	if _, err := gildedhall.On(svc).Grant(ctx, game.Request{Game: "hall", Actor: "slack:ADMIN", Key: "g2"}, g); err != nil {
		t.Fatal(err)
	}
	rep := run(ada, "duel request", map[string]string{"player": bo})
	run(bo, rep.Buttons[0].Action.Command, rep.Buttons[0].Action.Options)

	fits := func(rep *chat.Reply) {
		t.Helper()
		for _, s := range rep.Selects {
			if len(s.Choices) > chat.MaxSelectChoices {
				t.Fatalf("select %q lists %d choices", s.Placeholder, len(s.Choices))
			}
			opts := map[string]string{"_sel": s.Option}
			for k, v := range s.Action.Options {
				opts[k] = v
			}
			if _, err := chat.EncodeAction(chat.Action{Command: s.Action.Command, Options: opts}); err != nil {
				t.Fatal(err)
			}
		}
		for _, b := range rep.Buttons {
			if _, err := chat.EncodeAction(b.Action); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep = run(ada, "match status", nil)
	var want []string
	for range 30 {
		fits(rep)
		if rep.Refusal || len(rep.Selects) == 0 {
			t.Fatalf("no hand select: %+v", rep)
		}
		add := rep.Selects[0]
		if add.Option != "card" || len(add.Choices) != chat.MaxSelectChoices {
			t.Fatalf("the add select: %+v", add)
		}
		c := add.Choices[0].Value
		want = append(want, c)
		opts := map[string]string{add.Option: c}
		for k, v := range add.Action.Options {
			opts[k] = v
		}
		rep = run(ada, add.Action.Command, opts)
	}
	fits(rep)
	if slices.ContainsFunc(want, func(c string) bool { return slices.Contains(boCards, c) }) {
		t.Fatalf("picked one of Bo's cards: %v", want)
	}
	i := slices.IndexFunc(rep.Buttons, func(b chat.Button) bool { return b.Label == "Select these 30 cards" })
	if i < 0 {
		t.Fatalf("no select button: %+v", rep.Buttons)
	}
	done := rep.Buttons[i].Action

	// A forged pick and a stale menu are refused and change nothing.
	forged := map[string]string{"match": done.Options["match"], "picks": done.Options["picks"], "card": "Queen of Nothing"}
	if rep := run(ada, "match hand", forged); !rep.Refusal || !strings.Contains(rep.Text, "not a card you can select") {
		t.Errorf("a forged pick: %+v", rep)
	}
	if rep := run(ada, "match hand", map[string]string{"match": done.Options["match"], "picks": "////////////////"}); !rep.Refusal {
		t.Errorf("a stale menu: %+v", rep)
	}
	if rep := run(ada, "match pick", map[string]string{"match": done.Options["match"], "move": "dance|2 of Hearts"}); !rep.Refusal {
		t.Errorf("a forged move: %+v", rep)
	}

	rep = run(ada, done.Command, done.Options)
	if rep.Refusal || !strings.Contains(rep.Text, "selected a hand") {
		t.Fatalf("the select button: %+v", rep)
	}
	v, err := gildedhall.On(svc).Match(ctx, "hall", done.Options["match"], ada)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range v.Participants {
		if p.ID == ada {
			got := slices.Clone(p.Hand)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("Ada's hand %v, want the %d picked cards %v", got, len(want), want)
			}
		}
	}
}
