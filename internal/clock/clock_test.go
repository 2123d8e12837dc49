package clock

import (
	"sync"
	"testing"
	"time"
)

// Of racing forward moves, none takes the clock back: it ends at the
// latest, and every earlier one that lost the race is told so.
func TestSetForwardNeverGoesBack(t *testing.T) {
	t0 := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	m := NewManual(t0)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			to := t0.Add(time.Duration(i) * time.Minute)
			was, ok := m.SetForward(to)
			if ok == to.Before(was) {
				t.Errorf("SetForward(%s) from %s: moved %v", to, was, ok)
			}
		})
	}
	wg.Wait()
	if got, want := m.Now(), t0.Add(63*time.Minute); !got.Equal(want) {
		t.Errorf("after the moves the clock is at %s, want the latest, %s", got, want)
	}
	if was, ok := m.SetForward(t0); ok || !m.Now().Equal(t0.Add(63*time.Minute)) || !was.Equal(t0.Add(63*time.Minute)) {
		t.Errorf("SetForward back to %s: moved %v from %s; the clock is at %s", t0, ok, was, m.Now())
	}
}
