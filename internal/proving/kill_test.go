package proving_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"croupier/internal/announce"
	"croupier/internal/announce/announcetest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/proving"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store/bolt"
	"croupier/internal/testenv"
)

// Kills is how many times TestServeKill9 kills the server (acceptance 3).
const Kills = 20

const killGame = "killing-floor"

// The kill test's turns game, bound to its own channel: its turn ends are
// among the boundaries the server is killed in.
const (
	killTurns    = "killing-turns"
	turnsGuild   = "900000000000000101"
	turnsChannel = "900000000000000102"
)

// TestServeKill9 is acceptance 3 of issue 11: a real `croupier serve`
// (manual clock, bolt) is killed with SIGKILL 20 times during phase ends
// with commands in flight, and restarted on the same data each time.
// After each kill the bolt file is checked for every invariant of the
// proving ground; after each restart the game catches up to the period
// containing the clock and everything committed before the kill is
// announced (the log tail), exactly once.
func TestServeKill9(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	soak := soakDuration(t)
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "croupier")
	build := exec.Command("go", "build", "-o", bin, "./cmd/croupier")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building croupier: %v\n%s", err, out)
	}
	port, err := testenv.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	fake := announcetest.New(t, proving.DiscordToken)
	srv := &serveProc{t: t, bin: bin, data: filepath.Join(dir, "croupier.db"), addr: fmt.Sprintf("127.0.0.1:%d", port), discord: fake.APIBase()}
	sch, _ := calendar.For(calendar.UTCPhases)
	now := proving.DefaultStart
	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	rep := &proving.Report{Name: "croupier serve, kill -9"}
	obs := &observed{}

	// The game and its players, over HTTP; then (the server stopped) its
	// Discord announcement channel, bound in the store as an operator
	// would from Discord (there is no HTTP route for binding).
	srv.start(now)
	players := []string{"discord:200", "discord:201", "discord:202", "discord:203", "discord:204"}
	turnsPlayers := []string{"discord:300", "discord:301", "discord:302", "discord:303"}
	tsch, _ := calendar.For(calendar.ChicagoTurns)
	trep := &proving.Report{Name: "croupier serve, kill -9, turns"}
	tobs := &observed{}
	reports := map[string]*proving.Report{killGame: rep, killTurns: trep}
	observes := map[string]*observed{killGame: obs, killTurns: tobs}
	setup := []httpCmd{{actor: proving.Admin, name: "create", path: "/v1/games", body: game.CreateGame{ID: killGame, Name: "Killing Floor"}}}
	for _, p := range players {
		setup = append(setup, httpCmd{actor: p, name: "join", path: "/v1/games/" + killGame + "/join", body: game.JoinGame{}},
			httpCmd{actor: proving.Admin, name: "grant", path: "/v1/games/" + killGame + "/grants", body: gildedhall.Grant{Player: p, Vertebrae: 200, RandomCards: 3, Reason: "starting stake"}})
	}
	setup = append(setup, httpCmd{game: killTurns, actor: proving.Admin, name: "create", path: "/v1/games", body: game.CreateGame{ID: killTurns, Name: "Killing Turns", Ruleset: turns.ID}})
	for _, p := range turnsPlayers {
		setup = append(setup, httpCmd{game: killTurns, actor: p, name: "join", path: "/v1/games/" + killTurns + "/join", body: game.JoinGame{}},
			httpCmd{game: killTurns, actor: p, name: "pool-enter", path: "/v1/games/" + killTurns + "/commands/pool-enter", body: struct{}{}})
	}
	for i, c := range setup {
		c.key = fmt.Sprintf("setup-%d", i)
		if out := srv.send(c, reports[c.target()], observes[c.target()]); out != outcomeOK {
			t.Fatalf("setting up: %s by %s: %s", c.name, c.actor, out)
		}
	}
	srv.stop(syscall.SIGTERM)
	{
		st, err := bolt.Open(srv.data)
		if err != nil {
			t.Fatal(err)
		}
		svc := rulesets.New(st, clock.NewManual(now))
		_, err = svc.Bind(ctx, game.Request{Game: killGame, Actor: proving.Admin, Key: "bind"},
			game.Bind{Platform: "discord", Space: proving.Guild, Channels: map[string]string{game.ChannelAnnouncements: proving.Channel}})
		if err == nil {
			_, err = svc.Bind(ctx, game.Request{Game: killTurns, Actor: proving.Admin, Key: "bind"},
				game.Bind{Platform: "discord", Space: turnsGuild, Channels: map[string]string{game.ChannelAnnouncements: turnsChannel}})
		}
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	// Every entry up to this id must be announced (the ones before the
	// binding had no channel to go to).
	announced := entryIDs(readBolt(t, srv.data, killGame, now, nil))
	tannounced := entryIDs(readBolt(t, srv.data, killTurns, now, nil))
	killedAfter := 0                // kills that came after the phase end committed
	turnEnds, turnEndsAfter := 0, 0 // kill cycles at a turn's end, and those after it committed
	proposals := 0                  // turns proposals acknowledged: votes name P1..Pn
	var pending []httpCmd
	keys := 0
	deadline := time.Now().Add(soak)
	cycles := 0
	for cycle := 1; cycle <= Kills || time.Now().Before(deadline); cycle++ {
		cycles = cycle
		srv.start(now)
		// Retried with the same key after the restart: the commands the
		// kill left unanswered.
		for _, c := range pending {
			if out := srv.send(c, reports[c.target()], observes[c.target()]); out == outcomeUnacked {
				reports[c.target()].Abandoned++
				if c.name == "turns-vote" {
					tobs.unanswered(c)
				}
			}
		}
		pending = nil
		// The next boundary of either game: a phase end or a turn's
		// beginning, middle or end.
		end, boundaryGame := sch.PeriodAt(now).End, killGame
		if te := tsch.PeriodAt(now).End; te.Before(end) {
			end, boundaryGame = te, killTurns
		}
		turnEnd := boundaryGame == killTurns && tsch.PeriodAt(now).Kind == calendar.KindTurnLatterHalf

		// Commands in flight from every player while the clock is set to
		// the boundary (the scheduler and the clock route both run the
		// phase end); the server is killed during or just after it.
		var wg sync.WaitGroup
		var mu sync.Mutex
		killed := make(chan struct{})
		for _, p := range players {
			wg.Go(func() {
				for range 40 {
					select {
					case <-killed:
						return
					default:
					}
					mu.Lock()
					keys++
					c := randomHTTPCmd(rnd, p, players, fmt.Sprintf("c%d", keys))
					mu.Unlock()
					if srv.send(c, rep, obs) == outcomeUnacked {
						mu.Lock()
						pending = append(pending, c)
						mu.Unlock()
					}
				}
			})
		}
		for _, p := range turnsPlayers {
			wg.Go(func() {
				for range 30 {
					select {
					case <-killed:
						return
					default:
					}
					mu.Lock()
					keys++
					c := randomTurnsCmd(rnd, p, turnsPlayers, proposals, fmt.Sprintf("c%d", keys))
					mu.Unlock()
					switch srv.send(c, trep, tobs) {
					case outcomeUnacked:
						mu.Lock()
						pending = append(pending, c)
						mu.Unlock()
					case outcomeOK:
						if c.name == "turns-propose" {
							mu.Lock()
							proposals++
							mu.Unlock()
						}
					}
				}
			})
		}
		mu.Lock()
		early := time.Duration(20+rnd.IntN(80)) * time.Millisecond
		// A third of the kills come within 5 ms of the clock's move (before
		// or inside the phase end's commit), a third within 40 ms, a third
		// up to 1.2 s later (the scheduler's tick).
		late := []time.Duration{5, 40, 1200}[cycle%3] * time.Duration(rnd.IntN(1000)) * time.Microsecond
		mu.Unlock()
		time.Sleep(early)
		wg.Go(func() {
			_, _, _ = srv.do(http.MethodPost, "/v1/dev/clock", proving.Admin, "", map[string]any{"set": end})
		})
		time.Sleep(late)
		srv.stop(syscall.SIGKILL)
		close(killed)
		rep.Kills++
		trep.Kills++
		wg.Wait()

		// The bolt file as the kill left it.
		c := &proving.Checks{}
		snap := readBolt(t, srv.data, killGame, end, func(snap *proving.Snapshot, svc *game.Service) {
			snap.Acknowledged(context.Background(), c, obs.snapshot(), svc)
			snap.Explained(context.Background(), c, svc)
		})
		tc := &proving.Checks{}
		tsnap := readBolt(t, srv.data, killTurns, end, func(snap *proving.Snapshot, svc *game.Service) {
			snap.Acknowledged(context.Background(), tc, tobs.snapshot(), svc)
			snap.Explained(context.Background(), tc, svc)
		})
		ended := func(s *proving.Snapshot, sc calendar.Schedule) bool {
			_, ok := s.ByKey[game.CommandID(game.SchedulerActor, "period-end:"+sc.PeriodAt(end.Add(-time.Second)).ID)]
			return ok
		}
		switch {
		case boundaryGame == killGame && ended(snap, sch), boundaryGame == killTurns && ended(tsnap, tsch):
			killedAfter++
			if turnEnd {
				turnEndsAfter++
			}
		}
		if turnEnd {
			turnEnds++
		}
		snap.Periods(c, false)
		snap.SeedsSecret(c, false)
		snap.Conservation(c)
		rep.Announced += snap.Announcements(c, fake, proving.Channel, announced)
		recordChecks(rep, c, fmt.Sprintf("after kill %d", cycle))
		announced = entryIDs(snap)
		tsnap.Periods(tc, false)
		tsnap.SeedsSecret(tc, false)
		tsnap.Counted(tc, tobs.snapshot())
		tsnap.Points(tc)
		trep.Announced += tsnap.Announcements(tc, fake, turnsChannel, tannounced)
		recordChecks(trep, tc, fmt.Sprintf("after kill %d", cycle))
		tannounced = entryIDs(tsnap)

		// Restarted past the boundary (and past any delivery lease the
		// kill left, on the manual clock), the game must catch up and the
		// tail announce what the killed server committed.
		now = end.Add(3 * time.Minute)
		srv.start(now)
		c = &proving.Checks{}
		// The period that ended at the boundary, of the game it was for.
		last := map[string]calendar.Schedule{killGame: sch, killTurns: tsch}[boundaryGame].PeriodAt(end.Add(-time.Second)).ID
		c.Check(srv.waitPeriodEnded(boundaryGame, last), "restarted at %s, the server did not end %s's period %s within 30 s", now.Format(time.RFC3339), boundaryGame, last)
		c.Check(waitAnnounced(fake, proving.Channel, snap), "the restarted server did not announce, within 30 s, what the killed one committed")
		c.Check(waitAnnounced(fake, turnsChannel, tsnap), "the restarted server did not announce, within 30 s, what the killed one committed in the turns game")
		recordChecks(rep, c, fmt.Sprintf("after restart %d", cycle))
		srv.stop(syscall.SIGKILL)
		rep.Kills++
		trep.Kills++
		// Some hours on, short of the next boundary: every boundary of
		// both games is a kill cycle's.
		next := sch.PeriodAt(now).End
		if te := tsch.PeriodAt(now).End; te.Before(next) {
			next = te
		}
		if gap := next.Sub(now) - time.Hour; gap > time.Hour {
			now = now.Add(time.Duration(rnd.Int64N(int64(min(gap, 30*time.Hour)))))
		}
	}

	// The last restart: settled, everything announced, stopped cleanly.
	srv.start(now)
	for _, c := range pending {
		if srv.send(c, reports[c.target()], observes[c.target()]) == outcomeUnacked && c.name == "turns-vote" {
			tobs.unanswered(c)
		}
	}
	srv.waitPeriodEnded(killGame, sch.Prev(sch.PeriodAt(now)).ID)
	srv.waitPeriodEnded(killTurns, tsch.Prev(tsch.PeriodAt(now)).ID)
	time.Sleep(2 * time.Second) // the tail polls every second
	srv.stop(syscall.SIGTERM)
	c := &proving.Checks{}
	snap := readBolt(t, srv.data, killGame, now, func(snap *proving.Snapshot, svc *game.Service) {
		snap.Acknowledged(context.Background(), c, obs.snapshot(), svc)
		snap.Explained(context.Background(), c, svc)
	})
	tc := &proving.Checks{}
	tsnap := readBolt(t, srv.data, killTurns, now, func(snap *proving.Snapshot, svc *game.Service) {
		snap.Acknowledged(context.Background(), tc, tobs.snapshot(), svc)
		snap.Explained(context.Background(), tc, svc)
	})
	tsnap.Periods(tc, true)
	tsnap.SeedsSecret(tc, true)
	tsnap.Audit(tc)
	tsnap.Counted(tc, tobs.snapshot())
	tsnap.Points(tc)
	trep.Announced = tsnap.Announcements(tc, fake, turnsChannel, nil)
	for _, e := range tsnap.Entries {
		if e.Command == "period-end" {
			trep.PeriodEnds++
			trep.Boundaries++
		}
	}
	recordChecks(trep, tc, "at the end")
	trep.Posts, trep.Deliveries = len(fake.Sent(turnsChannel)), fake.Accepted(turnsChannel)
	snap.Periods(c, true)
	snap.SeedsSecret(c, true)
	snap.Conservation(c)
	snap.Audit(c)
	rep.Announced = snap.Announcements(c, fake, proving.Channel, nil)
	rep.PeriodEnds = 0
	for _, e := range snap.Entries {
		if e.Command == "period-end" {
			rep.PeriodEnds++
			rep.Boundaries++
		}
	}
	recordChecks(rep, c, "at the end")
	rep.Posts, rep.Deliveries = len(fake.Sent(proving.Channel)), fake.Accepted(proving.Channel)
	t.Logf("\n%s\n%s  %d of the %d kills during phase and turn ends came after the period's end committed, %d before; %d kills at turn ends (%d after the turn's end committed)\n",
		rep, trep, killedAfter, cycles, cycles-killedAfter, turnEnds, turnEndsAfter)
	if n := len(rep.Violations) + len(trep.Violations); n > 0 {
		t.Errorf("%d violations, listed in the reports above", n)
	}
	if rep.Kills < 2*Kills || rep.PeriodEnds+trep.PeriodEnds < Kills || killedAfter == 0 || killedAfter == cycles || turnEnds == 0 {
		t.Errorf("%d kills, %d period ends, %d of %d kills after the period's end committed, %d at turn ends: want at least %d kills and period ends, some kills before and some after, some at turn ends",
			rep.Kills, rep.PeriodEnds+trep.PeriodEnds, killedAfter, cycles, turnEnds, Kills)
	}
}

func entryIDs(s *proving.Snapshot) map[string]bool {
	ids := map[string]bool{}
	for _, e := range s.Entries {
		ids[e.ID] = true
	}
	return ids
}

func recordChecks(rep *proving.Report, c *proving.Checks, when string) {
	rep.Checks += c.N
	if rep.Counted == nil {
		rep.Counted = map[string]int{}
	}
	for inv, n := range c.Counted {
		rep.Counted[inv] += n
	}
	for _, v := range c.Violations {
		rep.Violations = append(rep.Violations, when+": "+v)
	}
}

// readBolt reads the game from the bolt file the server left, and runs
// with (if not nil) on it with a service over the file, before closing it
// for the next start.
func readBolt(t *testing.T, path, g string, now time.Time, with func(*proving.Snapshot, *game.Service)) *proving.Snapshot {
	t.Helper()
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatalf("opening the killed server's store: %v", err)
	}
	defer st.Close()
	snap, err := proving.Read(context.Background(), st, g, now)
	if err != nil {
		t.Fatal(err)
	}
	if with != nil {
		with(snap, rulesets.New(st, clock.NewManual(now)))
	}
	return snap
}

// waitAnnounced waits until every announceable entry of snap has reached
// the fake.
func waitAnnounced(fake *announcetest.Discord, channel string, snap *proving.Snapshot) bool {
	for range 300 {
		created := map[string]bool{}
		for _, m := range fake.Sent(channel) {
			created[m.Nonce] = true
		}
		missing := false
		for _, e := range snap.Entries {
			lines, _ := announce.Render(rulesets.Registry(), "discord", &e)
			for i := range announce.Split(lines) {
				if !created[announce.Nonce(e.ID, channel, i)] {
					missing = true
				}
			}
		}
		if !missing {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// observed collects what the HTTP clients were told.
type observed struct {
	mu  sync.Mutex
	obs proving.Observed
}

func (o *observed) snapshot() proving.Observed {
	o.mu.Lock()
	defer o.mu.Unlock()
	return proving.Observed{Acks: append([]proving.Ack(nil), o.obs.Acks...), Refusals: append([]proving.Refusal(nil), o.obs.Refusals...),
		Unanswered: append([]proving.Ack(nil), o.obs.Unanswered...)}
}

// unanswered records a vote left without an answer (its commit unknown).
func (o *observed) unanswered(c httpCmd) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b, _ := c.body.(turns.Ballot)
	o.obs.Unanswered = append(o.obs.Unanswered, proving.Ack{Actor: c.actor, Key: c.key, Command: c.name, Target: b.Proposal})
}

type httpCmd struct {
	game                   string // killGame when empty
	actor, key, name, path string
	body                   any
}

func (c httpCmd) target() string {
	if c.game == "" {
		return killGame
	}
	return c.game
}

// randomTurnsCmd is a command of a player of the turns game: votes for
// and against the latest proposals (and one more, refused as unknown),
// proposals, the pool, Requests for Judgment and rolls.
func randomTurnsCmd(rnd *rand.Rand, p string, players []string, proposals int, key string) httpCmd {
	cmd := func(name string) string { return "/v1/games/" + killTurns + "/commands/" + name }
	c := httpCmd{game: killTurns, actor: p, key: key}
	switch r := rnd.IntN(100); {
	case r < 55:
		// The latest proposals (those open now), and the next one.
		first := max(1, proposals-3)
		b := turns.Ballot{Proposal: fmt.Sprintf("P%d", first+rnd.IntN(proposals+2-first)), Vote: []string{"for", "against"}[rnd.IntN(2)]}
		c.name, c.path, c.body = "turns-vote", cmd("turns-vote"), b
	case r < 70:
		c.name, c.path, c.body = "turns-propose", cmd("turns-propose"), turns.Propose{Op: "enact", Text: "Killed and restarted, the rules stand."}
	case r < 80:
		c.name, c.path, c.body = "pool-enter", cmd("pool-enter"), struct{}{}
	case r < 88:
		c.name, c.path, c.body = "judgment-request", cmd("judgment-request"), turns.Judgment{Statement: "The server stands.", Mentions: []string{players[rnd.IntN(len(players))]}}
	default:
		c.name, c.path, c.body = "roll", "/v1/games/"+killTurns+"/rolls", game.RollDice{Dice: "1d6"}
	}
	return c
}

func randomHTTPCmd(rnd *rand.Rand, p string, players []string, key string) httpCmd {
	g := "/v1/games/" + killGame
	other := players[rnd.IntN(len(players))]
	c := httpCmd{actor: p, key: key}
	switch r := rnd.IntN(100); {
	case r < 30:
		items := []string{"random-card", "handy-pack", "deck-pack"}
		c.name, c.path, c.body = "purchase", g+"/purchases", gildedhall.Purchase{Item: items[rnd.IntN(len(items))]}
	case r < 45:
		c.name, c.path, c.body = "open", g+"/packs/open", gildedhall.OpenPack{Pack: "handy-pack"}
	case r < 60:
		c.name, c.path, c.body = "gift", g+"/gifts", gildedhall.Gift{To: other}
	case r < 70:
		c.name, c.path, c.body = "engage", g+"/battles/engage", nil
	case r < 85:
		c.name, c.path, c.body = "roll", g+"/rolls", game.RollDice{Dice: "3d6"}
	default:
		c.actor, c.name, c.path = proving.Admin, "grant", g+"/grants"
		c.body = gildedhall.Grant{Player: other, Vertebrae: 10 + rnd.IntN(20), RandomCards: rnd.IntN(2), Reason: "proving ground"}
	}
	return c
}

type outcome string

const (
	outcomeOK      outcome = "acknowledged"
	outcomeRefused outcome = "refused"
	outcomeUnacked outcome = "unacknowledged"
)

// serveProc is one `croupier serve` process at a time on one data file.
type serveProc struct {
	t                        *testing.T
	bin, data, addr, discord string
	cmd                      *exec.Cmd
	out                      bytes.Buffer
	exited                   chan struct{}
	client                   http.Client
}

func (s *serveProc) start(at time.Time) {
	s.t.Helper()
	s.out.Reset()
	s.cmd = exec.Command(s.bin, "serve", "--clock", "manual", "--start", at.Format(time.RFC3339),
		"--data", s.data, "--addr", s.addr)
	s.cmd.Env = append(os.Environ(), "CROUPIER_DISCORD_BOT_TOKEN="+proving.DiscordToken, "CROUPIER_DISCORD_API_BASE="+s.discord,
		"CROUPIER_API_KEYS=", "CROUPIER_ADDR=", "CROUPIER_DATA=")
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting croupier serve: %v", err)
	}
	s.exited = make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	s.client.Timeout = 10 * time.Second
	for range 200 {
		select {
		case <-s.exited:
			s.t.Fatalf("croupier serve exited at start:\n%s", s.out.String())
		default:
		}
		if resp, err := s.client.Get("http://" + s.addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("croupier serve did not answer /healthz:\n%s", s.out.String())
}

// stop sends sig (SIGKILL: kill -9) and waits for the process to exit.
func (s *serveProc) stop(sig syscall.Signal) {
	s.t.Helper()
	_ = s.cmd.Process.Signal(sig)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		s.t.Errorf("croupier serve did not stop on %v:\n%s", sig, s.out.String())
	}
}

func (s *serveProc) do(method, path, actor, key string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://"+s.addr+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer dev-key")
	req.Header.Set("X-Croupier-Actor", actor)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// send runs one command and records what the client was told.
func (s *serveProc) send(c httpCmd, rep *proving.Report, obs *observed) outcome {
	status, body, err := s.do(http.MethodPost, c.path, c.actor, c.key, c.body)
	obs.mu.Lock()
	defer obs.mu.Unlock()
	cnt := rep.Count(c.name)
	var problem struct {
		Code string `json:"code"`
	}
	switch {
	case err == nil && status >= 200 && status < 300:
		cnt.OK++
		obs.obs.Acks = append(obs.obs.Acks, proving.Ack{Actor: c.actor, Key: c.key, Command: c.name, Body: body})
		return outcomeOK
	case err == nil && status >= 400 && status < 500 && json.Unmarshal(body, &problem) == nil && problem.Code != "":
		cnt.Refuse(problem.Code)
		obs.obs.Refusals = append(obs.obs.Refusals, proving.Refusal{Actor: c.actor, Key: c.key, Command: c.name, Code: problem.Code})
		return outcomeRefused
	default:
		cnt.Unacked++
		return outcomeUnacked
	}
}

// waitPeriodEnded waits until the log (read over HTTP) holds the end of
// period id: the restarted server's scheduler caught up.
func (s *serveProc) waitPeriodEnded(g, id string) bool {
	for range 300 {
		cursor := ""
		for {
			path := "/v1/games/" + g + "/log?limit=" + fmt.Sprint(game.MaxPageLimit)
			if cursor != "" {
				path += "&cursor=" + url.QueryEscape(cursor)
			}
			status, body, err := s.do(http.MethodGet, path, proving.Admin, "", nil)
			var page game.LogPage
			if err != nil || status != http.StatusOK || json.Unmarshal(body, &page) != nil {
				break
			}
			for _, e := range page.Entries {
				if e.Command == "period-end" && e.Key == "period-end:"+id {
					return true
				}
			}
			if page.Next == "" {
				break
			}
			cursor = page.Next
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}
