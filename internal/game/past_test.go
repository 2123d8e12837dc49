package game_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/store"
)

// views is what a reader sees of the Ledger game now: the game, the
// players, each player's status.
func views(t *testing.T, svc *game.Service, ids []string) string {
	t.Helper()
	ctx := context.Background()
	g, err := svc.Game(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := svc.Players(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{"game": g, "players": ps}
	for _, id := range ids {
		if v, err := svc.Player(ctx, "hall", id); err == nil {
			out[id] = v
		} else {
			out[id] = gametest.RuleCode(err)
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// Issue 25 (RULINGS T6): the game at a moment is what the log says it was.
// At moments between joins, credits, departures and period ends, the
// views read live are recorded; afterwards the same views read through
// the past at each moment are byte for byte the recorded ones, and the
// replay of the whole log is the store (Explain finds nothing).
func TestT6_TheGameAtAMomentIsWhatItWasThen(t *testing.T) {
	for name, st := range map[string]store.Store{"bolt": gametest.Bolt(t)} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			svc, clk := newLedger(t, st)
			ids := []string{"discord:2", "discord:3", "discord:4"}
			type seen struct {
				at    time.Time
				views string
			}
			var record []seen
			look := func() {
				gametest.RunDue(t, svc)
				record = append(record, seen{clk.Now(), views(t, svc, ids)})
			}
			look()
			for i, id := range ids {
				clk.Advance(time.Hour)
				if _, err := svc.Join(ctx, gametest.Req(id, "j"+id), game.JoinGame{Name: fmt.Sprintf("Player %d", i)}); err != nil {
					t.Fatal(err)
				}
				look()
			}
			for i := range 6 {
				clk.Advance(20 * time.Hour)
				if _, err := credit(svc, ctx, gametest.Req(gametest.Admin, fmt.Sprint("c", i)), Credit{Player: ids[i%3], Points: i + 1, Reason: "test"}); err != nil {
					t.Fatal(err)
				}
				look()
			}
			clk.Advance(2 * time.Hour)
			if _, err := svc.Leave(ctx, gametest.Req(ids[1], "leave")); err != nil {
				t.Fatal(err)
			}
			look()
			clk.Advance(6 * 24 * time.Hour) // through a period end or two
			look()
			for _, r := range record {
				past, asOf, err := svc.Past(ctx, "hall", game.Moment{At: r.at})
				if err != nil {
					t.Fatal(err)
				}
				if got := views(t, past, ids); got != r.views {
					t.Errorf("at %s (as of entry %s) the past reads\n%s\nwhere it was read\n%s", r.at, asOf.Entry, got, r.views)
				}
			}
			diffs, _, err := svc.Explain(ctx, "hall")
			if err != nil || len(diffs) > 0 {
				t.Fatalf("the log does not explain the state: %v %+v", err, diffs)
			}
		})
	}
}

// scribble writes n items of notes too poorly compressible to fit, all
// of their changes, in one log entry: a commit as large as a battle's
// setup of thousands of entrants.
func scribble(s *game.Service, ctx context.Context, req game.Request, n int) (*game.Result, error) {
	return s.Run(ctx, game.Spec{Req: req, Command: "scribble", Body: n,
		Apply: func(t *game.Tx) (any, error) {
			rnd := gametest.Seeded(uint64(n))
			for i := range n {
				notes := make([]string, 2000)
				for j := range notes {
					notes[j] = fmt.Sprintf("%016x%016x", rnd.Uint64(), rnd.Uint64())
				}
				if err := t.Put(store.Key{PK: game.GamePK(t.Game), SK: fmt.Sprintf("NOTE#%02d", i)}, map[string]any{"notes": notes}, time.Time{}); err != nil {
					return nil, err
				}
			}
			t.Emit("scribbled", "", map[string]int{"items": n})
			return map[string]int{"items": n}, nil
		}})
}

func notebookModule() game.Module {
	return game.Module{ID: "notebook", Title: "Notebook", Data: "gilded-hall",
		NewPlayer: func(m game.Player) game.PlayerRecord { return &ledgerPlayer{Player: m} },
		Components: []game.Component{{Name: "notebook",
			Commands: []game.Command{{Name: "scribble", Institution: "notebook", What: "scribbles", Summary: "Write notes"}},
			Events:   map[string]game.Narration{"scribbled": {Sentence: func(game.Event, func(string) string) string { return "Notes written." }}},
		}},
	}
}

// A commit whose changes are too large for its entry keeps them in
// companion items of the same commit (about 2.2 MB of changes here, past
// the 400 KB of an item): nothing is dropped, the log and the replay read
// them back, and the log still explains the state.
func TestTheChangesOfALargeCommitAreKeptBesideItsEntry(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	svc, clk := gametest.NewGameOf(t, st, "notebook", notebookModule())
	before := clk.Now()
	clk.Advance(time.Minute)
	res, err := scribble(svc, ctx, gametest.Req(gametest.Admin, "big"), 30)
	if err != nil {
		t.Fatal(err)
	}
	it, err := st.Get(ctx, store.Key{PK: "GAME#hall", SK: "LOG#" + res.Entry.CommandID})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := game.DecodeEntry(it.Data)
	if err != nil || stored.Spilled < 2 || len(stored.Changes) != 0 || len(it.Data) > store.MaxItemBytes {
		t.Fatalf("the entry (%d bytes) keeps %d changes and spilled %d: %v", len(it.Data), len(stored.Changes), stored.Spilled, err)
	}
	var logged *game.Entry
	for _, e := range gametest.Entries(t, svc) {
		if e.CommandID == res.Entry.CommandID {
			logged = &e
		}
	}
	if logged == nil || len(logged.Changes) != 30 {
		t.Fatalf("the public log shows the entry with its 30 changes: %+v", logged)
	}
	if diffs, _, err := svc.Explain(ctx, "hall"); err != nil || len(diffs) > 0 {
		t.Fatalf("the log does not explain the state: %v %+v", err, diffs)
	}
	past, _, err := svc.Past(ctx, "hall", game.Moment{At: before})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := past.Store().Get(ctx, store.Key{PK: "GAME#hall", SK: "NOTE#00"}); got.Exists() {
		t.Fatal("the notes exist before they were written")
	}
}

// Around one entry: before:<entry> is the game without it, after:<entry>
// with it and nothing later, even when many entries share its moment (a
// manual clock dates them alike, as a turn end does its steps).
func TestT6_BeforeAndAfterAnEntryOfASharedMoment(t *testing.T) {
	ctx := context.Background()
	svc, _ := newLedger(t, gametest.Bolt(t))
	if _, err := svc.Join(ctx, gametest.Req("discord:2", "j"), game.JoinGame{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	seen := []string{views(t, svc, []string{"discord:2"})}
	for i := range 4 {
		res, err := credit(svc, ctx, gametest.Req(gametest.Admin, fmt.Sprint("c", i)), Credit{Player: "discord:2", Points: 1, Reason: "test"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Entry.ID)
		seen = append(seen, views(t, svc, []string{"discord:2"}))
	}
	for i, id := range ids {
		for _, m := range []game.Moment{{Entry: id}, {Entry: id, After: true}} {
			past, asOf, err := svc.Past(ctx, "hall", m)
			if err != nil {
				t.Fatal(err)
			}
			want := seen[i]
			if m.After {
				want = seen[i+1]
			}
			if got := views(t, past, []string{"discord:2"}); got != want {
				t.Errorf("%s (as of %s) reads\n%s\nwant\n%s", m, asOf.Entry, got, want)
			}
		}
	}
	if _, _, err := svc.Past(ctx, "hall", game.Moment{Entry: "01M8P570G0ZZZZZZZZZZZZZZZZ"}); gametest.RuleCode(err) != "entry_not_found" {
		t.Errorf("an entry not in the log: %v", err)
	}
	if _, _, err := svc.Past(ctx, "hall", game.Moment{At: gametest.Start.Add(-time.Hour)}); gametest.RuleCode(err) != "before_game" {
		t.Errorf("a moment before the game: %v", err)
	}
	if _, _, err := svc.Past(ctx, "hall", game.Moment{At: time.Now().Add(time.Hour)}); gametest.RuleCode(err) != "moment_in_future" {
		t.Errorf("a moment in the future: %v", err)
	}
	for _, bad := range []string{"yesterday", "before:xyz", "2026-13-01T00:00:00Z"} {
		if _, err := game.ParseMoment(bad); gametest.RuleCode(err) != "bad_moment" {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestT6_AnItemDeletedAndWrittenAgainIsReplayedInCommitOrder(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	id := "discord:2"
	var seen []time.Time
	var record []string
	look := func() {
		seen, record = append(seen, clk.Now()), append(record, views(t, svc, []string{id}))
	}
	for i := range 3 {
		clk.Advance(time.Hour)
		if _, err := svc.Join(ctx, gametest.Req(id, fmt.Sprint("j", i)), game.JoinGame{Name: "Ada"}); err != nil {
			t.Fatal(err)
		}
		look()
		if i == 2 {
			break
		}
		clk.Advance(time.Hour)
		if _, err := svc.Leave(ctx, gametest.Req(id, fmt.Sprint("l", i))); err != nil {
			t.Fatal(err)
		}
		look()
		clk.Advance(8 * 24 * time.Hour) // past the week a rejoin waits (RULINGS P1)
	}
	diffs, _, err := svc.Explain(ctx, "hall")
	if err != nil || len(diffs) > 0 {
		t.Fatalf("the log does not explain the state: %v %+v", err, diffs)
	}
	for i, at := range seen {
		past, _, err := svc.Past(ctx, "hall", game.Moment{At: at})
		if err != nil {
			t.Fatal(err)
		}
		if got := views(t, past, []string{id}); got != record[i] {
			t.Errorf("at %s the past reads\n%s\nwhere it was read\n%s", at, got, record[i])
		}
	}
}

func TestT6_AServerMovedToAnotherGameIsInBothLogs(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	b := game.Bind{Platform: "discord", Space: "777", Channels: map[string]string{game.ChannelAnnouncements: "555"}}
	if _, err := svc.Bind(ctx, gametest.Req(gametest.Admin, "bind"), b); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, game.Request{Actor: gametest.Admin, Key: "create-2"}, game.CreateGame{ID: "annex", Ruleset: ledgerID}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	before := clk.Now()
	clk.Advance(time.Hour)
	if _, err := svc.Bind(ctx, game.Request{Game: "annex", Actor: gametest.Admin, Key: "bind"}, b); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"hall", "annex"} {
		diffs, _, err := svc.Explain(ctx, g)
		if err != nil || len(diffs) > 0 {
			t.Errorf("the log of %s does not explain its state: %v %+v", g, err, diffs)
		}
	}
	spaces := func(s *game.Service) string {
		bs, err := s.Bindings(ctx, "hall")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(bs)
		return string(out)
	}
	past, _, err := svc.Past(ctx, "hall", game.Moment{At: before})
	if err != nil {
		t.Fatal(err)
	}
	if then, now := spaces(past), spaces(svc); then == now {
		t.Errorf("hall's bindings before the move read %s, as they read now", then)
	}
}

// A game whose log predates its changes (made before issue 25) is refused
// a read of its past in a sentence, not shown as no game at all.
func TestT6_AGameOlderThanItsChangesSaysSo(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	svc, clk := newLedger(t, st)
	if _, err := svc.Join(ctx, gametest.Req("discord:2", "j"), game.JoinGame{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	page, err := st.Query(ctx, store.Query{PK: "GAME#hall", Prefix: "LOG#", Index: store.IndexOrder})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range page.Items {
		e, err := game.DecodeEntry(it.Data)
		if err != nil {
			t.Fatal(err)
		}
		e.Changes = nil // as an entry written before issue 25
		it.Data, _ = json.Marshal(e)
		if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: it, Expect: it.Version}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := svc.Past(ctx, "hall", game.Moment{At: clk.Now()}); gametest.RuleCode(err) != "past_not_recorded" {
		t.Fatalf("the past of a game older than its changes: %v", err)
	}
}
