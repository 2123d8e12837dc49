package game_test

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// commandsInSource reads the package's code and returns every command name
// it runs or logs: each string given as a spec's command (spec{command:
// "..."}) or an entry's (Entry{Command: "..."}),
// assigned to a variable named command, or passed as the argument named
// command of any function that has one (justiceCommand, tradeCommand...);
// "match-" + a move kind stands for every move.
func commandsInSource(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	// The engine's, every module's (internal/rulesets/...) and every shared
	// institution's (internal/institutions/...) source.
	var files []string
	for _, glob := range []string{"*.go", "../rulesets/*/*.go", "../institutions/*/*.go"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	var parsed []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, file)
	}
	// Functions with a parameter named command, and its index.
	commandParam := map[string]int{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			i := 0
			for _, field := range fn.Type.Params.List {
				for _, n := range field.Names {
					if n.Name == "command" {
						commandParam[fn.Name.Name] = i
					}
					i++
				}
				if len(field.Names) == 0 {
					i++
				}
			}
		}
	}
	// String constants by name, for a command named by one.
	consts := map[string]string{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				for _, sp := range gd.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if b, ok := vs.Values[i].(*ast.BasicLit); ok && b.Kind == token.STRING {
								consts[n.Name], _ = strconv.Unquote(b.Value)
							}
						}
					}
				}
			}
		}
	}
	// computed are the commands named by a value computed at run time: the
	// expression as written, and what it can be.
	computed := map[string][]string{
		// The turns module's scheduled effects run as their due kind.
		"d.Kind": {consts["kindBegin"], consts["kindMiddle"], consts["kindEnd"], consts["kindDeadline"]},
	}
	var out []string
	lit := func(e ast.Expr) {
		switch v := e.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(v.Value); err == nil {
				out = append(out, s)
			}
		case *ast.Ident:
			if s, ok := consts[v.Name]; ok {
				out = append(out, s)
			}
		case *ast.SelectorExpr:
			// Most pass a name on (sp.Command); the computed ones are listed.
			if x, ok := v.X.(*ast.Ident); ok {
				out = append(out, computed[x.Name+"."+v.Sel.Name]...)
			}
		case *ast.BinaryExpr:
			if b, ok := v.X.(*ast.BasicLit); ok && b.Value == `"match-"` {
				for _, k := range gildedhall.MoveKinds() {
					out = append(out, "match-"+k)
				}
			} else {
				t.Errorf("%s: a command name built as %T; the test cannot read it", fset.Position(v.Pos()), v)
			}
		}
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			switch v := n.(type) {
			case *ast.KeyValueExpr:
				// spec{command: ...}, and Entry{Command: ...} of scheduled work.
				if k, ok := v.Key.(*ast.Ident); ok && (k.Name == "command" || k.Name == "Command") {
					lit(v.Value)
				}
			case *ast.AssignStmt:
				for i, l := range v.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "command" && i < len(v.Rhs) {
						lit(v.Rhs[i])
					}
				}
			case *ast.CallExpr:
				var name string
				switch fn := v.Fun.(type) {
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				case *ast.Ident:
					name = fn.Name
				}
				if i, ok := commandParam[name]; ok && i < len(v.Args) {
					lit(v.Args[i])
				}
			}
			return true
		})
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// The catalogue lists every command the service runs, and nothing it does
// not: a command added without its declaration fails here (and Service.run
// refuses it at run time).
func TestCatalogueListsEveryCommandTheServiceRuns(t *testing.T) {
	inSource := commandsInSource(t)
	if len(inSource) < 40 {
		t.Fatalf("found only %d commands in the source (%v): the scan is broken", len(inSource), inSource)
	}
	var declared []string
	for _, c := range rulesets.Registry().Catalogue() {
		declared = append(declared, c.Name)
		if c.Institution == "" || c.What == "" {
			t.Errorf("command %s has no institution or no name for refusals", c.Name)
		}
		if _, ok := rulesets.Registry().CommandNamed(c.Name); !ok {
			t.Errorf("command %s is not found by name", c.Name)
		}
	}
	for _, name := range inSource {
		if !slices.Contains(declared, name) {
			t.Errorf("the service runs %q, which the catalogue does not declare", name)
		}
	}
	for _, name := range declared {
		if !slices.Contains(inSource, name) {
			t.Errorf("the catalogue declares %q, which the service never runs", name)
		}
	}
	if d := slices.Clone(declared); len(slices.Compact(slices.Sorted(slices.Values(d)))) != len(declared) {
		t.Errorf("the catalogue declares a command twice: %v", declared)
	}
}

// RULINGS R3 as the catalogue states it: Gilded Hall has everything but
// the Obelisk's and the turns ruleset's own institutions, the Obelisk the
// common commands, trades,
// the 000 governance and its own (no cards, packs, Croupier, gifts, grants
// or Exoptosis), turns the common ones and its own (turns, the judiciary).
func TestR3_WhatEachRulesetHas(t *testing.T) {
	othersOwn := []string{"obelisk", "rituals", "banishment", "turns", "judiciary"}
	for _, c := range rulesets.Registry().Catalogue() {
		if got := rulesets.Registry().RulesetHas("gilded-hall", c.Institution); got == slices.Contains(othersOwn, c.Institution) {
			t.Errorf("gilded-hall has %s: %v", c.Name, got)
		}
	}
	has := func(id string) []string { return rulesets.Registry().CallableIn(id) }
	for _, tc := range []struct {
		ruleset   string
		has, lack []string
	}{
		{"obelisk", []string{"join", "leave", "roll", "trade-offer", "trade-accept", "proposal-submit", "justice-request", "ruling", "confidence-open", "judge-candidacy", "judge-resign",
			"task", "observe", "gathering-start", "gathering-contribute", "gathering-withdraw", "gathering-complete", "banishment-end"},
			[]string{"purchase", "open", "gift", "grant", "revoke", "duel-request", "battle-engage", "match-play"}},
		{"turns", []string{"join", "leave", "roll", "turns-propose", "turns-vote", "judgment-request", "judge-rule", "appeal-vote"},
			[]string{"purchase", "gift", "grant", "duel-request", "battle-engage", "match-play", "trade-offer", "proposal-submit", "justice-request", "judge-candidacy", "task", "gathering-start"}},
	} {
		got := has(tc.ruleset)
		for _, c := range tc.has {
			if !slices.Contains(got, c) {
				t.Errorf("%s lacks %s; it has %v", tc.ruleset, c, got)
			}
		}
		for _, c := range tc.lack {
			if slices.Contains(got, c) {
				t.Errorf("%s has %s", tc.ruleset, c)
			}
		}
	}
	if s, _ := rulesets.Registry().Shape("turns"); s.Seasons {
		t.Error("turns has seasons; seed 003 has none (RULINGS T2 is seed 002's)")
	}
}

// countingStore counts the requests a service makes.
type countingStore struct {
	store.Store
	mu                         sync.Mutex
	gets, getManys, commits, q int
}

func (c *countingStore) Get(ctx context.Context, k store.Key) (store.Item, error) {
	c.mu.Lock()
	c.gets++
	c.mu.Unlock()
	return c.Store.Get(ctx, k)
}

func (c *countingStore) GetMany(ctx context.Context, ks []store.Key) ([]store.Item, error) {
	c.mu.Lock()
	c.getManys++
	c.mu.Unlock()
	return c.Store.GetMany(ctx, ks)
}

func (c *countingStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	c.mu.Lock()
	c.q++
	c.mu.Unlock()
	return c.Store.Query(ctx, q)
}

func (c *countingStore) Commit(ctx context.Context, tx store.Tx) error {
	c.mu.Lock()
	c.commits++
	c.mu.Unlock()
	return c.Store.Commit(ctx, tx)
}

func (c *countingStore) reset() (gets, getManys, commits, queries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	gets, getManys, commits, queries = c.gets, c.getManys, c.commits, c.q
	c.gets, c.getManys, c.commits, c.q = 0, 0, 0, 0
	return
}

// A command the ruleset lacks is refused before anything but META is read
// (RULINGS R3): a process that has not seen the game makes its one read
// (META comes in it) and nothing more; one that has makes none at all.
// Neither commits.
func TestR3_RefusedBeforeAnythingButMetaIsRead(t *testing.T) {
	ctx := context.Background()
	cs := &countingStore{Store: gametest.Bolt(t)}
	clk := clock.NewManual(gametest.Start)
	setup := rulesets.New(cs, clk, game.WithEntropy(gametest.Seeded(1)))
	if _, err := setup.Create(ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: "hall", Ruleset: "obelisk"}); err != nil {
		t.Fatal(err)
	}
	if _, err := setup.Join(ctx, req("discord:2", "join"), game.JoinGame{}); err != nil {
		t.Fatal(err)
	}
	cold := rulesets.New(cs, clk, game.WithEntropy(gametest.Seeded(2)))
	cs.reset()
	_, err := gildedhall.On(cold).Gift(ctx, req("discord:2", "gift-1"), gildedhall.Gift{To: admin})
	if gametest.RuleCode(err) != "not_in_ruleset" {
		t.Fatalf("gift in an obelisk game: %v, want not_in_ruleset", err)
	}
	if g, gm, c, q := cs.reset(); g+gm+q != 1 || c != 0 {
		t.Errorf("cold refusal: %d gets, %d batch reads, %d queries, %d commits; want one read and no commit", g, gm, q, c)
	}
	for i, call := range []func() error{
		func() error {
			_, err := gildedhall.On(cold).Gift(ctx, req("discord:2", "gift-2"), gildedhall.Gift{To: admin})
			return err
		},
		func() error { _, err := gildedhall.On(cold).EngageBattle(ctx, req("discord:2", "battle")); return err },
		func() error { _, err := gildedhall.On(cold).Shop(ctx, "hall"); return err },
		func() error {
			_, err := gildedhall.On(cold).Grant(ctx, req(admin, "grant"), gildedhall.Grant{Player: "discord:2", Vertebrae: 1, Reason: "r"})
			return err
		},
	} {
		if err := call(); gametest.RuleCode(err) != "not_in_ruleset" {
			t.Errorf("call %d: %v, want not_in_ruleset", i, err)
		}
		if g, gm, c, q := cs.reset(); g+gm+q+c != 0 {
			t.Errorf("warm refusal %d: %d gets, %d batch reads, %d queries, %d commits; want none", i, g, gm, q, c)
		}
	}
	// What the ruleset has still runs, in the warm process too.
	if _, err := cold.Roll(ctx, req("discord:2", "roll"), game.RollDice{Dice: "1d6"}); err != nil {
		t.Errorf("roll in an obelisk game: %v", err)
	}
}

// rawPut writes an item as it is, bypassing the commands (state a ruleset's
// own commands cannot make: the test of a guard behind the refusal).
func rawPut(t *testing.T, st store.Store, k store.Key, v any, due time.Time) {
	t.Helper()
	it, err := st.Get(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(v)
	if err := st.Commit(context.Background(), store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data, Due: due}, Expect: it.Version}}}); err != nil {
		t.Fatal(err)
	}
}

// The scheduler runs only the due kinds and period-end hooks of each game's
// ruleset (RULINGS R3): an Obelisk game forms no battle at a phase's end
// even with a player marked engaged; a turns game's week end changes no
// season (seasons are seed 002's, RULINGS T2) and a trade timer in it does
// nothing. Gilded Hall, beside them, forms its battle and turns its season.
func TestR3_SchedulerRunsOnlyEachRulesetsWork(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	clk := clock.NewManual(gametest.Start)
	svc := rulesets.New(st, clk, game.WithEntropy(gametest.Seeded(1)))
	for _, g := range []struct{ id, ruleset string }{{"gh", "gilded-hall"}, {"ob", "obelisk"}, {"tu", "turns"}} {
		if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "create-" + g.id}, game.CreateGame{ID: g.id, Ruleset: g.ruleset}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Join(ctx, game.Request{Game: g.id, Actor: "discord:2", Key: "join-" + g.id}, game.JoinGame{}); err != nil {
			t.Fatal(err)
		}
	}
	// discord:2 engaged in this phase's battle in gh (by the command) and
	// in ob (stored directly: the Obelisk has no battle command to do it).
	if _, err := gildedhall.On(svc).Grant(ctx, game.Request{Game: "gh", Actor: admin, Key: "g"}, gildedhall.Grant{Player: "discord:2", RandomCards: 4, Reason: "deck"}); err != nil {
		t.Fatal(err)
	}
	eng, err := gildedhall.On(svc).EngageBattle(ctx, game.Request{Game: "gh", Actor: "discord:2", Key: "engage"})
	if err != nil {
		t.Fatal(err)
	}
	period := gametest.Decode[gildedhall.BattleEngagement](t, eng).Period
	pk := store.Key{PK: "GAME#ob", SK: "PLAYER#discord:2"}
	it, err := st.Get(ctx, pk)
	if err != nil {
		t.Fatal(err)
	}
	var p gildedhall.Player
	if err := json.Unmarshal(it.Data, &p); err != nil {
		t.Fatal(err)
	}
	p.BattlePeriod = period
	rawPut(t, st, pk, p, time.Time{})
	// A trade timer in the turns game (turns has no trades).
	tk := store.Key{PK: "GAME#tu", SK: "TRADE#t-1"}
	stale := trades.Trade{ID: "t-1", From: "discord:2", To: admin, Status: trades.TradeOpen, ExpiresAt: gametest.Start.Add(time.Hour)}
	rawPut(t, st, tk, stale, stale.ExpiresAt)

	// Past the end of the week: both phases of UTC week 49 and the turns
	// calendar's turn and interim.
	clk.Set(time.Date(2026, 12, 8, 12, 0, 0, 0, time.UTC))
	rep, err := svc.RunDue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed) > 0 {
		t.Fatalf("failed work: %v", rep.Failed)
	}
	battle := "b-" + period
	if _, err := gildedhall.On(svc).Match(ctx, "gh", battle, ""); err != nil {
		t.Errorf("gilded-hall: no battle %s after the phase end: %v", battle, err)
	}
	if it, err := st.Get(ctx, store.Key{PK: "GAME#ob", SK: "MATCH#" + battle}); err != nil || it.Exists() {
		t.Errorf("obelisk: a battle item %s exists (%v): the Obelisk has no battles", battle, err)
	}
	for id, want := range map[string]string{"gh": "Winter", "ob": "Winter", "tu": ""} {
		v, err := svc.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if v.Season != want {
			t.Errorf("%s: season %q after a week end, want %q", id, v.Season, want)
		}
	}
	page, err := svc.Log(ctx, "tu", "", 500)
	if err != nil {
		t.Fatal(err)
	}
	ends := 0
	for _, e := range page.Entries {
		if e.Command == "period-end" {
			ends++
		}
		for _, ev := range e.Events {
			if ev.Type == "season_changed" || strings.HasPrefix(ev.Type, "battle_") {
				t.Errorf("turns log has %s at %s", ev.Type, e.Command)
			}
		}
	}
	if ends == 0 {
		t.Error("turns: no period ended; the test proves nothing")
	}
	after, err := st.Get(ctx, tk)
	if err != nil {
		t.Fatal(err)
	}
	var tr trades.Trade
	_ = json.Unmarshal(after.Data, &tr)
	if tr.Status != trades.TradeOpen || after.Version != 1 {
		t.Errorf("turns: the trade timer ran (status %s, version %d): turns has no trades", tr.Status, after.Version)
	}
	for _, e := range rep.Expired {
		if strings.HasPrefix(e, "tu/") {
			t.Errorf("turns trade expired: %s", e)
		}
	}
}

// Every command a player, an admin or a bridge sends can be called by name
// (POST /v1/games/{game}/commands/{name}): it has a Call, with a payload
// type that decodes JSON, and the scheduler's commands have none. create
// (no game to name yet) and bind (only a chat platform proves who
// administers the server) are the two exceptions, by design.
func TestCatalogueCallsEveryCommandAnEdgeSends(t *testing.T) {
	notCalled := map[string]bool{"create": true, "bind": true}
	for _, c := range rulesets.Registry().Catalogue() {
		switch want := !c.Scheduled && !notCalled[c.Name]; {
		case want && c.Call == nil:
			t.Errorf("command %s has no Call: no edge can run it by name", c.Name)
		case !want && c.Call != nil:
			t.Errorf("command %s has a Call, but is the scheduler's or no edge's to call by name", c.Name)
		case want:
			p := c.Call.Payload()
			if err := json.Unmarshal([]byte(`{}`), p); err != nil {
				t.Errorf("command %s: its payload %T does not decode {}: %v", c.Name, p, err)
			}
		}
	}
	if got := rulesets.Registry().CallableIn("obelisk"); slices.Contains(got, "gift") || !slices.Contains(got, "trade-offer") || !slices.Contains(got, "push-reactions") {
		t.Errorf("the Obelisk's callable commands %v: want trades and pushes, no gifts", got)
	}
}

// Issue 24 point 7: one list of a ruleset's commands. The not_in_ruleset
// refusal, the unknown_command refusal and GET .../commands give the same
// names, in the same order, for a game of each ruleset; platform reports
// are in it, the scheduler's commands and bind are not.
func TestOneListOfCommandsForEveryAnswer(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	svc := rulesets.New(st, clock.NewManual(time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)))
	for _, id := range svc.Rulesets() {
		g := "g-" + id
		if _, err := svc.Create(ctx, game.Request{Actor: "discord:1", Key: "create-" + g}, game.CreateGame{ID: g, Ruleset: id}); err != nil {
			t.Fatal(err)
		}
		list, err := svc.Commands(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, c := range list.Commands {
			listed = append(listed, c.Name)
		}
		_, err = svc.Callable(ctx, g, "no-such-command")
		var unknown *rules.Error
		if !errors.As(err, &unknown) || unknown.Code != "unknown_command" {
			t.Fatalf("%s: an unknown command: %v", id, err)
		}
		notIn := svc.NotInRuleset(g, id, "x", "x")
		for what, got := range map[string]any{"unknown_command": unknown.Fields["commands"], "not_in_ruleset": notIn.Fields["commands"]} {
			if !slices.Equal(got.([]string), listed) {
				t.Errorf("%s: %s lists %v; GET .../commands lists %v", id, what, got, listed)
			}
		}
		for _, name := range []string{"push-reactions", "join"} {
			if !slices.Contains(listed, name) {
				t.Errorf("%s: the list lacks %s", id, name)
			}
		}
		for _, name := range []string{"bind", "period-end", "create"} {
			if slices.Contains(listed, name) {
				t.Errorf("%s: the list has %s, which no edge calls by name", id, name)
			}
		}
	}
}
