package obelisk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store"
)

// admin administers the Obelisk's test games (the shared harness's).
const admin = gametest.Admin

// tb is what the helpers need of a test: a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// world is one obelisk game on a store, with a manual clock.
type world struct {
	t    tb
	ctx  context.Context
	svc  *game.Service
	ob   *obelisk.Service
	clk  *clock.Manual
	game string
	n    int
}

func newWorld(t testing.TB, st store.Store, season string) *world {
	t.Helper()
	clk := clock.NewManual(gametest.Start)
	svc := rulesets.New(st, clk, game.WithEntropy(gametest.Seeded(1)))
	w := &world{t: t, ctx: context.Background(), svc: svc, ob: obelisk.On(svc), clk: clk, game: "stone"}
	if _, err := svc.Create(w.ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: w.game, Ruleset: obelisk.ID, Season: season}); err != nil {
		t.Fatalf("create: %v", err)
	}
	return w
}

func (w *world) req(actor string) game.Request {
	w.n++
	return game.Request{Game: w.game, Actor: actor, Key: fmt.Sprintf("k%d", w.n)}
}

func (w *world) join(ids ...string) {
	w.t.Helper()
	for _, id := range ids {
		if _, err := w.svc.Join(w.ctx, w.req(id), game.JoinGame{Name: "P" + id[len(id)-1:]}); err != nil {
			w.t.Fatalf("join %s: %v", id, err)
		}
	}
}

// amendRitual adds a ritual type by an admin's amendment.
func (w *world) amendRitual(rt string) {
	w.t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(rt), &v); err != nil {
		w.t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/` + v.ID + `","value":` + rt + `}]`
	if _, err := w.svc.Amend(w.ctx, w.req(admin), game.Amend{Patch: json.RawMessage(patch), Reason: "a ritual type for the test"}); err != nil {
		w.t.Fatalf("amend: %v", err)
	}
}

func (w *world) player(id string) obelisk.State {
	w.t.Helper()
	v, err := w.svc.Player(w.ctx, w.game, id)
	if err != nil {
		w.t.Fatalf("player %s: %v", id, err)
	}
	s, ok := obelisk.StateOf(v)
	if !ok {
		w.t.Fatalf("player %s: no Obelisk state in %+v", id, v)
	}
	return s
}

// must returns the decoded response of a command that must succeed.
func must[T any](t tb) func(*game.Result, error) T {
	return func(res *game.Result, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		var v T
		if err := json.Unmarshal(res.Body, &v); err != nil {
			t.Fatalf("decoding %s: %v", res.Body, err)
		}
		return v
	}
}

func code(err error) string {
	var re *rules.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return fmt.Sprintf("not a rule error: %v", err)
}

// refused checks that a command was refused with the code want.
func refused(t tb, want string) func(*game.Result, error) {
	return func(_ *game.Result, err error) {
		t.Helper()
		if got := code(err); got != want {
			t.Fatalf("want refusal %s, got %s", want, got)
		}
	}
}

const cutTheObelisk = `{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"crystals":1,"herbs":1},` +
	`"effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"contributors","components":{"resolve":1}}]}`

// says is the sentence command's declaration says of res (Command.Says),
// with the game's names, as every edge shows it.
func (w *world) says(command string, res *game.Result) string {
	w.t.Helper()
	if res == nil {
		w.t.Fatalf("%s: no result", command)
	}
	return w.svc.Says(command, res.Body, w.svc.Names(w.ctx, w.game, res.Names))
}
