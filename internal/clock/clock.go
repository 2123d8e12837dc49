// Package clock is the only source of "now" for the engine. Production wiring
// passes Real; tests and `croupier serve --clock manual` pass a Manual clock so
// phases and timeouts can be exercised in seconds (DESIGN.md: Time).
package clock

import (
	"sync"
	"time"
)

// Clock tells the current time. Every component that needs the time takes one.
type Clock interface {
	Now() time.Time
}

// Real is the wall clock, in UTC.
type Real struct{}

// Now returns the current UTC time.
func (Real) Now() time.Time { return time.Now().UTC() }

// Manual is a clock that only moves when told to. It is safe for concurrent use.
type Manual struct {
	mu  sync.Mutex
	now time.Time
}

// NewManual returns a manual clock set to t.
func NewManual(t time.Time) *Manual { return &Manual{now: t.UTC()} }

// Now returns the clock's current time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Set moves the clock to t (backwards too: tests sometimes need it).
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	m.now = t.UTC()
	m.mu.Unlock()
}

// Advance moves the clock forward by d and returns the new time.
func (m *Manual) Advance(d time.Duration) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(d)
	return m.now
}

// SetForward moves the clock to t unless t is before its time, in one step
// (two racing moves cannot take it back). It returns the time it was at and
// whether it moved to t.
func (m *Manual) SetForward(t time.Time) (was time.Time, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	was = m.now
	if t.Before(was) {
		return was, false
	}
	m.now = t.UTC()
	return was, true
}
