// Package benchmark measures Croupier as an operator sees it: latency of each
// command through the real HTTP API (loopback), what each command costs in
// store requests and AWS capacity units, the size of each Lambda bootstrap and
// its Init Duration under the Lambda Runtime Interface Emulator. `croupier
// bench` (run by `make bench`) prints the table.
package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// Row is one command's measurements on one backend.
type Row struct {
	Backend string
	// Surface is where the command came in: "" for the HTTP API,
	// SurfaceDiscord for the Discord interactions handler.
	Surface string
	Command string
	N       int
	P50     time.Duration
	P99     time.Duration
	// Per command, averaged over N.
	Requests      float64
	ItemsRead     float64
	ItemsWritten  float64
	ReadUnits     float64
	WriteUnits    float64
	ReportedUnits float64
}

// SurfaceDiscord marks the rows of MeasureDiscord.
const SurfaceDiscord = "discord"

// Start is the benchmark game's (manual) clock start: a Monday, Phase I.
var Start = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

const (
	benchKey = "bench-key"
	admin    = "discord:1"
)

// meter attaches a fresh store.Usage to every request and hands its total
// to whoever waits for that request's sequence number. (The client can read
// the response before the handler has returned, so "the last request's cost"
// would race.)
type meter struct {
	next http.Handler
	mu   sync.Mutex
	cost map[string]chan store.Cost
}

const seqHeader = "X-Bench-Seq"

func (m *meter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var u store.Usage
	m.next.ServeHTTP(w, r.WithContext(store.WithUsage(r.Context(), &u)))
	m.slot(r.Header.Get(seqHeader)) <- u.Snapshot()
}

func (m *meter) slot(seq string) chan store.Cost {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.cost[seq]
	if !ok {
		c = make(chan store.Cost, 1)
		m.cost[seq] = c
	}
	return c
}

func (m *meter) take(seq string) store.Cost {
	c := <-m.slot(seq)
	m.mu.Lock()
	delete(m.cost, seq)
	m.mu.Unlock()
	return c
}

// op is one benchmarked request.
type op struct {
	command string
	method  string
	path    string
	actor   string
	body    any
	want    int
}

// MeasureAPI runs n players through every command over HTTP on st and
// returns one row per command. Requests are sequential, so latencies are
// those of an unloaded server. Each player is granted what the economy
// commands need (Vertebrae for a random card and a trade, a Handy Pack) and
// a deck and Chips for a duel, so every command measured is one that
// succeeds; gifts, trades and duels (one per pair of players, see duels)
// need n >= 2.
func MeasureAPI(ctx context.Context, backend string, st store.Store, n int) ([]Row, error) {
	clk := clock.NewManual(Start)
	svc := rulesets.New(st, clk)
	m := &meter{cost: map[string]chan store.Cost{}, next: httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(benchKey)}, ManualClock: clk})}
	srv := httptest.NewServer(m)
	defer srv.Close()
	client := srv.Client()

	rec := newRecorder()
	seq := 0
	// call sends one request, checks its status, records its latency and
	// cost under o.command, and returns the body.
	call := func(o op, key string) ([]byte, error) {
		seq++
		var body io.Reader
		if o.body != nil {
			b, _ := json.Marshal(o.body)
			body = bytes.NewReader(b)
		}
		req, err := http.NewRequestWithContext(ctx, o.method, srv.URL+o.path, body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+benchKey)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(httpapi.HeaderActor, o.actor)
		req.Header.Set(httpapi.HeaderIdempotency, key)
		req.Header.Set(seqHeader, strconv.Itoa(seq))
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.command, err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		elapsed := time.Since(t0)
		if resp.StatusCode != o.want {
			return nil, fmt.Errorf("%s %s: status %d, want %d: %s", o.method, o.path, resp.StatusCode, o.want, got)
		}
		cost := m.take(strconv.Itoa(seq))
		if o.command != "" { // "": setting up, not measured
			rec.add(o.command, elapsed, cost)
		}
		return got, nil
	}
	do := func(o op, key string) error {
		_, err := call(o, key)
		return err
	}

	games := max(1, n/20)
	for g := 0; g < games; g++ {
		if err := do(op{"create game", "POST", "/v1/games", admin, game.CreateGame{ID: fmt.Sprintf("bench-%d", g)}, 201}, fmt.Sprintf("c%d", g)); err != nil {
			return nil, err
		}
	}
	const hall = "/v1/games/bench-0"
	const cmdPurchase = "purchase (random-card)"
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		return nil, err
	}
	bought := make([]string, n)
	players := make([]string, n)
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("discord:%d", 1000+i)
		players[i] = p
		k := func(s string) string { return fmt.Sprintf("%s-%d", s, i) }
		for _, o := range []op{
			{"join", "POST", hall + "/join", p, game.JoinGame{Name: "Player"}, 200},
			{"status (me)", "GET", hall + "/me", p, nil, 200},
			// Enough for one random card, a pack to open, and a deck
			// and Chips for a duel.
			{"grant", "POST", hall + "/grants", admin, gildedhall.Grant{Player: p, Vertebrae: 5 + tradeVertebrae,
				Packs: []gildedhall.PackGrant{{Pack: "handy-pack"}}, Cards: deckOf(rs, i), Chips: duelChips, Reason: "bench"}, 200},
			{cmdPurchase, "POST", hall + "/purchases", p, gildedhall.Purchase{Item: "random-card"}, 200},
			{"open pack", "POST", hall + "/packs/open", p, gildedhall.OpenPack{Pack: "handy-pack"}, 200},
			{"roll 2d6", "POST", hall + "/rolls", p, game.RollDice{Dice: "2d6"}, 200},
			{"log page (20)", "GET", hall + "/log?limit=20", p, nil, 200},
			{"join (repeat)", "POST", hall + "/join", p, game.JoinGame{Name: "Player"}, 200},
		} {
			key := k(o.command)
			if o.command == "join (repeat)" {
				key = k("join") // same idempotency key: the stored answer
			}
			got, err := call(o, key)
			if err != nil {
				return nil, err
			}
			if o.command == cmdPurchase {
				var b gildedhall.PurchaseResult
				if err := json.Unmarshal(got, &b); err != nil || len(b.Cards) != 1 {
					return nil, fmt.Errorf("purchase answered %.200s (%v)", got, err)
				}
				bought[i] = b.Cards[0].ID
			}
		}
	}
	if n > 1 {
		if err := trading(call, hall, bought); err != nil {
			return nil, err
		}
		if err := duels(call, hall, players); err != nil {
			return nil, err
		}
		if err := obeliskCommands(call, n); err != nil {
			return nil, err
		}
		if err := longDuel(call, hall); err != nil {
			return nil, fmt.Errorf("long duel: %w", err)
		}
	}
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("discord:%d", 1000+i)
		if err := do(op{"leave", "POST", hall + "/leave", p, nil, 200}, fmt.Sprintf("leave-%d", i)); err != nil {
			return nil, err
		}
	}
	// Each clock step ends one period in every game: the phase-end work.
	for i := 0; i < 4; i++ {
		if err := do(op{fmt.Sprintf("period end (%d games)", games), "POST", "/v1/dev/clock", admin, httpapi.ClockRequest{Advance: "96h"}, 200}, fmt.Sprintf("clk-%d", i)); err != nil {
			return nil, err
		}
	}

	return rec.rows(backend, ""), nil
}

// tradeVertebrae is what each player asks of the next in the benchmark's
// trades.
const tradeVertebrae = 1

// trading runs the player-to-player commands over the players joined to
// hall (bought[i] is the card player i bought), arranged in a ring so each one succeeds: player i gifts to player
// i+1 (one gift per giver per phase, RULINGS C4), offers player i+1 the
// card bought by i for tradeVertebrae, and, once every offer is made, player
// i+1 accepts it. Every player is in two trades, on different items, so no
// acceptance finds its items gone.
func trading(call func(op, string) ([]byte, error), hall string, bought []string) error {
	n := len(bought)
	player := func(i int) string { return fmt.Sprintf("discord:%d", 1000+i%n) }
	offers := make([]string, n)
	for i := 0; i < n; i++ {
		p, next := player(i), player(i+1)
		if _, err := call(op{"gift", "POST", hall + "/gifts", p, gildedhall.Gift{To: next}, 200}, fmt.Sprintf("gift-%d", i)); err != nil {
			return err
		}
		offer := trades.OfferTrade{To: next, Give: economy.Items{Cards: []string{bought[i]}}, Take: economy.Items{Vertebrae: tradeVertebrae}}
		got, err := call(op{"trade offer", "POST", hall + "/trades", p, offer, 201}, fmt.Sprintf("offer-%d", i))
		if err != nil {
			return err
		}
		var tr trades.Trade
		if err := json.Unmarshal(got, &tr); err != nil || tr.ID == "" {
			return fmt.Errorf("trade offer answered %.200s (%v)", got, err)
		}
		offers[i] = tr.ID
	}
	for i, id := range offers {
		if _, err := call(op{"trade accept", "POST", hall + "/trades/" + id + "/accept", player(i + 1), nil, 200}, fmt.Sprintf("accept-%d", i)); err != nil {
			return err
		}
	}
	return nil
}

// recorder collects latencies and costs per command, in first-seen order.
type recorder struct {
	samples map[string][]time.Duration
	costs   map[string]store.Cost
	order   []string
}

func newRecorder() *recorder {
	return &recorder{samples: map[string][]time.Duration{}, costs: map[string]store.Cost{}}
}

func (r *recorder) add(command string, d time.Duration, c store.Cost) {
	if _, seen := r.samples[command]; !seen {
		r.order = append(r.order, command)
	}
	r.samples[command] = append(r.samples[command], d)
	r.costs[command] = r.costs[command].Plus(c)
}

// rows are the recorded commands' rows, averaging costs per command.
func (r *recorder) rows(backend, surface string) []Row {
	rows := make([]Row, 0, len(r.order))
	for _, c := range r.order {
		s := r.samples[c]
		slices.Sort(s)
		cost, k := r.costs[c], float64(len(s))
		rows = append(rows, Row{Backend: backend, Surface: surface, Command: c, N: len(s), P50: quantile(s, 0.50), P99: quantile(s, 0.99),
			Requests: float64(cost.Requests) / k, ItemsRead: float64(cost.ItemsRead) / k, ItemsWritten: float64(cost.ItemsWritten) / k,
			ReadUnits: cost.ReadUnits / k, WriteUnits: cost.WriteUnits / k, ReportedUnits: cost.ReportedUnits / k})
	}
	return rows
}

// quantile reads the q-quantile of sorted samples (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
