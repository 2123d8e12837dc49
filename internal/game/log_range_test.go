package game

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
)

// The windows of a log range cover every moment of it, whatever its
// length, in at most maxLogWindows prefix queries, in time order.
func TestLogWindowsCoverTheRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := ulid.Timestamp(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	spans := []uint64{0, 1, 1 << 20, 40 * 60 * 1000, 3 * 24 * 3600 * 1000, 400 * 24 * 3600 * 1000, 20 * 365 * 24 * 3600 * 1000}
	for _, span := range spans {
		for range 50 {
			lo := base + rng.Uint64N(1<<30)
			hi := lo + span
			ws := logWindows(lo, hi)
			if len(ws) == 0 || len(ws) > maxLogWindows {
				t.Fatalf("%d ms: %d windows", span, len(ws))
			}
			if !slices.IsSorted(ws) {
				t.Fatalf("%d ms: windows out of order: %v", span, ws)
			}
			for _, ms := range []uint64{lo, hi, lo + rng.Uint64N(span+1)} {
				var id ulid.ULID
				if err := id.SetTime(ms); err != nil {
					t.Fatal(err)
				}
				s := id.String()
				if !slices.ContainsFunc(ws, func(w string) bool { return strings.HasPrefix(s, w) }) {
					t.Fatalf("%d ms range %d..%d: %s (at %d) is in no window of %v", span, lo, hi, s, ms, ws)
				}
			}
		}
	}
}
