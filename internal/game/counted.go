package game

// Counted means counted (RULINGS T5): a scheduled end that counts pushed
// reactions (a proposal's tally, a confidence vote, a Judge election, a
// module's end such as the turns module's turn end) first seals the pushed
// record of every message it counts as of its end moment, then reads them.
// A sealed record refuses any change stamped at or before the sealed
// moment (reactions.Record.Apply), and a push that read the record before
// the seal fails its version check, reads it again and is refused; so once
// sealed, the record as of the end is final, and a push is either in the
// count or refused voting_closed, whatever the pushing process's clock
// said. Reactions read live from a platform (the Discord REST reader) are
// not sealed: they are what the platform says when the end reads them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"croupier/internal/reactions"
	"croupier/internal/rules"
	"croupier/internal/store"
)

// sealBatch bounds the records one seal commit writes, under DynamoDB's
// 100 operations a transaction: an election may count thousands of
// candidacies, sealed in commits of at most this many.
const sealBatch = 90

// SealReactions makes the pushed reactions on msgs final as of at, the
// moment a module's scheduled end counts them (RULINGS T5): call it once
// the end is due and before reading them with ReactionsAt, whose reads as
// of at are then final. It is idempotent (records already sealed at at
// are not written) and resumable (a run that dies part-way leaves some
// sealed; the next seals the rest), and commits at most sealBatch records
// at a time. Messages read live from a platform (WithReactions) are left
// alone. at may not be after the service's clock.
func (s *Service) SealReactions(ctx context.Context, game string, msgs []MessageRef, at time.Time) error {
	var pushed []MessageRef
	for _, m := range msgs {
		if !s.readsLive(m) {
			pushed = append(pushed, m)
		}
	}
	_, err := s.sealPushed(ctx, game, pushed, at)
	return err
}

// countedReactions is what a scheduled end ending at `at` counts on msgs,
// in their order: the pushed ones sealed as of at (their final state), the
// ones a platform reader reads, read live.
func (s *Service) countedReactions(ctx context.Context, game string, msgs []MessageRef, at time.Time) ([]reactions.Snapshot, error) {
	var pushed []MessageRef
	for _, m := range msgs {
		if !s.readsLive(m) {
			pushed = append(pushed, m)
		}
	}
	sealed, err := s.sealPushed(ctx, game, pushed, at)
	if err != nil {
		return nil, err
	}
	out := make([]reactions.Snapshot, len(msgs))
	for i, m := range msgs {
		if snap, ok := sealed[m]; ok {
			out[i] = snap
			continue
		}
		if out[i], err = s.reactionsAt(ctx, game, m, at); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readsLive reports whether m's reactions are read from the configured
// platform reader rather than from pushes.
func (s *Service) readsLive(m MessageRef) bool {
	return s.reactions != nil && readsPlatform(s.reactions, m.Platform)
}

// sealPushed seals the pushed records of msgs as of at and returns each
// one's state as of at, which the seal made final: the record as written
// by the seal, or as read when it was sealed at at or later already.
func (s *Service) sealPushed(ctx context.Context, game string, msgs []MessageRef, at time.Time) (map[MessageRef]reactions.Snapshot, error) {
	if now := s.clock.Now(); at.After(now) {
		return nil, fmt.Errorf("internal: sealing reactions as of %s, after this process's clock (%s)", at.UTC().Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339Nano))
	}
	out := make(map[MessageRef]reactions.Snapshot, len(msgs))
	todo := make([]MessageRef, 0, len(msgs))
	seen := make(map[MessageRef]bool, len(msgs))
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			todo = append(todo, m)
		}
	}
	for len(todo) > 0 {
		n, err := s.sealCommit(ctx, game, todo[:min(len(todo), sealBatch)], at, out)
		if err != nil {
			return nil, err
		}
		todo = todo[n:]
	}
	return out, nil
}

// sealCommit seals up to sealBatch records in one commit, each under the
// version read (a record nobody pushed to is created, Expect 0), retried
// from a fresh read when a push or another runner wrote one meanwhile. It
// returns how many of msgs it sealed: fewer when a record stored before
// pages (one item of every change) is cut into pages by its seal and the
// commit would pass sealBatch writes.
func (s *Service) sealCommit(ctx context.Context, game string, msgs []MessageRef, at time.Time, out map[MessageRef]reactions.Snapshot) (int, error) {
	keys := make([]store.Key, len(msgs))
	for i, m := range msgs {
		k, err := reactions.Key(GamePK(game), m)
		if err != nil {
			return 0, fmt.Errorf("sealing the reactions of %s/%s/%s: %w", m.Platform, m.Channel, m.Message, err)
		}
		keys[i] = k
	}
	// The first read may be stale, at half the units: every record written
	// is under its version condition, so a stale read costs a retry, and a
	// record read sealed is sealed (a seal is never undone).
	rctx := store.WithEventualReads(ctx)
	for attempt := 1; ; attempt++ {
		done, final, puts, err := s.sealRead(rctx, keys, msgs, at)
		rctx = ctx
		if err == nil && len(puts) > 0 {
			err = s.store.Commit(ctx, store.Tx{Puts: puts})
		}
		switch {
		case err == nil:
			maps.Copy(out, final)
			return done, nil
		case !errors.Is(err, store.ErrConflict):
			return 0, fmt.Errorf("sealing pushed reactions: %w", err)
		case attempt >= s.MaxAttempts:
			return 0, ErrBusy
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(s.Pause(attempt)):
		}
	}
}

// sealRead reads the records at keys, heads then pages, and returns how
// many of them one commit seals, their states as of at and the writes.
func (s *Service) sealRead(ctx context.Context, keys []store.Key, msgs []MessageRef, at time.Time) (int, map[MessageRef]reactions.Snapshot, []store.Put, error) {
	items, err := s.store.GetMany(ctx, keys)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("reading pushed reactions to seal: %w", err)
	}
	heads := make([]reactions.Head, len(items))
	var pageKeys []store.Key
	for i, it := range items {
		if heads[i], err = reactions.DecodeHead(keys[i], msgs[i], it); err != nil {
			return 0, nil, nil, err
		}
		pageKeys = append(pageKeys, heads[i].PageKeys()...)
	}
	// Most records have no pages; the store splits a long read itself.
	pages := make(map[store.Key]store.Item, len(pageKeys))
	if len(pageKeys) > 0 {
		its, err := s.store.GetMany(ctx, pageKeys)
		if err != nil {
			return 0, nil, nil, fmt.Errorf("reading pushed reactions to seal: %w", err)
		}
		for _, it := range its {
			pages[it.Key] = it
		}
	}
	final := make(map[MessageRef]reactions.Snapshot, len(msgs))
	var puts []store.Put
	for i := range heads {
		var its []store.Item
		for _, pk := range heads[i].PageKeys() {
			its = append(its, pages[pk])
		}
		rec, err := heads[i].Record(its)
		if err != nil {
			return 0, nil, nil, err
		}
		if rec.Seal(at) {
			// A seal writes the head only, but for a record stored whole
			// before pages, which it cuts into pages.
			p, err := heads[i].Puts(rec)
			if err != nil {
				return 0, nil, nil, fmt.Errorf("encoding %s: %w", keys[i], err)
			}
			if i > 0 && len(puts)+len(p) > sealBatch {
				return i, final, puts, nil
			}
			puts = append(puts, p...)
		}
		final[msgs[i]] = rec.AsOf(at)
	}
	return len(heads), final, puts, nil
}

// lateReaction refuses a push stamped at or before the moment m's votes
// were counted as of (RULINGS T5), saying what the message is when its use
// is recorded (G6) and when its votes were counted.
func (t *Tx) lateReaction(m MessageRef, late *reactions.LateError) error {
	what := "this message"
	k := messageKey(t.Game, m)
	if err := t.Load(k); err != nil {
		return err
	}
	var use *MessageUse
	if it := t.Loaded[k]; it.Exists() {
		var u MessageUse
		if err := json.Unmarshal(it.Data, &u); err != nil {
			return fmt.Errorf("decoding %s: %w", k, err)
		}
		use = &u
		what += " (" + u.String() + ")"
	}
	err := rules.Refuse("voting_closed", "The votes on %s were counted as of %s, and this change reached the game after they were counted: it is not recorded and changes nothing. A reaction changed from now on counts for nothing, as the message is used once.",
		what, t.when(late.CountedAt)).With("counted_at", late.CountedAt.UTC())
	if use != nil {
		err = err.With("used_for", *use)
	}
	return err
}

// when says a moment in the game's own time: America/Chicago for a turns
// game (RULINGS T3), UTC otherwise.
func (t *Tx) when(at time.Time) string {
	return at.In(t.zone()).Format("Mon 2 Jan 2006 15:04 MST")
}
