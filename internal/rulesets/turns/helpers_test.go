package turns_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// tb is what *testing.T, *testing.B and *rapid.T provide.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

// created is a Wednesday: round 1's turn 1 begins Monday 2026-03-02 22:00
// CST, turn 2 on 2026-03-09 22:00 CDT (daylight saving began on the 8th).
var created = chicago(2026, 2, 25, 15, 0)

func chicago(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, calendar.Chicago())
}

const admin = "discord:1"

// names are the test players' display names.
var names = map[string]string{"discord:11": "Ada", "discord:12": "Bea", "discord:13": "Cy", "discord:14": "Dee", "discord:15": "Eve", "discord:16": "Fox", "discord:17": "Gil", "discord:18": "Hal"}

// env is a turns game on a store with a manual clock, through the engine
// with every shipped ruleset (the wiring of croupier serve).
type env struct {
	t    tb
	ctx  context.Context
	st   store.Store
	clk  *clock.Manual
	svc  *game.Service
	g    string
	keys int
}

func newEnv(t tb, st store.Store, players ...string) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background(), st: st, clk: clock.NewManual(created), g: "nomic"}
	e.svc = rulesets.New(st, e.clk, game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if _, err := e.svc.Create(e.ctx, e.req(admin), game.CreateGame{ID: e.g, Name: "Nomic", Ruleset: turns.ID}); err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		if _, err := e.svc.Join(e.ctx, e.req(p), game.JoinGame{Name: names[p]}); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func boltStore(t testing.TB) store.Store {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "turns.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func (e *env) req(actor string) game.Request {
	e.keys++
	return game.Request{Game: e.g, Actor: actor, Key: fmt.Sprint("k", e.keys)}
}

// call runs catalogue command name as actor with payload p (as every edge
// does: by name, through its Call).
func (e *env) call(actor, name string, p any) (*game.Result, error) {
	e.t.Helper()
	c, ok := e.svc.CommandNamed(name)
	if !ok || c.Call == nil {
		e.t.Fatalf("no callable command %q", name)
	}
	return e.callReq(e.req(actor), name, p)
}

// callReq runs command name with payload p as req (its key: a replay).
func (e *env) callReq(req game.Request, name string, p any) (*game.Result, error) {
	e.t.Helper()
	c, ok := e.svc.CommandNamed(name)
	if !ok || c.Call == nil {
		e.t.Fatalf("no callable command %q", name)
	}
	payload := c.Call.Payload()
	if p != nil {
		raw, _ := json.Marshal(p)
		if err := json.Unmarshal(raw, payload); err != nil {
			e.t.Fatal(err)
		}
	}
	return c.Call.Run(e.ctx, e.svc, req, payload)
}

// must runs a command that must be accepted and decodes its answer into out.
func (e *env) must(actor, name string, p any, out any) {
	e.t.Helper()
	res, err := e.call(actor, name, p)
	if err != nil {
		e.t.Fatalf("%s %s %v: %v", actor, name, p, err)
	}
	if out != nil {
		reflect.ValueOf(out).Elem().SetZero()
		if err := json.Unmarshal(res.Body, out); err != nil {
			e.t.Fatal(err)
		}
	}
}

// refused runs a command that must be refused with code.
func (e *env) refused(actor, name string, p any, code string) {
	e.t.Helper()
	_, err := e.call(actor, name, p)
	var re *rules.Error
	if !errors.As(err, &re) || re.Code != code {
		e.t.Fatalf("%s %s %v: got %v, want refusal %s", actor, name, p, err, code)
	}
}

// at sets the clock and runs the scheduler, as the local scheduler and
// the due Lambda do.
func (e *env) at(t time.Time) game.DueReport {
	e.t.Helper()
	e.clk.Set(t)
	rep, err := e.svc.RunDue(e.ctx)
	if err != nil || len(rep.Failed) > 0 {
		e.t.Fatalf("RunDue at %s: %v %v", t, err, rep.Failed)
	}
	return rep
}

func (e *env) status() turns.Status {
	e.t.Helper()
	st, err := turns.TurnsStatus(e.ctx, e.svc, e.g)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

func (e *env) points() map[string]int {
	out := map[string]int{}
	for _, p := range e.status().Players {
		out[p.Name] = p.Points
	}
	return out
}

// log returns every event of the game's log, oldest first.
func (e *env) log() []logged {
	e.t.Helper()
	var out []logged
	cursor := ""
	for {
		page, err := e.svc.Log(e.ctx, e.g, cursor, 100)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, en := range page.Entries {
			for _, ev := range en.Events {
				out = append(out, logged{Entry: en, Event: ev})
			}
		}
		if page.Next == "" {
			return out
		}
		cursor = page.Next
	}
}

type logged struct {
	Entry game.Entry
	Event game.Event
}

func (e *env) eventsOf(typ string) []logged {
	var out []logged
	for _, l := range e.log() {
		if l.Event.Type == typ {
			out = append(out, l)
		}
	}
	return out
}

// sentence is how an event reads (its component's narration), with names.
func (e *env) sentence(ev game.Event) string {
	n, ok := e.svc.Narration(ev.Type)
	if !ok {
		e.t.Fatalf("event %s has no narration", ev.Type)
	}
	return n.Sentence(ev, func(id string) string {
		if s, ok := names[id]; ok {
			return s
		}
		return id
	})
}

func contains(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
