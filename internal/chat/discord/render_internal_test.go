package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/game"
)

// Card pictures become one embed each (image + caption) after the reply's
// own embed, within Discord's 10 embeds a message.
func TestCardPicturesAreEmbeds(t *testing.T) {
	r := &chat.Reply{Title: "Pack opened", Text: "3 cards"}
	for range 12 {
		r.Images = append(r.Images, chat.Image{URL: "https://x.example/cards/red-joker-holo.png", Alt: "Red Joker (holographic)"})
	}
	d := message(r, slog.Default())
	if len(d.Embeds) != maxEmbeds {
		t.Fatalf("%d embeds, want %d", len(d.Embeds), maxEmbeds)
	}
	if d.Embeds[0].Title != "Pack opened" || d.Embeds[0].Image != nil {
		t.Errorf("first embed %+v, want the reply's own", d.Embeds[0])
	}
	if e := d.Embeds[1]; e.Image == nil || e.Image.URL != "https://x.example/cards/red-joker-holo.png" || e.Description != "Red Joker (holographic)" {
		t.Errorf("picture embed %+v", e)
	}
}

// A multi-select renders min_values and max_values within what Discord
// accepts (max at most the options rendered, at most 25; min at most max);
// a single select leaves both out (Discord's default of one value).
func TestSelectMinMaxValues(t *testing.T) {
	many := func(n int) []chat.Choice {
		var cs []chat.Choice
		for i := range n {
			cs = append(cs, chat.Choice{Label: fmt.Sprint("card ", i), Value: fmt.Sprint("c", i)})
		}
		return cs
	}
	tooLong := append(many(5), chat.Choice{Label: "long", Value: strings.Repeat("x", 101)})
	act := chat.Action{Command: "match move", Options: map[string]string{"kind": "select", "match": "m1"}}
	for _, tc := range []struct {
		name          string
		sel           chat.Select
		options       int
		min, max      int
		jsonHasValues bool
	}{
		{"single", chat.Select{Choices: many(5)}, 5, 0, 0, false},
		{"four to five", chat.Select{Choices: many(5), MinValues: 4, MaxValues: 5}, 5, 4, 5, true},
		{"capped at 25", chat.Select{Choices: many(30), MinValues: 4, MaxValues: 30}, 25, 4, 25, true},
		{"max follows dropped choices", chat.Select{Choices: tooLong, MinValues: 4, MaxValues: 6}, 5, 4, 5, true},
		{"min at most max", chat.Select{Choices: many(3), MinValues: 4, MaxValues: 5}, 3, 3, 3, true},
		{"max only", chat.Select{Choices: many(5), MaxValues: 3}, 5, 1, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.sel
			s.Placeholder, s.Action, s.Option = "Choose your hand", act, "card"
			d := message(&chat.Reply{Selects: []chat.Select{s}}, slog.Default())
			if d.Components == nil || len(*d.Components) != 1 {
				t.Fatalf("components %+v", d.Components)
			}
			c := (*d.Components)[0].Components[0]
			if len(c.Options) != tc.options || c.MinValues != tc.min || c.MaxValues != tc.max {
				t.Errorf("%d options, %d to %d values; want %d options, %d to %d", len(c.Options), c.MinValues, c.MaxValues, tc.options, tc.min, tc.max)
			}
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(b), `"max_values"`) && strings.Contains(string(b), `"min_values"`); got != tc.jsonHasValues {
				t.Errorf("min_values/max_values in the JSON: %v, want %v: %s", got, tc.jsonHasValues, b)
			}
			if a, err := chat.DecodeAction(c.CustomID); err != nil || a.Options["_sel"] != "card" || a.Options["kind"] != "select" {
				t.Errorf("custom_id %q: %+v %v", c.CustomID, a, err)
			}
		})
	}
}

// The values of a multi-select press reach the option joined with commas.
func TestMultiSelectValuesJoined(t *testing.T) {
	id, err := chat.EncodeAction(chat.Action{Command: "match move", Options: map[string]string{selectOption: "card", "kind": "select"}})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(ComponentData{CustomID: id, ComponentType: ComponentStringSelect, Values: []string{"2 of Hearts", "Ace of Spades", "3 of Hearts", "Red Joker"}})
	inv, _, _, err := invocation(&Interaction{ID: "i1", Type: InteractionComponent, Data: data, User: &User{ID: "7"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.Options["card"]; got != "2 of Hearts,Ace of Spades,3 of Hearts,Red Joker" {
		t.Errorf("card option %q", got)
	}
	if _, ok := inv.Options[selectOption]; ok || inv.Command != "match move" || inv.Options["kind"] != "select" {
		t.Errorf("invocation %+v", inv)
	}
}

// Discord renders no mention in an embed title ("<@2>" shows as typed,
// issue 23 point 5): a title naming someone by identity becomes the bold
// first line of the description, where the mention renders, and a field
// named so opens its value with its name; a title without one stays the
// title.
func TestEmbedTitlesCarryNoMentions(t *testing.T) {
	d := message(&chat.Reply{Title: "discord:5 wins the duel", Text: "Well played."}, slog.Default())
	if e := d.Embeds[0]; e.Title != "" || e.Description != "**<@5> wins the duel**" {
		t.Errorf("embed %+v, want no title and the mention in the description", e)
	}
	d = message(&chat.Reply{Title: "Duel d-1", Fields: []chat.Field{{Name: "discord:2 (active, bet 0)", Value: "2 of Hearts"}}}, slog.Default())
	if f := d.Embeds[0].Fields[0]; f.Name != "\u200b" || f.Value != "**<@2> (active, bet 0)**\n2 of Hearts" {
		t.Errorf("field %+v, want the identity's mention in the value", f)
	}
	d = message(&chat.Reply{Title: "Ada", Text: "discord:2, playing since 30 Nov 2026."}, slog.Default())
	if e := d.Embeds[0]; e.Title != "Ada" || e.Description != "" || *d.Content != "<@2>, playing since 30 Nov 2026." {
		t.Errorf("embed %+v, content %q, want the title Ada and the mention in the content", e, *d.Content)
	}
}

// A reply as large as a reply gets (25 long fields, 12 captioned card
// pictures, labels and choices without a name) renders as one message
// Discord accepts: at most 6000 characters in all its embeds together,
// every select option and choice named.
func TestLargestReplyWithinDiscordLimits(t *testing.T) {
	r := &chat.Reply{Title: "Inventory", Text: strings.Repeat("x", 2500)}
	for i := range 30 {
		r.Fields = append(r.Fields, chat.Field{Name: fmt.Sprint("field ", i), Value: strings.Repeat("v", 1100)})
	}
	for range 12 {
		r.Images = append(r.Images, chat.Image{URL: "https://x.example/c.png", Alt: strings.Repeat("a", 300)})
	}
	r.Selects = []chat.Select{{Placeholder: "Pick", Action: chat.Action{Command: "open"}, Option: "pack", Choices: []chat.Choice{{Value: "p-1"}}}}
	b, _ := json.Marshal(message(r, slog.Default()))
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	for _, err := range discordspec.MessageLimits(m, true) {
		t.Error(err)
	}
	cmds, err := AppCommands([]chat.Command{{Name: "pick", Description: "Pick", Handler: func(context.Context, *game.Service, *chat.Invocation) (*chat.Reply, error) { return nil, nil },
		Options: []chat.Option{{Name: "what", Description: "What", Choices: []chat.Choice{{Value: "a"}}}}}})
	if err != nil || cmds[0].Options[0].Choices[0].Name != "a" {
		t.Errorf("a choice without a label: %+v %v, want it named by its value", cmds, err)
	}
}
