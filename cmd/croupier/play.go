package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/client"
	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets"
)

const defaultURL = "http://localhost:8080"

const playHelp = `Usage: croupier play [flags] <command> [args] [flags]

Acts as one player (--as) against a running croupier server over its JSON API.
Flags may come before or after the command.

Commands:
  create-game ID [--name N] [--ruleset R] [--admin ID ...] [--season S]
                          create a game; you become its admin unless --admin names others
  join [--name N]         join the game
  leave                   leave the game (your items are destroyed)
  status [PLAYER] [--ids] a player's currency, deck and packs (you by default)
  me [--ids]              your own status
  players                 the game's current players
  roll DICE [--reason R]  a logged, verifiable roll, e.g. 2d6
  shop                    what the Croupier sells, at this game's prices
  buy ITEM [--quantity N] buy from the Croupier, e.g. buy handy-pack
  open PACK               open a pack: its id, or a kind (handy-pack) for your oldest
  gift PLAYER             your gift of this period: random cards for another player
  trade offer PLAYER --give ITEMS --take ITEMS [--note N]
                          offer a trade, e.g. --give "3 vertebrae, 7 of Hearts"
                          --take "1 chip"; croupier play help trade offer for ITEMS
  trade accept [ID]       accept a trade offered to you: it executes now
                          (no ID: the only open trade offered to you)
  trade withdraw [ID]     withdraw your offer, or decline one made to you
  trade show ID           one trade
  trades [--player P] [--status S]
                          the game's trades (P "me" for yours; S open, executed, ...)
  ruleset                 this game's rule numbers (prices, chances, windows)

Exoptosis (MATCH may be left out when you have one running match):
  duel PLAYER...          ask players to a duel; duel accept|decline [MATCH] answers
  battle                  engage in this phase's battle (it starts at the phase's end)
  matches [--status S] [--kind K] [--player P]
                          the game's duels and battles
  match [MATCH]           hands, pile, whose turn, pending choice, deadline, pool
                          and your legal moves
  select MATCH CARD...    your hand (4+ cards of your deck)
  bet MATCH raise N|match|decline|pass
  play MATCH CARD         play a card;  add MATCH CARD: add one from your deck
  giver MATCH PLAYER      who must give you a card;  give MATCH CARD: give one
  target MATCH PLAYER... [--card C]
                          an Ace's, King's or Queen's targets
  forfeit MATCH           leave the match;  terminate MATCH: consent to end it
  replay MATCH            the match move by move

Governance (votes are the 👍/👎 reactions on the chat message named by --channel/--message):
  propose --channel C --message M [--urgent] [--title T] [--text T] [--amend JSON | --price ITEM=N]
                          submit your message as a proposal (standard: next phase; urgent: 48 h)
  proposals [--status S]  proposals with live counts and deadlines; proposal ID for one
  withdraw-proposal ID    withdraw your open proposal
  rfj statement|question TEXT --channel C --message M
                          request justice; judge shows the Judge and the queue
  rule REQUEST ANSWER     the Judge rules (TRUE/FALSE for a statement); overturn RULING
  confidence RULING --channel C --message M
                          open a 48-hour vote of confidence on the poll message
  rulings                 past rulings; assent-removal, resign: the Judge's office
  stand --channel C --message M
                          stand for Judge this week; candidacies [--week W] for the election
  react --channel C --message M --up ID... --down ID...
                          push a message's reactions (bridges, tests); message-event edited|deleted

Admin commands (each needs --reason, and is logged with it):
  grant PLAYER [--vertebrae N] [--chips N] [--card NAME ...] [--holo]
        [--random-cards N] [--pack KIND ...]
                          give currency (negative N takes), cards and packs
  revoke PLAYER [--vertebrae N] [--chips N] [--card C ...] [--pack P ...]
                          take items, all or nothing
  amend --patch JSON | --price ITEM=N
                          change this game's rule numbers (a new ruleset version)

Other commands:
  log [--limit N] [--all] the game log, oldest first
  seeds                   each period's seed commitment, and the seeds revealed
  audit                   the server's own check of every draw (see also: croupier verify)
  clock --advance D | --set T | --to-period-end
                          move a server's manual clock (serve --clock manual) and
                          run the work that falls due
  game                    describe the game
  NAME [ARGS] [--FIELD V] any other command of the game's ruleset (the server lists them;
                          croupier play help NAME for one)
  help                    this text

Common flags (environment variable in brackets):
  --url URL      server (CROUPIER_URL, default ` + defaultURL + `)
  --key KEY      API key (CROUPIER_KEY, default ` + devAPIKey + `)
  --game ID      game (CROUPIER_GAME)
  --as ID        who you are, a platform identity such as discord:1 (CROUPIER_AS)
  --json         print the server's JSON instead of text
  --at T         read the game as it was at T: an RFC 3339 time, "2 days ago",
                 "3 hours ago", "yesterday", or a log entry's id (just after it;
                 before:ID just before it); every read takes it, no command does
  --key-id K     idempotency key of this command (default: random per invocation);
                 repeating a command with the same --key-id changes nothing twice

Exit status: 0 done, 1 refused by the server (the reason is printed), 2 usage error.
`

// playOpts are the flags every play command accepts.
type playOpts struct {
	url, key, game, as, keyID string
	// at is the moment every read shows (--at), as the person gave it.
	at      string
	json    bool
	timeout time.Duration
}

func (o *playOpts) register(fs *flag.FlagSet) {
	fs.StringVar(&o.url, "url", o.url, "server `URL` (CROUPIER_URL)")
	fs.StringVar(&o.key, "key", o.key, "API `key` (CROUPIER_KEY)")
	fs.StringVar(&o.game, "game", o.game, "game `id` (CROUPIER_GAME)")
	fs.StringVar(&o.as, "as", o.as, "your platform `identity`, e.g. discord:1 (CROUPIER_AS)")
	fs.StringVar(&o.keyID, "key-id", o.keyID, "idempotency `key` of this command (default: random)")
	fs.BoolVar(&o.json, "json", o.json, "print the server's JSON")
	fs.StringVar(&o.at, "at", o.at, "read the game as it was at `T` (a time, \"2 days ago\", an entry id)")
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "give up on the server after this `duration`")
}

// playCmd is one play command.
type playCmd struct {
	synopsis string
	// needGame and needActor are checked before run.
	needGame, needActor bool
	// setup registers the command's own flags and returns its runner.
	setup func(fs *flag.FlagSet) func(p *player, args []string) error
}

// player is the state of one play invocation.
type player struct {
	e    *env
	opts playOpts
	c    *client.Client
	ctx  context.Context
	// players is the game's roster once read (names.go).
	players *[]game.PlayerView
}

// idem is the invocation's idempotency key.
func (p *player) idem() string {
	if p.opts.keyID == "" {
		p.opts.keyID = client.NewIdempotencyKey()
		if p.e.newKey != nil {
			p.opts.keyID = p.e.newKey()
		}
	}
	return p.opts.keyID
}

func (e *env) play(args []string) error {
	opts := playOpts{
		url:     e.envOr("CROUPIER_URL", defaultURL),
		key:     e.envOr("CROUPIER_KEY", devAPIKey),
		game:    e.envOr("CROUPIER_GAME", ""),
		as:      e.envOr("CROUPIER_AS", ""),
		timeout: 30 * time.Second,
	}
	top := e.newFlagSet("play", playHelp)
	top.Usage = func() { fmt.Fprint(top.Output(), playHelp) }
	opts.register(top)
	if err := top.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &silentError{code: exitUsage}
	}
	rest := top.Args()
	if len(rest) == 0 {
		fmt.Fprint(e.stderr, playHelp)
		return usagef("play needs a command, e.g. croupier play join")
	}
	name, rest := rest[0], rest[1:]
	if name == "help" {
		// help [NAME] [--game G ...]: the flags may come first.
		scanCommonFlags(&opts, rest)
		var words []string
		for i := 0; i < len(rest); i++ {
			if strings.HasPrefix(rest[i], "-") {
				if !strings.Contains(rest[i], "=") {
					i++ // its value
				}
				continue
			}
			words = append(words, rest[i])
		}
		rest = words // the common flags are in opts now
		if len(rest) == 1 && subcommands[rest[0]] != nil {
			for _, sub := range subcommands[rest[0]] {
				fmt.Fprintf(e.stdout, "croupier play %s\n", strings.SplitN(playCommands[rest[0]+" "+sub].synopsis, "\n", 2)[0])
			}
			fmt.Fprintf(e.stdout, "(croupier play help %s %s for one)\n", rest[0], subcommands[rest[0]][0])
			return nil
		}
		if len(words) > 0 {
			if _, ok := playCommands[rest[0]]; ok || subcommands[rest[0]] != nil {
				e2 := *e
				e2.stderr = e.stdout
				return e2.play(append(rest[:min(len(rest), 2):min(len(rest), 2)], "-h"))
			}
			cmd, err := e.catalogueVerb(rest[0], opts, rest[1:])
			if err == nil {
				fmt.Fprintf(e.stdout, "Usage: croupier play %s\n", cmd.synopsis)
				return nil
			}
			return err
		}
		if opts.game != "" {
			// With a game, its ruleset's own commands (GET .../commands):
			// exactly what the server runs there (issue 24 acceptance 2).
			return e.gameHelp(opts)
		}
		fmt.Fprint(e.stdout, playHelp)
		return nil
	}
	if subs := subcommands[name]; subs != nil {
		if len(rest) == 0 || !slices.Contains(subs, rest[0]) {
			return usagef("%s needs one of: %s (croupier play help %s %s)", name, strings.Join(subs, ", "), name, subs[0])
		}
		name, rest = name+" "+rest[0], rest[1:]
	}
	cmd, ok := playCommands[name]
	if !ok {
		// A command of the game's ruleset with no verb of its own here
		// (play_catalogue.go), or an unknown verb.
		var err error
		if cmd, err = e.catalogueVerb(name, opts, rest); err != nil {
			return err
		}
	}
	fs := e.newFlagSet("play "+name, "Usage: croupier play "+cmd.synopsis+"\n")
	opts.register(fs)
	runCmd := cmd.setup(fs)
	rest, err := boolFieldValues(fs, rest)
	if err != nil {
		return err
	}
	pos, err := parseInterspersed(fs, rest)
	if err != nil {
		return err
	}
	if cmd.needGame && opts.game == "" {
		return usagef("say which game: --game ID or CROUPIER_GAME")
	}
	if cmd.needActor && opts.as == "" {
		return usagef("say who you are: --as discord:1 or CROUPIER_AS (a platform identity)")
	}
	if opts.timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	c, err := client.New(opts.url, opts.key, opts.as)
	if err != nil {
		return usagef("%v", err)
	}
	ctx, cancel := context.WithTimeout(e.ctx, opts.timeout)
	defer cancel()
	if opts.at != "" {
		serverNow := func() (time.Time, *time.Location, error) {
			h, _, err := c.Health(ctx)
			if err != nil || opts.game == "" {
				return h.Time, time.UTC, err
			}
			v, _, err := c.Game(ctx, opts.game)
			if err != nil {
				return h.Time, nil, err
			}
			return h.Time, calendar.Location(v.Zone), nil
		}
		if c.At, err = momentOf(opts.at, serverNow); err != nil {
			return err
		}
	}
	p := &player{e: e, opts: opts, c: c, ctx: ctx}
	return p.report(runCmd(p, pos))
}

// report prints a server refusal (as text, or as JSON with --json) and
// turns it into exit status 1.
func (p *player) report(err error) error {
	var prob *client.Problem
	if !errors.As(err, &prob) {
		return err
	}
	if p.opts.json {
		m := map[string]any{"type": prob.Type, "title": prob.Title, "status": prob.Status, "detail": prob.Detail, "code": prob.Code}
		for k, v := range prob.Extra {
			m[k] = v
		}
		b, _ := json.MarshalIndent(m, "", "  ")
		fmt.Fprintln(p.e.stdout, string(b))
	}
	fmt.Fprintf(p.e.stderr, "croupier: refused: %s [%s]\n", prob.Detail, prob.Code)
	name := p.lazyNameOf()
	for _, k := range sortedKeys(prob.Extra) {
		v := prob.Extra[k]
		if id, ok := v.(string); ok && game.ValidIdentity(id) && name(id) != id {
			// A player reads as their name, with the identity --as takes.
			v = name(id) + " (" + id + ")"
		}
		if vs, ok := v.([]any); ok {
			// A list reads as one, not as Go prints a slice.
			ws := make([]string, len(vs))
			for i, w := range vs {
				ws[i] = fmt.Sprint(w)
			}
			v = strings.Join(ws, ", ")
		}
		if m, ok := v.(map[string]any); ok {
			// So does an object of amounts ("crystals 2, herbs 2"), not
			// as Go prints a map.
			ws := make([]string, 0, len(m))
			for _, mk := range sortedKeys(m) {
				ws = append(ws, fmt.Sprintf("%s %v", mk, m[mk]))
			}
			v = strings.Join(ws, ", ")
		}
		fmt.Fprintf(p.e.stderr, "  %s: %v\n", k, v)
	}
	return &silentError{code: exitRefused}
}

// out prints a command's result: the raw JSON with --json, else text.
func (p *player) out(rep client.Reply, text func() string) error {
	if p.opts.json {
		var buf bytes.Buffer
		if json.Indent(&buf, rep.Body, "", "  ") != nil {
			buf.Reset()
			buf.Write(rep.Body)
		}
		fmt.Fprintln(p.e.stdout, buf.String())
		return nil
	}
	if rep.AsOf != nil {
		// A read of the past says which moment it shows, before it.
		fmt.Fprintln(p.e.stdout, asOfText(*rep.AsOf, p.zone()))
	}
	fmt.Fprintln(p.e.stdout, text())
	if rep.Replayed {
		fmt.Fprintln(p.e.stdout, "(a repeat: the server had already done this with idempotency key "+p.opts.keyID+"; nothing changed)")
	}
	return nil
}

func wantArgs(pos []string, n int, what string) error {
	if len(pos) != n {
		if n == 0 {
			return usagef("this command takes no arguments, got %q", strings.Join(pos, " "))
		}
		return usagef("expected %s, got %d argument(s) %q", what, len(pos), strings.Join(pos, " "))
	}
	return nil
}

// setupFunc is a playCmd's setup.
type setupFunc = func(fs *flag.FlagSet) func(p *player, args []string) error

// nArgs is a check that a command has exactly n arguments (what names them,
// for the usage error).
func nArgs(n int, what string) func(pos []string) error {
	return func(pos []string) error { return wantArgs(pos, n, what) }
}

// upTo accepts at most n arguments (what: what they are, for the error).
func upTo(n int, what string) func(pos []string) error {
	return func(pos []string) error {
		if len(pos) > n {
			return usagef("expected at most %s, got %q", what, strings.Join(pos, " "))
		}
		return nil
	}
}

// first is pos[0], or "" when there is none.
func first(pos []string) string {
	if len(pos) == 0 {
		return ""
	}
	return pos[0]
}

// noFlags is the setup of a command without flags of its own: check (when
// not nil) vets its arguments, then run runs it.
func noFlags(check func(pos []string) error, run func(p *player, pos []string) error) setupFunc {
	return func(*flag.FlagSet) func(*player, []string) error {
		return func(p *player, pos []string) error {
			if check != nil {
				if err := check(pos); err != nil {
					return err
				}
			}
			return run(p, pos)
		}
	}
}

// show prints the answer of one client call with text (the raw JSON with
// --json), or passes the call's error on. It is curried so that the call's
// three results feed it directly, which is how most commands end:
//
//	return show(p, named(p, rulingText))(p.c.Overturn(p.ctx, p.idem(), p.opts.game, id))
func show[T any](p *player, text func(T) string) func(T, client.Reply, error) error {
	return func(v T, rep client.Reply, err error) error {
		if err != nil {
			return err
		}
		return p.out(rep, func() string { return text(v) })
	}
}

// meOr turns a --player filter of "me" into the actor's identity.
func (p *player) meOr(id *string) error {
	if *id == "me" {
		if p.opts.as == "" {
			return usagef("--player me needs --as or CROUPIER_AS")
		}
		*id = p.opts.as
	}
	return nil
}

// playCommands is every verb of croupier play: the common ones below and
// each area's, listed here once.
var playCommands = playVerbs(commonCommands(), economyCommands(), importCommands(), exoptosisCommands(), governanceCommands(), obeliskCommands(), turnsCommands())

// playVerbs merges the areas' verbs; a name in two areas is a programming
// error.
func playVerbs(areas ...map[string]playCmd) map[string]playCmd {
	out := map[string]playCmd{}
	for _, a := range areas {
		for name, c := range a {
			if _, dup := out[name]; dup {
				panic("croupier play: verb " + name + " is defined twice")
			}
			out[name] = c
		}
	}
	return out
}

// commonCommands are the verbs of every ruleset's commands and views.
func commonCommands() map[string]playCmd {
	return map[string]playCmd{
		"create-game": {
			synopsis: "create-game ID [--name N] [--ruleset R] [--admin ID ...] [--season S]", needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var c game.CreateGame
				var admins listFlag
				fs.StringVar(&c.Name, "name", "", "display `name` of the game (default: its id)")
				fs.StringVar(&c.Ruleset, "ruleset", "", "`ruleset` id (default: the server's default, gilded-hall)")
				fs.Var(&admins, "admin", "admin `identity` (repeatable; default: you)")
				fs.StringVar(&c.Season, "season", "", "starting `season` (default: Calm Spring)")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 1, "the new game's id, e.g. create-game hall"); err != nil {
						return err
					}
					c.ID, c.Admins = pos[0], admins
					v, rep, err := p.c.CreateGame(p.ctx, p.idem(), c)
					if err != nil {
						return err
					}
					return p.out(rep, func() string { return "Created " + gameText(v, p.lazyNameOf(), p.opts.as) })
				}
			},
		},
		"join": {
			synopsis: "join [--name N]", needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var j game.JoinGame
				fs.StringVar(&j.Name, "name", "", "your display `name` in the game")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					v, rep, err := p.c.Join(p.ctx, p.idem(), p.opts.game, j)
					if err != nil {
						return err
					}
					return p.out(rep, func() string { return fmt.Sprintf("%s joined %s. %s", who(v.ID, v.Name), v.Game, holdings(v)) })
				}
			},
		},
		"leave": {
			synopsis: "leave", needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					v, rep, err := p.c.Leave(p.ctx, p.idem(), p.opts.game)
					if err != nil {
						return err
					}
					return p.out(rep, func() string { return p.says("leave", v) })
				}
			},
		},
		"status": {
			synopsis: "status [PLAYER] [--ids]   (you by default; --ids lists card and pack ids)", needGame: true,
			setup: statusSetup,
		},
		"players": {
			synopsis: "players", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					v, rep, err := p.c.Players(p.ctx, p.opts.game)
					if err != nil {
						return err
					}
					return p.out(rep, func() string { return playersText(p.opts.game, v) })
				}
			},
		},
		"roll": {
			synopsis: "roll DICE [--reason R]   (DICE is NdK, e.g. 2d6)", needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var r game.RollDice
				fs.StringVar(&r.Reason, "reason", "", "what the roll is for, shown in the log")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 1, "the dice, e.g. roll 2d6"); err != nil {
						return err
					}
					r.Dice = pos[0]
					v, rep, err := p.c.Roll(p.ctx, p.idem(), p.opts.game, r)
					if err != nil {
						return err
					}
					return p.out(rep, func() string { return rollText(p.nameOf()(p.opts.as), v) })
				}
			},
		},
		"log": {
			synopsis: "log [--limit N] [--all] [--cursor C]", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				limit := fs.Int("limit", 50, "entries per page (1-500)")
				all := fs.Bool("all", false, "read every page")
				cursor := fs.String("cursor", "", "continue from this `cursor` (printed after a page)")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					if *limit < 1 || *limit > 500 {
						return usagef("--limit must be from 1 to 500, not %d", *limit)
					}
					return p.log(*limit, *all, *cursor)
				}
			},
		},
		"seeds": {
			synopsis: "seeds", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					v, rep, err := p.c.Seeds(p.ctx, p.opts.game)
					if err != nil {
						return err
					}
					return p.out(rep, func() string { return seedsText(p.opts.game, v, stampIn(p.zone())) })
				}
			},
		},
		"audit": {
			synopsis: "audit   (the server's verdict; croupier verify recomputes on this machine)", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					v, rep, err := p.c.Audit(p.ctx, p.opts.game)
					if err != nil {
						return err
					}
					if err := p.out(rep, func() string { return reportText(p.opts.game, v) }); err != nil {
						return err
					}
					if !v.OK() {
						return &silentError{code: exitRefused}
					}
					return nil
				}
			},
		},
		"clock": {
			synopsis: "clock --advance DURATION | --set TIME | --to-period-end", needGame: false,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				advance := fs.String("advance", "", "move forward by this Go `duration`, e.g. 36h or 90m")
				set := fs.String("set", "", "set to this RFC 3339 `time`, not before the clock's (it only moves forward)")
				toEnd := fs.Bool("to-period-end", false, "move to just after the end of the game's current period (needs --game)")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					return p.clock(*advance, *set, *toEnd)
				}
			},
		},
		"game": {
			synopsis: "game", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					v, rep, err := p.c.Game(p.ctx, p.opts.game)
					if err != nil {
						return err
					}
					return p.out(rep, func() string { return gameText(v, p.lazyNameOf(), p.opts.as) })
				}
			},
		},
	}
}

// zone is the game's own time zone (GameView.Zone), which its texts give
// times in: "" for UTC, for no game, or when the game cannot be read (the
// command says why itself).
func (p *player) zone() string {
	if p.opts.game == "" || p.opts.json {
		return ""
	}
	v, _, err := p.c.Game(p.ctx, p.opts.game)
	if err != nil {
		return ""
	}
	return v.Zone
}

func (p *player) log(limit int, all bool, cursor string) error {
	var entries []game.Entry
	var raws []json.RawMessage
	var asOf *game.AsOf
	for {
		page, rep, err := p.c.Log(p.ctx, p.opts.game, cursor, limit)
		if err != nil {
			return err
		}
		entries = append(entries, page.Entries...)
		raws = append(raws, rep.Body)
		asOf = rep.AsOf
		if !all || page.Next == "" || page.Next == cursor {
			cursor = page.Next
			break
		}
		cursor = page.Next
	}
	if p.opts.json {
		if !all {
			return p.out(client.Reply{Body: raws[0]}, nil)
		}
		whole := map[string]any{"entries": entries}
		if asOf != nil {
			whole["as_of"] = asOf
		}
		b, err := json.Marshal(whole)
		if err != nil {
			return err
		}
		return p.out(client.Reply{Body: b}, nil)
	}
	name := p.nameOf()
	reg := rulesets.Registry()
	say := func(ev game.Event) string { return reg.Sentence(ev, name) }
	at := stampIn(p.zone())
	return p.out(client.Reply{AsOf: asOf}, func() string { return logText(p.opts.game, entries, cursor, say, name, at) })
}

func (p *player) clock(advance, set string, toEnd bool) error {
	n := 0
	for _, given := range []bool{advance != "", set != "", toEnd} {
		if given {
			n++
		}
	}
	if n != 1 {
		return usagef("give exactly one of --advance DURATION, --set TIME or --to-period-end")
	}
	var req client.ClockRequest
	switch {
	case advance != "":
		d, err := time.ParseDuration(advance)
		if err != nil || d <= 0 {
			return usagef("--advance %q is not a positive duration such as 36h or 90m", advance)
		}
		req.Advance = advance
	case set != "":
		t, err := time.Parse(time.RFC3339, set)
		if err != nil {
			return usagef("--set %q is not an RFC 3339 time such as 2026-03-06T00:00:00Z", set)
		}
		req.Set = &t
	default:
		if p.opts.game == "" {
			return usagef("--to-period-end needs the game: --game ID or CROUPIER_GAME")
		}
		g, _, err := p.c.Game(p.ctx, p.opts.game)
		if err != nil {
			return err
		}
		// One second past the end: the moment itself belongs to the next
		// period, and a second later there is no doubt it is over.
		t := g.Period.End.Add(time.Second)
		req.Set = &t
	}
	v, rep, err := p.c.Clock(p.ctx, req)
	if err != nil {
		return err
	}
	return p.out(rep, func() string { return clockText(v, p.zone()) })
}

func signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func because(reason string) string {
	if reason == "" {
		return ""
	}
	return fmt.Sprintf(" (%s)", reason)
}

// boolFieldValues reads a word right after a catalogue command's boolean
// flag as that flag's value when it is true or false (--paradox false), and
// refuses any other (--paradox maybe), which would otherwise slip into the
// next argument and change what the command does.
func boolFieldValues(fs *flag.FlagSet, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") || i+1 >= len(args) || strings.HasPrefix(args[i+1], "-") {
			continue
		}
		fl := fs.Lookup(strings.TrimLeft(a, "-"))
		if fl == nil {
			continue
		}
		if f, ok := fl.Value.(*fieldFlag); !ok || !f.IsBoolFlag() {
			continue
		}
		b, err := strconv.ParseBool(args[i+1])
		if err != nil {
			return nil, usagef("%s is true or false (or alone, meaning true); got %q after it. Put other arguments before it.", a, args[i+1])
		}
		out[len(out)-1] = a + "=" + strconv.FormatBool(b)
		i++
	}
	return out, nil
}
