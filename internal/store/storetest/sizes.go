package storetest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"croupier/internal/store"
)

// MaxGameItemBytes is the largest item a game of any size may write
// (issue 22): a quarter of DynamoDB's 400 KB, so nothing is near the limit
// however the game grows. The scale tests hold every ruleset to it.
const MaxGameItemBytes = 100 * 1024

// Sizes is a store that records what every successful commit wrote: the
// keys of its puts, and the largest item of each kind (the sort key up to
// its first '#'). The scale tests read it to report and bound item sizes
// and to count what one command wrote.
type Sizes struct {
	store.Store
	mu      sync.Mutex
	commits [][]store.Key
	largest map[string]int
	items   int
}

// NewSizes records the commits made through st.
func NewSizes(st store.Store) *Sizes { return &Sizes{Store: st, largest: map[string]int{}} }

// Commit implements store.Store.
func (s *Sizes) Commit(ctx context.Context, tx store.Tx) error {
	if err := s.Store.Commit(ctx, tx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]store.Key, 0, len(tx.Puts))
	for _, p := range tx.Puts {
		keys = append(keys, p.Item.Key)
		kind, _, _ := strings.Cut(p.Item.SK, "#")
		s.largest[kind] = max(s.largest[kind], len(p.Item.Data))
		s.items++
	}
	s.commits = append(s.commits, keys)
	return nil
}

// Largest is the kind of the largest item written, and its size.
func (s *Sizes) Largest() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kind, n := "", 0
	for _, k := range slices.Sorted(maps.Keys(s.largest)) {
		if v := s.largest[k]; v > n {
			kind, n = k, v
		}
	}
	return kind, n
}

// ByKind is the largest item written of each kind, in bytes.
func (s *Sizes) ByKind() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.largest)
}

// String says the largest item of each kind, by kind: "LOG 853 B, ...".
func (s *Sizes) String() string {
	by := s.ByKind()
	kinds := make([]string, 0, len(by))
	for k := range by {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d B", k, by[k])
	}
	return strings.Join(parts, ", ")
}

// Items is how many items the commits wrote.
func (s *Sizes) Items() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.items
}

// Count is how many commits succeeded.
func (s *Sizes) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.commits)
}

// Since returns the keys written by each commit after the first n.
func (s *Sizes) Since(n int) [][]store.Key {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commits[n:])
}
