package proving

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"croupier/internal/announce"
	"croupier/internal/announce/announcetest"
	"croupier/internal/fair"
	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// Ack is a command a client was told succeeded: its log entry must exist
// and hold the same response.
type Ack struct {
	Actor, Key, Command string
	Body                json.RawMessage
	// Target is an unanswered vote's proposal or appeal id.
	Target string
}

// Refusal is a command a client was told was refused (a rule said no): it
// must have left no log entry, and so (every change being logged in the
// same commit) no change.
type Refusal struct {
	Actor, Key, Command, Code string
}

// Observed is what the clients were told, for the checks.
type Observed struct {
	Acks     []Ack
	Refusals []Refusal
	// Unanswered are votes still unacknowledged after all their tries:
	// whether and when they committed is unknown, so their voter's
	// standing vote on that proposal or appeal is not checked.
	Unanswered []Ack
}

func (o *Observed) clone() Observed {
	return Observed{Acks: slices.Clone(o.Acks), Refusals: slices.Clone(o.Refusals), Unanswered: slices.Clone(o.Unanswered)}
}

// Snapshot is every item of one game's partition, read straight from the
// store (no faults), decoded.
type Snapshot struct {
	Game    string
	Now     time.Time
	Items   []store.Item
	Meta    game.Meta
	Sched   calendar.Schedule
	Entries []game.Entry // in log (ULID) order
	ByKey   map[string]game.Entry
	Players []gildedhall.Player // Gilded Hall games
	// Members are the current members' ids (every ruleset).
	Members []string
	// PlayerItems are the PLAYER# items' data by player id (every ruleset).
	PlayerItems map[string][]byte
	// Ruleset items, by sort key (TURNS, TPLAYER#..., TPROP#..., GATHERING#...).
	Module  map[string][]byte
	Seeds   map[string]game.SeedRecord
	Matches []gildedhall.MatchRecord
	// Claims are the announcer's ANNOUNCED# records by entry id: their state.
	Claims map[string]string
	// NameItems are the name index's NAME# items by sort key.
	NameItems map[string][]byte
}

// Read takes a snapshot of game from st as of now.
func Read(ctx context.Context, st store.Store, g string, now time.Time) (*Snapshot, error) {
	s := &Snapshot{Game: g, Now: now, ByKey: map[string]game.Entry{}, Seeds: map[string]game.SeedRecord{}, Claims: map[string]string{},
		PlayerItems: map[string][]byte{}, Module: map[string][]byte{}, NameItems: map[string][]byte{}}
	q := store.Query{PK: "GAME#" + g, Limit: 1000}
	for {
		p, err := st.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("reading game %s: %w", g, err)
		}
		s.Items = append(s.Items, p.Items...)
		if p.Next == "" {
			break
		}
		q.Cursor = p.Next
	}
	metaFound := false
	for _, it := range s.Items {
		if it.SK == "META" {
			metaFound = true
			if err := json.Unmarshal(it.Data, &s.Meta); err != nil {
				return nil, fmt.Errorf("decoding %s: %w", it.Key, err)
			}
		}
	}
	for _, it := range s.Items {
		var err error
		switch sk := it.SK; {
		case sk == "META":
		case strings.HasPrefix(sk, "LOG#"):
			var ep *game.Entry
			if ep, err = game.DecodeEntry(it.Data); err == nil {
				e := *ep
				s.Entries = append(s.Entries, e)
				s.ByKey[strings.TrimPrefix(sk, "LOG#")] = e
			}
		case strings.HasPrefix(sk, "PLAYER#"):
			var core struct {
				ID     string `json:"id"`
				Member bool   `json:"member"`
			}
			if err = json.Unmarshal(it.Data, &core); err == nil {
				s.PlayerItems[core.ID] = it.Data
				if core.Member {
					s.Members = append(s.Members, core.ID)
				}
			}
			if s.Meta.Ruleset == "" || s.Meta.Ruleset == ruleset.Default {
				var p gildedhall.Player
				if err = json.Unmarshal(it.Data, &p); err == nil {
					s.Players = append(s.Players, p)
				}
			}
		case strings.HasPrefix(sk, "SEED#"):
			var r game.SeedRecord
			if err = json.Unmarshal(it.Data, &r); err == nil {
				s.Seeds[strings.TrimPrefix(sk, "SEED#")] = r
			}
		case strings.HasPrefix(sk, "MATCH#"):
			var m gildedhall.MatchRecord
			if err = json.Unmarshal(it.Data, &m); err == nil {
				s.Matches = append(s.Matches, m)
			}
		case sk == "TURNS" || sk == "OBELISK" || strings.HasPrefix(sk, "TPLAYER#") || strings.HasPrefix(sk, "TPROP#") || strings.HasPrefix(sk, "TCASE#") || strings.HasPrefix(sk, "TVOTE#") || strings.HasPrefix(sk, "GATHERING#"):
			s.Module[sk] = it.Data
		case strings.HasPrefix(sk, "NAME#"):
			s.NameItems[sk] = it.Data
		case strings.HasPrefix(sk, "ANNOUNCED#"):
			var r struct {
				State string `json:"state"`
			}
			if err = json.Unmarshal(it.Data, &r); err == nil {
				s.Claims[strings.TrimPrefix(sk, "ANNOUNCED#")] = r.State
			}
		}
		if err != nil {
			return nil, fmt.Errorf("decoding %s: %w", it.Key, err)
		}
	}
	if !metaFound {
		return nil, fmt.Errorf("game %s has no META item", g)
	}
	sort.Slice(s.Entries, func(i, j int) bool { return s.Entries[i].ID < s.Entries[j].ID })
	rs, err := ruleset.Load(s.Meta.Ruleset)
	if err != nil {
		return nil, err
	}
	if s.Sched, err = calendar.For(rs.Calendar); err != nil {
		return nil, err
	}
	return s, nil
}

// Checks counts the invariant checks made and collects violations.
type Checks struct {
	N          int
	Violations []string
	// Counted is how many checks each invariant made.
	Counted map[string]int
	// inv names the invariant being checked; violations start with it.
	inv string
}

// The invariants, as violations name them.
const (
	InvPeriods      = "periods"
	InvSeeds        = "seeds"
	InvConservation = "conservation"
	InvAcknowledged = "acknowledged"
	InvRefusals     = "refusals"
	InvAnnounced    = "announcements"
	InvRead         = "read"
	InvReplays      = "replays"
	InvCounted      = "counted"
	InvPoints       = "points"
	InvComponents   = "components"
	InvGatherings   = "gatherings"
	InvNames        = "names"
)

// Names checks that the name index lists exactly the current members under
// their display names, each once, at the key of that name (game.NameKey),
// in a game whose members are indexed: what every join, leave and import
// that committed left, whichever retried or raced.
func (s *Snapshot) Names(c *Checks) {
	c.inv = InvNames
	if !s.Meta.NamesIndexed {
		return
	}
	want := map[string]string{} // sort key -> identity
	for id, data := range s.PlayerItems {
		var p struct {
			Member bool   `json:"member"`
			Name   string `json:"name"`
		}
		if json.Unmarshal(data, &p) != nil || !p.Member || strings.TrimSpace(p.Name) == "" {
			continue
		}
		want[game.NameKey(s.Game, strings.TrimSpace(p.Name), id).SK] = id
	}
	for sk, data := range s.NameItems {
		var e struct{ ID string }
		_ = json.Unmarshal(data, &e)
		id, ok := want[sk]
		c.check(ok && id == e.ID, "the name index holds %s (%s), which names no current member by their name", sk, e.ID)
	}
	for sk, id := range want {
		_, ok := s.NameItems[sk]
		c.check(ok, "the member %s is not in the name index (%s)", id, sk)
	}
}

// Check counts one check; a false ok adds the violation format describes.
func (c *Checks) Check(ok bool, format string, args ...any) { c.check(ok, format, args...) }

func (c *Checks) check(ok bool, format string, args ...any) {
	c.N++
	inv := c.inv
	if inv == "" {
		inv = InvRead
	}
	if c.Counted == nil {
		c.Counted = map[string]int{}
	}
	c.Counted[inv]++
	if !ok {
		c.Violations = append(c.Violations, "["+inv+"] "+fmt.Sprintf(format, args...))
	}
}

// LagMargin bounds how far a client's clock may lag the scheduler's (the
// proving ground's clients lag by up to 50 ms).
const LagMargin = time.Second

// Periods checks that every period ended exactly once, as of its end, never
// before the clock reached it, in calendar order from the game's first
// period; and, when settled (a scheduler run has completed at Now), that
// the game is in the period containing Now.
func (s *Snapshot) Periods(c *Checks, settled bool) {
	c.inv = InvPeriods
	ends := map[string]game.Entry{}
	for _, e := range s.Entries {
		if e.Command != "period-end" {
			continue
		}
		id := strings.TrimPrefix(e.Key, "period-end:")
		p, err := s.Sched.Parse(id)
		c.check(err == nil, "period-end entry %s names no period (%q)", e.ID, e.Key)
		if err != nil {
			continue
		}
		_, dup := ends[id]
		c.check(!dup, "period %s ended twice", id)
		ends[id] = e
		c.check(e.At.Equal(p.End), "period %s ended as of %s, but it ends at %s", id, e.At.Format(time.RFC3339), p.End.Format(time.RFC3339))
		c.check(!p.End.After(s.Now), "period %s ended before its end: it ends at %s and the clock says %s", id, p.End.Format(time.RFC3339), s.Now.Format(time.RFC3339))
		c.check(e.Period == s.Sched.Next(p).ID, "the end of period %s started %s, not the next period %s", id, e.Period, s.Sched.Next(p).ID)
	}
	first := s.Sched.PeriodAt(s.Meta.CreatedAt)
	current := s.Sched.PeriodAt(s.Now)
	// Every period between the first and the meta's (or the clock's) ended,
	// and none after.
	last := current
	if !settled {
		if p, err := s.Sched.Parse(s.Meta.Period); err == nil {
			last = p
		}
	}
	prevID := ""
	for p := first; p.Start.Before(last.Start); p = s.Sched.Next(p) {
		e, ok := ends[p.ID]
		c.check(ok, "period %s (ending %s) never ended; the clock says %s", p.ID, p.End.Format(time.RFC3339), s.Now.Format(time.RFC3339))
		if ok && prevID != "" {
			c.check(ends[prevID].ID < e.ID, "the end of period %s is logged before the end of %s", p.ID, prevID)
		}
		prevID = p.ID
	}
	for id := range ends {
		p, _ := s.Sched.Parse(id)
		c.check(p.Start.Before(current.Start), "period %s ended, but the clock (%s) is still in period %s", id, s.Now.Format(time.RFC3339), current.ID)
	}
	if settled {
		c.check(s.Meta.Period == current.ID, "the game is in period %s but the clock (%s) is in %s", s.Meta.Period, s.Now.Format(time.RFC3339), current.ID)
	}
}

// Seeds checks that no seed is revealed before its period ends: every
// revealed seed was revealed as of its period's end, which the clock has
// passed; the seed of the period containing the clock is secret; every
// draw was made in its entry's period, before that period's seed was
// revealed; and the log's draws recompute from the revealed seeds.
func (s *Snapshot) SeedsSecret(c *Checks, settled bool) {
	c.inv = InvSeeds
	current := s.Sched.PeriodAt(s.Now)
	for id, r := range s.Seeds {
		p, err := s.Sched.Parse(id)
		c.check(err == nil, "seed item SEED#%s names no period", id)
		if err != nil {
			continue
		}
		if r.Revealed() {
			c.check(r.RevealedAt.Equal(p.End), "the seed of period %s was revealed as of %s, but the period ends at %s", id, r.RevealedAt.Format(time.RFC3339), p.End.Format(time.RFC3339))
			c.check(!p.End.After(s.Now), "the seed of period %s is revealed, but the period ends at %s and the clock says %s", id, p.End.Format(time.RFC3339), s.Now.Format(time.RFC3339))
		} else if settled {
			c.check(p.End.After(s.Now), "period %s has ended (at %s) but its seed is still secret", id, p.End.Format(time.RFC3339))
		}
		if id == current.ID {
			c.check(!r.Revealed(), "the seed of the open period %s is revealed", id)
		}
	}
	for _, e := range s.Entries {
		if len(e.Draws) == 0 {
			continue
		}
		// A command draws from the period it is made in. Scheduled work is
		// dated at its due moment but may run later, drawing from the
		// period open then: never an earlier one (whose seed may be out).
		// So may a command whose clock lagged a period's end by at most
		// LagMargin: it commits after the end, dated just before it, and
		// draws from the period the game is in (whose seed is secret).
		at := s.Sched.PeriodAt(e.At)
		if e.Actor == game.SchedulerActor {
			p, err := s.Sched.Parse(e.Period)
			c.check(err == nil && !p.Start.Before(at.Start), "scheduled entry %s (%s) is dated %s, in period %s, but drew from the earlier period %s", e.ID, e.Command, e.At.Format(time.RFC3339), at.ID, e.Period)
		} else {
			lagged := s.Sched.Next(at).ID == e.Period && at.End.Sub(e.At) <= LagMargin
			c.check(at.ID == e.Period || lagged, "entry %s (%s by %s) is dated %s, in period %s, but drew from period %s", e.ID, e.Command, e.Actor, e.At.Format(time.RFC3339), at.ID, e.Period)
		}
		r, ok := s.Seeds[e.Period]
		c.check(ok, "entry %s (%s) drew from period %s, which has no seed", e.ID, e.Command, e.Period)
		c.check(!r.Revealed() || !r.RevealedAt.Before(e.At), "entry %s (%s) drew at %s from the seed of %s, revealed at %s", e.ID, e.Command, e.At.Format(time.RFC3339), e.Period, r.RevealedAt.Format(time.RFC3339))
		for _, d := range e.Draws {
			c.check(d.Period == e.Period && d.Game == s.Game && d.Command == e.CommandID, "entry %s (%s) holds a draw for game %s, period %s, command %s", e.ID, e.Command, d.Game, d.Period, d.Command)
		}
	}
}

// Audit checks every logged draw against the revealed seeds (what `croupier
// verify` does).
func (s *Snapshot) Audit(c *Checks) {
	c.inv = InvSeeds
	var seeds []game.SeedView
	for id, r := range s.Seeds {
		v := game.SeedView{Period: id, Commitment: r.Commitment, CommittedAt: r.CommittedAt}
		if r.Revealed() {
			at := r.RevealedAt
			v.Seed, v.RevealedAt = r.Secret, &at
		}
		seeds = append(seeds, v)
	}
	var recs []fair.Record
	for _, e := range s.Entries {
		recs = append(recs, e.Draws...)
	}
	rep, err := game.VerifyDraws(seeds, recs)
	c.check(err == nil, "verifying the draws: %v", err)
	if err == nil {
		c.check(rep.OK(), "the draws do not recompute from the revealed seeds: %+v", rep)
	}
}

// ledger is what the log says the players hold in total.
type ledger struct {
	vertebrae, chips int
	cards            map[string]int // live card copies by id: must be 1 each
	packs            map[string]int
	pots             map[string]int // chips paid into each match, less paid out
}

func (l *ledger) addCards(cs []players.Card, n int) {
	for _, c := range cs {
		l.cards[c.ID] += n
	}
}

func (l *ledger) addPacks(ps []players.Pack, n int) {
	for _, p := range ps {
		l.packs[p.ID] += n
	}
}

func (l *ledger) remove(inv players.Inventory) {
	l.vertebrae -= inv.Vertebrae
	l.chips -= inv.Chips
	l.addCards(inv.Cards, -1)
	l.addPacks(inv.Packs, -1)
}

// apply adds what one event creates or destroys. Events that only move
// items between players (trades) change no total.
func (l *ledger) apply(c *Checks, e game.Entry, ev game.Event) {
	dec := func(v any) bool {
		err := json.Unmarshal(ev.Data, v)
		c.check(err == nil, "entry %s: cannot decode its %s event: %v", e.ID, ev.Type, err)
		return err == nil
	}
	switch ev.Type {
	case "granted":
		var g struct {
			Vertebrae int            `json:"vertebrae"`
			Chips     int            `json:"chips"`
			NewCards  []players.Card `json:"new_cards"`
			NewPacks  []players.Pack `json:"new_packs"`
		}
		if dec(&g) {
			l.vertebrae += g.Vertebrae
			l.chips += g.Chips
			l.addCards(g.NewCards, 1)
			l.addPacks(g.NewPacks, 1)
		}
	case "revoked":
		var r gildedhall.RevokeResult
		if dec(&r) {
			l.remove(r.Revoked)
		}
	case "purchased":
		var b struct {
			Paid        int            `json:"paid"`
			Currency    string         `json:"currency"`
			Cards       []players.Card `json:"cards"`
			Packs       []players.Pack `json:"packs"`
			ChipsBought int            `json:"chips_bought"`
		}
		if dec(&b) {
			switch strings.ToLower(b.Currency) {
			case "vertebrae":
				l.vertebrae -= b.Paid
			case "chips":
				l.chips -= b.Paid
			default:
				c.check(false, "entry %s: a purchase paid in unknown currency %q", e.ID, b.Currency)
			}
			l.chips += b.ChipsBought
			l.addCards(b.Cards, 1)
			l.addPacks(b.Packs, 1)
		}
	case "pack_opened":
		var o struct {
			Pack  players.Pack   `json:"pack"`
			Cards []players.Card `json:"cards"`
		}
		if dec(&o) {
			l.addPacks([]players.Pack{o.Pack}, -1)
			l.addCards(o.Cards, 1)
		}
	case "gifted", "gift_returned":
		var g struct {
			Cards []players.Card `json:"cards"`
		}
		if dec(&g) {
			l.addCards(g.Cards, 1)
		}
	case "player_left":
		var p struct {
			Destroyed players.Inventory `json:"destroyed"`
		}
		if dec(&p) {
			l.remove(p.Destroyed)
		}
	case "battle_rewarded":
		var r gildedhall.BattleReward
		if dec(&r) {
			l.vertebrae += r.Vertebrae
			l.chips += r.Chips
			l.addCards(r.Cards, 1)
		}
	case "match_raised", "match_matched":
		var m struct {
			Match string `json:"match"`
			Chips int    `json:"chips"`
		}
		if dec(&m) {
			l.chips -= m.Chips
			l.pots[m.Match] += m.Chips
		}
	case "match_refunded":
		var m struct {
			Match string `json:"match"`
			Chips int    `json:"chips"`
		}
		if dec(&m) {
			l.chips += m.Chips
			l.pots[m.Match] -= m.Chips
		}
	case "match_settled":
		var m struct {
			Match     string               `json:"match"`
			Transfers []exoptosis.Transfer `json:"transfers"`
		}
		if dec(&m) {
			for _, t := range m.Transfers {
				l.chips += t.Chips
				l.pots[m.Match] -= t.Chips
			}
		}
	case "chips_destroyed":
		// Paid out of a match to a player who had left: the credit did not
		// happen (match_refunded or match_settled still counts it).
		var m struct {
			Chips int `json:"chips"`
		}
		if dec(&m) {
			l.chips -= m.Chips
		}
	}
}

// Conservation checks that nothing was created or destroyed except by
// rule: the players' Vertebrae, Chips, card copies and packs are exactly
// what the log's grants, purchases, draws, leaves, revocations and match
// payouts account for; every copy and pack is held once; no balance is
// negative; every match holds the Chips paid into it and not paid out.
func (s *Snapshot) Conservation(c *Checks) {
	c.inv = InvConservation
	l := &ledger{cards: map[string]int{}, packs: map[string]int{}, pots: map[string]int{}}
	for _, e := range s.Entries {
		for _, ev := range e.Events {
			l.apply(c, e, ev)
		}
	}
	var vert, chips int
	cards, packs := map[string]int{}, map[string]int{}
	for _, p := range s.Players {
		c.check(p.Inventory.Vertebrae >= 0 && p.Inventory.Chips >= 0, "%s holds %d Vertebrae and %d Chips", p.ID, p.Inventory.Vertebrae, p.Inventory.Chips)
		if !p.Member {
			c.check(len(p.Inventory.Cards) == 0 && len(p.Inventory.Packs) == 0 && p.Inventory.Vertebrae == 0 && p.Inventory.Chips == 0,
				"%s has left but still holds %d Vertebrae, %d Chips, %d cards, %d packs", p.ID, p.Inventory.Vertebrae, p.Inventory.Chips, len(p.Inventory.Cards), len(p.Inventory.Packs))
		}
		vert += p.Inventory.Vertebrae
		chips += p.Inventory.Chips
		for _, cd := range p.Inventory.Cards {
			cards[cd.ID]++
		}
		for _, pk := range p.Inventory.Packs {
			packs[pk.ID]++
		}
	}
	c.check(vert == l.vertebrae, "the players hold %d Vertebrae in all; the log accounts for %d", vert, l.vertebrae)
	c.check(chips == l.chips, "the players hold %d Chips in all; the log accounts for %d", chips, l.chips)
	diff := func(what string, held, logged map[string]int) {
		var bad []string
		for id, n := range held {
			if n != logged[id] {
				bad = append(bad, fmt.Sprintf("%s held %d times, logged %d", id, n, logged[id]))
			}
		}
		for id, n := range logged {
			if n != 0 && held[id] == 0 {
				bad = append(bad, fmt.Sprintf("%s logged %d but held by nobody", id, n))
			}
			if n < 0 || n > 1 {
				bad = append(bad, fmt.Sprintf("%s created %+d times net", id, n))
			}
		}
		sort.Strings(bad)
		c.check(len(bad) == 0, "%s not accounted for by the log: %s", what, strings.Join(first(bad, 8), "; "))
	}
	diff("card copies", cards, l.cards)
	diff("packs", packs, l.packs)
	for _, m := range s.Matches {
		in := l.pots[m.ID]
		pool := 0
		if m.Match != nil && m.Status == gildedhall.MatchPlaying {
			pool = m.Match.Betting.Pool
		}
		c.check(in == pool, "match %s (%s) holds %d Chips; the log accounts for %d", m.ID, m.Status, pool, in)
	}
}

// Replays checks that every match that started replays from the log (its
// item holds the current state only; each step is in its command's log
// entry): every step legal with its logged draws, and the end equal to the
// stored match (issue 16).
func (s *Snapshot) Replays(ctx context.Context, c *Checks, svc *game.Service) {
	c.inv = InvReplays
	for _, m := range s.Matches {
		if m.Match == nil {
			continue
		}
		rp, err := gildedhall.On(svc).Replay(ctx, s.Game, m.ID, "")
		ok := err == nil && rp.Consistent && len(rp.Log) == m.Match.Steps
		c.check(ok, "match %s (%s, %d steps) does not replay from the log: %d steps replayed; %s %v", m.ID, m.Status, m.Match.Steps, len(rp.Log), rp.Problem, err)
	}
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
	}
	return s
}

// Acknowledged checks that every command a client was told succeeded has
// its log entry, with the response the client got (as svc answers a repeat
// of it: a move's entry logs its steps, and the answer is rebuilt from
// them); and that every refused command left no entry.
func (s *Snapshot) Acknowledged(ctx context.Context, c *Checks, obs Observed, svc *game.Service) {
	c.inv = InvAcknowledged
	for _, a := range obs.Acks {
		e, ok := s.ByKey[game.CommandID(a.Actor, a.Key)]
		c.check(ok, "%s's %s (key %s) was acknowledged but is not in the log", a.Actor, a.Command, a.Key)
		if ok {
			body, err := svc.AnswerOf(ctx, s.Game, &e)
			c.check(err == nil && jsonEqual(body, a.Body), "%s's %s (key %s): the client was told %s, the log answers %s %v", a.Actor, a.Command, a.Key, a.Body, body, err)
		}
	}
	for _, r := range obs.Refusals {
		e, ok := s.ByKey[game.CommandID(r.Actor, r.Key)]
		c.check(!ok, "%s's %s (key %s) was refused (%s) but the log holds its entry %s", r.Actor, r.Command, r.Key, r.Code, e.ID)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// Announcements checks every committed entry that has something to say
// against what the Discord fake received: each part of its announcement
// was created exactly once in the channel (delivered at least once, posted
// once), its ANNOUNCED# claim is done, and nothing was posted that no
// committed entry says. Only the entries in due are checked (nil: all):
// others may still be on their way.
func (s *Snapshot) Announcements(c *Checks, fake *announcetest.Discord, channel string, due map[string]bool) int {
	c.inv = InvAnnounced
	created := map[string]int{} // nonce -> messages created with it
	for _, m := range fake.Sent(channel) {
		created[m.Nonce]++
	}
	want := map[string]string{} // nonce -> entry id
	n := 0
	reg := rulesets.Registry()
	for _, e := range s.Entries {
		lines, _ := announce.Render(reg, "discord", &e)
		if len(lines) == 0 {
			continue
		}
		parts := announce.Split(lines)
		for i := range parts {
			want[announce.Nonce(e.ID, channel, i)] = e.ID
		}
		if due != nil && !due[e.ID] {
			continue
		}
		n++
		c.check(s.Claims[e.ID] == "done", "entry %s (%s by %s) is not marked announced (claim %q)", e.ID, e.Command, e.Actor, s.Claims[e.ID])
		for i := range parts {
			got := created[announce.Nonce(e.ID, channel, i)]
			c.check(got == 1, "part %d of the announcement of entry %s (%s by %s) was posted %d times", i+1, e.ID, e.Command, e.Actor, got)
		}
	}
	for nonce := range created {
		_, ok := want[nonce]
		c.check(ok, "message with nonce %s was posted to %s but announces no committed entry", nonce, channel)
	}
	return n
}

// Untouched compares two snapshots item by item: equal keys, versions and
// data (what a refused command must leave).
func Untouched(c *Checks, before, after *Snapshot, what string) {
	c.inv = InvRefusals
	type kv struct {
		v int64
		d []byte
	}
	m := map[store.Key]kv{}
	for _, it := range before.Items {
		m[it.Key] = kv{it.Version, it.Data}
	}
	var changed []string
	for _, it := range after.Items {
		b, ok := m[it.Key]
		switch {
		case !ok:
			changed = append(changed, it.SK+" created")
		case b.v != it.Version || !bytes.Equal(b.d, it.Data):
			changed = append(changed, it.SK+" changed")
		}
		delete(m, it.Key)
	}
	for k := range m {
		changed = append(changed, k.SK+" deleted")
	}
	slices.Sort(changed)
	c.check(len(changed) == 0, "%s changed state: %s", what, strings.Join(first(changed, 8), ", "))
}
