package slack_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/chat/slack"
)

// A select with MaxValues > 1 renders as a multi_static_select whose
// max_selected_items is at most the options rendered; a single select
// stays a static_select without it.
func TestMultiSelectRendering(t *testing.T) {
	var cs []chat.Choice
	for i := range 6 {
		cs = append(cs, chat.Choice{Label: fmt.Sprint("card ", i), Value: fmt.Sprint("c", i)})
	}
	act := chat.Action{Command: "match move", Options: map[string]string{"kind": "select"}}
	for _, tc := range []struct {
		name     string
		min, max int
		typ      string
		most     any
	}{
		{"single", 0, 0, "static_select", nil},
		{"four to six", 4, 6, "multi_static_select", 6},
		{"capped by the options", 4, 30, "multi_static_select", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := slack.Render(&chat.Reply{Selects: []chat.Select{{Placeholder: "Choose your hand", Action: act, Option: "card",
				Choices: cs, MinValues: tc.min, MaxValues: tc.max}}})
			var el map[string]any
			for _, b := range m.Blocks {
				if b["type"] == "actions" {
					el = b["elements"].([]any)[0].(map[string]any)
				}
			}
			if el == nil {
				t.Fatalf("no select in %+v", m.Blocks)
			}
			if el["type"] != tc.typ || el["max_selected_items"] != tc.most {
				t.Errorf("rendered %v with max_selected_items %v, want %s with %v", el["type"], el["max_selected_items"], tc.typ, tc.most)
			}
			if len(el["options"].([]any)) != len(cs) {
				t.Errorf("%d options", len(el["options"].([]any)))
			}
		})
	}
}

// People read names: a Slack identity in a reply is sent as a mention,
// which Slack shows as the member's name; other platforms' ids stay.
func TestRenderMentionsSlackPlayers(t *testing.T) {
	m := slack.Render(&chat.Reply{Text: "🎁 slack:U024BE7LH gave discord:42 2 cards.", Fields: []chat.Field{{Name: "Judge", Value: "slack:W0ABC"}}})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m.Blocks); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	if !strings.Contains(s, "🎁 <@U024BE7LH> gave discord:42 2 cards.") || !strings.Contains(s, "<@W0ABC>") || strings.Contains(s, "slack:") {
		t.Errorf("the reply's blocks: %s", s)
	}
}
