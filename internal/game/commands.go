package game

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// CreateGame is the payload of the create command.
type CreateGame struct {
	ID      string   `json:"id"`
	Name    string   `json:"name,omitempty"`
	Ruleset string   `json:"ruleset,omitempty"`
	Admins  []string `json:"admins,omitempty"`
	// Season is the season the game starts in (default Calm Spring).
	Season string `json:"season,omitempty"`
}

// Create starts a new game. The actor becomes its admin unless admins are
// named. The current period's seed is committed at once, so its commitment
// is public before any draw uses it (RULINGS N2).
func (s *Service) Create(ctx context.Context, req Request, c CreateGame) (*Result, error) {
	req.Game = c.ID
	if c.Ruleset == "" {
		c.Ruleset = ruleset.Default
	}
	if c.Name == "" {
		c.Name = c.ID
	}
	if len(c.Name) > 100 {
		return nil, rules.Refuse("invalid_request", "The game name is %d characters long; at most 100 are allowed.", len(c.Name))
	}
	if len(c.Admins) == 0 {
		c.Admins = []string{req.Actor}
	}
	for _, a := range c.Admins {
		if !ValidIdentity(a) {
			return nil, rules.Refuse("invalid_request", "Admin %q is not a platform identity such as discord:1234.", a)
		}
	}
	rs, err := ruleset.Load(s.dataOf(c.Ruleset))
	if err != nil {
		return nil, rules.Refuse("unknown_ruleset", "%v", err)
	}
	mod, ok := s.module(c.Ruleset)
	if !ok {
		return nil, rules.Refuse("unknown_ruleset", "This server does not run the ruleset %q; it runs %s.", c.Ruleset, strings.Join(s.Rulesets(), ", "))
	}
	switch {
	case !mod.Seasons:
		// Seasons are seed 002's; a ruleset without them has none (T2, R3).
		if c.Season != "" {
			return nil, rules.Refuse("invalid_request", "The %s ruleset has no seasons; leave the season out.", mod.Title)
		}
	case c.Season == "":
		c.Season = calendar.Seasons[0]
	case !slices.Contains(calendar.Seasons, c.Season):
		return nil, rules.Refuse("invalid_request", "Unknown season %q; the seasons are %s.", c.Season, strings.Join(calendar.Seasons, ", "))
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "create", Body: c,
		Apply: func(t *Tx) (any, error) {
			if t.Loaded[MetaKey(t.Game)].Exists() {
				return nil, rules.Refuse("game_exists", "A game with id %q already exists.", t.Game)
			}
			m := &Meta{ID: c.ID, Name: c.Name, Ruleset: mod.ID, RulesetVersion: rs.Version, Admins: c.Admins,
				CreatedAt: t.Now, CreatedBy: req.Actor, Season: c.Season, NamesIndexed: true}
			if err := t.setMeta(m, 0); err != nil {
				return nil, err
			}
			m.Period = t.Period.ID
			t.Entry.Period = t.Period.ID
			seed, err := s.newSeed(t.Period.ID, t.Now)
			if err != nil {
				return nil, err
			}
			if err := t.Put(MetaKey(t.Game), m, t.Period.End); err != nil {
				return nil, err
			}
			if err := t.Put(seedKey(t.Game, t.Period.ID), seed, time.Time{}); err != nil {
				return nil, err
			}
			if err := t.Put(listingKey(t.Game), GameListing{ID: m.ID, Name: m.Name, Ruleset: m.Ruleset, CreatedAt: m.CreatedAt}, time.Time{}); err != nil {
				return nil, err
			}
			t.Emit("game_created", "", map[string]any{"name": m.Name, "ruleset": m.Ruleset, "admins": m.Admins, "season": m.Season})
			t.Emit("seed_committed", "", map[string]string{"period": seed.Period, "commitment": seed.Commitment})
			return t.gameView()
		},
	})
}

// JoinGame is the payload of join.
type JoinGame struct {
	Name string `json:"name,omitempty"`
}

// Join makes the actor a player (RULINGS P1).
func (s *Service) Join(ctx context.Context, req Request, j JoinGame) (*Result, error) {
	if len(j.Name) > 80 {
		return nil, rules.Refuse("invalid_request", "The display name is %d characters long; at most 80 are allowed.", len(j.Name))
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "join", Body: j,
		Keys: func(g string) []store.Key {
			ks := []store.Key{PlayerKey(g, req.Actor)}
			if strings.TrimSpace(j.Name) != "" {
				// The name's index item, in the same read (names.go).
				ks = append(ks, NameKey(g, j.Name, req.Actor))
			}
			return ks
		},
		Apply: func(t *Tx) (any, error) {
			prev, err := t.Record(req.Actor)
			if err != nil {
				return nil, err
			}
			var prevCore *Player
			if prev != nil {
				prevCore = prev.Core()
			}
			if prevCore != nil && prevCore.Member && prevCore.Preregistered {
				// An import made this membership: joining takes it over with
				// what was carried over (Preregister).
				prevCore.Preregistered = false
				if j.Name != "" {
					prevCore.Name = j.Name
				}
				t.Save(prev)
				t.Emit("player_joined", prevCore.ID, map[string]string{"name": prevCore.Name})
				v, err := t.PlayerView(prev)
				if err != nil {
					return nil, err
				}
				return v, t.Acted(prev)
			}
			m, err := players.Join(prevCore, req.Actor, j.Name, t.Now, t.Period.ID, t.Rules.Durations.RejoinWait.Std(), t.zone())
			if err != nil {
				return nil, err
			}
			// A new stint is a new record: a rejoining player starts empty.
			p := s.newPlayer(t.Meta.Ruleset, *m)
			// The join is logged before what the hooks give the new player
			// (the Obelisk's 1⚡), so a reader of the log sees a player gain it.
			t.Emit("player_joined", m.ID, map[string]string{"name": m.Name})
			for _, h := range t.module().onJoin {
				if err := h(t, prev, p); err != nil {
					return nil, err
				}
			}
			t.Save(p)
			return t.PlayerView(p)
		},
	})
}

// Preregister makes id a player on a moderator's behalf, named name, for a
// person who has not joined yet (a holdings import carries their holdings
// over): a new stint as Join starts it, marked Preregistered so that their
// own join takes it over. The caller must have read id's record (Keys).
func (t *Tx) Preregister(id, name string) (PlayerRecord, error) {
	if !ValidIdentity(id) {
		return nil, rules.Refuse("invalid_request", "%q is not a platform identity such as discord:1234.", id)
	}
	if len(name) > 80 {
		return nil, rules.Refuse("invalid_request", "The display name of %s is %d characters long; at most 80 are allowed.", id, len(name))
	}
	prev, err := t.Record(id)
	if err != nil {
		return nil, err
	}
	var prevCore *Player
	if prev != nil {
		prevCore = prev.Core()
	}
	m, err := players.Join(prevCore, id, name, t.Now, t.Period.ID, t.Rules.Durations.RejoinWait.Std(), t.zone())
	if err != nil {
		return nil, rules.Refuse("cannot_preregister", "%s cannot be registered: %s", id, err.Error())
	}
	m.Preregistered = true
	p := t.Svc.newPlayer(t.Meta.Ruleset, *m)
	for _, h := range t.module().onJoin {
		if err := h(t, prev, p); err != nil {
			return nil, err
		}
	}
	t.Save(p)
	return p, nil
}

// LeaveResult is the response of leave.
type LeaveResult struct {
	Player string `json:"player"`
	// Name is the leaver's display name.
	Name   string    `json:"name"`
	LeftAt time.Time `json:"left_at"`
	// Destroyed is what a Gilded Hall player held (its holdings
	// component fills it); other rulesets leave it out.
	Destroyed *players.Inventory `json:"destroyed,omitempty"`
	// Lost says, in words, what the departure cost the leaver, one phrase
	// per component that took something ("5 Vertebrae, 2 Chips, 3 cards
	// and 1 pack", "2⚡ 1🩸"); empty when they held nothing.
	Lost             []string  `json:"lost"`
	RejoinPossibleAt time.Time `json:"rejoin_possible_at"`
	WithdrawnTrades  []string  `json:"withdrawn_trades"`
}

// LostText is what the leaver lost, as one phrase ("nothing" if so).
func (l LeaveResult) LostText() string {
	if len(l.Lost) == 0 {
		return "nothing"
	}
	return strings.Join(l.Lost, "; ")
}

// Leave ends the actor's membership; their items are destroyed (RULINGS P1).
func (s *Service) Leave(ctx context.Context, req Request) (*Result, error) {
	return s.Run(ctx, Spec{
		Req: req, Command: "leave", Body: struct{}{},
		Keys: func(g string) []store.Key { return []store.Key{PlayerKey(g, req.Actor)} },
		Apply: func(t *Tx) (any, error) {
			p, err := t.Record(req.Actor)
			if err != nil {
				return nil, err
			}
			if p == nil {
				return nil, players.NotAPlayer()
			}
			// The components' OnLeave destroy what the leaver held (seed 002
			// Items) and withdraw what they were part of, in this commit.
			if err := players.Leave(p.Core(), t.Now); err != nil {
				return nil, err
			}
			t.Save(p)
			res := LeaveResult{Player: p.Core().ID, Name: cmp.Or(p.Core().Name, p.Core().ID), LeftAt: t.Now, Lost: []string{},
				RejoinPossibleAt: t.Now.Add(t.Rules.Durations.RejoinWait.Std()), WithdrawnTrades: []string{}}
			for _, h := range t.module().onLeave {
				if err := h(t, p, &res); err != nil {
					return nil, err
				}
			}
			ev := map[string]any{"withdrawn_trades": res.WithdrawnTrades}
			if res.Destroyed != nil {
				ev["destroyed"] = res.Destroyed
			}
			t.Emit("player_left", res.Player, ev)
			return res, nil
		},
	})
}

// RollDice is the payload of roll: NdK in seed 002's sense (the sum of N
// rolls of a K-sided die).
type RollDice struct {
	Dice string `json:"dice"`
	// Reason is shown in the log ("observe the Obelisk").
	Reason string `json:"reason,omitempty"`
}

// RollResult is the response of roll.
type RollResult struct {
	Dice   string `json:"dice"`
	Rolls  []int  `json:"rolls"`
	Total  int    `json:"total"`
	Reason string `json:"reason,omitempty"`
	Period string `json:"period"`
	// PeriodName is the period as people read it, where the ruleset
	// names its periods (a turns game's turn); else the id is the name.
	PeriodName string `json:"period_name,omitempty"`
}

// PeriodLabel is how a text names the roll's period.
func (r RollResult) PeriodLabel() string { return cmp.Or(r.PeriodName, r.Period) }

var diceRe = regexp.MustCompile(`^(\d{1,3})d(\d{1,7})$`)

// MaxDice and MaxSides bound one roll.
const (
	MaxDice  = 100
	MaxSides = 1_000_000
)

// ParseDice reads "NdK" (seed 002 Dice Rolls: N >= 0, K >= 1).
func ParseDice(s string) (n, k int, err error) {
	m := diceRe.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return 0, 0, rules.Refuse("invalid_dice", "%q is not a dice roll; write NdK, e.g. 2d6 (N up to %d, K from 1 to %d).", s, MaxDice, MaxSides)
	}
	n, _ = strconv.Atoi(m[1])
	k, _ = strconv.Atoi(m[2])
	if n > MaxDice || k < 1 || k > MaxSides {
		return 0, 0, rules.Refuse("invalid_dice", "%q is out of range: N up to %d dice, K from 1 to %d sides.", s, MaxDice, MaxSides)
	}
	return n, k, nil
}

// Roll makes a public, logged, verifiable dice roll for a player (seed 002
// Dice Rolls; RULINGS N1: resolved by the engine, once).
func (s *Service) Roll(ctx context.Context, req Request, r RollDice) (*Result, error) {
	n, k, err := ParseDice(r.Dice)
	if err != nil {
		return nil, err
	}
	if len(r.Reason) > 200 {
		return nil, rules.Refuse("invalid_request", "The reason is %d characters long; at most 200 are allowed.", len(r.Reason))
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "roll", Body: r, Random: true,
		Keys: func(g string) []store.Key { return []store.Key{PlayerKey(g, req.Actor)} },
		Apply: func(t *Tx) (any, error) {
			p, err := t.Player(req.Actor)
			if err != nil {
				return nil, err
			}
			if p == nil || !p.Member {
				return nil, players.NotAPlayer()
			}
			res := RollResult{Dice: fmt.Sprintf("%dd%d", n, k), Rolls: make([]int, n), Reason: r.Reason, Period: t.Period.ID}
			if res.PeriodName, err = t.periodName(); err != nil {
				return nil, err
			}
			for i := range res.Rolls {
				res.Rolls[i] = t.Drawer.Intn(fmt.Sprintf("d%d", k), k) + 1
				res.Total += res.Rolls[i]
			}
			t.Emit("dice_rolled", p.ID, res)
			return res, nil
		},
	})
}
