package game

import (
	"context"
	"fmt"
	"time"

	"github.com/oklog/ulid/v2"

	"croupier/internal/store"
)

// maxLogWindows bounds the prefix queries of one LogRange: the windows are
// as fine as this many allow, so a short range reads few entries besides
// its own, and a long one still costs a few dozen requests at most.
const maxLogWindows = 32

// logRangePage is the page size of LogRange's queries.
const logRangePage = 200

// LogRange calls fn with each log entry of game ordered from..to (inclusive,
// to the millisecond), in log order. The log's order index is keyed by the
// entries' ULIDs, whose first characters are their time: the range is read
// as a few windows of time, each one prefix query, and entries of a window
// outside the range are skipped. What a range costs is the log of its
// windows: every command of the game in that time, not only those fn wants.
func (s *Service) LogRange(ctx context.Context, game string, from, to time.Time, fn func(*Entry) error) error {
	if !ValidGameID(game) {
		return fmt.Errorf("invalid game id %q", game)
	}
	lo, hi := ulid.Timestamp(from), ulid.Timestamp(to)
	if hi < lo {
		return nil
	}
	for _, w := range logWindows(lo, hi) {
		cursor := ""
		for {
			page, err := s.store.Query(ctx, store.Query{PK: GamePK(game), Prefix: logPrefix + w, Index: store.IndexOrder,
				Limit: logRangePage, Cursor: cursor})
			if err != nil {
				return fmt.Errorf("reading the log of %s: %w", game, err)
			}
			for _, it := range page.Items {
				_, e, ok, err := LogEntry(it)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				id, err := ulid.ParseStrict(e.ID)
				if err != nil || id.Time() < lo || id.Time() > hi {
					continue
				}
				if err := fn(e); err != nil {
					return err
				}
			}
			if page.Next == "" {
				break
			}
			cursor = page.Next
		}
	}
	return nil
}

// logWindows lists ULID prefixes that together cover the milliseconds
// lo..hi: with L characters of a ULID's 10-character time fixed, a prefix
// covers 2^(5*(10-L)) ms (L=6: 17 minutes; L=5: 9 hours; L=4: 12 days;
// L=3: a year). The finest that needs at most maxLogWindows is used.
func logWindows(lo, hi uint64) []string {
	l := 6
	for ; l > 1; l-- {
		bits := uint(5 * (10 - l))
		if (hi>>bits)-(lo>>bits) < maxLogWindows {
			break
		}
	}
	bits := uint(5 * (10 - l))
	var out []string
	for k := lo >> bits; k <= hi>>bits; k++ {
		var id ulid.ULID
		if err := id.SetTime(k << bits); err != nil {
			break // past ULID time: nothing is logged there
		}
		out = append(out, id.String()[:l])
	}
	return out
}
