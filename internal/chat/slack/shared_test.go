package slack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/announce/announcetest"
	"croupier/internal/chat/slack"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// Issue 23 point 1 (acceptance 1) on Slack: a press on a message others
// use too (the container of a block_actions payload, not ephemeral) is
// answered to the presser alone (response_type ephemeral on the
// response_url), and the message is updated with chat.update (bot token,
// its channel and ts) to its public state, keeping its valid buttons and
// never a presser's holdings or private answer.

const slackBot = "xoxb-test"

func sharedEnv(t *testing.T) (*env, *announcetest.Slack) {
	e := newEnv(t)
	api := announcetest.NewSlack(t, slackBot, "C0PLAY")
	e.h.API = &slack.API{Base: api.APIBase(), Token: slackBot}
	return e, api
}

// pressOn presses a button as user on the message at ts in C0PLAY and
// returns the reply posted to the response_url.
func (e *env) pressOn(user, actionID, ts string, ephemeral bool) slack.Message {
	e.t.Helper()
	e.n++
	payload, _ := json.Marshal(map[string]any{"type": "block_actions", "user": map[string]any{"id": user, "username": strings.ToLower(user), "team_id": team},
		"team": map[string]any{"id": team}, "channel": map[string]any{"id": "C0PLAY"}, "trigger_id": fmt.Sprintf("shared-%d", e.n),
		"container":    map[string]any{"type": "message", "message_ts": ts, "channel_id": "C0PLAY", "is_ephemeral": ephemeral},
		"message":      map[string]any{"ts": ts, "type": "message"},
		"response_url": e.hooks.URL + "/actions/T0TEAM/1/x", "actions": []any{map[string]any{"action_id": actionID, "type": "button", "value": actionID}}})
	e.mu.Lock()
	before := len(e.hooked)
	e.mu.Unlock()
	if status, b := e.post("/slack/interactions", url.Values{"payload": {string(payload)}}.Encode(), secret, time.Time{}); status != http.StatusOK {
		e.t.Fatalf("interaction: %d %s", status, b)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.hooked) != before+1 {
		e.t.Fatalf("the interaction posted %d replies", len(e.hooked)-before)
	}
	return e.hooked[before]
}

type slackShared struct {
	t   *testing.T
	e   *env
	api *announcetest.Slack
	ts  string
}

func updateText(u announcetest.SlackUpdate) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(u.Blocks)
	return u.Text + "\n" + b.String()
}

func updateButtons(u announcetest.SlackUpdate) []string {
	var out []string
	for _, b := range u.Blocks {
		if b["type"] != "actions" {
			continue
		}
		for _, el := range b["elements"].([]any) {
			el := el.(map[string]any)
			if el["type"] == "button" {
				out = append(out, el["text"].(map[string]any)["text"].(string))
			}
		}
	}
	return out
}

// action is the action_id of the button labelled label in an update.
func updateAction(t *testing.T, u announcetest.SlackUpdate, label string) string {
	t.Helper()
	for _, b := range u.Blocks {
		if b["type"] != "actions" {
			continue
		}
		for _, el := range b["elements"].([]any) {
			el := el.(map[string]any)
			if el["type"] == "button" && strings.HasPrefix(el["text"].(map[string]any)["text"].(string), label) {
				return el["action_id"].(string)
			}
		}
	}
	t.Fatalf("no button %q in the update %s", label, updateText(u))
	return ""
}

func (c slackShared) press(what, user, action string, private, public, buttons []string) announcetest.SlackUpdate {
	c.t.Helper()
	before := len(c.api.Updates("C0PLAY", c.ts))
	m := c.e.pressOn(user, action, c.ts, false)
	if m.ResponseType != "ephemeral" || m.ReplaceOriginal || refused(m) {
		c.t.Fatalf("%s: answered %+v, want the presser's ephemeral answer", what, m)
	}
	has(c.t, what+" (private answer)", m, private...)
	us := c.api.Updates("C0PLAY", c.ts)
	if len(us) != before+1 {
		c.t.Fatalf("%s: %d updates of the shared message, want %d", what, len(us), before+1)
	}
	last := us[len(us)-1]
	for _, s := range public {
		if !strings.Contains(updateText(last), s) {
			c.t.Errorf("%s: the shared message reads %s, lacking %q", what, updateText(last), s)
		}
	}
	if got := updateButtons(last); !slices.Equal(got, buttons) {
		c.t.Errorf("%s: the shared message's buttons are %q, want %q", what, got, buttons)
	}
	for _, u := range us {
		if strings.Contains(updateText(u), "You hold") || strings.Contains(updateText(u), m.Text) {
			c.t.Errorf("%s: the shared message shows a private answer: %s", what, updateText(u))
		}
	}
	return last
}

func (c slackShared) refused(what, user, action string) {
	c.t.Helper()
	before := len(c.api.Updates("C0PLAY", c.ts))
	m := c.e.pressOn(user, action, c.ts, false)
	if m.ResponseType != "ephemeral" || !refused(m) {
		c.t.Errorf("%s: %+v, want a private refusal", what, m)
	}
	if n := len(c.api.Updates("C0PLAY", c.ts)); n != before {
		c.t.Errorf("%s: a refusal updated the shared message", what)
	}
}

var slackVotes = []string{"👍 For", "👎 Against"}

func slackTurns(t *testing.T, e *env) {
	t.Helper()
	if _, err := e.svc.Create(context.Background(), game.Request{Actor: "slack:" + admin, Key: "create-nomic"}, game.CreateGame{ID: "nomic", Ruleset: turns.ID}); err != nil {
		t.Fatal(err)
	}
	e.ok(admin, "bind nomic")
	e.ok(ada, "join Ada")
	e.ok(grace, "join Grace")
	e.ok("U0CY", "join Cy")
}

func TestSlackSharedProposalAndAppeal(t *testing.T) {
	e, api := sharedEnv(t)
	slackTurns(t, e)
	m := e.ok(ada, `turns propose op=amend rule=210 text="Rule 210, amended."`)
	if m.ResponseType != "in_channel" {
		t.Fatalf("a proposal is public: %+v", m)
	}
	p := slackShared{t, e, api, "1700000000.000100"}
	p.press("Grace's 👍", grace, actionOf(t, m, "For"), []string{"voted for proposal P1"}, []string{"Proposal P1", "For: Grace. Against: nobody."}, slackVotes)
	p.press("Cy's 👎", "U0CY", actionOf(t, m, "Against"), []string{"voted against proposal P1"}, []string{"For: Grace. Against: Cy."}, slackVotes)

	e.ok(grace, "pool-enter")
	e.ok(ada, `judgment-request statement="Is rule 210 fair?"`)
	e.ok(grace, "case recuse case=5301")
	e.ok(admin, `case rule case=5301 ruling=FALSE reasons="It is."`)
	m = e.ok("U0CY", `case appeal case=5301 ruling=TRUE reasons="It is not."`)
	e.clk.Set(time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC))
	a := slackShared{t, e, api, "1700000000.000200"}
	a.press("Ada's 👍", ada, actionOf(t, m, "For"), []string{"voted for the appeal A1 of case 5301"}, []string{"Appeal A1 of case 5301", "For: Ada. Against: nobody."}, slackVotes)
	a.press("Grace's 👎", grace, actionOf(t, m, "Against"), []string{"voted against the appeal A1 of case 5301"}, []string{"For: Ada. Against: Grace."}, slackVotes)
}

func TestSlackSharedGathering(t *testing.T) {
	e, api := sharedEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Create(ctx, game.Request{Actor: "slack:" + admin, Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	if _, err := e.svc.Amend(ctx, game.Request{Game: "stone", Actor: "slack:" + admin, Key: "amend"}, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	e.ok(admin, "bind game=stone")
	e.ok(ada, "join Ada")
	e.ok(grace, "join Grace")
	e.ok(ada, "task task=herbalism")
	e.ok(grace, "observe")
	m := e.ok(ada, "gathering start ritual_type=cut-the-obelisk")
	g := slackShared{t, e, api, "1700000000.000300"}
	var all []string
	for _, b := range m.Blocks {
		if b["type"] == "actions" {
			for _, el := range b["elements"].([]any) {
				all = append(all, el.(map[string]any)["text"].(map[string]any)["text"].(string))
			}
		}
	}
	if len(all) < 2 || all[len(all)-1] != "Complete" {
		t.Fatalf("the Gathering's buttons: %q", all)
	}
	first := g.press("Ada's 🌿", ada, actionOf(t, m, "🌿"), []string{"contributed 1🌿", "You hold"}, []string{"Ada started it", "contributed: 1🌿 by Ada."}, all)
	g.press("Grace's ⚡", grace, updateAction(t, first, "⚡"), []string{"Grace contributed 1⚡", "You hold"}, []string{"1🌿 by Ada, 1⚡ by Grace.", "Ada may complete it"}, all)
}

func TestSlackSharedDuelAndTrade(t *testing.T) {
	e, api := sharedEnv(t)
	e.ok(admin, "bind game=hall")
	const cy = "U0CY"
	for _, u := range []string{ada, grace, cy} {
		e.ok(u, "join")
	}
	e.give(ada, 5, "2 of Hearts", "Ace of Spades", "3 of Hearts", "Queen of Diamonds")
	e.give(grace, 5, "7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds")
	e.give(cy, 5, "2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs")
	m := e.ok(ada, "duel request <@U0GRACE|grace> <@U0CY|cy>")
	d := slackShared{t, e, api, "1700000000.000400"}
	first := d.press("Grace's Accept", grace, actionOf(t, m, "Accept"), []string{"accepted duel"},
		[]string{"Accepted: <@U0GRACE>; waiting for: <@U0CY>."}, []string{"Accept", "Decline"})
	d.refused("Grace again", grace, updateAction(t, first, "Accept"))
	d.press("Cy's Accept", cy, updateAction(t, first, "Accept"), []string{"has started"}, []string{"the duel has started"}, nil)

	m = e.ok(ada, "trade offer <@U0GRACE> give_vertebrae=0 give_chips=1")
	tr := slackShared{t, e, api, "1700000000.000500"}
	tr.refused("Cy's Accept", cy, actionOf(t, m, "Accept"))
	tr.press("Grace's Accept", grace, actionOf(t, m, "Accept"), []string{"You accepted Trade"}, []string{": executed"}, nil)
	if ts, err := trades.On(e.svc).Trades(context.Background(), "hall", trades.TradeFilter{Status: trades.TradeExecuted}); err != nil || len(ts) != 1 {
		t.Errorf("executed trades: %+v %v", ts, err)
	}
}

// A press on a message private to the presser (the ephemeral /buy
// confirmation) replaces it through the response_url; nothing is updated
// with the bot token.
func TestSlackPrivatePromptIsReplaced(t *testing.T) {
	e, api := sharedEnv(t)
	e.ok(admin, "bind game=hall")
	e.ok(ada, "join")
	if _, err := gildedhall.On(e.svc).Grant(context.Background(), game.Request{Game: "hall", Actor: "slack:" + admin, Key: "grant"}, gildedhall.Grant{Player: "slack:" + ada, Vertebrae: 10, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	m := e.ok(ada, "buy random-card")
	if m.ResponseType != "ephemeral" {
		t.Fatalf("/buy's prompt is private: %+v", m)
	}
	r := e.pressOn(ada, actionOf(t, m, "Buy for"), "1700000000.000600", true)
	if !r.ReplaceOriginal || !strings.Contains(all(r), "Bought 1 × Random Card") {
		t.Errorf("the confirmation answered %+v, want the prompt replaced by the purchase", r)
	}
	if us := api.AllUpdates(); len(us) != 0 {
		t.Errorf("a private prompt's answer updated %d messages", len(us))
	}
}
