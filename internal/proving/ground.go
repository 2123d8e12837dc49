// Package proving is Croupier's proving ground, in the spirit of Jepsen's
// bank test and pebble's metamorphic tests: games of every ruleset at once
// in one store, each with many clients, each client with its own
// game.Service over the store (as separate Lambdas share one table) and
// its own clock, up to 50 ms behind the scheduler's, send random command
// streams while several scheduler runners call RunDue at and around every
// boundary of every game's calendar (Gilded Hall and Obelisk phase ends,
// turns' beginnings, middles and ends, Judges' recusal windows and
// deadlines) of a manual clock, and the store injects conflicts,
// throttling, timeouts after the write and lost read responses
// (internal/store/faulty). Clients retry unacknowledged commands with the
// same idempotency key, as a chat platform or a careful client does. After
// every boundary the ground reads each game without faults and checks the
// invariants (invariants*.go); the report of each ruleset counts commands,
// faults, runs and checks, and lists every violation. docs/proving.md
// describes it.
//
// The process-kill half (kill -9 of a real `croupier serve` during phase
// and turn ends) is in kill_test.go: it drives the server over HTTP and
// checks the same invariants on its bolt file.
package proving

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"croupier/internal/announce"
	"croupier/internal/announce/announcetest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
	"croupier/internal/store/faulty"
)

// DiscordToken is the bot token the announcer uses and the fake accepts.
const DiscordToken = "proving-bot-token"

// Admin is the games' admin identity (not a player); it makes the grants.
const Admin = "discord:1"

// The Discord guild and announcement channel the Gilded Hall game is bound
// to (the kill test's game too); the other rulesets' games have their own
// (channelOf).
const (
	Guild   = "900000000000000001"
	Channel = "900000000000000002"
)

// Rulesets are the rulesets a round runs, one game of each at once.
var Rulesets = []string{ruleset.Default, obelisk.ID, turns.ID}

// Config sizes one run.
type Config struct {
	// Name labels the reports ("bolt", "dynamodb").
	Name string
	// Store is the real store; the ground wraps it in faults.
	Store  store.Store
	Faults faulty.Rates
	Seed   uint64
	// Game prefixes the games' ids (one game per ruleset).
	Game string
	// Rulesets are the rulesets whose games run at once (all by default).
	Rulesets []string
	// Clients are each game's players, each with its own service, clock
	// and goroutine.
	Clients int
	// MaxLag bounds how far a client's clock lags the scheduler's: half the
	// clients lag by an amount in (0, MaxLag], chosen from the seed, as
	// separate Lambdas' clocks do.
	MaxLag time.Duration
	// Runners call RunDue concurrently at every boundary (at least 4).
	Runners int
	// Latency delays each read of the clients and the runners by up to
	// this much (a Lambda's reads cross a network): commands land between
	// a scheduled effect's reads and its commit, and between each other's.
	Latency time.Duration
	// Boundaries is how many calendar boundaries (period ends of any
	// game's calendar) the clock crosses; Judges' recusal windows and
	// deadlines between them are crossed as extra boundaries, at most
	// Boundaries/2 of them.
	Boundaries int
	// Ops is how many commands each client sends in each of the three
	// windows around a boundary (mid-period, just before, just after).
	Ops int
	// Start is where the clock starts (DefaultStart when zero).
	Start time.Time
	// Jitter spreads the runners' starts at a boundary over [0, j) after
	// the first, j chosen per boundary between Jitter/64 and Jitter
	// (EventBridge fires the scheduled Lambdas of one moment within
	// milliseconds of each other, not at one instant; the spread that makes
	// two runs overlap depends on how long a phase end takes on the store).
	Jitter time.Duration
	// Discord is the loopback Discord the announcer posts to (made with
	// DiscordToken).
	Discord *announcetest.Discord
	// Outbox feeds the announcer from the committed log (TailOutbox for
	// bolt, StreamOutbox for DynamoDB).
	Outbox Outbox
	// Log receives the services' logs (discarded when nil).
	Log *slog.Logger
}

// DefaultStart is a Wednesday, mid phase I.
var DefaultStart = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

type ground struct {
	cfg     Config
	fs      *faulty.Store // the runners', the admin's and the announcer's
	clk     *clock.Manual
	admin   *game.Service
	tables  []*table
	runners []*game.Service
	pollers []Poller

	mu       sync.Mutex
	rnd      *rand.Rand // under mu
	jitter   time.Duration
	runs     int // RunDue calls, under mu
	runErrs  int
	judicial int // judicial boundaries crossed
	keys     atomic.Int64
}

// table is one game of one ruleset with its clients, what they were told
// and its report.
type table struct {
	ruleset, game, guild, channel string
	sched                         calendar.Schedule
	fs                            *faulty.Store // its clients'
	clients                       []*client
	ids                           []string // every player identity

	// The ruleset's part: the commands after the joins, a client's next
	// command, the commands the rules must refuse, and the checks of its
	// own invariants.
	setup  func(g *ground) []*command
	next   func(g *ground, ctx context.Context, c *client) *command
	probes func(g *ground, m *client, member bool) []command
	check  func(g *ground, ctx context.Context, c *Checks, s *Snapshot, obs Observed, settled bool)

	handMin int // Gilded Hall: the smallest hand a match accepts (X1)
	rituals []string

	// Under ground.mu.
	rep     Report
	obs     Observed
	pending []*command
}

type client struct {
	id  string
	t   *table
	svc *game.Service
	clk clock.Clock
	lag time.Duration
	rnd *rand.Rand
	// member is what the client last learnt: a player who left sends
	// joins (refused for a week, RULINGS P1) until one is accepted.
	member bool
}

// lagging is a client's clock: the scheduler's, lag behind.
type lagging struct {
	base *clock.Manual
	lag  time.Duration
}

func (l lagging) Now() time.Time { return l.base.Now().Add(-l.lag) }

// command is one command as a client sends it: retried with the same key
// until it is acknowledged or refused.
type command struct {
	t                *table
	actor, key, name string
	// tries is how often a window sends it before leaving it pending (4
	// when zero). Votes are sent until answered, so that a voter's votes
	// on one proposal commit in the order they were acknowledged.
	tries int
	// target is a vote's proposal or appeal id.
	target string
	// again, when set, makes the next command of a burst: the window sends
	// it after this one is answered, until one is refused (at most
	// maxBurst).
	again func() *command
	run   func(ctx context.Context, req game.Request) (*game.Result, error)
}

// Run runs the proving ground once and returns a report per ruleset;
// violations are in the reports, an error means the run itself could not
// proceed.
func Run(ctx context.Context, cfg Config) ([]*Report, error) {
	if cfg.Runners < 1 || cfg.Clients < 2 || cfg.Boundaries < 1 || cfg.Ops < 1 {
		return nil, fmt.Errorf("proving: need at least 2 clients, 1 runner, 1 boundary and 1 op (got %+v)", cfg)
	}
	if cfg.Outbox == nil || cfg.Discord == nil {
		return nil, fmt.Errorf("proving: no outbox (how committed entries reach the announcer) or no Discord fake")
	}
	if cfg.Game == "" {
		cfg.Game = "proving"
	}
	if cfg.Start.IsZero() {
		cfg.Start = DefaultStart
	}
	if len(cfg.Rulesets) == 0 {
		cfg.Rulesets = Rulesets
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	g := &ground{cfg: cfg, clk: clock.NewManual(cfg.Start)}
	g.fs = faulty.New(cfg.Store, cfg.Seed, cfg.Faults)
	newSvc := func(st store.Store, clk clock.Clock) *game.Service {
		svc := rulesets.New(st, clk, game.WithLogger(cfg.Log))
		// Fewer conflict retries than a Lambda's 25: the clients retry
		// themselves, and a livelock (every attempt conflicting, as after a
		// seed revealed early) shows as busy answers, not as a hang.
		svc.MaxAttempts, svc.Backoff = 8, 2*time.Millisecond
		return svc
	}
	g.admin = newSvc(g.fs, g.clk)
	// The log is the outbox: the announcer `croupier serve` and
	// functions/announce run, over the faulty store, posting to the Discord
	// fake, fed by two pollers of the committed log at once (overlapping
	// deliveries). Its leases run on real time, so they expire while the
	// game clock stands still; a quarter second is ample for a loopback post.
	an := &announce.Announcer{Store: g.fs, Bindings: g.admin, Narrator: g.admin, Clock: clock.Real{}, Lease: 250 * time.Millisecond, Log: cfg.Log,
		Discord: &announce.Discord{BaseURL: cfg.Discord.APIBase(), Token: DiscordToken}}
	for range 2 {
		g.pollers = append(g.pollers, cfg.Outbox(g.fs, an.Handle))
	}
	pollCtx, stopPolling := context.WithCancel(ctx)
	var polling sync.WaitGroup
	defer func() { stopPolling(); polling.Wait() }()
	for _, p := range g.pollers {
		polling.Go(func() {
			for pollCtx.Err() == nil {
				_, _ = p.Poll(pollCtx)
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	rnd := rand.New(rand.NewPCG(cfg.Seed, 7))
	g.rnd = rand.New(rand.NewPCG(cfg.Seed, 8))
	for ti, rsID := range cfg.Rulesets {
		t, err := newTable(rsID)
		if err != nil {
			return nil, err
		}
		t.game = fmt.Sprintf("%s-%s", cfg.Game, rsID)
		t.guild, t.channel = channelOf(ti)
		t.fs = faulty.New(cfg.Store, cfg.Seed+uint64(ti)+1, cfg.Faults)
		t.rep.Name = cfg.Name + ", " + rsID
		// Half the clients lag, by up to MaxLag (at least 1 ms: a lag the
		// store's millisecond timestamps can see).
		for i := range cfg.Clients {
			id := fmt.Sprintf("discord:%d", 100+i)
			c := &client{id: id, t: t, rnd: rand.New(rand.NewPCG(cfg.Seed, uint64(ti*1000+i)+1000))}
			if cfg.MaxLag > 0 && i%2 == 1 {
				c.lag = time.Millisecond + time.Duration(c.rnd.Int64N(int64(cfg.MaxLag-time.Millisecond+1)))
			}
			c.clk = lagging{base: g.clk, lag: c.lag}
			c.svc = newSvc(newLatent(t.fs, cfg.Seed^uint64(ti*1000+i), cfg.Latency), c.clk)
			t.ids = append(t.ids, id)
			t.clients = append(t.clients, c)
		}
		g.tables = append(g.tables, t)
	}
	for i := range cfg.Runners {
		g.runners = append(g.runners, newSvc(newLatent(g.fs, cfg.Seed+uint64(i), cfg.Latency), g.clk))
	}
	if err := g.setup(ctx); err != nil {
		return nil, err
	}
	for b := 0; b < cfg.Boundaries; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if g.boundary(ctx, rnd) {
			b++
		}
	}
	g.finalCheck(ctx)
	var reps []*Report
	for _, t := range g.tables {
		t.rep.Rounds = 1
		t.rep.Faults = t.fs.Counts()
		t.rep.SharedFaults = g.fs.Counts()
		t.rep.RunnerRuns, t.rep.RunnerErrors, t.rep.Judicial = g.runs, g.runErrs, g.judicial
		t.rep.Posts, t.rep.Deliveries = len(cfg.Discord.Sent(t.channel)), cfg.Discord.Accepted(t.channel)
		reps = append(reps, &t.rep)
	}
	return reps, nil
}

// channelOf is the guild and announcement channel of the i-th game.
func channelOf(i int) (guild, channel string) {
	if i == 0 {
		return Guild, Channel
	}
	return fmt.Sprint(900000000000000001 + 10*i), fmt.Sprint(900000000000000002 + 10*i)
}

func newTable(rsID string) (*table, error) {
	rs, err := ruleset.Load(rsID)
	if err != nil {
		return nil, err
	}
	sched, err := calendar.For(rs.Calendar)
	if err != nil {
		return nil, err
	}
	t := &table{ruleset: rsID, sched: sched}
	switch rsID {
	case ruleset.Default:
		gildedHallTable(t, rs)
	case obelisk.ID:
		obeliskTable(t)
	case turns.ID:
		turnsTable(t)
	default:
		return nil, fmt.Errorf("proving: no clients for ruleset %q", rsID)
	}
	return t, nil
}

func (g *ground) key() string { return fmt.Sprintf("k%d", g.keys.Add(1)) }

// cmd is a command of c's table by actor (c's player when empty).
func (g *ground) cmd(t *table, actor, name string, run func(ctx context.Context, r game.Request) (*game.Result, error)) *command {
	return &command{t: t, actor: actor, key: g.key(), name: name, run: run}
}

// setup creates the games, binds their announcement channels, and has
// every client join, then runs each ruleset's setup (grants, amendments).
// All through the faults, with retries.
func (g *ground) setup(ctx context.Context) error {
	for _, t := range g.tables {
		steps := []*command{
			g.cmd(t, Admin, "create", func(ctx context.Context, r game.Request) (*game.Result, error) {
				return g.admin.Create(ctx, r, game.CreateGame{ID: t.game, Name: "Proving Ground (" + t.ruleset + ")", Ruleset: t.ruleset})
			}),
			g.cmd(t, Admin, "bind", func(ctx context.Context, r game.Request) (*game.Result, error) {
				return g.admin.Bind(ctx, r, game.Bind{Platform: "discord", Space: t.guild, Channels: map[string]string{game.ChannelAnnouncements: t.channel}})
			}),
		}
		var pre, post []*command
		if t.setup != nil {
			pre, post = splitSetup(t.setup(g))
		}
		steps = append(steps, pre...)
		for _, c := range t.clients {
			steps = append(steps, g.cmd(t, c.id, "join", func(ctx context.Context, r game.Request) (*game.Result, error) {
				return c.svc.Join(ctx, r, game.JoinGame{Name: "Player " + c.id[len("discord:"):]})
			}))
		}
		steps = append(steps, post...)
		for _, s := range steps {
			if ok, err := g.do(ctx, s, 200); !ok {
				return fmt.Errorf("proving: setting up the %s game: %s by %s was not applied: %v", t.ruleset, s.name, s.actor, err)
			}
		}
		for _, c := range t.clients {
			c.member = true
		}
	}
	return nil
}

// splitSetup: a ruleset's setup commands named "amend" run before the
// joins (ruleset data the joins read), the others after them.
func splitSetup(cs []*command) (pre, post []*command) {
	for _, c := range cs {
		if c.name == "amend" {
			pre = append(pre, c)
		} else {
			post = append(post, c)
		}
	}
	return pre, post
}

// do sends c until it is acknowledged or refused, at most tries times. It
// records the outcome; a command still unacknowledged is left pending.
func (g *ground) do(ctx context.Context, c *command, tries int) (applied bool, err error) {
	t := c.t
	for range tries {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		var res *game.Result
		res, err = c.run(ctx, game.Request{Game: t.game, Actor: c.actor, Key: c.key})
		var re *rules.Error
		switch {
		case err == nil:
			g.mu.Lock()
			t.rep.count(c.name).OK++
			t.obs.Acks = append(t.obs.Acks, Ack{Actor: c.actor, Key: c.key, Command: c.name, Body: res.Body})
			g.mu.Unlock()
			return true, nil
		case errors.As(err, &re) && re.Code != game.ErrBusy.Code:
			g.mu.Lock()
			t.rep.count(c.name).Refuse(re.Code)
			t.obs.Refusals = append(t.obs.Refusals, Refusal{Actor: c.actor, Key: c.key, Command: c.name, Code: re.Code})
			g.mu.Unlock()
			return false, err
		default:
			// Unacknowledged: a transient failure (or busy). The client
			// cannot tell whether it committed; it retries the same key.
			g.mu.Lock()
			t.rep.count(c.name).Unacked++
			g.mu.Unlock()
		}
	}
	g.mu.Lock()
	t.pending = append(t.pending, c)
	if isVote(c.name) {
		t.obs.Unanswered = append(t.obs.Unanswered, Ack{Actor: c.actor, Key: c.key, Command: c.name, Target: c.target})
	}
	g.mu.Unlock()
	return false, err
}

// moment is a boundary: when, and what it is for each game.
type moment struct {
	at       time.Time
	what     []string
	judicial bool
}

// nextMoment is the first calendar boundary of any game after now, or a
// Judge's recusal window or deadline before it (at most Boundaries/2 of
// those a round).
func (g *ground) nextMoment(ctx context.Context) moment {
	now := g.clk.Now()
	m := moment{}
	for _, t := range g.tables {
		end := t.sched.PeriodAt(now).End
		if m.at.IsZero() || end.Before(m.at) {
			m.at = end
		}
	}
	for _, t := range g.tables {
		if t.sched.PeriodAt(now).End.Equal(m.at) {
			m.what = append(m.what, t.ruleset+" "+t.sched.PeriodAt(now).ID+" ends")
		}
	}
	if g.judicial >= g.cfg.Boundaries/2 {
		return m
	}
	for _, t := range g.tables {
		if t.ruleset != turns.ID {
			continue
		}
		st, err := turns.TurnsStatus(ctx, rulesets.New(g.cfg.Store, g.clk), t.game)
		if err != nil {
			continue
		}
		for _, cs := range st.Cases {
			for what, at := range map[string]*time.Time{"recusal window": cs.RecuseUntil, "deadline": cs.RuleBy} {
				if at != nil && at.After(now) && at.Before(m.at) {
					m = moment{at: *at, judicial: true, what: []string{fmt.Sprintf("turns case %d: the Judge's %s ends", cs.Number, what)}}
				}
			}
		}
	}
	return m
}

// boundary crosses the next boundary: commands mid-period, just before and
// at the boundary (the clock moves while they are in flight), every runner
// calling RunDue at the boundary moment at once and again just after, then
// commands after it, late runs, the unacknowledged commands retried, and
// every invariant checked. It reports whether the boundary was a calendar
// one (not a Judge's moment).
func (g *ground) boundary(ctx context.Context, rnd *rand.Rand) bool {
	m := g.nextMoment(ctx)
	end := m.at
	label := end.Format("Mon 2006-01-02 15:04") + " (" + strings.Join(m.what, "; ") + ")"
	g.jitter = g.cfg.Jitter >> rnd.IntN(7)
	// Mid-period (the clock jumps, so trade expiries and match timers are
	// applied late, as of their due moments) while runners also run.
	mid := g.clk.Now().Add(end.Sub(g.clk.Now()) / 2)
	g.clk.Set(mid)
	g.window(ctx, func(int64) {}, func() { g.runAll(ctx) })

	// Just before the boundary; once every client has sent a third of its
	// commands, the clock reaches it and every runner runs at once, then a second later again.
	// Clients whose clocks lag still see the moment before it.
	g.clk.Set(end.Add(-time.Second))
	clients := int64(g.cfg.Clients * len(g.tables))
	var once sync.Once
	atBoundary := make(chan struct{})
	g.window(ctx, func(past int64) {
		if past >= clients {
			once.Do(func() { close(atBoundary) })
		}
	}, func() {
		<-atBoundary
		g.clk.Set(end)
		g.runAll(ctx)
		g.clk.Set(end.Add(time.Second))
		g.runAll(ctx)
	})
	once.Do(func() { close(atBoundary) })
	// Quiet for a moment: the runners at the boundary may have failed
	// under faults, so the period may not have ended yet (not settled).
	g.checkAll(ctx, "just after "+label, false)

	// After it, with late runs.
	g.window(ctx, func(int64) {}, func() {
		g.clk.Set(end.Add(time.Duration(1+rnd.IntN(90)) * time.Minute))
		g.runAll(ctx)
	})
	g.retryPending(ctx)
	g.settle(ctx)
	g.mu.Lock()
	if m.judicial {
		g.judicial++
	} else {
		now := end.Add(-time.Nanosecond)
		for _, t := range g.tables {
			if t.sched.PeriodAt(now).End.Equal(end) {
				t.rep.Boundaries++
			}
		}
	}
	g.mu.Unlock()
	g.checkAll(ctx, "after "+label, true)
	g.probeRefusals(ctx)
	return !m.judicial
}

// window runs Ops commands per client of every game concurrently with
// during; progress is told, after each command, how many clients have sent
// at least a third of theirs (a burst's first command counts as sent when
// the burst begins).
func (g *ground) window(ctx context.Context, progress func(clients int64), during func()) {
	var wg sync.WaitGroup
	var past atomic.Int64
	third := max(1, g.cfg.Ops/3)
	for _, t := range g.tables {
		for _, c := range t.clients {
			wg.Go(func() {
				for i := range g.cfg.Ops {
					sent := func() {
						if i+1 == third {
							progress(past.Add(1))
						}
					}
					cmd := t.next(g, ctx, c)
					if cmd == nil {
						sent()
						continue
					}
					tries := cmd.tries
					if tries == 0 {
						tries = 4
					}
					if cmd.again != nil {
						sent()
					}
					ok, err := g.do(ctx, cmd, tries)
					if ok && cmd.actor == c.id && (cmd.name == "join" || cmd.name == "leave") {
						c.member = cmd.name == "join"
					}
					var re *rules.Error
					burst := cmd.again != nil
					for n := 0; cmd.again != nil && n < maxBurst && !errors.As(err, &re) && ctx.Err() == nil; n++ {
						cmd = cmd.again()
						_, err = g.do(ctx, cmd, cmd.tries)
					}
					if !burst {
						sent()
					}
				}
			})
		}
	}
	wg.Go(during)
	wg.Wait()
}

// maxBurst bounds a burst of commands (command.again).
const maxBurst = 300

// runAll has every runner call RunDue at the same moment.
func (g *ground) runAll(ctx context.Context) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, r := range g.runners {
		var wait time.Duration
		if i > 0 && g.jitter > 0 {
			g.mu.Lock()
			wait = time.Duration(g.rnd.Int64N(int64(g.jitter)))
			g.mu.Unlock()
		}
		wg.Go(func() {
			<-start
			time.Sleep(wait)
			rep, err := r.RunDue(ctx)
			g.mu.Lock()
			g.runs++
			if err != nil || len(rep.Failed) > 0 {
				g.runErrs++
			}
			g.mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
}

// settle runs the runners until one run completes without error or failed
// work at the clock's now, so every due piece of work has been applied.
func (g *ground) settle(ctx context.Context) {
	for range 200 {
		rep, err := g.runners[0].RunDue(ctx)
		g.mu.Lock()
		g.runs++
		ok := err == nil && len(rep.Failed) == 0
		if !ok {
			g.runErrs++
		}
		g.mu.Unlock()
		if ok {
			return
		}
	}
}

// retryPending resends every unacknowledged command with its key until it
// is acknowledged or refused.
func (g *ground) retryPending(ctx context.Context) {
	for _, t := range g.tables {
		g.mu.Lock()
		p := t.pending
		t.pending = nil
		g.mu.Unlock()
		for _, c := range p {
			g.do(ctx, c, 12)
		}
		g.mu.Lock()
		t.rep.Abandoned += len(t.pending)
		t.pending = nil
		g.mu.Unlock()
	}
}

// checkAll reads every game without faults and checks every invariant.
func (g *ground) checkAll(ctx context.Context, when string, settled bool) {
	delivered := g.drain(ctx)
	for _, t := range g.tables {
		c := &Checks{}
		snap, err := Read(ctx, g.cfg.Store, t.game, g.clk.Now())
		c.check(err == nil, "reading the game: %v", err)
		if err == nil {
			g.mu.Lock()
			obs := t.obs.clone()
			g.mu.Unlock()
			snap.Periods(c, settled)
			snap.SeedsSecret(c, settled)
			snap.Names(c)
			svc := rulesets.New(g.cfg.Store, g.clk, game.WithLogger(g.cfg.Log))
			snap.Acknowledged(ctx, c, obs, svc)
			snap.Explained(ctx, c, svc)
			if t.check != nil {
				t.check(g, ctx, c, snap, obs, settled)
			}
			c.inv = InvAnnounced
			c.check(delivered, "the outbox did not deliver every committed entry")
			n := snap.Announcements(c, g.cfg.Discord, t.channel, nil)
			g.mu.Lock()
			t.rep.Announced = n
			t.rep.PeriodEnds = countPeriodEnds(snap)
			g.mu.Unlock()
		}
		g.record(t, c, when)
	}
}

// drain polls every poller until each has handed everything committed
// (the announcer's posts then done); false if one never got there.
func (g *ground) drain(ctx context.Context) bool {
	for _, p := range g.pollers {
		ok := false
		for range 3000 {
			n, err := p.Poll(ctx)
			if err == nil && n == 0 {
				ok = true
				break
			}
			if err != nil {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func countPeriodEnds(s *Snapshot) int {
	n := 0
	for _, e := range s.Entries {
		if e.Command == "period-end" {
			n++
		}
	}
	return n
}

func (g *ground) record(t *table, c *Checks, when string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t.rep.Checks += c.N
	for _, v := range c.Violations {
		t.rep.Violations = append(t.rep.Violations, when+": "+v)
	}
	for inv, n := range c.Counted {
		if t.rep.Counted == nil {
			t.rep.Counted = map[string]int{}
		}
		t.rep.Counted[inv] += n
	}
}

func (g *ground) finalCheck(ctx context.Context) {
	for _, t := range g.tables {
		snap, err := Read(ctx, g.cfg.Store, t.game, g.clk.Now())
		c := &Checks{}
		c.check(err == nil, "reading the game: %v", err)
		if err == nil {
			snap.Audit(c)
		}
		g.record(t, c, "at the end")
	}
}

// probeRefusals sends, in each game, commands the rules must refuse,
// through the faults, and checks that the game's items are exactly as
// before.
func (g *ground) probeRefusals(ctx context.Context) {
	for _, t := range g.tables {
		before, err := Read(ctx, g.cfg.Store, t.game, g.clk.Now())
		if err != nil {
			g.record(t, &Checks{N: 1, Violations: []string{fmt.Sprintf("reading the game: %v", err)}}, "refusal probe")
			continue
		}
		// A current member, whose refusals are rule refusals rather than
		// "not a player"; when everyone has left, the first client's are.
		member, isMember := t.clients[0], false
		for _, c := range t.clients {
			if !isMember && slices.Contains(before.Members, c.id) {
				member, isMember = c, true
			}
		}
		c := &Checks{inv: InvRefusals}
		probes := t.probes(g, member, isMember)
		// Common to every ruleset: a command of another ruleset (R3), and a
		// join by a player.
		if t.ruleset != ruleset.Default {
			probes = append(probes, command{actor: member.id, name: "purchase", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
				return gildedhall.On(member.svc).Purchase(ctx, r, gildedhall.Purchase{Item: "random-card"})
			}})
		}
		if isMember {
			probes = append(probes, command{actor: member.id, name: "join", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
				return member.svc.Join(ctx, r, game.JoinGame{})
			}})
		}
		for _, p := range probes {
			p.t, p.key = t, g.key()
			applied, _ := g.do(ctx, &p, 12)
			c.check(!applied, "the probe %s by %s, which the rules must refuse, was applied", p.name, p.actor)
		}
		g.retryPending(ctx)
		after, err := Read(ctx, g.cfg.Store, t.game, g.clk.Now())
		c.check(err == nil, "reading the game: %v", err)
		if err == nil {
			Untouched(c, before, after, "a refused command")
		}
		g.record(t, c, "refusal probe at "+g.clk.Now().Format("Mon 2006-01-02 15:04"))
	}
}

// other is a player of c's game other than c, at random.
func (c *client) other() string {
	ids := c.t.ids
	o := ids[c.rnd.IntN(len(ids))]
	if o == c.id {
		o = ids[(slices.Index(ids, c.id)+1)%len(ids)]
	}
	return o
}

// pick is one of xs at random ("" when none).
func pick[T any](c *client, xs []T) (T, bool) {
	var zero T
	if len(xs) == 0 {
		return zero, false
	}
	return xs[c.rnd.IntN(len(xs))], true
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
