package game

// Governance (seed 000 Proposals, Judgement; RULINGS G1-G5): the domain
// service around internal/rules/governance. This file holds what proposals,
// the Judge and elections share: where reactions come from (the
// ReactionSource port), membership as of a deadline, scheduled work applied
// as of its due moment, and the bridge's pushed reactions. Proposals are in
// proposal.go, the Judge in judge.go, elections in election.go.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"croupier/internal/reactions"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/governance"
	"croupier/internal/store"
)

// MessageRef names the chat message a proposal, request, poll or candidacy
// lives in: {"platform": "discord", "channel": "...", "message": "..."}.
type MessageRef = governance.MessageRef

// WithReactions makes every vote read its message's reactions from src
// (e.g. a *reactions.Discord). Without it, votes read the reactions a
// bridge pushed (PushReactions, PushMessageEvent) as they were at the
// deadline.
func WithReactions(src reactions.Source) Option {
	return func(s *Service) { s.reactions = src }
}

// record decodes the record at k as a T, reading k now when the command's
// first read did not include it; it is nil when there is no such record.
// Proposals, requests for justice and the office of Judge are each one
// record read this way.
func record[T any](t *Tx, k store.Key) (*T, error) {
	it, ok := t.Loaded[k]
	if !ok {
		if err := t.Load(k); err != nil {
			return nil, err
		}
		it = t.Loaded[k]
	}
	if !it.Exists() {
		return nil, nil
	}
	var v T
	if err := json.Unmarshal(it.Data, &v); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", k, err)
	}
	return &v, nil
}

// scanRecords decodes the game's records under prefix, in key order,
// keeping those keep accepts (all when keep is nil).
func scanRecords[T any](ctx context.Context, s *Service, game, prefix string, keep func(T) bool) ([]T, error) {
	out := []T{}
	err := s.Scan(ctx, store.Query{PK: GamePK(game), Prefix: prefix}, func(it store.Item) error {
		var v T
		if err := json.Unmarshal(it.Data, &v); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if keep == nil || keep(v) {
			out = append(out, v)
		}
		return nil
	})
	return out, err
}

// reactionsAt reads m's reactions for a vote ending at `at`: from the
// configured source, or the game's pushed reactions as of at. A scheduled
// end counts them through countedReactions (or SealReactions first), so
// that what it reads is final (RULINGS T5).
func (s *Service) reactionsAt(ctx context.Context, game string, m MessageRef, at time.Time) (reactions.Snapshot, error) {
	if s.readsLive(m) {
		snap, err := s.reactions.Reactions(ctx, m)
		if err != nil {
			return reactions.Snapshot{}, fmt.Errorf("reading reactions of %s/%s/%s: %w", m.Platform, m.Channel, m.Message, err)
		}
		return snap, nil
	}
	return reactions.Pushed{Store: s.store, PK: GamePK(game), At: at}.Reactions(ctx, m)
}

// ReactionsAt is reactionsAt for a module whose votes are read from
// reactions (the turns ruleset's proposals and appeals, U4). A scheduled
// end seals the messages it counts first (SealReactions), so that a push
// is either read here or refused as late (RULINGS T5).
func (s *Service) ReactionsAt(ctx context.Context, game string, m MessageRef, at time.Time) (reactions.Snapshot, error) {
	return s.reactionsAt(ctx, game, m, at)
}

// CheckMessage is checkMessage for a module's message references.
func CheckMessage(m MessageRef, what string) error { return checkMessage(m, what) }

// readsPlatform reports whether src can read messages of platform: a
// platform-bound reader (Discord REST) only its own; any other source all.
func readsPlatform(src reactions.Source, platform string) bool {
	ps, ok := src.(reactions.PlatformSource)
	return !ok || ps.Platform() == platform
}

// membersAt returns who was a player of game at the moment at (RULINGS G1:
// only players' reactions count, as of the end of the vote). A player who
// left after at still counts; one who joined after at does not.
func (s *Service) membersAt(ctx context.Context, game string, at time.Time) (func(string) bool, error) {
	in := map[string]bool{}
	err := s.Scan(ctx, store.Query{PK: GamePK(game), Prefix: PlayerPrefix}, func(it store.Item) error {
		var p Player
		if err := json.Unmarshal(it.Data, &p); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if memberAt(&p, at) {
			in[p.ID] = true
		}
		return nil
	})
	return func(id string) bool { return in[id] }, err
}

func memberAt(p *Player, at time.Time) bool {
	if p.JoinedAt.After(at) {
		return false
	}
	return p.Member || p.LeftAt.After(at)
}

// govConfig is the governance rules' view of the game as read by t.
func (t *Tx) govConfig() (governance.Config, error) {
	return governance.NewConfig(t.Rules, t.Meta.CreatedAt)
}

// checkMessage refuses a message reference that cannot name a chat message
// (missing parts, or characters that cannot be part of a storage key).
func checkMessage(m MessageRef, what string) error {
	if !m.Valid() {
		return rules.Refuse("invalid_message",
			"The %s must name its chat message (platform, channel and message id); got platform %q, channel %q, message %q.",
			what, m.Platform, m.Channel, m.Message)
	}
	if err := reactions.Check(m); err != nil {
		return rules.Refuse("invalid_message", "The %s's message reference is not valid: %v.", what, err)
	}
	return nil
}

// orderedID names a new governance record after the command's log entry:
// a ULID, so records sort in creation order (RULINGS G1: simultaneous
// proposals take effect in creation order; the Judge's queue is first come,
// first served). It fixes the entry's id, taken after the command's reads.
func (t *Tx) orderedID() string {
	if t.Entry.ID == "" {
		t.Entry.ID = newULID(later(t.Now, t.Svc.clock.Now()), t.Svc.ids)
	}
	return t.Entry.ID
}

// errNothingDue tells runScheduled that an earlier run already did the work.
var errNothingDue = errors.New("nothing due")

// runScheduled applies one piece of scheduled governance work in its own
// commit, under the scheduler's idempotency key, retrying on conflict.
// apply must call t.asOf(due moment) before changing anything, so the work
// and its log entry are dated when due (RULINGS T4); it returns
// errNothingDue when there is nothing (left) to do. It reports whether this
// run did the work: a repeated or concurrent run reports false.
func (s *Service) runScheduled(ctx context.Context, game, command, key string, keys []store.Key, apply func(t *Tx) (any, error)) (bool, error) {
	cmdID := CommandID(SchedulerActor, key)
	idem := LogKey(game, cmdID)
	for attempt := 1; ; attempt++ {
		err := s.tryScheduled(ctx, game, command, key, cmdID, idem, keys, apply)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, errNothingDue), errors.Is(err, store.ErrDuplicate):
			return false, nil
		case !errors.Is(err, store.ErrConflict):
			return false, err
		case attempt >= s.MaxAttempts:
			return false, ErrBusy
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(s.Pause(attempt)):
		}
	}
}

func (s *Service) tryScheduled(ctx context.Context, game, command, key, cmdID string, idem store.Key, keys []store.Key, apply func(t *Tx) (any, error)) error {
	items, err := s.store.GetMany(ctx, append([]store.Key{MetaKey(game), idem}, keys...))
	if err != nil {
		return err
	}
	t := &Tx{Svc: s, Ctx: ctx, Now: s.clock.Now(), Game: game, Loaded: map[store.Key]store.Item{}}
	for _, it := range items {
		t.Loaded[it.Key] = it
	}
	if t.Loaded[idem].Exists() {
		return store.ErrDuplicate
	}
	if err := t.LoadMeta(); err != nil {
		return err
	}
	t.Entry = &Entry{Command: command, CommandID: cmdID, Actor: SchedulerActor, Key: key, At: t.Now, Period: t.Period.ID}
	resp, err := apply(t)
	if err != nil {
		return err
	}
	t.Entry.ID = newULID(t.Now, s.ids)
	return t.Commit(ctx, idem, resp)
}

// asOf dates the scheduled work and its log entry at its due moment.
func (t *Tx) asOf(at time.Time) {
	t.Now = at
	t.Period = t.Schedule.PeriodAt(at)
	t.Entry.At, t.Entry.Period = at, t.Period.ID
}

// PushReactions is what a bridge sends about a message's 👍 and 👎
// reactions. Op "set" (the default) says Up and Down are the complete sets
// of users now; "add" and "remove" change only the users named. Users are
// platform identities such as "discord:80351110224678912".
type PushReactions struct {
	Message MessageRef `json:"message"`
	Op      string     `json:"op,omitempty"`
	Up      []string   `json:"up,omitempty"`
	Down    []string   `json:"down,omitempty"`
}

// MessageEvent is what a bridge sends when a message is edited or deleted:
// Event is "edited" or "deleted". Either is final (an edited proposal never
// takes effect, RULINGS G1).
type MessageEvent struct {
	Message MessageRef `json:"message"`
	Event   string     `json:"event"`
}

// PushedView is the response of a push: the message as the pushes so far
// describe it. It is logged and cached with the push, so it holds the
// counts and a sample of each side (at most governance.VoterSample, in id
// order), never every reactor (issue 22).
type PushedView struct {
	Message MessageRef `json:"message"`
	reactions.Snapshot
	UpCount   int `json:"up_count"`
	DownCount int `json:"down_count"`
	Changes   int `json:"changes"`
}

func pushedView(m MessageRef, rec reactions.Record) PushedView {
	s := rec.AsOf(time.Time{})
	v := PushedView{Message: m, Snapshot: s, UpCount: len(s.Up), DownCount: len(s.Down), Changes: len(rec.Changes)}
	v.Up = v.Up[:min(len(v.Up), governance.VoterSample)]
	v.Down = v.Down[:min(len(v.Down), governance.VoterSample)]
	return v
}

// PushReactions records the reactions a bridge reports on a message of the
// game, stamped with the moment they are accepted: the pushed-reactions
// source reads them as of each vote's deadline. Once a scheduled end has
// counted the message (sealed its record), a push stamped at or before
// the counted moment is refused voting_closed (RULINGS T5). Any caller of the API may
// push (the API key is the bridge's); pushes are not actions (RULINGS P2).
func (s *Service) PushReactions(ctx context.Context, req Request, p PushReactions) (*Result, error) {
	if p.Op == "" {
		p.Op = string(reactions.OpSet)
	}
	switch reactions.Op(p.Op) {
	case reactions.OpSet, reactions.OpAdd, reactions.OpRemove:
	default:
		return nil, rules.Refuse("invalid_reactions", "The push's op is \"set\" (full sets), \"add\" or \"remove\"; got %q.", p.Op)
	}
	for _, ids := range [][]string{p.Up, p.Down} {
		for _, id := range ids {
			if !ValidIdentity(id) {
				return nil, rules.Refuse("invalid_reactions", "%q is not a platform identity such as discord:1234.", id)
			}
		}
	}
	if n := len(p.Up) + len(p.Down); n > reactions.MaxIDs {
		return nil, rules.Refuse("invalid_reactions", "The push names %d users; at most %d are allowed per push.", n, reactions.MaxIDs)
	}
	if p.Op != string(reactions.OpSet) && len(p.Up)+len(p.Down) == 0 {
		return nil, rules.Refuse("invalid_reactions", "An %q push must name at least one user in up or down.", p.Op)
	}
	return s.push(ctx, req, "push-reactions", p, p.Message, reactions.Change{Op: reactions.Op(p.Op), Up: p.Up, Down: p.Down})
}

// PushMessageEvent records that a message of the game was edited or deleted.
func (s *Service) PushMessageEvent(ctx context.Context, req Request, e MessageEvent) (*Result, error) {
	switch reactions.Op(e.Event) {
	case reactions.OpEdited, reactions.OpDeleted:
	default:
		return nil, rules.Refuse("invalid_event", "A message event is \"edited\" or \"deleted\"; got %q.", e.Event)
	}
	return s.push(ctx, req, "push-message-event", e, e.Message, reactions.Change{Op: reactions.Op(e.Event)})
}

func (s *Service) push(ctx context.Context, req Request, command string, body any, m MessageRef, c reactions.Change) (*Result, error) {
	if err := checkMessage(m, "push"); err != nil {
		return nil, err
	}
	k, _ := reactions.Key(GamePK(req.Game), m)
	return s.Run(ctx, Spec{
		Req: req, Command: command, Body: body,
		Keys: func(string) []store.Key { return []store.Key{k} },
		Apply: func(t *Tx) (any, error) {
			h, err := reactions.DecodeHead(k, m, t.Loaded[k])
			if err != nil {
				return nil, err
			}
			var pages []store.Item
			if h.Used > 0 {
				if err := t.Load(h.PageKeys()...); err != nil {
					return nil, err
				}
				for _, pk := range h.PageKeys() {
					pages = append(pages, t.Loaded[pk])
				}
			}
			rec, err := h.Record(pages)
			if err != nil {
				return nil, err
			}
			c.At = t.Now
			if err := rec.Apply(c); err != nil {
				var late *reactions.LateError
				if errors.As(err, &late) {
					return nil, t.lateReaction(m, late)
				}
				return nil, rules.Refuse("invalid_reactions", "%v", err)
			}
			puts, err := h.Puts(rec)
			if err != nil {
				return nil, err
			}
			t.Puts = append(t.Puts, puts...)
			v := pushedView(m, rec)
			t.Emit("reactions_pushed", "", map[string]any{"message": m, "op": c.Op, "up": c.Up, "down": c.Down})
			return v, nil
		},
	})
}

// The governance timers (its component's Due, catalogue.go): proposal
// tallies, confidence votes, Judge elections.
var (
	proposalWork = DueWork{Kind: "proposal", Prefix: proposalPrefix, Run: func(s *Service, ctx context.Context, game, _ string) ([]string, error) {
		return s.TallyProposals(ctx, game)
	}}
	confidenceWork = DueWork{Kind: "confidence", Prefix: confidencePrefix, Run: func(s *Service, ctx context.Context, game, sk string) ([]string, error) {
		return s.closeConfidenceItem(ctx, game, sk)
	}}
	electionWork = DueWork{Kind: "election", Prefix: electionPrefix, Run: func(s *Service, ctx context.Context, game, sk string) ([]string, error) {
		return s.holdElectionItem(ctx, game, sk)
	}}
)

// tallyBeforePeriodEnd (its component's BeforePeriodEnd, catalogue.go): proposals
// whose voting ends with a period take effect before that period ends and,
// at a week's end, before the season changes (T2).
var tallyBeforePeriodEnd = BeforeHook{Run: func(s *Service, ctx context.Context, game string, ended calendar.Period) error {
	_, err := s.tallyProposalsUntil(ctx, game, ended.End)
	return err
}}
