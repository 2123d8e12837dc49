package gildedhall

// A move's log entry keeps the move, not the match. The entry is the log's
// record of the step and the command's idempotency record; were it to hold
// the whole answer (the match as the move left it, about 1 KB for two
// players), a move would write twice the units (issue 16). So the entry
// logs its steps and the match's id (MoveResult.LoggedAs), the engine's
// events are the entry's own match_<kind> events, and a repeat of the move
// is answered by rebuilding the match as that move left it: from the match
// item when nothing moved it since (the usual repeat: a client retrying at
// once), else by replaying the log up to the entry (match_replay.go). The
// answer is the first one, byte for byte.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules/exoptosis"
)

// loggedMove is a move's result as its log entry keeps it.
type loggedMove struct {
	// Match is the match's id (a result logged whole has its view here).
	Match json.RawMessage `json:"match"`
	Steps []MatchStep     `json:"steps"`
}

// LoggedAs is the form a move's log entry keeps (engine.LoggedAs).
func (r MoveResult) LoggedAs() any {
	id, _ := json.Marshal(r.Match.ID)
	return loggedMove{Match: id, Steps: r.Steps}
}

var _ engine.LoggedAs = MoveResult{}

// answerMove is the whole result of a logged move (the command's Answer).
func answerMove(ctx context.Context, es *engine.Service, game string, e *engine.Entry) (json.RawMessage, error) {
	var lm loggedMove
	if err := json.Unmarshal(e.Response, &lm); err != nil {
		return nil, fmt.Errorf("decoding the logged result of %s: %w", e.Command, err)
	}
	var id string
	if json.Unmarshal(lm.Match, &id) != nil {
		return e.Response, nil // logged whole
	}
	if len(lm.Steps) == 0 {
		return nil, fmt.Errorf("the logged result of %s names no step", e.Command)
	}
	s := On(es)
	t, err := s.viewIn(ctx, viewMatches, game, matchKey(game, id))
	if err != nil {
		return nil, err
	}
	r, err := t.matchRecord(id)
	if err != nil {
		return nil, err
	}
	if r.Match == nil || r.Match.Steps != lastStep(lm.Steps) {
		if r, err = s.matchAfter(ctx, t, r, e); err != nil {
			return nil, err
		}
	}
	t.Now = e.At // the view's "overdue" is as of the move
	return json.Marshal(MoveResult{Match: t.matchView(r, ""), Events: loggedEvents(e, id), Steps: lm.Steps})
}

// lastStep is the number of the last step of steps.
func lastStep(steps []MatchStep) int {
	st := steps[len(steps)-1]
	if st.Timeout {
		return st.N + st.Expiries - 1
	}
	return st.N
}

// loggedEvents are the engine's events of match id that entry e logged
// (mirror), in order; the game's own match_* events (match_started,
// match_settled, match_forfeits) carry no engine kind of their name.
func loggedEvents(e *engine.Entry, id string) []exoptosis.Event {
	out := []exoptosis.Event{}
	for _, ev := range e.Events {
		kind, ok := strings.CutPrefix(ev.Type, "match_")
		var d matchEvent
		if !ok || json.Unmarshal(ev.Data, &d) != nil || d.Match != id || d.Kind != kind {
			continue
		}
		out = append(out, d.Event)
	}
	return out
}

// matchAfter is match record r as entry e left it, rebuilt from the log:
// the steps up to e's replayed; the match was running then, since steps
// came after.
func (s *Service) matchAfter(ctx context.Context, t *tx, r *MatchRecord, e *engine.Entry) (*MatchRecord, error) {
	if r.Match == nil {
		return nil, fmt.Errorf("match %s has no engine state to answer %s from", r.ID, e.Command)
	}
	lg, err := s.readMatchLog(ctx, t.Game, r, t.Now)
	if err != nil {
		return nil, err
	}
	out := MatchReplay{}
	rp := newReplayer(t, lg, &out, "")
	if err := rp.start(ctx, t, r, lg); err != nil {
		return nil, err
	}
	entries := lg.ordered()
	upTo := -1
	for i, ls := range entries {
		if ls.entry.ID == e.ID {
			upTo = i
		}
	}
	if upTo < 0 {
		return nil, fmt.Errorf("the log of match %s does not hold %s %s", r.ID, e.Command, e.ID)
	}
	rp.run(entries[:upTo+1])
	if out.Problem != "" {
		return nil, fmt.Errorf("match %s does not replay to %s %s: %s", r.ID, e.Command, e.ID, out.Problem)
	}
	then := *r
	then.Match = rp.m
	then.Status, then.EndedAt, then.Settlement, then.Reward = MatchPlaying, time.Time{}, nil, nil
	return &then, nil
}
