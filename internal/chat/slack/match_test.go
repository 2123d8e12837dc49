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

	"croupier/internal/chat/slack"
	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

const cy = "U0CY"

// all is a message's text and blocks, as a person reads them.
func all(m slack.Message) string { return m.Text + " " + fmt.Sprint(m.Blocks) }

func has(t *testing.T, what string, m slack.Message, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(all(m), s) {
			t.Errorf("%s: reply lacks %q: %s", what, s, all(m))
		}
	}
}

// selectOf returns the action_id and option values of the static select
// whose placeholder starts with placeholder.
func selectOf(t *testing.T, m slack.Message, placeholder string) (string, []string) {
	t.Helper()
	for _, b := range m.Blocks {
		if b["type"] != "actions" {
			continue
		}
		for _, el := range b["elements"].([]any) {
			el := el.(map[string]any)
			ph, _ := el["placeholder"].(map[string]any)
			if el["type"] != "static_select" || ph == nil || !strings.HasPrefix(ph["text"].(string), placeholder) {
				continue
			}
			var vs []string
			for _, o := range el["options"].([]any) {
				vs = append(vs, o.(map[string]any)["value"].(string))
			}
			return el["action_id"].(string), vs
		}
	}
	t.Fatalf("no select %q in %+v", placeholder, m.Blocks)
	return "", nil
}

// multiSelectOf returns the action_id, option values and
// max_selected_items of the multi_static_select whose placeholder starts
// with placeholder.
func multiSelectOf(t *testing.T, m slack.Message, placeholder string) (string, []string, int) {
	t.Helper()
	for _, b := range m.Blocks {
		if b["type"] != "actions" {
			continue
		}
		for _, el := range b["elements"].([]any) {
			el := el.(map[string]any)
			ph, _ := el["placeholder"].(map[string]any)
			if el["type"] != "multi_static_select" || ph == nil || !strings.HasPrefix(ph["text"].(string), placeholder) {
				continue
			}
			var vs []string
			for _, o := range el["options"].([]any) {
				vs = append(vs, o.(map[string]any)["value"].(string))
			}
			most, _ := el["max_selected_items"].(float64) // the reply came as JSON
			return el["action_id"].(string), vs, int(most)
		}
	}
	t.Fatalf("no multi-select %q in %+v", placeholder, m.Blocks)
	return "", nil, 0
}

// interact sends a block_actions payload for one action and returns the
// reply posted to the response_url.
func (e *env) interact(user string, action map[string]any) slack.Message {
	e.t.Helper()
	e.n++
	payload, _ := json.Marshal(map[string]any{"type": "block_actions", "user": map[string]any{"id": user, "username": "u", "team_id": team},
		"team": map[string]any{"id": team}, "channel": map[string]any{"id": "C0PLAY"}, "trigger_id": fmt.Sprintf("act-%d", e.n),
		"response_url": e.hooks.URL + "/actions/T0TEAM/1/x", "actions": []any{action}})
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

func (e *env) click(user, actionID string) slack.Message {
	e.t.Helper()
	return e.interact(user, map[string]any{"action_id": actionID, "type": "button", "value": actionID})
}

func (e *env) choose(user, actionID, value string) slack.Message {
	e.t.Helper()
	return e.interact(user, map[string]any{"action_id": actionID, "type": "static_select", "selected_option": map[string]any{"value": value}})
}

// chooseAll chooses values together in a multi_static_select.
func (e *env) chooseAll(user, actionID string, values ...string) slack.Message {
	e.t.Helper()
	var opts []any
	for _, v := range values {
		opts = append(opts, map[string]any{"text": map[string]any{"type": "plain_text", "text": v}, "value": v})
	}
	return e.interact(user, map[string]any{"action_id": actionID, "type": "multi_static_select", "selected_options": opts})
}

func (e *env) give(user string, chips int, names ...string) {
	e.t.Helper()
	g := gildedhall.Grant{Player: "slack:" + user, Chips: chips, Reason: "test deck"}
	for _, n := range names {
		g.Cards = append(g.Cards, gildedhall.CardGrant{Name: n})
	}
	if _, err := gildedhall.On(e.svc).Grant(context.Background(), game.Request{Game: "hall", Actor: "slack:" + admin, Key: "deck-" + user}, g); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) match(id, viewer string) gildedhall.MatchView {
	e.t.Helper()
	v, err := gildedhall.On(e.svc).Match(context.Background(), "hall", id, "slack:"+viewer)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (e *env) matches(f gildedhall.MatchFilter) []gildedhall.MatchSummary {
	e.t.Helper()
	ms, err := gildedhall.On(e.svc).Matches(context.Background(), "hall", f)
	if err != nil {
		e.t.Fatal(err)
	}
	return ms
}

func part(v gildedhall.MatchView, id string) gildedhall.ParticipantView {
	for _, p := range v.Participants {
		if p.ID == "slack:"+id {
			return p
		}
	}
	return gildedhall.ParticipantView{}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// exoptosisScenario drives every Exoptosis command and every move kind of
// "match move" with signed /croupier commands, and the match's buttons and
// selects with signed interactions, checking replies and the match.
// TestEveryCommand runs it.
func exoptosisScenario(t *testing.T) *env {
	e := newEnv(t)
	e.ok(admin, "bind hall")
	for _, u := range []string{ada, grace, cy} {
		e.ok(u, "join")
	}
	adaDeck := []string{"2 of Hearts", "Ace of Spades", "3 of Hearts", "Queen of Diamonds", "4 of Diamonds"}
	e.give(ada, 5, adaDeck...)
	e.give(grace, 5, "7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds", "Jack of Hearts", "6 of Spades", "7 of Spades", "8 of Spades")
	e.give(cy, 5, "2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs")

	m := e.ok(ada, "duel request <@U0GRACE|grace> <@U0CY|cy>")
	has(t, "duel request", m, "Exoptosis duel")
	ms := e.matches(gildedhall.MatchFilter{Kind: gildedhall.MatchDuel})
	if len(ms) != 1 || ms[0].Status != gildedhall.MatchRequested || !slices.Equal(ms[0].Players, []string{"slack:" + ada, "slack:" + grace, "slack:" + cy}) {
		t.Fatalf("after the request: %+v", ms)
	}
	id := ms[0].ID
	m = e.click(grace, actionOf(t, m, "accept"))
	has(t, "Accept button", m, "accepted duel "+id)
	if v := e.match(id, grace); !slices.Equal(v.WaitingFor, []string{"slack:" + cy}) {
		t.Fatalf("waiting for %v", v.WaitingFor)
	}
	has(t, "duel answer", e.ok(cy, "duel answer true"), "Duel "+id+" has started")
	if v := e.match(id, cy); v.Status != gildedhall.MatchPlaying || v.Phase != string(exoptosis.PhaseSelection) {
		t.Fatalf("after the last accept: %s %s", v.Status, v.Phase)
	}

	// Ada chooses her whole hand in one multi-select (her deck fits one
	// menu, so there is no card-at-a-time path).
	m = e.ok(ada, "match status")
	if m.ResponseType != "ephemeral" {
		t.Error("match status is not private")
	}
	sel, offered, most := multiSelectOf(t, m, "Choose your hand")
	if !slices.Equal(offered, adaDeck) || most != len(adaDeck) {
		t.Fatalf("the hand menu offers %v, at most %d", offered, most)
	}
	for _, old := range []string{"Add a card", "Take a card back"} {
		if strings.Contains(all(m), old) {
			t.Errorf("a deck of 5 still offers %q", old)
		}
	}
	has(t, "hand menu", m, "card=<card,...>")
	// Slack sets no minimum: the move refuses too few cards.
	if m := e.chooseAll(ada, sel, adaDeck[:2]...); !strings.Contains(all(m), "at least 4") || part(e.match(id, ada), ada).Selected {
		t.Fatalf("a hand of 2: %s", all(m))
	}
	has(t, "hand menu", e.chooseAll(ada, sel, adaDeck...), "selected a hand")
	if p := part(e.match(id, ada), ada); !p.Selected || !sameSet(p.Hand, adaDeck) {
		t.Fatalf("Ada after the hand menu: %+v", p)
	}
	// Grace picks 4 of her 8 cards in one choice of the same menu.
	graceHand := []string{"7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds"}
	sel, offered, most = multiSelectOf(t, e.ok(grace, "match status"), "Choose your hand")
	if len(offered) != 8 || most != 8 {
		t.Fatalf("Grace's hand menu offers %v, at most %d", offered, most)
	}
	has(t, "hand menu of 4", e.chooseAll(grace, sel, graceHand...), "selected a hand")
	if p := part(e.match(id, grace), grace); !p.Selected || !sameSet(p.Hand, graceHand) {
		t.Fatalf("Grace after the hand menu: %+v, want %v", p, graceHand)
	}
	has(t, "match move select", e.ok(cy, "match move select card=2 of Clubs, 3 of Clubs, 4 of Clubs, 5 of Clubs match="+id), "selected a hand")
	if v := e.match(id, ada); v.Phase != string(exoptosis.PhaseBetting) || v.Turn != "slack:"+ada {
		t.Fatalf("after the selections: %s, turn %s", v.Phase, v.Turn)
	}

	// Betting: a raise by slash, Match by button, decline and pass by slash.
	has(t, "raise", e.ok(ada, "match move raise level=2"), "raised")
	if v := e.match(id, ada); v.Pool != 2 {
		t.Fatalf("pool after the raise: %d", v.Pool)
	}
	for range 2 {
		switch next := e.match(id, ada).Turn; next {
		case "slack:" + grace:
			m = e.click(grace, actionOf(t, e.ok(grace, "match status"), "match"))
			has(t, "Match button", m, "matched")
		case "slack:" + cy:
			has(t, "decline", e.ok(cy, "match move decline"), "declined")
		default:
			t.Fatalf("turn %s in betting", next)
		}
	}
	if v := e.match(id, ada); v.Pool != 4 || part(v, cy).Status == exoptosis.StatusActive || e.player(cy).Inventory.Chips != 5 {
		t.Fatalf("after match and decline: pool %d, Cy %s with %d Chips", v.Pool, part(v, cy).Status, e.player(cy).Inventory.Chips)
	}
	e.ok(ada, "match move pass")
	has(t, "pass", e.ok(grace, "match move pass"), "passed", "play started")

	// Play: a select, then slash commands for every other kind.
	sel, plays := selectOf(t, e.ok(ada, "match status"), "Your move")
	if !slices.Contains(plays, "play|2 of Hearts") {
		t.Fatalf("Ada's plays %v", plays)
	}
	has(t, "play select", e.choose(ada, sel, "play|2 of Hearts"), "played 2 of Hearts")
	if v := e.match(id, ada); v.Top != "2 of Hearts" || v.Turn != "slack:"+grace {
		t.Fatalf("after the play: top %q, turn %s", v.Top, v.Turn)
	}
	has(t, "add", e.ok(grace, "match move add card=Jack of Hearts"), "added Jack of Hearts")
	if p := part(e.match(id, grace), grace); !slices.Contains(p.Hand, "Jack of Hearts") {
		t.Fatalf("Grace after adding: %v", p.Hand)
	}
	m = e.ok(ada, "match move play card=Ace of Spades")
	if _, ts := selectOf(t, m, "Your move"); !slices.Equal(ts, []string{"target||slack:" + grace}) {
		t.Fatalf("the Ace's targets offered after the play: %v", ts)
	}
	has(t, "target", e.ok(ada, "match move target player=<@U0GRACE>"), id+": target")
	if v := e.match(id, ada); v.Pending != nil || part(v, grace).HandSize != 7 {
		t.Fatalf("after the Ace: pending %+v, Grace holds %d", v.Pending, part(v, grace).HandSize)
	}
	e.ok(grace, "match move play card=7 of Diamonds")
	has(t, "giver", e.ok(ada, "match move giver player=<@U0GRACE|grace>"), "giver chosen")
	if v := e.match(id, grace); v.Pending == nil || v.Pending.Kind != exoptosis.ChoiceGive {
		t.Fatalf("pending after giver: %+v", v.Pending)
	}
	has(t, "give", e.ok(grace, "match move give card=8 of Diamonds"), id+": give")
	if p := part(e.match(id, ada), ada); !slices.Contains(p.Hand, "8 of Diamonds") {
		t.Fatalf("Ada after the gift: %v", p.Hand)
	}
	has(t, "forfeit", e.ok(grace, "match move forfeit"), "won (last standing) a pool of 4 Chips")
	if v := e.match(id, ada); v.Winner != "slack:"+ada || e.player(ada).Inventory.Chips != 7 {
		t.Fatalf("after the forfeit: winner %s, Ada %d Chips", v.Winner, e.player(ada).Inventory.Chips)
	}
	has(t, "replay", e.ok(ada, "match status match="+id+" replay=true"), "play 2 of Hearts", "give 8 of Diamonds")

	// Decline by button cancels; terminate by all ends without a winner.
	m = e.ok(ada, "duel request <@U0GRACE>")
	has(t, "Decline button", e.click(grace, actionOf(t, m, "decline")), "is cancelled")
	if ms := e.matches(gildedhall.MatchFilter{Status: gildedhall.MatchCancelled}); len(ms) != 1 {
		t.Fatalf("cancelled duels %+v", ms)
	}
	e.ok(ada, "duel request <@U0GRACE>")
	e.ok(grace, "duel answer accept=true")
	id = e.matches(gildedhall.MatchFilter{Status: gildedhall.MatchPlaying})[0].ID
	has(t, "terminate", e.ok(ada, "match move terminate"), "consented")
	has(t, "terminate by all", e.ok(grace, "match move terminate"), "ended without a winner")
	if v := e.match(id, ada); v.Status != gildedhall.MatchEnded || v.Winner != "" {
		t.Fatalf("after both consented: %s %q", v.Status, v.Winner)
	}

	has(t, "battle", e.ok(ada, "battle"), "engaged in battle", "with 5 cards")
	n := e.entries()
	if m := e.cmd(ada, "battle"); !refused(m) || !strings.Contains(m.Text, "already engaged") || e.entries() != n {
		t.Errorf("engaging twice: %s", m.Text)
	}
	return e
}
