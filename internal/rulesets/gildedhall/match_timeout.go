package gildedhall

import (
	"context"
	engine "croupier/internal/game"
	"errors"
	"strings"
	"time"

	"croupier/internal/rules/exoptosis"
	"croupier/internal/store"
)

// dueMatch is the due-work kind of match timers: turn and choice deadlines
// (X7) and the setup of a forming battle (X10).
const dueMatch = "match"

// matchWork applies match timers (the Exoptosis component's timer).
var matchWork = engine.DueWork{Kind: dueMatch, Prefix: matchPrefix,
	Run: func(s *engine.Service, ctx context.Context, game, sk string) ([]string, error) {
		id := strings.TrimPrefix(sk, matchPrefix)
		done, err := On(s).ExpireMatch(ctx, game, id)
		if err != nil || !done {
			return nil, err
		}
		return []string{game + "/" + id}, nil
	}}

// errMatchNotDue: the match's timer moved (a move or another run came first).
var errMatchNotDue = errors.New("nothing due")

// ExpireMatch applies a match's timer if it is due at the clock's now, as of
// the moment it was due (RULINGS T4): a forming battle is set up; a running
// match's expired turn is skipped, or its expired choice made at random
// (X7), every deadline passed since acting as of its own moment. It reports
// whether it changed the match. The work's idempotency key names the match
// and the deadline, so a duplicate or concurrent run does nothing.
func (s *Service) ExpireMatch(ctx context.Context, game, id string) (bool, error) {
	it, err := s.Store().Get(ctx, matchKey(game, id))
	if err != nil {
		return false, err
	}
	due := it.Due
	if !it.Exists() || due.IsZero() || due.After(s.Clock().Now()) {
		return false, nil
	}
	key := "match-timeout:" + id + ":" + due.UTC().Format(time.RFC3339Nano)
	res, err := s.run(ctx, spec{
		Req:     engine.Request{Game: game, Actor: engine.SchedulerActor, Key: key},
		Command: "match-timeout", Body: map[string]string{"match": id, "due": due.UTC().Format(time.RFC3339Nano)},
		Keys: func(g string) []store.Key { return []store.Key{matchKey(g, id)} },
		Apply: func(t *tx) (any, error) {
			r, err := t.matchRecord(id)
			if err != nil {
				return nil, err
			}
			if !t.matchDue(r).Equal(due) {
				return nil, errMatchNotDue
			}
			// Logged as of the moment it was due. The draws use the seed of
			// the period current now (t.period), which is still secret, so
			// a late run never draws from a revealed seed.
			realNow := t.Now
			t.Now, t.Entry.At, t.Entry.ID = due, due, t.Svc.NewLogID(due)
			if t.Meta.Ended {
				// The game is over (C7): its matches stop; drop the timer.
				return MatchTimeoutResult{Match: r.ID, Due: due, Stopped: true}, t.Put(matchKey(t.Game, r.ID), r, time.Time{})
			}
			src := &lazySource{t: t}
			var evs []exoptosis.Event
			var steps []MatchStep
			switch r.Status {
			case MatchForming:
				if err := t.startMatch(r); err != nil {
					return nil, err
				}
				if err := t.saveMatch(r); err != nil {
					return nil, err
				}
			case MatchPlaying:
				// A large battle's entrants still waiting take their seats
				// for the selection deadline (battle_roster.go).
				if err := t.prepareRoster(r, "", true); err != nil {
					return nil, err
				}
				before, n := r.Match.Phase, r.Match.Steps
				evs = exoptosis.Timeout(r.Match, t.Rules, realNow, src)
				steps = t.noteSeated(timeoutStep(nil, n, r.Match.Steps, realNow))
				var err error
				if evs, err = t.finishMatchChange(r, evs, before, src); err != nil {
					return nil, err
				}
			}
			return MatchTimeoutResult{Match: r.ID, Due: due, Status: r.Status, Events: nonNil(evs), Steps: steps}, nil
		},
	})
	if errors.Is(err, errMatchNotDue) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !res.Replayed, nil
}

// MatchTimeoutResult is the logged response of a match timer's run.
type MatchTimeoutResult struct {
	Match  string            `json:"match"`
	Due    time.Time         `json:"due"`
	Status string            `json:"status,omitempty"`
	Events []exoptosis.Event `json:"events,omitempty"`
	// Steps are the steps the timer took in the match (match_replay.go).
	Steps []MatchStep `json:"steps,omitempty"`
	// Stopped: the game had ended, so the match's timer was dropped.
	Stopped bool `json:"stopped,omitempty"`
}
