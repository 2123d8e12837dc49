package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/store"
)

// clockKey is where `serve --clock manual` keeps its time: in the store,
// outside every game's partition, so it moves with the data.
var clockKey = store.Key{PK: "CLOCK#manual", SK: "NOW"}

type storedClock struct {
	Now time.Time `json:"now"`
}

// loadClock returns the manual clock's stored time; ok is false on a store
// no manual clock has run on.
func loadClock(ctx context.Context, st store.Store) (t time.Time, ok bool, err error) {
	it, err := st.Get(ctx, clockKey)
	if err != nil || !it.Exists() {
		return time.Time{}, false, err
	}
	var c storedClock
	if err := json.Unmarshal(it.Data, &c); err != nil {
		return time.Time{}, false, fmt.Errorf("decoding the stored manual clock: %w", err)
	}
	return c.Now.UTC(), true, nil
}

// saveClock records the manual clock's time. Two moves racing both write;
// the later commit wins, which is the clock's later time as each writes
// the clock's now.
func saveClock(ctx context.Context, st store.Store, now func() time.Time) error {
	for range 5 {
		it, err := st.Get(ctx, clockKey)
		if err != nil {
			return err
		}
		data, _ := json.Marshal(storedClock{Now: now()})
		err = st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: clockKey, Data: data}, Expect: it.Version}}})
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("saving the manual clock: %w", store.ErrConflict)
}

// storePath is the store file --data names: the path itself, or
// croupier.db inside it when it is a directory (an existing one, a path
// ending in a separator, or a missing path without an extension).
func storePath(data string) string {
	fi, err := os.Stat(data)
	switch {
	case err == nil && fi.IsDir(),
		strings.HasSuffix(data, "/") || strings.HasSuffix(data, string(filepath.Separator)),
		errors.Is(err, os.ErrNotExist) && filepath.Ext(data) == "":
		return filepath.Join(data, storeFile)
	}
	return data
}

// checkLag refuses to start when reaching now would end more than one
// period of a game at once, unless catchUp: then it applies them before
// serving. It returns what it applied.
func checkLag(ctx context.Context, svc *game.Service, now time.Time, catchUp bool) (int, error) {
	lags, err := svc.PeriodEndsBehind(ctx, now)
	if err != nil {
		return 0, fmt.Errorf("checking the stored games against the clock: %w", err)
	}
	total, worst := 0, 0
	var each []string
	for _, l := range lags {
		total += l.Ends
		worst = max(worst, l.Ends)
		each = append(each, fmt.Sprintf("%s: %d from %s", l.Name, l.Ends, l.Period))
	}
	if worst <= 1 {
		return 0, nil // at most the period end a short stop skips: the scheduler applies it
	}
	if !catchUp {
		return 0, fmt.Errorf("refusing to start: the stored games are behind the clock (%s): starting would apply %d period ends at once (%s), ending periods nobody could play in and making their players inactive. Pass --catch-up to apply them; with --clock manual, leave out --start to resume at the time stored with the data, or give --start at the games' time",
			now.Format(time.RFC3339), total, strings.Join(each, "; "))
	}
	rep, err := svc.RunDue(ctx)
	if err != nil {
		return len(rep.Transitions), fmt.Errorf("catching up: %w", err)
	}
	if len(rep.Failed) > 0 {
		return len(rep.Transitions), fmt.Errorf("catching up: %d period ends applied, then failed: %s", len(rep.Transitions), strings.Join(rep.Failed, "; "))
	}
	return len(rep.Transitions), nil
}
