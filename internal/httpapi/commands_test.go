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
	"croupier/internal/store/bolt"
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
	svc := game.New(st, clk, game.WithLogger(quiet()), game.WithEntropy(rand.NewChaCha8([32]byte{12})))
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
		{cmd: "grant", actor: admin, alias: "/grants", ok: true, body: fixed(game.Grant{Player: ada, Vertebrae: 50, Chips: 10, Reason: "commands test",
			Cards: cardGrants(suitCards("Hearts", 2, 10)), Packs: []game.PackGrant{{Pack: "handy-pack"}}})},
		{cmd: "grant", actor: admin, alias: "/grants", ok: true, body: fixed(game.Grant{Player: bob, Chips: 10, Reason: "commands test",
			Cards: cardGrants(suitCards("Clubs", 2, 10))})},
		{cmd: "purchase", actor: ada, alias: "/purchases", ok: true, body: fixed(game.Purchase{Item: "random-card"})},
		{cmd: "open", actor: ada, alias: "/packs/open", ok: true, body: fixed(game.OpenPack{Pack: "handy-pack"})},
		{cmd: "gift", actor: ada, alias: "/gifts", ok: true, body: fixed(game.Gift{To: bob})},
		{cmd: "roll", actor: ada, alias: "/rolls", ok: true, body: fixed(game.RollDice{Dice: "2d6", Reason: "observe"})},
		{cmd: "trade-offer", actor: ada, alias: "/trades", ok: true, keep: idOf("trade", "id"),
			body: fixed(obj("to", bob, "give", obj("vertebrae", 2)))},
		{cmd: "trade-accept", actor: bob, alias: "/trades/{trade}/accept", ok: true, args: with("trade", "trade")},
		{cmd: "trade-offer", actor: ada, alias: "/trades", ok: true, keep: idOf("trade2", "id"),
			body: fixed(obj("to", bob, "give", obj("vertebrae", 1)))},
		{cmd: "trade-withdraw", actor: ada, alias: "/trades/{trade2}/withdraw", ok: true, args: with("trade", "trade2")},
		{cmd: "duel-request", actor: ada, alias: "/duels", ok: true, keep: idOf("duel", "id"), body: fixed(game.RequestDuel{Invitees: []string{bob}})},
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
		{cmd: "duel-request", actor: ada, alias: "/duels", ok: true, keep: idOf("duel2", "id"), body: fixed(game.RequestDuel{Invitees: []string{bob}})},
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
		{cmd: "amend", actor: admin, alias: "/amendments", ok: true, body: fixed(obj("patch", amendPatch, "reason", "commands test"))},
		{cmd: "leave", actor: cy, alias: "/leave", ok: true},
		{cmd: "join", actor: "discord:5000", alias: "/join", ok: true, body: fixed(game.JoinGame{Name: "Dee"})},
	}...)
	return steps
}

func cardGrants(names []string) []game.CardGrant {
	var out []game.CardGrant
	for _, n := range names {
		out = append(out, game.CardGrant{Name: n})
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
		if pa, pc := partition(t, worlds[0].svc.Store(), gameID), partition(t, worlds[1].svc.Store(), gameID); pa != pc {
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
	for _, cmd := range game.Catalogue() {
		if cmd.Call != nil && !covered[cmd.Name] {
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
