package proving

import (
	"context"
	"strings"
	"time"

	"croupier/internal/game"
)

// InvExplained is "the log explains the state" (issue 25, acceptance 2).
const InvExplained = "explained"

// Explained checks that the store holds exactly what the game's log says
// (game.Service.Explain: the log's changes replayed, in each item's version
// order, compared with every explained item of the partition): every
// difference is an item written outside a logged commit, a logged change
// the store does not hold, or a change that cannot be replayed, and is
// reported naming the item, the fields that differ and the last entry the
// replay applied to it.
func (s *Snapshot) Explained(ctx context.Context, c *Checks, svc *game.Service) {
	g := s.Game
	c.inv = InvExplained
	diffs, r, err := svc.Explain(ctx, g)
	c.check(err == nil, "replaying the log of %s: %v", g, err)
	if err != nil {
		return
	}
	c.check(r.Entries > 0, "the replay of %s applied no entry", g)
	// One check per item the log explains, each difference a violation.
	differs := map[string]bool{}
	for _, d := range diffs {
		differs[d.SK] = true
	}
	for sk := range r.Items {
		if !differs[sk] {
			c.check(true, "")
		}
	}
	for _, d := range diffs {
		where := ""
		if len(d.Fields) > 0 {
			where = " (fields " + strings.Join(d.Fields, ", ") + ")"
		}
		after := ""
		if d.Entry != "" {
			after = ", after entry " + d.Entry
			for _, e := range s.Entries {
				if e.ID == d.Entry {
					after += " (" + e.Command + " by " + e.Actor + " at " + e.At.Format(time.RFC3339Nano) + ")"
				}
			}
		}
		c.check(false, "%s%s%s: %s", d.SK, where, after, d.Why)
	}
}
