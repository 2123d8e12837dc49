// Package proving is Croupier's proving ground, in the spirit of Jepsen's
// bank test and pebble's metamorphic tests: many clients, each with its own
// game.Service over one store (as separate Lambdas share one table), send
// random command streams while several scheduler runners call RunDue at
// and around every phase boundary of a manual clock, and the store injects
// conflicts, throttling, timeouts after the write and lost read responses
// (internal/store/faulty). Clients retry unacknowledged commands with the
// same idempotency key, as a chat platform or a careful client does. After
// every boundary the ground reads the store without faults and checks the
// invariants (invariants.go); the report counts commands, faults, runs and
// checks, and lists every violation. docs/proving.md describes it.
//
// The process-kill half (kill -9 of a real `croupier serve` during phase
// ends) is in kill_test.go: it drives the server over HTTP and checks the
// same invariants on its bolt file.
package proving

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"croupier/internal/announce"
	"croupier/internal/announce/announcetest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/faulty"
)

// DiscordToken is the bot token the announcer uses and the fake accepts.
const DiscordToken = "proving-bot-token"

// Admin is the game's admin identity (not a player); it makes the grants.
const Admin = "discord:1"

// The Discord guild and announcement channel the game is bound to.
const (
	Guild   = "900000000000000001"
	Channel = "900000000000000002"
)

// Config sizes one run.
type Config struct {
	// Name labels the report ("bolt", "dynamodb").
	Name string
	// Store is the real store; the ground wraps it in faults.
	Store  store.Store
	Faults faulty.Rates
	Seed   uint64
	Game   string
	// Clients are the players, each with its own service and goroutine.
	Clients int
	// Runners call RunDue concurrently at every boundary (at least 4).
	Runners int
	// Boundaries is how many phase ends the clock crosses.
	Boundaries int
	// Ops is how many commands each client sends in each of the three
	// windows around a boundary (mid-phase, just before, just after).
	Ops int
	// Start is where the clock starts (a Wednesday noon by default).
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
	fs      *faulty.Store
	clk     *clock.Manual
	sched   calendar.Schedule
	fake    *announcetest.Discord
	admin   *game.Service
	clients []*client
	runners []*game.Service
	pollers []Poller
	ids     []string // every player identity
	handMin int      // the smallest hand a match accepts (X1)

	mu      sync.Mutex
	rnd     *rand.Rand // under mu
	jitter  time.Duration
	rep     Report
	obs     Observed
	pending []*command
	keys    atomic.Int64
}

type client struct {
	id  string
	svc *game.Service
	rnd *rand.Rand
	// member is what the client last learnt: a player who left sends
	// joins (refused for a week, RULINGS P1) until one is accepted.
	member bool
}

// command is one command as a client sends it: retried with the same key
// until it is acknowledged or refused.
type command struct {
	actor, key, name string
	run              func(ctx context.Context, req game.Request) (*game.Result, error)
}

// Run runs the proving ground once and returns its report; violations are
// in the report, an error means the run itself could not proceed.
func Run(ctx context.Context, cfg Config) (*Report, error) {
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
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	g := &ground{cfg: cfg, clk: clock.NewManual(cfg.Start), fake: cfg.Discord}
	g.rep.Name = cfg.Name
	g.fs = faulty.New(cfg.Store, cfg.Seed, cfg.Faults)
	var err error
	if g.sched, err = calendar.For(calendar.UTCPhases); err != nil {
		return nil, err
	}
	rs, err := ruleset.Load(ruleset.Default)
	if err != nil {
		return nil, err
	}
	g.handMin = exoptosis.HandMin(rs)
	newSvc := func() *game.Service {
		svc := rulesets.New(g.fs, g.clk, game.WithLogger(cfg.Log))
		// Fewer conflict retries than a Lambda's 25: the clients retry
		// themselves, and a livelock (every attempt conflicting, as after a
		// seed revealed early) shows as busy answers, not as a hang.
		svc.MaxAttempts, svc.Backoff = 8, 2*time.Millisecond
		return svc
	}
	g.admin = newSvc()
	// The log is the outbox: the announcer `croupier serve` and
	// functions/announce run, over the faulty store, posting to the Discord
	// fake, fed by two pollers of the committed log at once (overlapping
	// deliveries). Its leases run on real time, so they expire while the
	// game clock stands still; a quarter second is ample for a loopback post.
	an := &announce.Announcer{Store: g.fs, Bindings: g.admin, Narrator: g.admin, Clock: clock.Real{}, Lease: 250 * time.Millisecond, Log: cfg.Log,
		Discord: &announce.Discord{BaseURL: g.fake.APIBase(), Token: DiscordToken}}
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
	for i := range cfg.Clients {
		id := fmt.Sprintf("discord:%d", 100+i)
		g.ids = append(g.ids, id)
		g.clients = append(g.clients, &client{id: id, svc: newSvc(), rnd: rand.New(rand.NewPCG(cfg.Seed, uint64(i)+1000))})
	}
	for range cfg.Runners {
		g.runners = append(g.runners, newSvc())
	}
	if err := g.setup(ctx); err != nil {
		return nil, err
	}
	for b := 0; b < cfg.Boundaries; b++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g.boundary(ctx, rnd)
	}
	g.finalCheck(ctx)
	g.rep.Faults = g.fs.Counts()
	g.rep.Posts, g.rep.Deliveries = len(g.fake.Sent(Channel)), g.fake.Accepted(Channel)
	return &g.rep, nil
}

func (g *ground) req(actor string) game.Request {
	return game.Request{Game: g.cfg.Game, Actor: actor, Key: fmt.Sprintf("k%d", g.keys.Add(1))}
}

// setup creates the game, binds its announcement channel, and has every
// client join with a starting grant. All through the faults, with retries.
func (g *ground) setup(ctx context.Context) error {
	steps := []command{
		{actor: Admin, name: "create", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return g.admin.Create(ctx, r, game.CreateGame{ID: g.cfg.Game, Name: "Proving Ground"})
		}},
		{actor: Admin, name: "bind", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return g.admin.Bind(ctx, r, game.Bind{Platform: "discord", Space: Guild, Channels: map[string]string{game.ChannelAnnouncements: Channel}})
		}},
	}
	for _, c := range g.clients {
		steps = append(steps, command{actor: c.id, name: "join", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return c.svc.Join(ctx, r, game.JoinGame{Name: "Player " + c.id[len("discord:"):]})
		}}, command{actor: Admin, name: "grant", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(g.admin).Grant(ctx, r, gildedhall.Grant{Player: c.id, Vertebrae: 150, RandomCards: 4, Reason: "starting stake"})
		}})
	}
	for _, s := range steps {
		s.key = g.req(s.actor).Key
		if ok, err := g.do(ctx, &s, 200); !ok {
			return fmt.Errorf("proving: setting up the game: %s by %s was not applied: %v", s.name, s.actor, err)
		}
	}
	for _, c := range g.clients {
		c.member = true
	}
	return nil
}

// do sends c until it is acknowledged or refused, at most tries times. It
// records the outcome; a command still unacknowledged is left pending.
func (g *ground) do(ctx context.Context, c *command, tries int) (applied bool, err error) {
	for range tries {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		var res *game.Result
		res, err = c.run(ctx, game.Request{Game: g.cfg.Game, Actor: c.actor, Key: c.key})
		var re *rules.Error
		switch {
		case err == nil:
			g.mu.Lock()
			g.rep.count(c.name).OK++
			g.obs.Acks = append(g.obs.Acks, Ack{Actor: c.actor, Key: c.key, Command: c.name, Body: res.Body})
			g.mu.Unlock()
			return true, nil
		case errors.As(err, &re) && re.Code != game.ErrBusy.Code:
			g.mu.Lock()
			g.rep.count(c.name).Refuse(re.Code)
			g.obs.Refusals = append(g.obs.Refusals, Refusal{Actor: c.actor, Key: c.key, Command: c.name, Code: re.Code})
			g.mu.Unlock()
			return false, err
		default:
			// Unacknowledged: a transient failure (or busy). The client
			// cannot tell whether it committed; it retries the same key.
			g.mu.Lock()
			g.rep.count(c.name).Unacked++
			g.mu.Unlock()
		}
	}
	g.mu.Lock()
	g.pending = append(g.pending, c)
	g.mu.Unlock()
	return false, err
}

// boundary crosses the next phase end: commands mid-phase, just before and
// at the boundary (the clock moves while they are in flight), every runner
// calling RunDue at the boundary moment at once and again just after, then
// commands after it, late runs, the unacknowledged commands retried, and
// every invariant checked.
func (g *ground) boundary(ctx context.Context, rnd *rand.Rand) {
	end := g.sched.PeriodAt(g.clk.Now()).End
	g.jitter = g.cfg.Jitter >> rnd.IntN(7)
	// Mid-phase: the clock jumps (due trade expiries and match timers are
	// applied late, as of their due moments) while runners also run.
	mid := g.clk.Now().Add(end.Sub(g.clk.Now()) / 2)
	g.clk.Set(mid)
	g.window(ctx, func(int64) {}, func() { g.runAll(ctx) })

	// Just before the boundary; a third of the way through, the clock
	// reaches it and every runner runs at once, then a second later again.
	g.clk.Set(end.Add(-time.Second))
	total := int64(len(g.clients) * g.cfg.Ops)
	var once sync.Once
	atBoundary := make(chan struct{})
	g.window(ctx, func(done int64) {
		if done >= total/3 {
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
	g.checkAll(ctx, "just after the phase end of "+end.Format("Mon 2006-01-02 15:04"), false)

	// After it, with late runs.
	g.window(ctx, func(int64) {}, func() {
		g.clk.Set(end.Add(time.Duration(1+rnd.IntN(90)) * time.Minute))
		g.runAll(ctx)
	})
	g.retryPending(ctx)
	g.settle(ctx)
	g.mu.Lock()
	g.rep.Boundaries++
	g.mu.Unlock()
	g.checkAll(ctx, "after the phase end of "+end.Format("Mon 2006-01-02 15:04"), true)
	g.probeRefusals(ctx)
}

// window runs Ops commands per client concurrently with during; progress is
// told how many commands have completed after each one.
func (g *ground) window(ctx context.Context, progress func(done int64), during func()) {
	var wg sync.WaitGroup
	var done atomic.Int64
	for _, c := range g.clients {
		wg.Go(func() {
			for range g.cfg.Ops {
				cmd := g.next(ctx, c)
				if cmd != nil {
					if ok, _ := g.do(ctx, cmd, 4); ok && cmd.actor == c.id && (cmd.name == "join" || cmd.name == "leave") {
						c.member = cmd.name == "join"
					}
				}
				progress(done.Add(1))
			}
		})
	}
	wg.Go(during)
	wg.Wait()
}

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
			g.rep.RunnerRuns++
			if err != nil || len(rep.Failed) > 0 {
				g.rep.RunnerErrors++
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
		g.rep.RunnerRuns++
		ok := err == nil && len(rep.Failed) == 0
		if !ok {
			g.rep.RunnerErrors++
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
	g.mu.Lock()
	p := g.pending
	g.pending = nil
	g.mu.Unlock()
	for _, c := range p {
		g.do(ctx, c, 12)
	}
	g.mu.Lock()
	g.rep.Abandoned += len(g.pending)
	g.pending = nil
	g.mu.Unlock()
}

// checkAll reads the game without faults and checks every invariant.
func (g *ground) checkAll(ctx context.Context, when string, settled bool) {
	snap, err := Read(ctx, g.cfg.Store, g.cfg.Game, g.clk.Now())
	c := &Checks{}
	c.check(err == nil, "reading the game: %v", err)
	if err == nil {
		g.mu.Lock()
		obs := Observed{Acks: slices.Clone(g.obs.Acks), Refusals: slices.Clone(g.obs.Refusals)}
		g.mu.Unlock()
		snap.Periods(c, settled)
		snap.SeedsSecret(c, settled)
		snap.Conservation(c)
		svc := rulesets.New(g.cfg.Store, g.clk, game.WithLogger(g.cfg.Log))
		snap.Acknowledged(ctx, c, obs, svc)
		snap.Replays(ctx, c, svc)
		c.inv = InvAnnounced
		c.check(g.drain(ctx), "the outbox did not deliver every committed entry")
		if snap, err = Read(ctx, g.cfg.Store, g.cfg.Game, g.clk.Now()); err != nil {
			c.check(false, "reading the game: %v", err)
			g.record(c, when)
			return
		}
		n := snap.Announcements(c, g.fake, Channel, nil)
		g.mu.Lock()
		g.rep.Announced = n
		g.rep.PeriodEnds = countPeriodEnds(snap)
		g.mu.Unlock()
	}
	g.record(c, when)
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

func (g *ground) record(c *Checks, when string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.rep.Checks += c.N
	for _, v := range c.Violations {
		g.rep.Violations = append(g.rep.Violations, when+": "+v)
	}
	for _, v := range c.Known {
		g.rep.Known = append(g.rep.Known, when+": "+v)
	}
}

func (g *ground) finalCheck(ctx context.Context) {
	snap, err := Read(ctx, g.cfg.Store, g.cfg.Game, g.clk.Now())
	c := &Checks{}
	c.check(err == nil, "reading the game: %v", err)
	if err == nil {
		snap.Audit(c)
	}
	g.record(c, "at the end")
}

// probeRefusals sends commands the rules must refuse, through the faults,
// and checks that the game's items are exactly as before.
func (g *ground) probeRefusals(ctx context.Context) {
	before, err := Read(ctx, g.cfg.Store, g.cfg.Game, g.clk.Now())
	if err != nil {
		g.record(&Checks{N: 1, Violations: []string{fmt.Sprintf("reading the game: %v", err)}}, "refusal probe")
		return
	}
	// A current member, whose refusals are rule refusals rather than
	// "not a player"; when everyone has left, the first client's are.
	member, isMember := g.clients[0], false
	for _, c := range g.clients {
		for _, p := range before.Players {
			if p.ID == c.id && p.Member && !isMember {
				member, isMember = c, true
			}
		}
	}
	c := &Checks{inv: InvRefusals}
	m, svc := member.id, member.svc
	probes := []command{
		{actor: m, name: "purchase", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Purchase(ctx, r, gildedhall.Purchase{Item: "legendary-pack", Quantity: 90})
		}},
		{actor: m, name: "open", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Open(ctx, r, gildedhall.OpenPack{Pack: "no-such-pack"})
		}},
		{actor: m, name: "gift", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Gift(ctx, r, gildedhall.Gift{To: m})
		}},
		{actor: m, name: "accept", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).AcceptTrade(ctx, r, "no-such-trade")
		}},
		{actor: m, name: "grant", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Grant(ctx, r, gildedhall.Grant{Player: m, Vertebrae: 1000, Reason: "not an admin"})
		}},
		{actor: "discord:424242", name: "purchase", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Purchase(ctx, r, gildedhall.Purchase{Item: "random-card"})
		}},
		{actor: m, name: "answer", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).AnswerDuel(ctx, r, gildedhall.AnswerDuel{Match: "no-such-match", Accept: true})
		}},
	}
	if isMember {
		probes = append(probes, command{actor: m, name: "join", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Join(ctx, r, game.JoinGame{})
		}})
	}
	for _, p := range probes {
		p.key = g.req(p.actor).Key
		applied, _ := g.do(ctx, &p, 12)
		c.check(!applied, "the probe %s by %s, which the rules must refuse, was applied", p.name, p.actor)
	}
	g.retryPending(ctx)
	after, err := Read(ctx, g.cfg.Store, g.cfg.Game, g.clk.Now())
	c.check(err == nil, "reading the game: %v", err)
	if err == nil {
		Untouched(c, before, after, "a refused command")
	}
	g.record(c, "refusal probe at "+g.clk.Now().Format("Mon 2006-01-02 15:04"))
}

// next picks a client's next command at random, reading what it needs (its
// trades, duel requests, cards) through its own faulty service; nil when
// such a read failed.
func (g *ground) next(ctx context.Context, c *client) *command {
	other := g.ids[c.rnd.IntN(len(g.ids))]
	if other == c.id {
		other = g.ids[(slices.Index(g.ids, c.id)+1)%len(g.ids)]
	}
	cmd := &command{actor: c.id, key: g.req(c.id).Key}
	svc, gm := c.svc, g.cfg.Game
	r := c.rnd.IntN(100)
	if !c.member && r < 60 {
		r = 90 // mostly joins; the rest are refused as not a player
	}
	switch {
	case r < 16:
		items := []string{"random-card", "handy-pack", "deck-pack", "chip", "legendary-pack"}
		b := gildedhall.Purchase{Item: items[c.rnd.IntN(len(items))], Quantity: 1 + c.rnd.IntN(2)}
		cmd.name = "purchase"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Purchase(ctx, r, b)
		}
	case r < 28:
		kinds := []string{"handy-pack", "deck-pack", "legendary-pack"}
		o := gildedhall.OpenPack{Pack: kinds[c.rnd.IntN(len(kinds))]}
		cmd.name = "open"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Open(ctx, r, o)
		}
	case r < 37:
		cmd.name = "gift"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Gift(ctx, r, gildedhall.Gift{To: other})
		}
	case r < 48:
		o := gildedhall.OfferTrade{To: other, Give: itemsOf(c.rnd.IntN(4), nil)}
		if c.rnd.IntN(2) == 0 {
			if v, err := svc.Player(ctx, gm, c.id); err == nil && len(gildedhall.ViewOf(v).Inventory.Cards) > 0 {
				cs := gildedhall.ViewOf(v).Inventory.Cards
				o.Give.Cards = []string{cs[c.rnd.IntN(len(cs))].ID}
			}
		}
		if c.rnd.IntN(3) == 0 {
			o.Take.Vertebrae = 1
		}
		if o.Give.Vertebrae == 0 && len(o.Give.Cards) == 0 {
			o.Give.Vertebrae = 1
		}
		cmd.name = "offer"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).OfferTrade(ctx, r, o)
		}
	case r < 58, r < 63:
		accept := r < 58
		trs, err := gildedhall.On(svc).Trades(ctx, gm, gildedhall.TradeFilter{Player: c.id, Status: gildedhall.TradeOpen})
		if err != nil {
			return nil
		}
		var pick []string
		for _, t := range trs {
			if (accept && t.To == c.id) || (!accept && t.From == c.id) {
				pick = append(pick, t.ID)
			}
		}
		if len(pick) == 0 {
			return nil
		}
		id := pick[c.rnd.IntN(len(pick))]
		if accept {
			cmd.name = "accept"
			cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
				return gildedhall.On(svc).AcceptTrade(ctx, r, id)
			}
		} else {
			cmd.name = "withdraw"
			cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
				return gildedhall.On(svc).WithdrawTrade(ctx, r, id)
			}
		}
	case r < 69:
		cmd.name = "duel"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).RequestDuel(ctx, r, gildedhall.RequestDuel{Invitees: []string{other}})
		}
	case r < 72:
		ms, err := gildedhall.On(svc).Matches(ctx, gm, gildedhall.MatchFilter{Player: c.id, Status: "requested", Kind: "duel"})
		if err != nil || len(ms) == 0 {
			return nil
		}
		a := gildedhall.AnswerDuel{Match: ms[c.rnd.IntN(len(ms))].ID, Accept: c.rnd.IntN(4) != 0}
		cmd.name = "answer"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).AnswerDuel(ctx, r, a)
		}
	case r < 76:
		mv, ok := g.move(ctx, c)
		if !ok {
			return nil
		}
		cmd.name = "move"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Move(ctx, r, mv)
		}
	case r < 81:
		cmd.name = "engage"
		cmd.run = gildedhall.On(svc).EngageBattle
	case r < 85:
		cmd.name = "roll"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Roll(ctx, r, game.RollDice{Dice: "2d6"})
		}
	case r < 86:
		cmd.name = "leave"
		cmd.run = svc.Leave
	case r < 90:
		p := game.SubmitProposal{Message: game.MessageRef{Platform: "discord", Channel: Channel, Message: fmt.Sprint(910000000000000000 + g.keys.Add(1))},
			Title: "A proposal from the proving ground", Text: "Let the ground shake."}
		cmd.name = "proposal"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) { return svc.SubmitProposal(ctx, r, p) }
	case r < 92:
		cmd.name = "join"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Join(ctx, r, game.JoinGame{})
		}
	default:
		gr := gildedhall.Grant{Player: other, Vertebrae: 5 + c.rnd.IntN(25), RandomCards: c.rnd.IntN(3), Reason: "proving ground"}
		if c.rnd.IntN(3) == 0 {
			gr.Packs = []gildedhall.PackGrant{{Pack: "handy-pack", Count: 1}}
		}
		cmd.actor, cmd.key, cmd.name = Admin, g.req(Admin).Key, "grant"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Grant(ctx, r, gr)
		}
	}
	return cmd
}

// move picks a move in one of the client's live matches where it is to
// move: a hand of distinct cards in the selection, a raise, match, pass or
// decline in the betting (Chips leave the bettor into the pool), a pass or
// a forfeit in play. Many are refused (not legal now): refusals too must
// change nothing.
func (g *ground) move(ctx context.Context, c *client) (gildedhall.MatchMove, bool) {
	ms, err := gildedhall.On(c.svc).Matches(ctx, g.cfg.Game, gildedhall.MatchFilter{Player: c.id, Status: gildedhall.MatchPlaying})
	if err != nil {
		return gildedhall.MatchMove{}, false
	}
	var mine []gildedhall.MatchSummary
	for _, m := range ms {
		if slices.Contains(m.Movers, c.id) {
			mine = append(mine, m)
		}
	}
	if len(mine) == 0 {
		return gildedhall.MatchMove{}, false
	}
	m := mine[c.rnd.IntN(len(mine))]
	mv := gildedhall.MatchMove{Match: m.ID}
	switch exoptosis.Phase(m.Phase) {
	case exoptosis.PhaseSelection:
		v, err := c.svc.Player(ctx, g.cfg.Game, c.id)
		if err != nil {
			return gildedhall.MatchMove{}, false
		}
		var names []string
		for _, cd := range gildedhall.ViewOf(v).Inventory.Cards {
			if !slices.Contains(names, cd.Name) && len(names) < g.handMin {
				names = append(names, cd.Name)
			}
		}
		mv.Kind, mv.Cards = exoptosis.MoveSelect, names
	case exoptosis.PhaseBetting:
		switch c.rnd.IntN(4) {
		case 0:
			mv.Kind, mv.Amount = exoptosis.MoveRaise, 1+c.rnd.IntN(3)
		case 1:
			mv.Kind = exoptosis.MoveMatch
		case 2:
			mv.Kind = exoptosis.MovePass
		default:
			mv.Kind = exoptosis.MoveDecline
		}
	default:
		mv.Kind = exoptosis.MovePass
		if c.rnd.IntN(4) == 0 {
			mv.Kind = exoptosis.MoveForfeit
		}
	}
	return mv, true
}

func itemsOf(vertebrae int, cards []string) economy.Items {
	return economy.Items{Vertebrae: vertebrae, Cards: cards}
}
