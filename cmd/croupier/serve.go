package main

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"croupier/internal/announce"
	"croupier/internal/cardart"
	"croupier/internal/chat"
	"croupier/internal/chat/bridge"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/slack"
	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/publish"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/sched"
	"croupier/internal/store/bolt"
	"croupier/internal/tracker"
)

// Defaults of `croupier serve`.
const (
	// defaultAddr is loopback: a server nobody configured is reachable from
	// this machine only.
	defaultAddr = "127.0.0.1:8080"
	defaultData = ".croupier/" + storeFile
	// storeFile is the store's file name inside a --data directory.
	storeFile = "croupier.db"
	// devAPIKey is the key a local server with a manual clock accepts when
	// none is configured, so the walkthrough needs no setup. Everyone knows
	// it: it is accepted only with --clock manual or --insecure-dev-key, and
	// on another address than loopback only with --insecure-dev-key.
	devAPIKey       = "dev-key"
	shutdownTimeout = 10 * time.Second
)

const serveHelp = `Usage: croupier serve [flags]

Runs every function's routes on one port, the scheduler (period ends and seed
reveals, checked every second) and the embedded bolt store. Stop it with
Ctrl-C (SIGINT) or SIGTERM: it finishes requests in flight and closes the store.

With --clock manual the server's time moves only when told to (POST
/v1/dev/clock, or "croupier play clock --advance 36h"), and only forward, so a
week of play fits in five minutes. Never use a manual clock for a real game. Its time is
kept in the store at every move: a restart without --start resumes there.

--data names the store file, or a directory to keep croupier.db in (an
existing directory, a path ending in /, or a missing path without an
extension; created if missing).

At start, serve refuses to end more than one period of a game at once (a
store left behind by a stopped real-clock server, or moved by --start): it
says how many period ends it would apply; --catch-up applies them.

Environment: CROUPIER_ADDR (--addr), CROUPIER_DATA (--data),
CROUPIER_API_KEYS (--api-key).

API keys (docs/operations.md "Credentials"): each entry is
"<key> as=<identities> [games=<games>]", entries separated by commas, e.g.
--api-key 'sha256:<hex of the key's SHA-256> as=discord:|slack: games=hall'
or --api-key "$KEY as=*" for a key that may act for anyone. The server fails
closed: it listens on 127.0.0.1 unless told otherwise, and on any other
address it refuses to start without a real key. Without a key it accepts
the development key dev-key with --clock manual (or --insecure-dev-key),
and otherwise a random key made for this run, printed at startup.

Chat (docs/operations.md): a log tail reads every committed log entry from
the store, every second, and hands it to the announcer, which posts to the
bound Discord announcement channels when CROUPIER_DISCORD_BOT_TOKEN is set
(API base CROUPIER_DISCORD_API_BASE, default Discord's) and to bound Slack
channels when CROUPIER_SLACK_BOT_TOKEN is set (CROUPIER_SLACK_API_BASE), and
otherwise logs the message; entries committed before a crash are announced after the
restart. POST /discord/interactions (the Discord application's Interactions
Endpoint URL; docs/discord.md "On one machine") verifies with
CROUPIER_DISCORD_PUBLIC_KEY (and, if set, CROUPIER_DISCORD_APPLICATION_ID);
commands slower than Discord's 3 seconds finish in the background and edit
their reply through Discord's API. A button pressed on a message others use
(a proposal, a Gathering, a duel invitation, a trade) answers the presser
privately and edits that message to its public state with the bot token
(Discord's Edit Message, Slack's chat.update). POST /slack/commands and
/slack/interactions verify with CROUPIER_SLACK_SIGNING_SECRET; POST /bridge/v1/commands and
/bridge/v1/events with CROUPIER_BRIDGE_SECRETS (entries as for keys, the
secret itself: "<secret> as=matrix:"). Without a secret those routes answer
401. CROUPIER_PUBLIC_URL, where chat platforms reach this server, makes
replies about cards show their pictures (<url>/cards/<card>.png).

The public tracker (docs/tracker.md) is at /tracker, e.g.
http://localhost:8080/tracker/games/<game>; card images at /cards/.
`

// serveConfig is everything serve needs to build a server.
type serveConfig struct {
	addr      string
	data      string
	clockMode string // "real" or "manual"
	// start is --start; zero: the manual clock resumes at its stored time,
	// or now on a new store.
	start time.Time
	// catchUp allows applying more than one period end per game at start.
	catchUp bool
	apiKeys credential.Keys
	// insecureDevKey accepts dev-key with a real clock, and on an address
	// other machines reach (--insecure-dev-key).
	insecureDevKey bool
	interval       time.Duration
	// entropy, when set, replaces crypto/rand for seeds and ids: tests use a
	// fixed one so documented sample output is reproducible. Never in serve.
	entropy io.Reader
	// Chat: see serveHelp. Secrets; never logged.
	discordToken, discordAPI string
	slackToken, slackAPI     string
	// discordKey verifies POST /discord/interactions (the application's
	// Public Key); nil: that route refuses every request. discordApp,
	// when set, refuses interactions of another application.
	discordKey ed25519.PublicKey
	discordApp string
	// publicURL is where the server is reachable from chat platforms (card
	// pictures in replies); empty: replies show no pictures.
	publicURL     string
	slackSecret   string
	bridgeSecrets []credential.Secret
	// modules are the rulesets the server runs: rulesets.All() unless set
	// (a test adds one of its own).
	modules []game.Module
}

// server is the wired application: what serve runs and what tests drive
// in-process through httptest.
type server struct {
	handler http.Handler
	store   *bolt.Store
	svc     *game.Service
	runner  *sched.Runner
	tail    *publish.Tail
	manual  *clock.Manual // nil with a real clock
	// clockFrom says where the manual clock's time came from: "stored"
	// (resumed), "--start" or "now" (a store no manual clock ran on);
	// stored is the stored time, zero if none.
	clockFrom string
	stored    time.Time
	// caughtUp is how many period ends --catch-up applied at start.
	caughtUp int
}

// newServer opens the store and wires the service, API and scheduler.
func newServer(cfg serveConfig, logger *slog.Logger) (*server, error) {
	st, err := bolt.Open(cfg.data)
	if err != nil {
		return nil, fmt.Errorf("cannot open the store: %w", err)
	}
	ctx := context.Background()
	var clk clock.Clock = clock.Real{}
	var manual *clock.Manual
	var saveManual func(context.Context, time.Time) error
	srv := &server{store: st}
	if cfg.clockMode == "manual" {
		stored, ok, err := loadClock(ctx, st)
		if err != nil {
			st.Close()
			return nil, err
		}
		start, from := cfg.start, "--start"
		switch {
		case !start.IsZero():
		case ok:
			start, from = stored, "stored"
		default:
			start, from = time.Now().UTC().Truncate(time.Second), "now"
		}
		manual = clock.NewManual(start)
		clk = manual
		srv.clockFrom, srv.stored = from, stored
		// The clock's own now, not the time a move asked for: of two
		// racing moves the last save then holds the later time.
		saveManual = func(ctx context.Context, _ time.Time) error { return saveClock(ctx, st, manual.Now) }
	}
	opts := []game.Option{game.WithLogger(logger)}
	if cfg.entropy != nil {
		opts = append(opts, game.WithEntropy(cfg.entropy))
	}
	modules := cfg.modules
	if modules == nil {
		modules = rulesets.All()
	}
	svc := game.New(st, clk, append(opts, game.WithModules(modules...))...)
	if srv.caughtUp, err = checkLag(ctx, svc, clk.Now(), cfg.catchUp); err != nil {
		st.Close()
		return nil, err
	}
	// Saved once the start is accepted (a refusal changes nothing), so a
	// restart without --start resumes here.
	if saveManual != nil {
		if err := saveManual(ctx, manual.Now()); err != nil {
			st.Close()
			return nil, fmt.Errorf("saving the manual clock: %w", err)
		}
	}
	var poster, slackPoster announce.Poster = announce.LogPoster{Log: logger}, announce.LogPoster{Log: logger}
	if cfg.discordToken != "" {
		poster = &announce.Discord{BaseURL: cfg.discordAPI, Token: cfg.discordToken}
	}
	if cfg.slackToken != "" {
		slackPoster = &announce.Slack{BaseURL: cfg.slackAPI, Token: cfg.slackToken}
	}
	// The log is the outbox (internal/publish): the tail announces what was
	// committed, after a cursor in the store, so entries committed just
	// before a crash are announced after the restart.
	tail := &publish.Tail{Feed: st, Store: st, Log: logger,
		Handle: (&announce.Announcer{Store: st, Bindings: svc, Narrator: svc, Discord: poster, Slack: slackPoster, Clock: clk, Log: logger}).Handle}

	api := httpapi.New(svc, httpapi.Config{Keys: cfg.apiKeys, ManualClock: manual, SaveClock: saveManual, Logger: logger, Version: version})
	router := chat.NewRouter(svc, logger)
	router.CardImage = chat.CardImageURL(cfg.publicURL)
	// Signatures' freshness (Discord, Slack, the bridge) and the reply
	// cache's lifetime are about real time: the platforms sign with the wall
	// clock, and a manual clock moves only the game (issue 23), so a server
	// whose game clock is a year away still answers a signed PING.
	wall := clock.Real{}
	cache := &chat.ReplyCache{Store: st, Clock: wall}
	mux := http.NewServeMux()
	(&slack.Handler{Router: router, Cache: cache, Secret: []byte(cfg.slackSecret), Clock: wall, Log: logger,
		API: &slack.API{Base: cfg.slackAPI, Token: cfg.slackToken}}).Routes(mux)
	// Discord's interactions, by the Lambda's handler; a command that
	// outlives Discord's 3 seconds is finished in a goroutine of this
	// long-lived process, and its reply edited through Discord's API.
	dh := &discord.Handler{Router: router, PublicKey: cfg.discordKey, ApplicationID: cfg.discordApp, Cache: cache,
		API: &discord.Client{Base: cfg.discordAPI, Token: cfg.discordToken}, Clock: wall, Log: logger}
	dh.Deferrer = discord.GoDeferrer{Finish: dh.Finish, Log: logger}
	mux.Handle("/discord/interactions", dh)
	(&bridge.Handler{Router: router, Game: svc, Cache: cache, Secrets: cfg.bridgeSecrets, Clock: wall, Log: logger}).Routes(mux)
	// The public tracker (internal/tracker) and the card images it shows.
	rs, err := ruleset.Load(ruleset.Default)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("loading the card table: %w", err)
	}
	cards, err := cardart.NewHandler(rs.Cards)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("the card images: %w", err)
	}
	tr := tracker.New(svc, tracker.Options{Cards: cards, Logger: logger})
	mux.Handle(tracker.Base, tr)
	mux.Handle(tracker.Base+"/", tr)
	mux.Handle(tracker.CardsBase+"/", tr)
	mux.Handle("/", api)
	srv.handler, srv.svc, srv.runner, srv.tail, srv.manual = mux, svc, sched.New(svc, cfg.interval, logger), tail, manual
	return srv, nil
}

func (e *env) serveConfig(args []string) (serveConfig, error) {
	cfg := serveConfig{interval: sched.DefaultInterval}
	fs := e.newFlagSet("serve", serveHelp)
	fs.StringVar(&cfg.addr, "addr", e.envOr("CROUPIER_ADDR", defaultAddr), "`address` to listen on, host:port")
	fs.StringVar(&cfg.data, "data", e.envOr("CROUPIER_DATA", defaultData), "`path` of the embedded store file, or a directory to keep "+storeFile+" in (created if missing)")
	fs.StringVar(&cfg.clockMode, "clock", "real", "`mode`: real (wall clock) or manual (moves only via POST /v1/dev/clock)")
	start := fs.String("start", "", "with --clock manual: the starting `time`, RFC 3339 (default: the time stored with the data, or now)")
	fs.BoolVar(&cfg.catchUp, "catch-up", false, "apply every period end due at start, even several per game (otherwise serve refuses)")
	var keys keyFlag
	fs.Var(&keys, "api-key", "bearer API key `entries` accepted: \"<key> as=<identities> [games=<games>]\", comma-separated or repeated")
	fs.BoolVar(&cfg.insecureDevKey, "insecure-dev-key", false, "accept the public development key "+devAPIKey+" with a real clock, or beside a real key on a non-loopback address")
	fs.DurationVar(&cfg.interval, "tick", sched.DefaultInterval, "how often the scheduler looks for due work")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return cfg, err
	}
	if len(rest) > 0 {
		return cfg, usagef("serve takes no arguments, got %q (flags start with --)", strings.Join(rest, " "))
	}
	switch cfg.clockMode {
	case "real":
		if *start != "" {
			return cfg, usagef("--start needs --clock manual: a real clock cannot start at another time")
		}
	case "manual":
		if *start != "" {
			t, err := time.Parse(time.RFC3339, *start)
			if err != nil {
				return cfg, usagef("--start %q is not an RFC 3339 time such as 2026-03-05T12:00:00Z", *start)
			}
			cfg.start = t.UTC()
		}
	default:
		return cfg, usagef("--clock must be real or manual, not %q", cfg.clockMode)
	}
	if cfg.interval <= 0 {
		return cfg, usagef("--tick must be positive, not %s", cfg.interval)
	}
	if cfg.data == "" {
		return cfg, usagef("--data must name a file or a directory")
	}
	cfg.data = storePath(cfg.data)
	// A key flag or variable that is set but blank is a mistake (an unset
	// shell variable, "--api-key $KEY"), not a request for no key.
	source, list := "--api-key", strings.Join(keys.values, ",")
	if !keys.set {
		source, list = "CROUPIER_API_KEYS", e.getenv("CROUPIER_API_KEYS")
	}
	if (keys.set || list != "") && strings.Trim(list, " \t\r\n,") == "" {
		return cfg, usagef("%s is set but holds no key (an unset shell variable?): give \"<key> as=<identities>\", or leave it out to serve on loopback without one", source)
	}
	if cfg.apiKeys, err = credential.ParseKeys(list); err != nil {
		return cfg, usagef("%s: %v", source, err)
	}
	cfg.discordToken = strings.TrimSpace(e.getenv("CROUPIER_DISCORD_BOT_TOKEN"))
	cfg.publicURL = strings.TrimSpace(e.getenv("CROUPIER_PUBLIC_URL"))
	cfg.discordAPI = strings.TrimSpace(e.getenv("CROUPIER_DISCORD_API_BASE"))
	cfg.slackToken = strings.TrimSpace(e.getenv("CROUPIER_SLACK_BOT_TOKEN"))
	cfg.slackAPI = strings.TrimSpace(e.getenv("CROUPIER_SLACK_API_BASE"))
	cfg.slackSecret = strings.TrimSpace(e.getenv("CROUPIER_SLACK_SIGNING_SECRET"))
	if k := strings.TrimSpace(e.getenv("CROUPIER_DISCORD_PUBLIC_KEY")); k != "" {
		pub, err := discord.ParsePublicKey(k)
		if err != nil {
			return cfg, usagef("CROUPIER_DISCORD_PUBLIC_KEY: %v (the application's Public Key from the Discord developer portal, in hex)", err)
		}
		cfg.discordKey = pub
	}
	cfg.discordApp = strings.TrimSpace(e.getenv("CROUPIER_DISCORD_APPLICATION_ID"))
	if cfg.bridgeSecrets, err = credential.ParseSecrets(e.getenv("CROUPIER_BRIDGE_SECRETS")); err != nil {
		return cfg, usagef("CROUPIER_BRIDGE_SECRETS: %v", err)
	}
	return cfg, nil
}

// keyFlag collects --api-key values, remembering that the flag was given
// even when blank.
type keyFlag struct {
	values []string
	set    bool
}

func (k *keyFlag) String() string { return "" } // the keys are secrets

func (k *keyFlag) Set(v string) error {
	k.values, k.set = append(k.values, v), true
	return nil
}

// keyPolicy decides which keys the server accepts, failing closed: the
// public dev-key only with a manual clock or --insecure-dev-key; an
// address other machines reach only with a real key; and without any key,
// loopback only with a key made for this run. It returns the keys and what
// to tell the operator.
func keyPolicy(cfg serveConfig, loopback bool) (credential.Keys, string, error) {
	keys := cfg.apiKeys
	manual := cfg.clockMode == "manual"
	if len(keys) == 0 && (manual || cfg.insecureDevKey) {
		keys = credential.Keys{credential.AnyKey(devAPIKey)}
	}
	dev := keys.Has(devAPIKey)
	realKeys := len(keys)
	if dev {
		realKeys--
	}
	switch {
	case dev && !manual && !cfg.insecureDevKey:
		return nil, "", fmt.Errorf("refusing to accept the public development key %q with the real clock: set a real key with --api-key or CROUPIER_API_KEYS (\"<key> as=<identities>\", docs/operations.md \"Credentials\"), use --clock manual, or pass --insecure-dev-key", devAPIKey)
	case !loopback && realKeys == 0:
		return nil, "", fmt.Errorf("refusing to serve %s without an API key: that address is reachable from other machines, and without a real key anyone there could act as any player. Set --api-key or CROUPIER_API_KEYS (\"<key> as=<identities>\", docs/operations.md \"Credentials\"), or listen on loopback with --addr 127.0.0.1:8080", cfg.addr)
	case !loopback && dev && !cfg.insecureDevKey:
		return nil, "", fmt.Errorf("refusing to accept the public development key %q on %s, which other machines reach: remove it from --api-key/CROUPIER_API_KEYS, listen on loopback (--addr 127.0.0.1:8080), or pass --insecure-dev-key", devAPIKey, cfg.addr)
	case dev:
		return keys, "accepting the development key \"" + devAPIKey + "\" (anyone who knows it may act as any player); set --api-key or CROUPIER_API_KEYS for anything but local use", nil
	case len(keys) == 0:
		var b [24]byte
		_, _ = rand.Read(b[:])
		k := fmt.Sprintf("%x", b)
		return credential.Keys{credential.AnyKey(k)}, "no API key configured: this run accepts the key " + k + " only (export CROUPIER_KEY=" + k + " for croupier play); set --api-key or CROUPIER_API_KEYS for a lasting one", nil
	}
	return keys, "", nil
}

// isLoopback reports whether a listener's address is reachable from this
// machine only.
func isLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

func (e *env) serve(args []string) error {
	cfg, err := e.serveConfig(args)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, nil))

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("cannot listen on %s: the port is already in use (another croupier serve?); choose another with --addr or CROUPIER_ADDR", cfg.addr)
		}
		return fmt.Errorf("cannot listen on %s: %w", cfg.addr, err)
	}
	defer ln.Close()
	// Decided on the address actually bound ("localhost" resolved).
	loopback := isLoopback(ln.Addr())
	keys, keyNote, err := keyPolicy(cfg, loopback)
	if err != nil {
		return err
	}
	cfg.apiKeys = keys

	srv, err := newServer(cfg, logger)
	if err != nil {
		return err
	}
	defer func() {
		if err := srv.store.Close(); err != nil {
			logger.Error("closing the store", "err", err)
		}
	}()

	dataPath, _ := filepath.Abs(cfg.data)
	logger.Info("croupier listening", "url", displayURL(ln.Addr()), "addr", ln.Addr().String(), "version", version)
	if loopback {
		logger.Info("listening on loopback only: other machines cannot reach this server", "hint", "to serve others, set --addr and a real key (--api-key or CROUPIER_API_KEYS)")
	}
	logger.Info("store", "data", dataPath, "kind", "embedded bolt")
	if srv.manual != nil {
		now := srv.manual.Now()
		from := map[string]string{"stored": "resumed at the time stored with the data", "--start": "set by --start", "now": "started now: no time stored with the data"}[srv.clockFrom]
		logger.Info("clock", "mode", "manual", "now", now.Format(time.RFC3339), "from", from,
			"hint", "move it with POST /v1/dev/clock or: croupier play clock --advance 36h")
		if srv.clockFrom == "--start" && !srv.stored.IsZero() && !srv.stored.Equal(now) {
			logger.Warn("--start differs from the time stored with the data", "start", now.Format(time.RFC3339), "stored", srv.stored.Format(time.RFC3339))
		}
	} else {
		logger.Info("clock", "mode", "real")
	}
	if srv.caughtUp > 0 {
		logger.Info("caught up", "period_ends", srv.caughtUp)
	}
	if keyNote != "" {
		logger.Warn(keyNote)
	} else {
		logger.Info("API keys configured", "count", len(cfg.apiKeys))
	}
	if cfg.discordToken != "" {
		logger.Info("announcements", "to", "Discord", "api", cmp.Or(cfg.discordAPI, announce.DefaultDiscordAPI))
	} else {
		logger.Info("announcements", "to", "log", "hint", "set CROUPIER_DISCORD_BOT_TOKEN to post them to Discord")
	}
	logger.Info("chat webhooks", "discord", cfg.discordKey != nil, "slack", cfg.slackSecret != "", "bridge_secrets", len(cfg.bridgeSecrets))
	if e.onListen != nil {
		e.onListen(ln.Addr().String())
	}

	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	hs := &http.Server{
		Handler:           srv.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	var wg sync.WaitGroup
	schedCtx, stopSched := context.WithCancel(context.Background())
	wg.Go(func() { _ = srv.runner.Run(schedCtx) })
	wg.Go(func() { _ = srv.tail.Run(schedCtx) })

	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()

	var runErr error
	select {
	case <-ctx.Done():
		logger.Info("shutting down", "reason", context.Cause(ctx))
	case err := <-serveErr:
		runErr = fmt.Errorf("the HTTP server stopped: %w", err)
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutCtx); err != nil {
		logger.Warn("requests still running at shutdown were cut off", "err", err)
	}
	stopSched()
	wg.Wait()
	if runErr == nil {
		logger.Info("stopped")
	}
	return runErr
}

// displayURL turns a listener address into a URL a user can paste: an
// unspecified host (":8080", "[::]:8080") becomes localhost.
func displayURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
