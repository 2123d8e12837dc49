package chat_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
	"croupier/internal/store"
)

// Issue 16: a chat process caches the bindings it reads, so a command
// costs no read of the binding; the binding can change under it (another
// process rebinds the space), and the cached one must then never run a
// command in the game the space left. Two routers over one store stand
// for two processes.
func TestCachedBindingNeverRunsInTheGameTheSpaceLeft(t *testing.T) {
	ctx := context.Background()
	a, svc := newRouter(t)
	b := chat.NewRouter(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, err := svc.Create(ctx, game.Request{Actor: "slack:ADMIN", Key: "c2"}, game.CreateGame{ID: "annex"}); err != nil {
		t.Fatal(err)
	}
	inv := func(user, key, cmd string, opts map[string]string) *chat.Invocation {
		return &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, UserName: "P", Command: cmd, Options: opts, Key: key}
	}
	must := func(r *chat.Router, i *chat.Invocation) *chat.Reply {
		t.Helper()
		rep := r.Handle(ctx, i)
		if rep.Refusal {
			t.Fatalf("%s: %s", i.Command, rep.Text)
		}
		return rep
	}
	member := func(g, p string) bool {
		t.Helper()
		v, err := svc.Player(ctx, g, p)
		return err == nil && v.Member
	}

	must(a, inv("slack:ADMIN", "b1", "bind", map[string]string{"game": "hall"}))
	must(a, inv("slack:U1", "j1", "join", nil)) // a now caches T1 -> hall
	// At the floor: a join from the cached binding is one read and one
	// commit, nothing else.
	var u store.Usage
	if rep := a.Handle(store.WithUsage(ctx, &u), inv("slack:U2", "j2", "join", nil)); rep.Refusal || !rep.Logged {
		t.Fatalf("join: %+v", rep)
	}
	if c := u.Snapshot(); c.Requests != 2 {
		t.Errorf("a join from a cached binding made %d store requests, want 2 (%+v)", c.Requests, c)
	}

	must(b, inv("slack:ADMIN", "b2", "bind", map[string]string{"game": "annex"})) // another process moves T1
	must(a, inv("slack:U3", "j3", "join", nil))
	if member("hall", "slack:U3") || !member("annex", "slack:U3") {
		t.Fatalf("after the rebind, a join through the stale cache went to hall (hall: %v, annex: %v)", member("hall", "slack:U3"), member("annex", "slack:U3"))
	}
	// A view through a stale cache answers for the new game too.
	must(b, inv("slack:ADMIN", "b3", "bind", map[string]string{"game": "hall"}))
	if rep := a.Handle(ctx, inv("slack:U3", "s1", "status", nil)); !rep.Refusal {
		t.Errorf("U3 is not in hall, but status through the stale cache answered %+v", rep)
	}
	must(a, inv("slack:U4", "j4", "join", nil))
	if !member("hall", "slack:U4") || member("annex", "slack:U4") {
		t.Fatal("a join after moving back went to annex")
	}
}

// A game bound before META listed its spaces still runs chat commands,
// reading the binding each time as before.
func TestBindingOfAGameWithoutSpacesInMeta(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	inv := func(user, key, cmd string, opts map[string]string) *chat.Invocation {
		return &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, UserName: "P", Command: cmd, Options: opts, Key: key}
	}
	if rep := r.Handle(ctx, inv("slack:ADMIN", "b1", "bind", map[string]string{"game": "hall"})); rep.Refusal {
		t.Fatal(rep.Text)
	}
	// Take the space out of META, as a game bound by an older version has it.
	st := svc.Store()
	k := game.MetaKey("hall")
	it, err := st.Get(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(it.Data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "spaces")
	data, _ := json.Marshal(m)
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data, Due: it.Due}, Expect: it.Version}}}); err != nil {
		t.Fatal(err)
	}
	for i, u := range []string{"slack:U1", "slack:U2"} {
		if rep := r.Handle(ctx, inv(u, "j"+u, "join", nil)); rep.Refusal {
			t.Fatalf("join %d: %s", i, rep.Text)
		}
		if p, err := svc.Player(ctx, "hall", u); err != nil || !p.Member {
			t.Fatalf("join %d did not join hall: %+v %v", i, p, err)
		}
	}
}
