package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rulesets/gildedhall"
)

func TestNewRejectsUnusableURLs(t *testing.T) {
	for _, u := range []string{"", "localhost:8080", "ftp://x", "http://"} {
		if _, err := New(u, "k", ""); err == nil {
			t.Errorf("New(%q) accepted an unusable URL", u)
		}
	}
	c, err := New("http://localhost:8080/", "k", "")
	if err != nil || c.BaseURL != "http://localhost:8080" {
		t.Errorf("New trims the trailing slash: %+v, %v", c, err)
	}
}

// The client sends the bridge headers and turns a problem+json answer,
// extensions included, into a *Problem.
func TestProblemAndHeaders(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusConflict)
		w.Write([]byte(`{"type":"t","title":"Conflict","status":409,"detail":"Too soon.","code":"rejoin_too_soon","possible_at":"2026-03-12T00:00:00Z"}`))
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "secret", "discord:7")
	_, _, err := c.Join(context.Background(), "idem-1", "hall", game.JoinGame{})
	var p *Problem
	if !errors.As(err, &p) {
		t.Fatalf("err = %v, want a *Problem", err)
	}
	if p.Code != "rejoin_too_soon" || p.Status != 409 || p.Detail != "Too soon." || p.Extra["possible_at"] != "2026-03-12T00:00:00Z" {
		t.Errorf("problem = %+v", p)
	}
	if got.Get("Authorization") != "Bearer secret" || got.Get(HeaderActor) != "discord:7" || got.Get(HeaderIdempotency) != "idem-1" {
		t.Errorf("headers sent: %v", got)
	}
}

// Something that is not Croupier (here: a plain-text 404, as another
// program on the port would answer) is named as such.
func TestNotACroupierServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, _ := New(srv.URL, "k", "")
	_, _, err := c.Game(context.Background(), "hall")
	var p *Problem
	if err == nil || errors.As(err, &p) || !strings.Contains(err.Error(), "is not a Croupier problem") {
		t.Errorf("err = %v, want a plain error saying the answer is not Croupier's", err)
	}
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, _ := New(url, "k", "")
	_, _, err := c.Game(context.Background(), "hall")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the Croupier server") {
		t.Errorf("err = %v", err)
	}
}

func TestIdempotencyKeysDiffer(t *testing.T) {
	a, b := NewIdempotencyKey(), NewIdempotencyKey()
	if a == b || !strings.HasPrefix(a, "cli-") || len(a) != 36 {
		t.Errorf("keys %q and %q", a, b)
	}
}

// Each economy method sends the route and body of the API table, and
// unwraps list answers.
func TestEconomyRoutes(t *testing.T) {
	type call struct{ method, path, body string }
	var got call
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = call{r.Method, r.URL.RequestURI(), string(b)}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/shop"):
			w.Write([]byte(`{"items":[{"id":"chip","price":25}]}`))
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/trades"):
			w.Write([]byte(`{"trades":[{"id":"t1","status":"open"}]}`))
		default:
			w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "k", "discord:1")
	ctx := context.Background()

	items, _, err := c.Shop(ctx, "hall")
	if err != nil || len(items) != 1 || items[0].ID != "chip" || items[0].Price != 25 || got.path != "/v1/games/hall/shop" {
		t.Errorf("Shop = %+v, %v; request %+v", items, err, got)
	}
	trades, _, err := c.Trades(ctx, "hall", trades.TradeFilter{Player: "discord:2", Status: "open"})
	if err != nil || len(trades) != 1 || trades[0].ID != "t1" || got.path != "/v1/games/hall/trades?limit=500&player=discord%3A2&status=open" {
		t.Errorf("Trades = %+v, %v; request %+v", trades, err, got)
	}
	cases := []struct {
		do   func() error
		want call
	}{
		{func() error {
			_, _, err := c.Purchase(ctx, "k1", "hall", gildedhall.Purchase{Item: "chip", Quantity: 2})
			return err
		},
			call{"POST", "/v1/games/hall/purchases", `{"item":"chip","quantity":2}`}},
		{func() error {
			_, _, err := c.OpenPack(ctx, "k1", "hall", gildedhall.OpenPack{Pack: "handy-pack"})
			return err
		},
			call{"POST", "/v1/games/hall/packs/open", `{"pack":"handy-pack"}`}},
		{func() error { _, _, err := c.Gift(ctx, "k1", "hall", gildedhall.Gift{To: "discord:2"}); return err },
			call{"POST", "/v1/games/hall/gifts", `{"to":"discord:2"}`}},
		{func() error { _, _, err := c.AcceptTrade(ctx, "k1", "hall", "t1"); return err },
			call{"POST", "/v1/games/hall/trades/t1/accept", `{}`}},
		{func() error { _, _, err := c.WithdrawTrade(ctx, "k1", "hall", "t1"); return err },
			call{"POST", "/v1/games/hall/trades/t1/withdraw", `{}`}},
		{func() error { _, _, err := c.Trade(ctx, "hall", "t1"); return err }, call{"GET", "/v1/games/hall/trades/t1", ""}},
		{func() error { _, _, err := c.Ruleset(ctx, "hall"); return err }, call{"GET", "/v1/games/hall/ruleset", ""}},
		{func() error {
			_, _, err := c.Amend(ctx, "k1", "hall", game.Amend{Patch: []byte(`{"version":9}`), Reason: "r"})
			return err
		}, call{"POST", "/v1/games/hall/amendments", `{"patch":{"version":9},"reason":"r"}`}},
	}
	for _, tc := range cases {
		if err := tc.do(); err != nil || got != tc.want {
			t.Errorf("sent %+v (err %v), want %+v", got, err, tc.want)
		}
	}
}

// A list follows next_cursor to its end, asking for the largest pages and
// keeping the route's filters, so a listing shows every item however many
// pages the server splits it into; a server repeating a cursor is an error,
// not an endless loop.
func TestListsFollowTheCursor(t *testing.T) {
	var queries []string
	repeat := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		queries = append(queries, r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		switch c := q.Get("cursor"); {
		case c == "":
			w.Write([]byte(`{"trades":[{"id":"t1"},{"id":"t2"}],"next_cursor":"p2"}`))
		case c == "p2" && !repeat:
			w.Write([]byte(`{"trades":[{"id":"t3"}],"next_cursor":"p3"}`))
		case c == "p2":
			w.Write([]byte(`{"trades":[{"id":"t3"}],"next_cursor":"p2"}`))
		default:
			w.Write([]byte(`{"trades":[]}`))
		}
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "k", "")
	got, rep, err := c.Trades(context.Background(), "hall", trades.TradeFilter{Status: "open"})
	if err != nil || len(got) != 3 || got[2].ID != "t3" {
		t.Fatalf("three trades over three pages: %+v %v", got, err)
	}
	var whole struct{ Trades []trades.Trade }
	if err := json.Unmarshal(rep.Body, &whole); err != nil || len(whole.Trades) != 3 {
		t.Fatalf("the reply's body (what --json prints) holds the whole list: %s %v", rep.Body, err)
	}
	for _, q := range queries {
		if !strings.Contains(q, "limit=500") || !strings.Contains(q, "status=open") {
			t.Errorf("a page request without the largest limit or the filter: %s", q)
		}
	}
	repeat = true
	if _, _, err := c.Trades(context.Background(), "hall", trades.TradeFilter{}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("a repeated cursor: %v", err)
	}
}

// A client at a moment (At) asks every request for it, after any query of
// its own, and a list read over several pages keeps the last page's as_of
// in the whole list's body.
func TestAtAsksEveryRequestForTheMoment(t *testing.T) {
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		asOf := `"as_of":{"at":"2026-12-01T18:00:00Z","entry":"01KJYY0KP09VHXF5QPSDQPMQTZ","asked":"after:01KJYY0KP09VHXF5QPSDQPMQTZ"}`
		if r.URL.Query().Get("cursor") == "" {
			w.Write([]byte(`{"trades":[{"id":"t1"}],"next_cursor":"c2",` + asOf + `}`))
			return
		}
		w.Write([]byte(`{"trades":[{"id":"t2"}],` + asOf + `}`))
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "k", "discord:7")
	c.At = "after:01KJYY0KP09VHXF5QPSDQPMQTZ"
	list, rep, err := c.Trades(context.Background(), "hall", trades.TradeFilter{Status: "open"})
	if err != nil || len(list) != 2 || rep.AsOf == nil || rep.AsOf.Entry != "01KJYY0KP09VHXF5QPSDQPMQTZ" || !rep.AsOf.At.Equal(time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("trades at a moment: %+v %+v %v", list, rep.AsOf, err)
	}
	for _, q := range queries {
		if !strings.HasSuffix(q, "&at=after%3A01KJYY0KP09VHXF5QPSDQPMQTZ") || !strings.Contains(q, "status=open") {
			t.Errorf("a request asked %q, not its own query and then the moment", q)
		}
	}
	var whole struct {
		Trades []trades.Trade `json:"trades"`
		AsOf   *game.AsOf     `json:"as_of"`
	}
	if err := json.Unmarshal(rep.Body, &whole); err != nil || len(whole.Trades) != 2 || whole.AsOf == nil || whole.AsOf.Asked != c.At {
		t.Errorf("the whole list's body: %s (%v)", rep.Body, err)
	}
	// Without At, nothing is asked of the past and no as_of is read.
	c.At, queries = "", nil
	if _, rep, err := c.Trade(context.Background(), "hall", "t1"); err != nil || rep.AsOf != nil || strings.Contains(queries[0], "at=") {
		t.Errorf("a read of now: %+v %v %q", rep.AsOf, err, queries)
	}
}
