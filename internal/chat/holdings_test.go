package chat_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
)

// said is everything a reply shows a person: its title, text and fields.
func said(rep *chat.Reply) string {
	s := rep.Title + "\n" + rep.Text
	for _, f := range rep.Fields {
		s += fmt.Sprintf("\n%s: %s", f.Name, f.Value)
	}
	return s
}

func fieldNames(rep *chat.Reply) []string {
	var out []string
	for _, f := range rep.Fields {
		out = append(out, f.Name)
	}
	return out
}

func fieldValue(rep *chat.Reply, name string) string {
	for _, f := range rep.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// rulesetRoom is a chat space bound to a new game of one ruleset.
type rulesetRoom struct {
	t     *testing.T
	r     *chat.Router
	guild string
	keys  int
}

func newRoom(t *testing.T, r *chat.Router, svc *game.Service, id, ruleset string) *rulesetRoom {
	t.Helper()
	if _, err := svc.Create(context.Background(), game.Request{Actor: "slack:ADMIN", Key: "create-" + id}, game.CreateGame{ID: id, Ruleset: ruleset}); err != nil {
		t.Fatal(err)
	}
	room := &rulesetRoom{t: t, r: r, guild: "T-" + id}
	if rep := room.run("slack:ADMIN", "bind", map[string]string{"game": id}); rep.Refusal {
		t.Fatalf("bind %s: %+v", id, rep)
	}
	return room
}

func (room *rulesetRoom) run(user, cmd string, opts map[string]string) *chat.Reply {
	room.keys++
	return room.r.Handle(context.Background(), &chat.Invocation{Platform: "slack", Guild: room.guild, Channel: "C1", User: user,
		UserName: "Ada", Command: cmd, Options: opts, Key: fmt.Sprintf("%s-%d", room.guild, room.keys)})
}

func (room *rulesetRoom) must(user, cmd string, opts map[string]string) *chat.Reply {
	room.t.Helper()
	rep := room.run(user, cmd, opts)
	if rep.Refusal {
		room.t.Fatalf("%s by %s: %+v", cmd, user, rep)
	}
	return rep
}

func lacksWords(t *testing.T, what, got string, words ...string) {
	t.Helper()
	for _, w := range words {
		if strings.Contains(got, w) {
			t.Errorf("%s says %q, which this game has not:\n%s", what, w, got)
		}
	}
}

// TestChatPlayerViewsPerRuleset: status, the players list, the leave prompt
// and the inventory say each ruleset's own holdings: a turns player's
// points, pool and cases, an Obelisk player's components, and Gilded
// Hall's Vertebrae, Chips, deck and packs as they always have (R3, U1).
func TestChatPlayerViewsPerRuleset(t *testing.T) {
	r, svc := newRouter(t)
	gildedHall := []string{"Vertebrae", "Vertebra", "Chips", "Chip", "Deck", "deck", "card", "pack", "gift"}

	t.Run("turns", func(t *testing.T) {
		room := newRoom(t, r, svc, "nomic", "turns")
		room.must("slack:U1", "join", map[string]string{"name": "Ada"})
		room.must("slack:U2", "join", map[string]string{"name": "Bob"})
		room.must("slack:U2", "pool-enter", nil)

		rep := room.must("slack:U2", "status", nil)
		if got, want := fieldNames(rep), []string{"Points", "Active", "Judicial Pool", "Judging"}; !slices.Equal(got, want) {
			t.Errorf("a turns status shows %v, want %v", got, want)
		}
		if fieldValue(rep, "Points") != "0" || fieldValue(rep, "Active") != "yes" || fieldValue(rep, "Judicial Pool") != "In it" || fieldValue(rep, "Judging") != "none" {
			t.Errorf("Bob's status: %s", said(rep))
		}
		if !strings.Contains(rep.Text, "round 1, before turn 1-1, which begins Mon 30 Nov 22:00 CST") {
			t.Errorf("a turns status names the period %q, want the round and its first turn", rep.Text)
		}
		lacksWords(t, "a turns status", said(rep), append(gildedHall, "Reputable", "2026-11-30T", "first-half")...)

		rep = room.must("slack:U1", "game", nil)
		if got := fieldValue(rep, "Period"); got != "round 1, before turn 1-1, which begins Mon 30 Nov 22:00 CST" {
			t.Errorf("a turns game's period reads %q, want its round and first turn", got)
		}
		lacksWords(t, "a turns game's description", said(rep), "2026-11-30T", "first-half")

		rep = room.must("slack:U1", "players", nil)
		if !strings.Contains(rep.Text, "Ada (slack:U1): 0 points\n") || !strings.Contains(rep.Text, "Bob (slack:U2): 0 points, in the Judicial Pool") {
			t.Errorf("a turns players list: %s", said(rep))
		}
		lacksWords(t, "a turns players list", said(rep), gildedHall...)

		rep = room.must("slack:U2", "leave", nil)
		if !strings.Contains(rep.Text, "takes you out of the Judicial Pool") || !strings.Contains(rep.Text, "your 0 points stay yours") {
			t.Errorf("a turns leave prompt: %s", rep.Text)
		}
		lacksWords(t, "a turns leave prompt", rep.Text, gildedHall...)

		rep = room.run("slack:U1", "inventory", nil)
		if !rep.Refusal || !strings.Contains(rep.Text, "no cards or packs") || !strings.Contains(rep.Text, "/status") {
			t.Errorf("a turns inventory: %+v, want a refusal pointing to /status", rep)
		}
	})

	t.Run("obelisk", func(t *testing.T) {
		room := newRoom(t, r, svc, "stone", "obelisk")
		room.must("slack:U1", "join", map[string]string{"name": "Ada"})
		rep := room.must("slack:U1", "status", nil)
		if got := fieldNames(rep); !slices.Contains(got, "Holds") || !slices.Contains(got, "Experience") {
			t.Errorf("an Obelisk status shows %v, want Holds and Experience", got)
		}
		if !strings.Contains(fieldValue(rep, "Holds"), "⚡") {
			t.Errorf("a new Obelisk player holds %q, want some ⚡", fieldValue(rep, "Holds"))
		}
		lacksWords(t, "an Obelisk status", said(rep), gildedHall...)
		rep = room.must("slack:U1", "players", nil)
		if !strings.Contains(rep.Text, "Ada (slack:U1): holds 1⚡") {
			t.Errorf("an Obelisk players list: %s", rep.Text)
		}
		lacksWords(t, "an Obelisk players list", said(rep), gildedHall...)
		rep = room.must("slack:U1", "leave", nil)
		if !strings.Contains(rep.Text, "⚡") {
			t.Errorf("an Obelisk leave prompt: %s", rep.Text)
		}
		lacksWords(t, "an Obelisk leave prompt", rep.Text, gildedHall...)
		rep = room.must("slack:U1", "inventory", nil)
		if !strings.Contains(rep.Title, "⚡") {
			t.Errorf("an Obelisk inventory: %s", said(rep))
		}
	})

	t.Run("gilded hall", func(t *testing.T) {
		room := newRoom(t, r, svc, "hall2", "gilded-hall")
		room.must("slack:U1", "join", map[string]string{"name": "Ada"})
		rep := room.must("slack:U1", "status", nil)
		want := []string{"Vertebrae", "Chips", "Deck", "Packs", "Active", "Reputable", "Can gift this period"}
		if got := fieldNames(rep); !slices.Equal(got, want) {
			t.Errorf("a Gilded Hall status shows %v, want %v", got, want)
		}
		if fieldValue(rep, "Vertebrae") != "0" || fieldValue(rep, "Deck") != "0 cards" || !strings.Contains(rep.Text, "period 2026-W49-I") {
			t.Errorf("a Gilded Hall status: %s", said(rep))
		}
		if rep := room.must("slack:U1", "game", nil); !strings.HasPrefix(fieldValue(rep, "Period"), "2026-W49-I (phase-1), ends ") {
			t.Errorf("a Gilded Hall game's period reads %q", fieldValue(rep, "Period"))
		}
		// Every column of the status card that says what a player holds,
		// Vertebrae included (issue 23 point 6).
		if rep := room.must("slack:U1", "players", nil); !strings.Contains(rep.Text, "Ada (slack:U1): 0 Vertebrae, 0 Chips, 0 cards") {
			t.Errorf("a Gilded Hall players list: %s", rep.Text)
		}
		if rep := room.must("slack:U1", "leave", nil); !strings.Contains(rep.Text, "(0 Vertebrae, 0 Chips, 0 cards, 0 packs)") {
			t.Errorf("a Gilded Hall leave prompt: %s", rep.Text)
		}
		if rep := room.must("slack:U1", "inventory", nil); rep.Title != "Inventory of Ada: 0 Vertebrae, 0 Chips" {
			t.Errorf("a Gilded Hall inventory: %s", said(rep))
		}
	})
}
