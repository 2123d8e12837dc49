package game

import (
	"context"
	"errors"

	"croupier/internal/rules"
	"croupier/internal/store"
)

// Every list the service answers is read a page at a time, so no response
// grows with the game (a Lambda answers at most 6 MB, and 8,000 players
// once made 9.5 MB). A page holds at most Limit items; NextCursor, when
// set, continues after its last one.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 500
	// maxPageScan bounds the items one filtered page reads: a page whose
	// filter keeps few of them may come back short, even empty, with a
	// cursor to go on.
	maxPageScan = 5 * MaxPageLimit
	// maxPageBytes ends a page early once the records kept hold this much
	// stored data, so a page of large records (a player item may be 350
	// KB) stays far below Lambda's 6 MB response: DynamoDB reads at most
	// 1 MB a request, so a page holds at most about 2 MB of records.
	maxPageBytes = 1 << 20
)

// PageRequest asks for one page of a list: at most Limit items (0: the
// default) after Cursor ("" for the first page).
type PageRequest struct {
	Limit  int
	Cursor string
}

// First asks for the first page of the default size.
var First = PageRequest{}

func (pr PageRequest) limit() (int, error) {
	switch {
	case pr.Limit == 0:
		return DefaultPageLimit, nil
	case pr.Limit < 0 || pr.Limit > MaxPageLimit:
		return 0, rules.Refuse("invalid_limit", "limit must be from 1 to %d, not %d.", MaxPageLimit, pr.Limit).
			With("max_limit", MaxPageLimit)
	}
	return pr.Limit, nil
}

func badCursor(cursor string) *rules.Error {
	return rules.Refuse("invalid_cursor", "The cursor %q is not one this list gave out; start again without a cursor.", cursor)
}

// pageScan reads q from pr.Cursor and offers each item to keep; it stops
// once pr's limit of items were kept, at the end, after maxPageScan items,
// or once the kept items hold maxPageBytes, and returns the cursor after
// the last item read ("" at the end).
func (s *Service) pageScan(ctx context.Context, q store.Query, pr PageRequest, keep func(store.Item) (bool, error)) (string, error) {
	limit, err := pr.limit()
	if err != nil {
		return "", err
	}
	q.Cursor = pr.Cursor
	kept, scanned, bytes := 0, 0, 0
	for {
		q.Limit = limit - kept
		page, err := s.store.Query(ctx, q)
		if errors.Is(err, store.ErrBadCursor) {
			return "", badCursor(q.Cursor)
		}
		if err != nil {
			return "", err
		}
		for _, it := range page.Items {
			scanned++
			ok, err := keep(it)
			if err != nil {
				return "", err
			}
			if ok {
				kept++
				bytes += len(it.Data)
			}
		}
		if page.Next == "" || kept >= limit || scanned >= maxPageScan || bytes >= maxPageBytes {
			return page.Next, nil
		}
		q.Cursor = page.Next
	}
}

// AllPages calls read with each cursor in turn until a page has no next
// cursor: for callers that need a whole list (the tracker, chat commands
// of small games), page by page.
func AllPages[T any](read func(PageRequest) ([]T, string, error)) ([]T, error) {
	out := []T{}
	pr := PageRequest{Limit: MaxPageLimit}
	for {
		items, next, err := read(pr)
		if err != nil {
			return out, err
		}
		out = append(out, items...)
		if next == "" {
			return out, nil
		}
		pr.Cursor = next
	}
}
