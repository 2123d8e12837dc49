package proving

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
	"croupier/internal/store/faulty"
)

// Timeline is one game of one ruleset played one command at a time, for a
// test of the game's past (issue 25, acceptance 1; RULINGS T6): the
// proving ground's clients send their command streams through the store's
// faults (retrying unanswered commands with their keys until answered),
// the clock moves on by steps the plan draws, crossing the game's
// boundaries, sometimes landing in a period's last seconds (where a turns
// game's last-minute voters vote until a vote is refused as late), and
// runners run the due work, late or on time. At the moments the plan
// picks, once the work due by then has run, Look is called with a service
// that reads the store as it is, without faults: what a reader sees live
// at that moment.
//
// One command at a time and a manual clock, so that what is seen at a
// moment is exactly what the log holds for it: nothing commits between
// the work's run and the look, and the clock moves on at least a second
// before the next command (entries dated at the moment are in it).
type Timeline struct {
	Store   store.Store
	Ruleset string
	Game    string
	// Clients are the game's players.
	Clients int
	// Commands is how many commands the players send (a burst of
	// last-minute votes counts as one).
	Commands int
	// Moments is how many moments Look is called at.
	Moments int
	Faults  faulty.Rates
	// Seed fixes the faults, the clients' choices and the services'
	// entropy (the period seeds, the log ids).
	Seed  uint64
	Start time.Time
	// Draw is the plan's choice of a number in [0, n) (what names the
	// choice): rapid's draws in a property test.
	Draw func(what string, n int) int
	// Look records the views at a moment; an error stops the timeline.
	Look func(ctx context.Context, live *game.Service, at time.Time, players []string) error
	Log  *slog.Logger
}

// TimelineResult is what a timeline did.
type TimelineResult struct {
	// Live reads the store without faults, on the timeline's clock (now
	// past the last moment).
	Live *game.Service
	Game string
	// Players are every identity that played.
	Players []string
	// Moments are the moments Look was called at.
	Moments []time.Time
	Report  *Report
}

// Run plays the timeline.
func (tl Timeline) Run(ctx context.Context) (*TimelineResult, error) {
	if tl.Clients < 2 || tl.Commands < 1 || tl.Moments < 1 || tl.Draw == nil || tl.Look == nil {
		return nil, fmt.Errorf("proving: a timeline needs 2 clients, commands, moments, a plan and a look (got %+v)", tl)
	}
	if tl.Start.IsZero() {
		tl.Start = DefaultStart
	}
	if tl.Log == nil {
		tl.Log = slog.New(slog.DiscardHandler)
	}
	g := &ground{cfg: Config{Name: tl.Ruleset, Store: tl.Store, Seed: tl.Seed, Faults: tl.Faults, Log: tl.Log}, clk: clock.NewManual(tl.Start)}
	g.rnd = rand.New(rand.NewPCG(tl.Seed, 8))
	g.fs = faulty.New(tl.Store, tl.Seed, tl.Faults)
	n := uint64(0)
	newSvc := func(st store.Store, clk clock.Clock) *game.Service {
		n++
		svc := rulesets.New(st, clk, game.WithLogger(tl.Log), game.WithEntropy(&lockedReader{r: rand.NewChaCha8(seed32(tl.Seed, n))}))
		svc.MaxAttempts, svc.Backoff = 8, time.Millisecond
		return svc
	}
	g.admin = newSvc(g.fs, g.clk)
	t, err := newTable(tl.Ruleset)
	if err != nil {
		return nil, err
	}
	t.game = tl.Game
	t.guild, t.channel = channelOf(0)
	t.fs = faulty.New(tl.Store, tl.Seed+1, tl.Faults)
	t.rep.Name = tl.Ruleset
	for i := range tl.Clients {
		id := fmt.Sprintf("discord:%d", 100+i)
		c := &client{id: id, t: t, clk: g.clk, rnd: rand.New(rand.NewPCG(tl.Seed, uint64(i)+1000))}
		c.svc = newSvc(t.fs, c.clk)
		t.ids = append(t.ids, id)
		t.clients = append(t.clients, c)
	}
	g.tables = []*table{t}
	for range 2 {
		g.runners = append(g.runners, newSvc(g.fs, g.clk))
	}
	live := newSvc(tl.Store, g.clk)
	if err := g.setup(ctx); err != nil {
		return nil, err
	}
	res := &TimelineResult{Live: live, Game: t.game, Players: t.ids, Report: &t.rep}
	look := func() error {
		g.clk.Advance(time.Duration(1+tl.Draw("to the moment (s)", 600)) * time.Second)
		g.settle(ctx)
		if err := tl.Look(ctx, live, g.clk.Now(), t.ids); err != nil {
			return err
		}
		res.Moments = append(res.Moments, g.clk.Now())
		// Whatever commits next is after the moment.
		g.clk.Advance(time.Second)
		return nil
	}
	moments := tl.Moments
	for sent, steps := 0, 0; sent < tl.Commands && steps < 20*tl.Commands; steps++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The clock moves on: mostly seconds or minutes, sometimes hours;
		// now and then to a period's last seconds.
		switch r := tl.Draw("clock", 100); {
		case r < 2:
			end := t.sched.PeriodAt(g.clk.Now()).End
			if at := end.Add(-time.Duration(1+tl.Draw("before the end (ms)", 3000)) * time.Millisecond); at.After(g.clk.Now()) {
				g.clk.Set(at)
			}
		case r < 70:
			g.clk.Advance(time.Duration(1+tl.Draw("seconds", 120)) * time.Second)
		case r < 95:
			g.clk.Advance(time.Duration(1+tl.Draw("minutes", 60)) * time.Minute)
		default:
			g.clk.Advance(time.Duration(1+tl.Draw("hours", 12)) * time.Hour)
		}
		if tl.Draw("run due", 10) == 0 {
			// The runners one after another, not at once as at the
			// ground's boundaries: the store's calls, and so its faults,
			// come in one order, and a seed replays its game exactly.
			for _, r := range g.runners {
				_, _ = r.RunDue(ctx)
			}
		}
		c := t.clients[tl.Draw("client", len(t.clients))]
		cmd := t.next(g, ctx, c)
		if cmd == nil {
			continue // nothing to do (or its read failed)
		}
		g.send(ctx, c, cmd, tl.Draw)
		// After exactly Moments of the commands, chosen uniformly
		// (selection sampling), a look.
		if moments > 0 && tl.Draw("look", tl.Commands-sent) < moments {
			moments--
			if err := look(); err != nil {
				return nil, err
			}
		}
		sent++
	}
	for ; moments > 0; moments-- {
		if err := look(); err != nil {
			return nil, err
		}
	}
	g.retryPending(ctx)
	return res, nil
}

// send sends one client's command until it is answered (a burst's votes
// one after another, the clock moving on between them, until one is
// refused).
func (g *ground) send(ctx context.Context, c *client, cmd *command, draw func(string, int) int) {
	if cmd == nil {
		return
	}
	ok, err := g.do(ctx, cmd, 100)
	if ok && cmd.actor == c.id && (cmd.name == "join" || cmd.name == "leave") {
		c.member = cmd.name == "join"
	}
	var re *rules.Error
	for n := 0; cmd.again != nil && n < 50 && !errors.As(err, &re); n++ {
		g.clk.Advance(time.Duration(1+draw("between votes (ms)", 400)) * time.Millisecond)
		cmd = cmd.again()
		_, err = g.do(ctx, cmd, 100)
	}
}

func seed32(seed, n uint64) [32]byte {
	var b [32]byte
	for i := range 4 {
		v := seed ^ n*0x9e3779b97f4a7c15 + uint64(i)*0xbf58476d1ce4e5b9
		for j := range 8 {
			b[i*8+j] = byte(v >> (8 * j))
		}
	}
	return b
}

// lockedReader serialises reads of a deterministic entropy source (the
// runners' work may read it from more than one goroutine).
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// Views is what a reader sees of a game of its ruleset through svc: the
// game, its players and each of players' status (or the refusal's code),
// and the ruleset's own views: the trades, matches (each match too),
// proposals, requests for justice and the Judge of a Gilded Hall game; the
// Obelisk and its Gatherings; a turns game's status, rules, proposals and
// cases. As JSON, the bytes a reader would get.
func Views(ctx context.Context, svc *game.Service, rs, g string, players []string) ([]byte, error) {
	type view struct {
		Name  string `json:"view"`
		Value any    `json:"value,omitempty"`
		Error string `json:"error,omitempty"`
	}
	var out []view
	add := func(name string, v any, err error) {
		var re *rules.Error
		switch {
		case err == nil:
			out = append(out, view{Name: name, Value: v})
		case errors.As(err, &re):
			out = append(out, view{Name: name, Error: re.Code + ": " + re.Error()})
		default:
			out = append(out, view{Name: name, Error: "failed: " + err.Error()})
		}
	}
	gv, err := svc.Game(ctx, g)
	add("game", gv, err)
	ps, err := svc.Players(ctx, g)
	add("players", ps, err)
	for _, id := range players {
		v, err := svc.Player(ctx, g, id)
		add("player "+id, v, err)
	}
	switch rs {
	case ruleset.Default:
		ts, err := trades.On(svc).Trades(ctx, g, trades.TradeFilter{})
		add("trades", ts, err)
		ms, err := gildedhall.On(svc).Matches(ctx, g, gildedhall.MatchFilter{})
		add("matches", ms, err)
		for _, m := range ms {
			v, err := gildedhall.On(svc).Match(ctx, g, m.ID, "")
			add("match "+m.ID, v, err)
		}
		pv, err := svc.Proposals(ctx, g, "")
		add("proposals", pv, err)
		js, err := svc.JusticeRequests(ctx, g, "")
		add("justice", js, err)
		jv, err := svc.Judge(ctx, g)
		add("judge", jv, err)
	case obelisk.ID:
		ov, err := obelisk.On(svc).Obelisk(ctx, g)
		add("obelisk", ov, err)
		gs, err := obelisk.On(svc).Gatherings(ctx, g)
		add("gatherings", gs, err)
		for _, gt := range gs {
			v, err := obelisk.On(svc).Gathering(ctx, g, gt.ID)
			add("gathering "+gt.ID, v, err)
		}
	case turns.ID:
		st, err := turns.TurnsStatus(ctx, svc, g)
		add("turns", st, err)
		rv, err := turns.Rules(ctx, svc, g)
		add("rules", rv, err)
		pv, err := turns.Proposals(ctx, svc, g)
		add("proposals", pv, err)
		cv, err := turns.Cases(ctx, svc, g)
		add("cases", cv, err)
	default:
		return nil, fmt.Errorf("proving: no views for ruleset %q", rs)
	}
	return json.MarshalIndent(out, "", " ")
}
