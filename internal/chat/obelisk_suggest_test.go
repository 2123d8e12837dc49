package chat_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
)

// The Obelisk's suggestions are its module's (game.Arg.Suggest), offered
// as chat autocompletion: /gathering start's ritual_type suggests the
// game's ritual types with their cost (an amendment's, read from the
// game's data), and /gathering contribute's gathering the open Gatherings
// by ritual and their starter's name, whose value is the Gathering's id;
// what is typed narrows them. The task and the component are choices.
func TestObeliskSuggestionsComeFromTheModule(t *testing.T) {
	r, svc := newRouter(t)
	ctx := context.Background()
	admin := game.Request{Game: "stone", Actor: "slack:ADMIN"}
	if _, err := svc.Create(ctx, game.Request{Actor: "slack:ADMIN", Key: "c-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	admin.Key = "amend"
	if _, err := svc.Amend(ctx, admin, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, game.Request{Game: "stone", Actor: "slack:U1", Key: "j"}, game.JoinGame{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	complete := func(cmd, option, partial string) []chat.Choice {
		return r.Complete(ctx, &chat.Invocation{Platform: "slack", User: "slack:U1", Command: cmd, Game: "stone"}, option, partial)
	}
	if got := complete("gathering start", "ritual_type", "cut"); len(got) != 1 || got[0].Value != "cut-the-obelisk" || got[0].Label != "Cut the Obelisk (costs 1⚡ 1🌿)" {
		t.Errorf("ritual types: %+v", got)
	}
	if got := complete("gathering contribute", "gathering", ""); len(got) != 0 {
		t.Errorf("open Gatherings before any: %+v", got)
	}
	if _, err := obelisk.On(svc).StartGathering(ctx, game.Request{Game: "stone", Actor: "slack:U1", Key: "s"}, obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "m-1"}); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"gathering contribute", "gathering withdraw", "gathering complete"} {
		got := complete(cmd, "gathering", "ada")
		if len(got) != 1 || got[0].Value != "m-1" || !strings.Contains(got[0].Label, "Cut the Obelisk, started by Ada (nothing of 1⚡ 1🌿 contributed)") {
			t.Errorf("%s: open Gatherings: %+v", cmd, got)
		}
	}
	if got := complete("gathering contribute", "gathering", "nobody"); len(got) != 0 {
		t.Errorf("a filter that fits none: %+v", got)
	}
	if got := complete("gathering contribute", "component", "herb"); len(got) != 1 || got[0].Value != "herbs" {
		t.Errorf("components: %+v", got)
	}
	if got := complete("task", "task", "blood"); len(got) != 1 || got[0].Label != "Blood Acquisition" {
		t.Errorf("tasks: %+v", got)
	}
}
