package game

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules/calendar"
	"croupier/internal/store"
)

// SchedulerActor is the actor of scheduled work in the log.
const SchedulerActor = "croupier:scheduler"

// DueReport says what one RunDue did.
type DueReport struct {
	// Transitions lists the periods ended, as "game/period".
	Transitions []string `json:"transitions"`
	// Expired lists the trades closed by their timer, as "game/trade".
	Expired []string `json:"expired,omitempty"`
	// Done lists the other timers applied, by kind ("match": turn skips and
	// expired choices; "proposal": tallies...), as "game/id".
	Done map[string][]string `json:"done,omitempty"`
	// Failed lists items whose work failed, with the reason; they stay due
	// and are tried again on the next run.
	Failed []string `json:"failed,omitempty"`
}

func (r *DueReport) add(kind string, done []string) {
	if len(done) == 0 {
		return
	}
	switch kind {
	case duePeriod:
		r.Transitions = append(r.Transitions, done...)
	case dueTrade:
		r.Expired = append(r.Expired, done...)
	default:
		if r.Done == nil {
			r.Done = map[string][]string{}
		}
		r.Done[kind] = append(r.Done[kind], done...)
	}
}

// Kinds of due work.
const (
	duePeriod = "period"
	dueTrade  = "trade"
)

// periodWork ends periods (META is due at the open period's end); it is
// the common component's timer.
var periodWork = DueWork{Kind: duePeriod, Prefix: metaSK, Run: func(s *Service, ctx context.Context, game, _ string) ([]string, error) {
	return s.EndPeriods(ctx, game)
}}

// RunDue applies every piece of scheduled work due at the clock's now, of
// every game: period ends (phase ends, turn parts), trade expiries, and the
// timers listed in dueWorks. The phase-end and timeouts Lambdas and the
// local scheduler call it. Each piece is applied as of its due moment and is
// idempotent, so late, repeated or concurrent runs are harmless (RULINGS T4).
func (s *Service) RunDue(ctx context.Context) (DueReport, error) {
	rep := DueReport{Transitions: []string{}}
	now := s.clock.Now()
	for round := 0; round < 1000; round++ {
		items, err := s.store.QueryDue(ctx, now, 100)
		if err != nil {
			return rep, fmt.Errorf("reading due work: %w", err)
		}
		progressed := false
		for _, it := range items {
			game, ok := strings.CutPrefix(it.PK, "GAME#")
			if !ok {
				continue
			}
			w, ok := s.dueWorkFor(it.SK)
			if !ok {
				s.log.WarnContext(ctx, "due item of no known kind", "game", game, "key", it.SK)
				continue
			}
			if w.Prefix != metaSK {
				id, err := s.RulesetOf(ctx, game)
				if err != nil {
					rep.Failed = append(rep.Failed, game+"/"+it.SK+": "+err.Error())
					continue
				}
				if m, ok := s.module(id); !ok || !m.hasDue(w) {
					// Its ruleset has no such timers (R3): nothing runs.
					s.log.WarnContext(ctx, "due item its ruleset does not have", "game", game, "key", it.SK, "ruleset", id)
					continue
				}
			}
			done, err := w.Run(s, ctx, game, it.SK)
			rep.add(w.Kind, done)
			if err != nil {
				s.log.ErrorContext(ctx, "due work failed", "kind", w.Kind, "game", game, "key", it.SK, "err", err)
				rep.Failed = append(rep.Failed, game+"/"+it.SK+": "+err.Error())
				continue
			}
			if len(done) > 0 {
				progressed = true
			}
		}
		// Work done may have made more work due (a battle formed at a phase
		// end starts in its own run): look again until a round does nothing.
		if !progressed {
			return rep, nil
		}
	}
	return rep, nil
}

// EndPeriods ends every period of game that is over at the clock's now, one
// at a time, each as of its end. It returns the periods it ended.
func (s *Service) EndPeriods(ctx context.Context, game string) ([]string, error) {
	var ended []string
	for i := 0; i < 10000; i++ {
		p, err := s.endOnePeriod(ctx, game)
		if err != nil || p == "" {
			return ended, err
		}
		ended = append(ended, game+"/"+p)
	}
	return ended, nil
}

// PeriodEnded is the response recorded for a period end.
type PeriodEnded struct {
	Ended     PeriodView `json:"ended"`
	Started   PeriodView `json:"started"`
	Revealed  string     `json:"revealed_seed,omitempty"`
	Committed string     `json:"committed"`
	Season    string     `json:"season"`
	// ActiveCount players performed an action in the ended period;
	// InactiveCount did not and so are inactive in the period starting
	// (RULINGS P3). Gift allowances reset with the period. Active and
	// Inactive are the first ActivitySample of each; when either list is
	// longer, ActivityPages items hold them whole (activity.go).
	ActiveCount   int      `json:"active_count"`
	InactiveCount int      `json:"inactive_count"`
	Active        []string `json:"active"`
	Inactive      []string `json:"inactive"`
	ActivityPages int      `json:"activity_pages,omitempty"`
}

// endOnePeriod ends the game's open period if it is over. It returns the id
// of the period ended, or "" when nothing was due.
func (s *Service) endOnePeriod(ctx context.Context, game string) (string, error) {
	for attempt := 1; ; attempt++ {
		id, err := s.tryEndPeriod(ctx, game)
		if errors.Is(err, store.ErrDuplicate) {
			return "", nil // another run did it
		}
		if !errors.Is(err, store.ErrConflict) {
			return id, err
		}
		if attempt >= s.MaxAttempts {
			return "", ErrBusy
		}
		time.Sleep(s.Pause(attempt))
	}
}

// testBeforePeriodEnd are hooks tests add (export_test.go) to interleave
// other work before a period ends, in every ruleset.
var testBeforePeriodEnd []BeforeHook

func (s *Service) tryEndPeriod(ctx context.Context, game string) (string, error) {
	now := s.clock.Now()
	mk := MetaKey(game)
	mi, err := s.store.Get(ctx, mk)
	if err != nil {
		return "", err
	}
	if !mi.Exists() {
		return "", gameNotFound(game)
	}
	if mi.Due.IsZero() || mi.Due.After(now) {
		return "", nil
	}
	// dueVersion is the META this run found due; every later read of META
	// must still show it, or another run ended the period meanwhile.
	dueVersion := mi.Version
	var m Meta
	if err := json.Unmarshal(mi.Data, &m); err != nil {
		return "", fmt.Errorf("decoding game %s: %w", game, err)
	}
	mod, ok := s.module(m.Ruleset)
	if !ok {
		return "", noModule(game, m.Ruleset)
	}
	if before := slices.Concat(mod.before, testBeforePeriodEnd); len(before) > 0 {
		rs, err := s.effectiveRuleset(&m)
		if err != nil {
			return "", fmt.Errorf("game %s: %w", game, err)
		}
		sch, err := calendar.For(rs.Calendar)
		if err != nil {
			return "", err
		}
		ending, err := sch.Parse(m.Period)
		if err != nil {
			return "", fmt.Errorf("game %s: stored period: %w", game, err)
		}
		for _, h := range before {
			if err := h.Run(s, ctx, game, ending); err != nil {
				return "", err
			}
		}
		// The hooks committed their own changes; read META afresh, and
		// check again that this period is the one still due: if another
		// run ended it meanwhile, META now holds the next period, which is
		// not due, and ending it would end it early (RULINGS T4). A hook's
		// own write to META (an adopted amendment) leaves the period as it
		// was; either way start over from a fresh read.
		if mi, err = s.store.Get(ctx, mk); err != nil {
			return "", err
		}
		if mi.Version != dueVersion {
			return "", &store.ConflictError{Keys: []store.Key{mk}}
		}
	}
	t := &Tx{Svc: s, Ctx: ctx, Now: mi.Due, Game: game, Loaded: map[store.Key]store.Item{mk: mi}}
	if err := t.LoadMeta(); err != nil {
		return "", err
	}
	ended, err := t.Schedule.Parse(t.Meta.Period)
	if err != nil {
		return "", fmt.Errorf("game %s: stored period: %w", game, err)
	}
	next := t.Schedule.Next(ended)
	// Applied as of the moment it was due (RULINGS T4).
	t.Now = ended.End
	t.Period = next
	if err := t.fencePeriod(ended); err != nil {
		return "", err
	}

	cmdID := CommandID(SchedulerActor, "period-end:"+ended.ID)
	idem := LogKey(game, cmdID)
	endedSeed, nextSeed, ck := seedKey(game, ended.ID), seedKey(game, next.ID), checkpointNextKey(game)
	items, err := s.store.GetMany(ctx, []store.Key{idem, endedSeed, nextSeed, ck})
	if err != nil {
		return "", err
	}
	for _, it := range items {
		t.Loaded[it.Key] = it
	}
	if t.Loaded[idem].Exists() {
		return "", store.ErrDuplicate
	}
	t.Entry = &Entry{ID: newULID(ended.End, s.ids), Command: "period-end", CommandID: cmdID, Actor: SchedulerActor,
		Key: "period-end:" + ended.ID, At: ended.End, Period: next.ID}
	res := PeriodEnded{Ended: periodView(ended), Started: periodView(next), Season: t.Meta.Season}

	if it := t.Loaded[endedSeed]; it.Exists() {
		var rec SeedRecord
		if err := json.Unmarshal(it.Data, &rec); err != nil {
			return "", fmt.Errorf("decoding %s: %w", endedSeed, err)
		}
		if !rec.Revealed() {
			rec.RevealedAt = ended.End
			if err := t.Put(endedSeed, rec, time.Time{}); err != nil {
				return "", err
			}
			t.Emit("seed_revealed", "", map[string]string{"period": rec.Period, "seed": rec.Secret, "commitment": rec.Commitment})
			res.Revealed = rec.Secret
		}
	}
	if it := t.Loaded[nextSeed]; it.Exists() {
		var rec SeedRecord
		if err := json.Unmarshal(it.Data, &rec); err != nil {
			return "", fmt.Errorf("decoding %s: %w", nextSeed, err)
		}
		res.Committed = rec.Commitment
	} else {
		rec, err := s.newSeed(next.ID, ended.End)
		if err != nil {
			return "", err
		}
		if err := t.Put(nextSeed, rec, time.Time{}); err != nil {
			return "", err
		}
		t.Emit("seed_committed", "", map[string]string{"period": rec.Period, "commitment": rec.Commitment})
		res.Committed = rec.Commitment
	}
	if !t.Loaded[ck].Exists() {
		// The game's checkpoint timer, set by its first period end (a game
		// made before checkpoints gets one too).
		if err := t.Put(ck, checkpointState{}, ended.End.Add(checkpointMaxWait)); err != nil {
			return "", err
		}
	}
	members, err := s.members(ctx, game, t.Meta.Ruleset)
	if err != nil {
		return "", err
	}
	if err := t.recordActivity(ended, members, &res); err != nil {
		return "", err
	}
	for _, h := range mod.at {
		if err := h.Run(t, ended, next, members, &res); err != nil {
			return "", err
		}
	}
	t.Emit("period_ended", "", map[string]any{"ended": ended.ID, "started": next.ID, "kind": next.Kind,
		"active": res.Active, "inactive": res.Inactive, "active_count": res.ActiveCount, "inactive_count": res.InactiveCount})
	if weekEnds(ended) && mod.Seasons {
		// Seasons advance at the end of each week (RULINGS T2); a ruleset
		// without seasons (turns, seed 003) has none to advance.
		old := t.Meta.Season
		t.Meta.Season = calendar.NextSeason(old)
		res.Season = t.Meta.Season
		t.Emit("season_changed", "", map[string]string{"from": old, "to": t.Meta.Season})
	}
	t.Meta.Period, t.Meta.Closing = next.ID, ""
	if err := t.Put(mk, t.Meta, next.End); err != nil {
		return "", err
	}
	if err := t.Commit(ctx, idem, res); err != nil {
		return "", err
	}
	s.log.InfoContext(ctx, "period ended", "game", game, "ended", ended.ID, "started", next.ID, "late_by", now.Sub(ended.End).String())
	return ended.ID, nil
}

// fencePeriod marks META as closing the ended period, in a commit of its
// own, before the period end reads the players. A command whose effect
// belongs to the open period and is read at the period end (a battle
// engagement) checks META in its commit: it either committed before the
// fence, and the read below sees it, or its check fails and it retries
// into the next period. Without the fence it could commit between that
// read and the period end's commit, acknowledged and then left out.
// A run that finds the fence already set (another run's, or its own from
// an attempt that did not finish) goes on from it.
func (t *Tx) fencePeriod(ended calendar.Period) error {
	if t.Meta.Closing == ended.ID {
		return nil
	}
	mk := MetaKey(t.Game)
	mi := t.Loaded[mk]
	t.Meta.Closing = ended.ID
	data, err := json.Marshal(t.Meta)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", mk, err)
	}
	if err := t.Svc.store.Commit(t.Ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: mk, Data: data, Due: mi.Due}, Expect: mi.Version}}}); err != nil {
		return err
	}
	t.Loaded[mk] = store.Item{Key: mk, Version: mi.Version + 1, Data: data, Due: mi.Due}
	t.MetaVersion = mi.Version + 1
	return nil
}

// weekEnds reports whether a week ends with period p: the end of phase II,
// or of a turn's interim.
func weekEnds(p calendar.Period) bool {
	return p.Kind == "phase-2" || p.Kind == "interim"
}

// rulesetOf returns the ruleset id of game: from the process's cache, or
// read from its META (a game's ruleset never changes).
func (s *Service) RulesetOf(ctx context.Context, game string) (string, error) {
	if id, ok := s.rulesets.Load(game); ok {
		return id.(string), nil
	}
	it, err := s.store.Get(ctx, MetaKey(game))
	if err != nil {
		return "", err
	}
	if !it.Exists() {
		return "", gameNotFound(game)
	}
	var m struct {
		Ruleset string `json:"ruleset"`
	}
	if err := json.Unmarshal(it.Data, &m); err != nil {
		return "", fmt.Errorf("decoding game %s: %w", game, err)
	}
	s.rulesets.Store(game, m.Ruleset)
	return m.Ruleset, nil
}

// members reads the game's current players.
func (s *Service) members(ctx context.Context, game, rulesetID string) ([]PlayerRecord, error) {
	var out []PlayerRecord
	err := s.Scan(ctx, store.Query{PK: GamePK(game), Prefix: PlayerPrefix}, func(it store.Item) error {
		p, err := s.decodePlayer(rulesetID, it)
		if err != nil {
			return err
		}
		if p.Core().Member {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// activity records who acted in the ended period (RULINGS P2, P3), for the
// period-end log entry and its announcement. Players who joined after the
// period ended (a late run) are not counted either way.
func activity(members []PlayerRecord, ended calendar.Period) (active, inactive []string) {
	active, inactive = []string{}, []string{}
	for _, r := range members {
		p := r.Core()
		if !p.JoinedAt.Before(ended.End) {
			continue
		}
		if slices.Contains(p.ActionPeriods, ended.ID) {
			active = append(active, p.ID)
		} else {
			inactive = append(inactive, p.ID)
		}
	}
	return active, inactive
}

// Lag is how far one game's calendar is behind a moment: the period ends a
// scheduler reaching that moment would apply, starting with Period's.
type Lag struct {
	Game   string `json:"game"`
	Name   string `json:"name"`
	Period string `json:"period"`
	Ends   int    `json:"ends"`
}

// PeriodEndsBehind lists the games whose open period ends at or before
// until, each with the number of period ends RunDue at until would apply.
// It changes nothing: `croupier serve` asks before catching up many at once.
func (s *Service) PeriodEndsBehind(ctx context.Context, until time.Time) ([]Lag, error) {
	// A local store holds few games; one large page of the due index
	// covers them (this is a start-up check, not a hot path).
	items, err := s.store.QueryDue(ctx, until, 10000)
	if err != nil {
		return nil, fmt.Errorf("reading due work: %w", err)
	}
	var out []Lag
	for _, it := range items {
		game, ok := strings.CutPrefix(it.PK, "GAME#")
		if !ok || it.SK != metaSK {
			continue
		}
		var m Meta
		if err := json.Unmarshal(it.Data, &m); err != nil {
			return nil, fmt.Errorf("decoding game %s: %w", game, err)
		}
		rs, err := s.effectiveRuleset(&m)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", game, err)
		}
		sch, err := calendar.For(rs.Calendar)
		if err != nil {
			return nil, err
		}
		p, err := sch.Parse(m.Period)
		if err != nil {
			return nil, fmt.Errorf("game %s: stored period: %w", game, err)
		}
		lag := Lag{Game: game, Name: cmp.Or(m.Name, game), Period: m.Period}
		for ; !p.End.After(until) && lag.Ends < 1_000_000; p = sch.Next(p) {
			lag.Ends++
		}
		out = append(out, lag)
	}
	return out, nil
}
