package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/dynamo"
	"croupier/internal/store/storetest"
	"croupier/internal/testenv"
)

// EnvScalePlayers sets how many players TestScale_PhaseEndWithABattleOfEveryone
// seeds: 1,500 in `make test`, 10,000 in `make scale`.
const EnvScalePlayers = "CROUPIER_SCALE_PLAYERS"

// seedPlayers writes n player records straight to the store, in the
// documented layout (docs/architecture.md, Storage), 99 to a commit:
// record(i) gives the i-th player's id and record.
func seedPlayers(t *testing.T, st store.Store, gameID string, n int, record func(i int) (string, any)) {
	t.Helper()
	var puts []store.Put
	commit := func() {
		if err := st.Commit(context.Background(), store.Tx{Puts: puts}); err != nil {
			t.Fatalf("seeding: %v", err)
		}
		puts = nil
	}
	for i := range n {
		id, rec := record(i)
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		puts = append(puts, store.Put{Item: store.Item{Key: store.Key{PK: "GAME#" + gameID, SK: "PLAYER#" + id}, Data: data}})
		if len(puts) == store.MaxTxItems-1 {
			commit()
		}
	}
	if len(puts) > 0 {
		commit()
	}
}

// Acceptance (issue 11, point 6): a game of thousands of players on
// DynamoDB Local, all engaged in the phase's battle. The phase end (the
// period end and the battle's setup) completes, the selection deadline
// leaves the few who can hold a hand (X1), GET /players pages through
// everyone, and no item any commit wrote is over the item limit: the
// period-end entry holds counts and samples, the activity lists and the
// battle's entrants live in their own items. Most players are written
// straight to the store, in the documented layout (docs/architecture.md,
// Storage), 99 to a commit; 20 join, are granted cards and engage through
// the API. The times are logged, never asserted.
func TestScale_PhaseEndWithABattleOfEveryone(t *testing.T) {
	n := 1500
	if s := os.Getenv(EnvScalePlayers); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 100 {
			t.Fatalf("%s=%q: want a number of players of at least 100", EnvScalePlayers, s)
		}
		n = v
	}
	const viaAPI = 20
	ctx := context.Background()
	client, table := testenv.DynamoTable(t, "scale")
	st := storetest.NewSizes(dynamo.New(client, table))
	clk := clock.NewManual(t0)
	svc := rulesets.New(st, clk, game.WithLogger(quiet()))
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, Logger: quiet(), Version: "test"})
	e := &env{Client: apitest.NewServer(t, httpapi.OpenAPI, api), clock: clk, svc: svc}
	e.Key, e.Actor = testKey, admin
	g := "/v1/games/" + gameID
	e.mustStatus(e.Post("/v1/games", "create", game.CreateGame{ID: gameID, Name: "The Crowded Hall"}), http.StatusCreated)
	view, err := svc.Game(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	period := view.Period.ID

	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 6))
	start := time.Now()
	var want []string
	seedPlayers(t, st, gameID, n-viaAPI, func(i int) (string, any) {
		id := fmt.Sprintf("discord:%d", 100000+i)
		want = append(want, id)
		p := gildedhall.Player{Player: players.Player{ID: id, Name: fmt.Sprint("Player ", i), Member: true, JoinedAt: t0, JoinPeriod: period,
			ActionPeriods: []string{period}}, BattlePeriod: period, Inventory: players.Inventory{Chips: 2}}
		for j, c := range rng.Perm(len(rs.Cards))[:6] {
			p.Inventory.Cards = append(p.Inventory.Cards, players.Card{ID: fmt.Sprintf("s%d-%d", i, j), Name: rs.Cards[c].Name})
		}
		return id, p
	})
	for i := range viaAPI {
		id := fmt.Sprintf("slack:U%06d", i)
		want = append(want, id)
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/join", Actor: id, Idem: "join", Body: game.JoinGame{Name: id}}), http.StatusOK)
		e.mustStatus(e.Post(g+"/grants", "grant-"+id, gildedhall.Grant{Player: id, RandomCards: 8, Reason: "scale test"}), http.StatusOK)
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/battles/engage", Actor: id, Idem: "engage"}), http.StatusOK)
	}
	slices.Sort(want)
	t.Logf("%d players joined and engaged in %v (%d through the API)", n, time.Since(start).Round(time.Millisecond), viaAPI)

	// The phase ends: the period end, then the battle's setup.
	clk.Set(view.Period.End.Add(time.Minute))
	start = time.Now()
	rep, err := svc.RunDue(ctx)
	phaseEnd := time.Since(start)
	battle := "b-" + period
	if err != nil || len(rep.Failed) > 0 || !slices.Contains(rep.Transitions, gameID+"/"+period) || !slices.Contains(rep.Done["match"], gameID+"/"+battle) {
		t.Fatalf("the phase end and the battle's setup: %+v %v", rep, err)
	}
	t.Logf("phase end of %d players with a %d-player battle: %v", n, n, phaseEnd.Round(time.Millisecond))

	var ended *game.PeriodEnded
	for _, en := range e.logEntries(gameID) {
		if en.Command == "period-end" {
			var r game.PeriodEnded
			if err := json.Unmarshal(en.Response, &r); err != nil {
				t.Fatal(err)
			}
			ended = &r
			b, _ := json.Marshal(en)
			t.Logf("the period-end entry: %d bytes, %d activity items", len(b), r.ActivityPages)
		}
	}
	if ended == nil || ended.ActiveCount != n || ended.InactiveCount != 0 || len(ended.Active) != game.ActivitySample || ended.ActivityPages < 1 {
		t.Fatalf("the period-end entry counts all %d as active with a sample of %d: %+v", n, game.ActivitySample, ended)
	}
	if act, _ := e.pages(g+"/periods/"+period+"/activity", "players", "player", game.MaxPageLimit); !slices.Equal(act, want) {
		t.Fatalf("the activity list names the %d players once each: %d listed", n, len(act))
	}

	var m gildedhall.MatchView
	e.mustStatus(e.Get(g+"/matches/"+battle), http.StatusOK).Decode(t, &m)
	if m.Status != gildedhall.MatchPlaying || m.Phase != "selection" || m.Entrants != n || m.Waiting != n || len(m.Participants) != 0 {
		t.Fatalf("a battle of all %d, waiting for their selections: status %s phase %s, %d entrants, %d waiting, %d seated",
			n, m.Status, m.Phase, m.Entrants, m.Waiting, len(m.Participants))
	}

	// The selection deadline: as many as the free names allow get random
	// hands, everyone else forfeits (X1, X7).
	clk.Set(m.Deadline.Add(time.Minute))
	start = time.Now()
	rep, err = svc.RunDue(ctx)
	deadline := time.Since(start)
	if err != nil || len(rep.Failed) > 0 || !slices.Contains(rep.Done["match"], gameID+"/"+battle) {
		t.Fatalf("the selection deadline: %+v %v", rep, err)
	}
	m = gildedhall.MatchView{}
	e.mustStatus(e.Get(g+"/matches/"+battle), http.StatusOK).Decode(t, &m)
	active := 0
	for _, p := range m.Participants {
		if p.Status == "active" {
			active++
		}
	}
	if m.Phase != "betting" || m.Waiting != 0 || active < 2 || active > 13 || len(m.Participants) != active {
		t.Fatalf("betting among the few holding hands (54/4 at most): phase %s, %d waiting, %d active of %d seated",
			m.Phase, m.Waiting, active, len(m.Participants))
	}
	forfeits := 0
	for _, en := range e.logEntries(gameID) {
		for _, ev := range en.Events {
			if ev.Type == "match_forfeits" {
				var d struct{ Count int }
				_ = json.Unmarshal(ev.Data, &d)
				forfeits += d.Count
			}
		}
	}
	if forfeits != n-active {
		t.Fatalf("the log counts the %d who could not select: %d", n-active, forfeits)
	}
	t.Logf("selection deadline of the %d-player battle: %v; %d hold hands", n, deadline.Round(time.Millisecond), active)

	start = time.Now()
	got, pages := e.pages(g+"/players", "players", "id", game.MaxPageLimit)
	if !slices.Equal(got, want) {
		t.Fatalf("GET /players pages through the %d players once each in id order: %d listed", n, len(got))
	}
	t.Logf("GET /players: %d players in %d pages of at most %d, %v", n, pages, game.MaxPageLimit, time.Since(start).Round(time.Millisecond))

	kind, size := st.Largest()
	if size > storetest.MaxGameItemBytes {
		t.Fatalf("a %s item of %d bytes was written, over %d", kind, size, storetest.MaxGameItemBytes)
	}
	t.Logf("%d items written; the largest: %s, %d bytes (at most %d); largest by kind: %s", st.Items(), kind, size, storetest.MaxGameItemBytes, st)
}
