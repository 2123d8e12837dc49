package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store"
	"croupier/internal/store/dynamo"
	"croupier/internal/store/storetest"
	"croupier/internal/testenv"
)

// Acceptance (issue 22, point 1): an Obelisk game of thousands of players
// (CROUPIER_SCALE_PLAYERS, 1,500 in `make test`, 10,000 in `make scale`) on
// DynamoDB Local. An observation and a ritual whose effect grants every
// player components each succeed in one commit of at most 4 items: what
// every player gains is a game-level grant on the Obelisk (docs/
// rules-obelisk.md, "Grants to every player"). Afterwards every player's
// holdings are right in the players list (every page), in their status, in
// a trade (the traded 💎 is the ritual's) and in a task (its ⚡ is granted
// ⚡); a player who joined between the two grants has the second only; no
// item written is over 100 KB. Most players are written straight to the
// store, in the documented layout (docs/architecture.md, Storage), 99 to a
// commit; a few join through the API. The times are logged, never asserted.
func TestScale_AnObeliskObservationAndRitualOfEveryone(t *testing.T) {
	n := 1500
	if s := os.Getenv(EnvScalePlayers); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 100 {
			t.Fatalf("%s=%q: want a number of players of at least 100", EnvScalePlayers, s)
		}
		n = v
	}
	const viaAPI = 10
	const game1 = "stone-22"
	ctx := context.Background()
	client, table := testenv.DynamoTable(t, "scaleob")
	st := storetest.NewSizes(dynamo.New(client, table))
	clk := clock.NewManual(t0)
	svc := rulesets.New(st, clk, game.WithLogger(quiet()))
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, Logger: quiet(), Version: "test"})
	e := &env{Client: apitest.NewServer(t, httpapi.OpenAPI, api), clock: clk, svc: svc}
	e.Key, e.Actor = testKey, admin
	g := "/v1/games/" + game1
	e.mustStatus(e.Post("/v1/games", "create", game.CreateGame{ID: game1, Name: "The Crowded Stone", Ruleset: "obelisk"}), http.StatusCreated)
	view, err := svc.Game(ctx, game1)
	if err != nil {
		t.Fatal(err)
	}
	period := view.Period.ID
	// A ritual whose effect is on every player (RULINGS O8).
	boon := `{"id":"boon","name":"Boon","cost":{"herbs":1},"effects":[{"kind":"grant","target":"every-player","components":{"resolve":1,"crystals":1}}]}`
	e.mustStatus(e.Post(g+"/amendments", "amend-boon", game.Amend{Patch: json.RawMessage(`[{"op":"add","path":"/obelisk/ritualTypes/boon","value":` + boon + `}]`), Reason: "scale test"}), http.StatusOK)

	// want is every player's holdings as the test expects them.
	want := map[string]ruleset.Components{}
	seeded := func(i int) string { return fmt.Sprintf("discord:%d", 100000+i) }
	starter, spent, trader, taker := seeded(1), seeded(0), seeded(2), seeded(3)
	start := time.Now()
	seedPlayers(t, st, game1, n-viaAPI-1, func(i int) (string, any) {
		id := seeded(i)
		c := ruleset.Components{Resolve: 1} // the join's
		if i%10 == 0 {
			c.Resolve = 0 // spent on a task
		}
		if id == starter {
			c.Herbs = 1
		}
		want[id] = c
		p := obelisk.Player{Player: rob.Player{Player: players.Player{ID: id, Name: fmt.Sprint("Player ", i), Member: true, JoinedAt: t0, JoinPeriod: period,
			ActionPeriods: []string{period}}, Components: c}, TradesIndexed: true}
		return id, p
	})
	join := func(id string) {
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/join", Actor: id, Idem: "join", Body: game.JoinGame{Name: id}}), http.StatusOK)
		want[id] = ruleset.Components{Resolve: 1}
	}
	var joined []string
	for i := range viaAPI {
		id := fmt.Sprintf("slack:U%06d", i)
		joined = append(joined, id)
		join(id)
	}
	t.Logf("%d Obelisk players joined in %v (%d through the API)", n-1, time.Since(start).Round(time.Millisecond), viaAPI)

	// grantEveryone is what a grant to every member does to want.
	grantEveryone := func(c ruleset.Components) {
		for id := range want {
			want[id] = want[id].Plus(c)
		}
	}
	// measured runs one command and returns the items its commit wrote.
	measured := func(what string, run func()) []store.Key {
		t.Helper()
		before := st.Count()
		start := time.Now()
		run()
		took := time.Since(start)
		commits := st.Since(before)
		if len(commits) != 1 {
			t.Fatalf("%s: %d commits; want one", what, len(commits))
		}
		t.Logf("%s in a game of %d players: %v, %d items written (%v)", what, n, took.Round(time.Millisecond), len(commits[0]), commits[0])
		if len(commits[0]) > 4 {
			t.Errorf("%s wrote %d items; want at most 4, whatever the number of players", what, len(commits[0]))
		}
		return commits[0]
	}

	// The observation: every player gains 1⚡ (RULINGS O6).
	measured("the observation", func() {
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/commands/observe", Actor: joined[0], Idem: "observe", Body: map[string]any{}}), http.StatusOK)
	})
	grantEveryone(ruleset.Components{Resolve: 1})

	// A player who joins between the grants gets the second only.
	late := "slack:ULATE"
	join(late)

	// The ritual: started (the task costs 1⚡), its cost contributed, completed.
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/commands/gathering-start", Actor: starter, Idem: "start", Body: map[string]any{"ritual_type": "boon", "message": "m-boon"}}), http.StatusCreated)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/commands/gathering-contribute", Actor: starter, Idem: "give", Body: map[string]any{"gathering": "m-boon", "component": "🌿"}}), http.StatusOK)
	want[starter] = want[starter].Minus(ruleset.Components{Resolve: 1, Herbs: 1})
	measured("the completion of a ritual granting every player 1⚡ 1💎", func() {
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/commands/gathering-complete", Actor: starter, Idem: "complete", Body: map[string]any{"gathering": "m-boon"}}), http.StatusOK)
	})
	grantEveryone(ruleset.Components{Resolve: 1, Crystals: 1})
	if want[late] != (ruleset.Components{Resolve: 2, Crystals: 1}) || want[spent] != (ruleset.Components{Resolve: 2, Crystals: 1}) {
		t.Fatalf("the test's own expectations are off: late %s, %s %s", want[late], spent, want[spent])
	}

	// The players list, every page: everyone's holdings, caught up.
	start = time.Now()
	listed := map[string]ruleset.Components{}
	pages := 0
	for cursor := ""; ; pages++ {
		q := url.Values{"limit": {fmt.Sprint(game.MaxPageLimit)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page struct {
			Players []game.PlayerView `json:"players"`
			Next    string            `json:"next_cursor"`
		}
		e.mustStatus(e.Get(g+"/players?"+q.Encode()), http.StatusOK).Decode(t, &page)
		for _, v := range page.Players {
			s, ok := obelisk.StateOf(v)
			if !ok {
				t.Fatalf("the players list shows %s without Obelisk holdings", v.ID)
			}
			listed[v.ID] = s.Components
		}
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	if len(listed) != len(want) {
		t.Fatalf("the players list shows %d players; want %d", len(listed), len(want))
	}
	wrong := 0
	for id, c := range want {
		if listed[id] != c {
			if wrong++; wrong <= 5 {
				t.Errorf("the players list shows %s holding %s; want %s", id, listed[id], c)
			}
		}
	}
	if wrong > 0 {
		t.Fatalf("%d of %d players listed with the wrong holdings", wrong, len(want))
	}
	t.Logf("GET /players: %d players in %d pages, %v", len(listed), pages+1, time.Since(start).Round(time.Millisecond))

	// Their status, for the players each path could differ for.
	status := func(id string) ruleset.Components {
		t.Helper()
		var v game.PlayerView
		e.mustStatus(e.Get(g+"/players/"+id), http.StatusOK).Decode(t, &v)
		s, _ := obelisk.StateOf(v)
		return s.Components
	}
	for _, id := range append([]string{starter, spent, trader, taker, late, seeded(n - viaAPI - 2)}, joined...) {
		if got := status(id); got != want[id] {
			t.Errorf("the status of %s shows %s; want %s", id, got, want[id])
		}
	}

	// A task spends granted ⚡: this player had none of their own.
	var done obelisk.TaskDone
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/commands/task", Actor: spent, Idem: "task", Body: map[string]any{"task": "herbalism"}}), http.StatusOK).Decode(t, &done)
	want[spent] = want[spent].Plus(ruleset.Components{Resolve: -1}).Plus(done.Gained)
	if done.Holding != want[spent] || status(spent) != want[spent] {
		t.Errorf("after a task on granted ⚡ %s holds %s (status %s); want %s", spent, done.Holding, status(spent), want[spent])
	}

	// A trade of the ritual's 💎, checked and swapped on caught-up counts.
	var tr trades.Trade
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades", Actor: trader, Idem: "offer",
		Body: trades.OfferTrade{To: taker, Give: economy.Items{Components: ruleset.Components{Crystals: 1}}}}), http.StatusCreated).Decode(t, &tr)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades/" + tr.ID + "/accept", Actor: taker, Idem: "accept"}), http.StatusOK)
	want[trader] = want[trader].Minus(ruleset.Components{Crystals: 1})
	want[taker] = want[taker].Plus(ruleset.Components{Crystals: 1})
	for _, id := range []string{trader, taker} {
		if got := status(id); got != want[id] {
			t.Errorf("after the trade %s holds %s; want %s", id, got, want[id])
		}
	}

	if kind, size := st.Largest(); size > storetest.MaxGameItemBytes {
		t.Errorf("a %s item of %d bytes was written; want none over %d", kind, size, storetest.MaxGameItemBytes)
	}
	t.Logf("the largest item written of each kind: %s", st)
}
