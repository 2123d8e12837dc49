package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store/bolt"
	"croupier/internal/store/storetest"
)

// detEnv is newEnv over a service whose seeds and log ids come from a
// seeded generator: two of them given the same requests hold the same
// store, byte for byte.
func detEnv(t *testing.T) *env {
	t.Helper()
	st, err := bolt.Open(t.TempDir() + "/db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	clk := clock.NewManual(t0)
	svc := rulesets.New(st, clk, game.WithLogger(quiet()), game.WithEntropy(rand.NewChaCha8([32]byte{12})))
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, ManualClock: clk, Logger: quiet(), Version: "test"})
	c := apitest.NewServer(t, httpapi.OpenAPI, api)
	c.Key, c.Actor = testKey, admin
	return &env{Client: c, clock: clk, svc: svc}
}

// routeStep is one command, sent by its alias route or by the one route
// shape: alias is the alias's path under the game and body its body; args
// is the body of POST .../commands/{cmd}. ok: the step must succeed. keep
// records ids from the answer for later steps.
type routeStep struct {
	cmd, actor, alias string
	body, args        func(ids map[string]string) any
	ok                bool
	keep              func(ids map[string]string, body []byte)
	// before runs in both worlds before the step (a clock move).
	before func(e *env)
}

func fixed(v any) func(map[string]string) any { return func(map[string]string) any { return v } }

func idOf(name string, path ...string) func(map[string]string, []byte) {
	return func(ids map[string]string, b []byte) {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return
		}
		for _, p := range path {
			m, _ := v.(map[string]any)
			v = m[p]
		}
		ids[name], _ = v.(string)
	}
}

func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// routeSteps is a Gilded Hall game played through every command an edge
// may call: the representative ones (ok) succeed, the others meet the
// state the game is in (a move out of turn, an overturn too late...).
func routeSteps(amendPatch json.RawMessage) []routeStep {
	with := func(key, name string, kv ...any) func(map[string]string) any {
		return func(ids map[string]string) any {
			m := obj(kv...)
			m[key] = ids[name]
			return m
		}
	}
	moveOn := func(kind string, kv ...any) (func(map[string]string) any, func(map[string]string) any) {
		return func(map[string]string) any { m := obj(kv...); m["kind"] = kind; return m },
			with("match", "duel", kv...)
	}
	steps := []routeStep{
		{cmd: "grant", actor: admin, alias: "/grants", ok: true, body: fixed(gildedhall.Grant{Player: ada, Vertebrae: 50, Chips: 10, Reason: "commands test",
			Cards: cardGrants(suitCards("Hearts", 2, 10)), Packs: []gildedhall.PackGrant{{Pack: "handy-pack"}}})},
		{cmd: "grant", actor: admin, alias: "/grants", ok: true, body: fixed(gildedhall.Grant{Player: bob, Chips: 10, Reason: "commands test",
			Cards: cardGrants(suitCards("Clubs", 2, 10))})},
		{cmd: "purchase", actor: ada, alias: "/purchases", ok: true, body: fixed(gildedhall.Purchase{Item: "random-card"})},
		{cmd: "open", actor: ada, alias: "/packs/open", ok: true, body: fixed(gildedhall.OpenPack{Pack: "handy-pack"})},
		{cmd: "gift", actor: ada, alias: "/gifts", ok: true, body: fixed(gildedhall.Gift{To: bob})},
		{cmd: "roll", actor: ada, alias: "/rolls", ok: true, body: fixed(game.RollDice{Dice: "2d6", Reason: "observe"})},
		{cmd: "trade-offer", actor: ada, alias: "/trades", ok: true, keep: idOf("trade", "id"),
			body: fixed(obj("to", bob, "give", obj("vertebrae", 2)))},
		{cmd: "trade-accept", actor: bob, alias: "/trades/{trade}/accept", ok: true, args: with("trade", "trade")},
		{cmd: "trade-offer", actor: ada, alias: "/trades", ok: true, keep: idOf("trade2", "id"),
			body: fixed(obj("to", bob, "give", obj("vertebrae", 1)))},
		{cmd: "trade-withdraw", actor: ada, alias: "/trades/{trade2}/withdraw", ok: true, args: with("trade", "trade2")},
		{cmd: "duel-request", actor: ada, alias: "/duels", ok: true, keep: idOf("duel", "id"), body: fixed(gildedhall.RequestDuel{Invitees: []string{bob}})},
		{cmd: "duel-accept", actor: bob, alias: "/duels/{duel}/answer", ok: true, body: fixed(obj("accept", true)), args: with("match", "duel")},
	}
	// Every move kind: the selections succeed, the rest meet the betting.
	for _, m := range []struct {
		actor, kind string
		ok          bool
		kv          []any
	}{
		{ada, "select", true, []any{"cards", suitCards("Hearts", 2, 7)}},
		{bob, "select", true, []any{"cards", suitCards("Clubs", 2, 6)}},
		{bob, "pass", false, nil},
		{ada, "raise", false, []any{"amount", 3}},
		{bob, "match", false, nil},
		{ada, "bet", false, []any{"amount", 1}},
		{bob, "decline", false, nil},
		{ada, "play", false, []any{"card", "7 of Hearts"}},
		{ada, "add", false, []any{"card", "8 of Hearts"}},
		{ada, "giver", false, []any{"target", bob}},
		{ada, "give", false, []any{"card", "9 of Hearts"}},
		{ada, "target", false, []any{"targets", []string{bob}}},
		{bob, "terminate", false, nil},
		{ada, "forfeit", true, nil},
	} {
		body, args := moveOn(m.kind, m.kv...)
		steps = append(steps, routeStep{cmd: "match-" + m.kind, actor: m.actor, alias: "/matches/{duel}/moves", ok: m.ok, body: body, args: args})
	}
	steps = append(steps, []routeStep{
		{cmd: "duel-request", actor: ada, alias: "/duels", ok: true, keep: idOf("duel2", "id"), body: fixed(gildedhall.RequestDuel{Invitees: []string{bob}})},
		{cmd: "duel-decline", actor: bob, alias: "/duels/{duel2}/answer", ok: true, body: fixed(obj("accept", false)), args: with("match", "duel2")},
		{cmd: "battle-engage", actor: bob, alias: "/battles/engage"},
		{cmd: "proposal-submit", actor: ada, alias: "/proposals", ok: true, keep: idOf("proposal", "id"),
			body: fixed(game.SubmitProposal{Message: msg("3100"), Title: "More", Text: "Let there be more."})},
		{cmd: "proposal-withdraw", actor: ada, alias: "/proposals/{proposal}/withdraw", ok: true, args: with("proposal", "proposal")},
		{cmd: "push-message-event", actor: admin, alias: "/message-events", ok: true, body: fixed(game.MessageEvent{Message: msg("3101"), Event: "edited"})},
		{cmd: "judge-candidacy", actor: ada, alias: "/candidacies", ok: true, body: fixed(game.StandForJudge{Message: msg("2700")})},
		{cmd: "push-reactions", actor: admin, alias: "/reactions", ok: true, body: fixed(game.PushReactions{Message: msg("2700"), Up: voters[:3], Down: voters[3:4]})},
		{cmd: "justice-request", actor: voters[0], alias: "/justice", ok: true, keep: idOf("request", "request", "id"),
			before: func(e *env) { e.setClock(time.Date(2026, 12, 7, 0, 0, 1, 0, time.UTC)) },
			body:   fixed(game.RequestJustice{Kind: governance.KindStatement, Text: "Gifts may be given to oneself.", Message: msg("2801")})},
		{cmd: "ruling", actor: ada, alias: "/justice/{request}/rulings", ok: true, keep: idOf("ruling", "id"),
			body: fixed(obj("answer", "FALSE")), args: with("request", "request", "answer", "FALSE")},
		{cmd: "confidence-open", actor: voters[1], alias: "/rulings/{ruling}/confidence", ok: true,
			body: fixed(obj("poll", msg("2901"))), args: with("ruling", "ruling", "poll", msg("2901"))},
		{cmd: "ruling-overturn", actor: ada, alias: "/rulings/{ruling}/overturn", args: with("ruling", "ruling")},
		{cmd: "judge-removal-assent", actor: voters[2], alias: "/judge/removal-assents"},
		{cmd: "judge-resign", actor: ada, alias: "/judge/resign"},
		{cmd: "revoke", actor: admin, alias: "/revocations", ok: true, body: fixed(obj("player", bob, "vertebrae", 1, "reason", "commands test"))},
		{cmd: "import", actor: admin, alias: "/imports", ok: true, keep: idOf("import", "id"), body: fixed(obj("reason", "commands test", "rows", []any{
			obj("player", bob, "vertebrae", 3, "cards", []any{obj("name", "7 of Hearts", "count", 2)}),
			obj("player", "discord:7000", "name", "Newcomer", "packs", []any{obj("pack", "handy-pack")})}))},
		{cmd: "import-revoke", actor: admin, alias: "/import-revocations", ok: true, body: func(ids map[string]string) any { return obj("import", ids["import"], "reason", "commands test") }},
		{cmd: "amend", actor: admin, alias: "/amendments", ok: true, body: fixed(obj("patch", amendPatch, "reason", "commands test"))},
		{cmd: "leave", actor: cy, alias: "/leave", ok: true},
		{cmd: "join", actor: "discord:5000", alias: "/join", ok: true, body: fixed(game.JoinGame{Name: "Dee"})},
	}...)
	return steps
}

func cardGrants(names []string) []gildedhall.CardGrant {
	var out []gildedhall.CardGrant
	for _, n := range names {
		out = append(out, gildedhall.CardGrant{Name: n})
	}
	return out
}

// aliasPath fills the alias's {name} placeholders from ids.
func aliasPath(alias string, ids map[string]string) string {
	for k, v := range ids {
		alias = strings.ReplaceAll(alias, "{"+k+"}", v)
	}
	return "/v1/games/" + gameID + alias
}

// Issue 12: POST /v1/games/{game}/commands/{name} runs every command of the
// catalogue an edge may call. Two identical Gilded Hall games, each over a
// service with the same seeded randomness, are played with the same
// commands, one through the alias routes and one through the new route:
// every answer (status, body, replay header) is the same byte for byte, and
// so is the game's whole partition (items, versions, due times, log) after
// every step. The representative commands (grants, purchase, open, gift,
// roll, trade offer, accept and withdraw, duel request, accept and decline,
// moves, proposals, pushes, candidacy, justice, ruling, confidence,
// revocation, amendment, leave, join) succeed; the rest meet the game's state
// the same way on both routes. Sent again by the alias with the same
// idempotency key, a command of the new route is replayed: it is one
// command under two names.
func TestCommandsRouteDoesWhatTheAliasesDo(t *testing.T) {
	worlds := [2]*env{detEnv(t), detEnv(t)}
	for _, e := range worlds {
		e.mustStatus(e.Post("/v1/games", "create-1", game.CreateGame{ID: gameID, Name: "The Gilded Hall"}), http.StatusCreated)
		for _, p := range append([]string{ada, bob, cy}, voters[:4]...) {
			e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/join", Actor: p, Idem: "join-" + p}), http.StatusOK)
		}
	}
	steps := routeSteps(pricePatch(t, worlds[0], 4))
	covered := map[string]bool{}
	ids := [2]map[string]string{{}, {}}
	for i, s := range steps {
		covered[s.cmd] = true
		idem := fmt.Sprintf("step-%d", i)
		var got [2]*apitest.Response
		for w, e := range worlds {
			if s.before != nil {
				s.before(e)
			}
			e.clock.Advance(time.Second)
			var body any
			if s.body != nil {
				body = s.body(ids[w])
			}
			if w == 0 {
				got[w] = e.Do(apitest.Call{Method: "POST", Path: aliasPath(s.alias, ids[w]), Actor: s.actor, Idem: idem, Body: body})
			} else {
				args := body
				if s.args != nil {
					args = s.args(ids[w])
				}
				got[w] = e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/commands/" + s.cmd, Actor: s.actor, Idem: idem, Body: args})
			}
			if s.keep != nil {
				s.keep(ids[w], got[w].Body)
			}
		}
		a, c := got[0], got[1]
		where := fmt.Sprintf("step %d (%s by %s)", i, s.cmd, s.actor)
		if a.Status != c.Status || !bytes.Equal(a.Body, c.Body) {
			t.Fatalf("%s: the alias answers %d %s\nthe commands route %d %s", where, a.Status, a.Body, c.Status, c.Body)
		}
		if s.ok && a.Status >= 300 {
			t.Fatalf("%s: refused %d %s", where, a.Status, a.Body)
		}
		if a.Status < 300 {
			t.Logf("%s: %d", where, a.Status)
		} else {
			t.Logf("%s: %d %s", where, a.Status, a.Problem(t).Code)
			if code := a.Problem(t).Code; code == "unknown_command" || code == "not_in_ruleset" || code == "invalid_json" {
				t.Fatalf("%s: refused %s, not by the game's state", where, code)
			}
		}
		if pa, pc := storetest.Partition(t, worlds[0].svc.Store(), gameID), storetest.Partition(t, worlds[1].svc.Store(), gameID); pa != pc {
			t.Fatalf("%s: the games differ\n%s", where, firstDifference(pa, pc))
		}
		if s.ok {
			// The alias, sent the same key, replays the new route's answer.
			e := worlds[1]
			var body any
			if s.body != nil {
				body = s.body(ids[1])
			}
			r := e.Do(apitest.Call{Method: "POST", Path: aliasPath(s.alias, ids[1]), Actor: s.actor, Idem: idem, Body: body})
			if r.Header.Get(httpapi.HeaderReplayed) != "true" || !bytes.Equal(r.Body, c.Body) {
				t.Fatalf("%s: the alias with the same key answers %d (replayed %q) %s, want the replay of %s", where, r.Status, r.Header.Get(httpapi.HeaderReplayed), r.Body, c.Body)
			}
		}
	}
	for _, cmd := range rulesets.Registry().Catalogue() {
		// The game here is Gilded Hall's: the Obelisk's commands have no
		// alias route (only this one), and TestR3_EveryCommandThroughTheCommandsRoute
		// runs them in an obelisk game.
		if cmd.Call != nil && !covered[cmd.Name] && rulesets.Registry().RulesetHas("gilded-hall", cmd.Institution) {
			t.Errorf("command %s is callable but no step of this test runs it", cmd.Name)
		}
	}
}

// firstDifference shows the first line where the alias's game (a) and the
// commands route's (c) differ.
func firstDifference(a, c string) string {
	la, lc := strings.Split(a, "\n"), strings.Split(c, "\n")
	for i := range max(len(la), len(lc)) {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lc) {
			y = lc[i]
		}
		if x != y {
			return fmt.Sprintf("alias:          %s\ncommands route: %s", x, y)
		}
	}
	return ""
}

// commandArgs is the body of POST .../commands/{name} for each command an
// edge may call: the alias's body of commandCalls, with the record the
// alias's path names moved into it.
func commandArgs(name string) any {
	body := commandCalls("x")[name].Body
	poll := map[string]string{"platform": "discord", "channel": "700", "message": "m-c"}
	switch name {
	case "trade-accept", "trade-withdraw":
		return obj("trade", "t-1")
	case "proposal-withdraw":
		return obj("proposal", "p-1")
	case "ruling":
		return obj("request", "r-1", "answer", "Because.")
	case "ruling-overturn":
		return obj("ruling", "r-1-1")
	case "confidence-open":
		return obj("ruling", "r-1-1", "poll", poll)
	case "duel-accept", "duel-decline":
		return obj("match", "d-1")
	}
	if move, ok := body.(map[string]any); ok && strings.HasPrefix(name, "match-") {
		m := obj("match", "m-1")
		for k, v := range move {
			if k != "kind" {
				m[k] = v
			}
		}
		return m
	}
	return body
}

// RULINGS R3 through the one route shape: against a game of each ruleset,
// every command an edge may call that the ruleset lacks is 422
// not_in_ruleset and leaves the game's partition byte for byte as it was;
// what the ruleset has is never refused so. A name that is no command to
// call (the scheduler's, create, bind, none) is 404 unknown_command listing
// what the game's ruleset offers on the route, also changing nothing.
func TestR3_EveryCommandThroughTheCommandsRoute(t *testing.T) {
	e := newEnv(t)
	for id := range rulesetTitles {
		g := "g-" + id
		e.mustStatus(e.Post("/v1/games", "create-"+id, game.CreateGame{ID: g, Ruleset: id}), http.StatusCreated)
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + g + "/join", Actor: ada, Idem: "join-ada-" + id, Body: game.JoinGame{Name: "Ada"}}), http.StatusOK)
	}
	refused := map[string]int{}
	for id, title := range rulesetTitles {
		g := "g-" + id
		for _, cmd := range rulesets.Registry().Catalogue() {
			before := storetest.Partition(t, e.svc.Store(), g)
			r := e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + g + "/commands/" + cmd.Name, Idem: "cmd-" + cmd.Name, Body: commandArgs(cmd.Name),
				Bad: cmd.Call == nil})
			var p struct {
				Code, Detail, Ruleset, Command string
				Commands                       []string
			}
			_ = json.Unmarshal(r.Body, &p)
			switch {
			case cmd.Call == nil:
				if r.Status != http.StatusNotFound || p.Code != "unknown_command" || p.Command != cmd.Name || p.Ruleset != id ||
					fmt.Sprint(p.Commands) != fmt.Sprint(rulesets.Registry().CallableIn(id)) || !strings.Contains(p.Detail, fmt.Sprintf("in the %s game %q", title, g)) {
					t.Errorf("%s %s: %d %s, want 404 unknown_command listing %v", id, cmd.Name, r.Status, r.Body, rulesets.Registry().CallableIn(id))
				}
			case rulesets.Registry().RulesetHas(id, cmd.Institution):
				if p.Code == "not_in_ruleset" || p.Code == "unknown_command" {
					t.Errorf("%s %s: refused %s, but %s has %s: %s", id, cmd.Name, p.Code, id, cmd.Institution, r.Body)
				}
				continue
			default:
				if r.Status != http.StatusUnprocessableEntity || p.Code != "not_in_ruleset" || p.Ruleset != id ||
					!strings.Contains(p.Detail, fmt.Sprintf("The %s game %q has no ", title, g)) {
					t.Errorf("%s %s: %d %s, want 422 not_in_ruleset", id, cmd.Name, r.Status, r.Body)
				}
				refused[id]++
			}
			if after := storetest.Partition(t, e.svc.Store(), g); after != before {
				t.Errorf("%s %s: the refusal changed the game:\n%s", id, cmd.Name, firstDifference(before, after))
			}
		}
		before := storetest.Partition(t, e.svc.Store(), g)
		r := e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + g + "/commands/nope", Idem: "nope", Body: map[string]any{}})
		if p := r.Problem(t); r.Status != http.StatusNotFound || p.Code != "unknown_command" || !strings.Contains(p.Detail, `There is no command "nope"`) {
			t.Errorf("%s nope: %d %s, want 404 unknown_command", id, r.Status, r.Body)
		}
		if storetest.Partition(t, e.svc.Store(), g) != before {
			t.Errorf("%s nope: the refusal changed the game", id)
		}
	}
	// Obelisk lacks cards and Exoptosis (7 + 4 + 13 commands), turns those
	// and trades and governance (+ 3 + 9) and the Obelisk's (+ 9), Gilded
	// Hall the Obelisk's 9, as through the aliases; the obelisk and Gilded
	// Hall lack the turns' own 11 too.
	if want := map[string]int{"gilded-hall": 20, "obelisk": 35, "turns": 45}; fmt.Sprint(refused) != fmt.Sprint(want) {
		t.Errorf("refusals by ruleset %v, want %v", refused, want)
	}
	if r := e.Post("/v1/games/no-such-game/commands/nope", "nope", map[string]any{}); r.Status != http.StatusNotFound || r.Problem(t).Code != "game_not_found" {
		t.Errorf("an unknown command of an unknown game: %d %s, want 404 game_not_found", r.Status, r.Body)
	}
}

// Bad input on the new route gets the problem the alias gives (the same
// decoding: strict JSON objects, the size bound, the media type, the actor
// header), and changes nothing.
func TestCommandsRouteRefusesBadInputAsTheAliasesDo(t *testing.T) {
	e := withGame(t)
	base := "/v1/games/" + gameID
	before := storetest.Partition(t, e.svc.Store(), gameID)
	for _, c := range []struct {
		name, alias, cmd string
		body             any
		ct, actor        string
		status           int
		code             string
	}{
		{"malformed JSON", "/purchases", "purchase", `{"item":`, "", ada, 400, "invalid_json"},
		{"an unknown field", "/purchases", "purchase", `{"item":"random-card","colour":"red"}`, "", ada, 400, "invalid_json"},
		{"a field of the wrong type", "/purchases", "purchase", `{"item":"random-card","quantity":"two"}`, "", ada, 400, "invalid_json"},
		{"data after the object", "/gifts", "gift", `{"to":"discord:1000"}{}`, "", ada, 400, "invalid_json"},
		{"no body", "/gifts", "gift", nil, "", ada, 400, "invalid_json"},
		{"an oversized body", "/rolls", "roll", `{"dice":"1d6","reason":"` + strings.Repeat("x", httpapi.MaxBodyBytes) + `"}`, "", ada, 413, "body_too_large"},
		{"another media type", "/rolls", "roll", `{"dice":"1d6"}`, "text/plain", ada, 415, "unsupported_media_type"},
		{"no actor", "/rolls", "roll", `{"dice":"1d6"}`, "", "-", 400, "missing_actor"},
		{"a bare command with a body", "/leave", "leave", `{"now":true}`, "", ada, 400, "invalid_json"},
	} {
		var got [2]*apitest.Response
		for i, path := range []string{base + c.alias, base + "/commands/" + c.cmd} {
			call := apitest.Call{Method: "POST", Path: path, Actor: c.actor, Idem: "bad-" + c.name, Body: c.body, ContentType: c.ct, Bad: true}
			if c.actor == "-" {
				call.Actor, call.Header = "", http.Header{httpapi.HeaderActor: {" "}}
			}
			got[i] = e.Do(call)
		}
		a, n := got[0].Problem(t), got[1].Problem(t)
		if got[0].Status != c.status || a.Code != c.code {
			t.Errorf("%s on the alias: %d %s, want %d %s", c.name, got[0].Status, got[0].Body, c.status, c.code)
		}
		if got[1].Status != got[0].Status || n.Code != a.Code || n.Detail != a.Detail {
			t.Errorf("%s: the commands route answers %d %s, the alias %d %s", c.name, got[1].Status, got[1].Body, got[0].Status, got[0].Body)
		}
	}
	if after := storetest.Partition(t, e.svc.Store(), gameID); after != before {
		t.Errorf("bad input changed the game:\n%s", firstDifference(before, after))
	}
}

// The key's scopes apply on the new route as on the aliases: the actor, the
// game, and what a push speaks for (its voters and its message's platform).
func TestCommandsRouteAppliesTheKeysScopes(t *testing.T) {
	e := newCredEnv(t, "bolt")
	before := e.snapshot()
	for _, c := range []struct {
		name, key, actor, path, body string
		status                       int
		code                         string
	}{
		{"slack key as discord:1", "slack-key", "discord:1", "/v1/games/hall-a/commands/roll", `{"dice":"1d6"}`, 403, "actor_out_of_scope"},
		{"hall-a admin key grants in hall-b", "admin-a-key", admin, "/v1/games/hall-b/commands/grant", `{"player":"discord:2000","vertebrae":500,"reason":"x"}`, 403, "game_out_of_scope"},
		{"slack key pushes Discord votes", "slack-key", "slack:U1", "/v1/games/hall-a/commands/push-reactions",
			`{"message":{"platform":"slack","channel":"C1","message":"M1"},"op":"add","up":["discord:2000"]}`, 403, "actor_out_of_scope"},
		{"slack key pushes votes on a Discord message", "slack-key", "slack:U1", "/v1/games/hall-a/commands/push-reactions",
			`{"message":{"platform":"discord","channel":"C1","message":"M1"},"op":"add","up":["slack:U1"]}`, 403, "platform_out_of_scope"},
		{"slack key reports on a Discord message", "slack-key", "slack:U1", "/v1/games/hall-a/commands/push-message-event",
			`{"message":{"platform":"discord","channel":"C1","message":"M1"},"event":"deleted"}`, 403, "platform_out_of_scope"},
		{"an in-scope non-admin still cannot grant", "slack-key", "slack:U1", "/v1/games/hall-a/commands/grant", `{"player":"slack:U1","vertebrae":500,"reason":"x"}`, 403, "forbidden"},
	} {
		if s, p, b := e.do(c.key, c.actor, "POST", c.path, c.body); s != c.status || p.Code != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, s, b, c.status, c.code)
		}
	}
	if after := e.snapshot(); after != before {
		t.Fatalf("refused requests changed the store:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	e.must("slack-key", "slack:U1", "POST", "/v1/games/hall-a/commands/push-reactions",
		`{"message":{"platform":"slack","channel":"C1","message":"M1"},"op":"add","up":["slack:U1"]}`, http.StatusOK)
	e.must("admin-a-key", admin, "POST", "/v1/games/hall-a/commands/grant", `{"player":"discord:2000","vertebrae":5,"reason":"prize"}`, http.StatusOK)
}
