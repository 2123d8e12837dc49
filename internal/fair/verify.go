package fair

import (
	"fmt"
	"sort"
	"strings"
)

// Reasons a Mismatch gives. They are stable strings: the tracker page and
// `croupier verify` show them to players.
const (
	ReasonValueDiffers    = "value differs"
	ReasonSeedCommitment  = "seed does not match commitment"
	ReasonNoCommitment    = "no commitment published for period"
	ReasonDuplicateIndex  = "duplicate draw index"
	ReasonInvalidRecordPf = "invalid record: " // followed by the validation error
)

// Mismatch is one logged draw that does not check out.
type Mismatch struct {
	Record Record `json:"record"`
	// Want is the recomputed value when Reason is ReasonValueDiffers, and -1
	// when no value can be recomputed (bad seed, invalid record...).
	Want   int    `json:"want"`
	Reason string `json:"reason"`
}

// Report is the outcome of Verify. Every record is either checked or pending:
// Checked + Pending == len(recs).
type Report struct {
	// Checked counts records that got a verdict; those not in Mismatches
	// were recomputed and are correct.
	Checked int `json:"checked"`
	// Pending counts records whose period has a commitment but whose seed is
	// not revealed yet: not verifiable yet, and not a mismatch.
	Pending int `json:"pending"`
	// PendingPeriods lists those periods, sorted.
	PendingPeriods []string `json:"pending_periods,omitempty"`
	// BadSeeds lists periods whose revealed seed does not match the published
	// commitment (or has none), sorted, even if no record uses them.
	BadSeeds   []string   `json:"bad_seeds,omitempty"`
	Mismatches []Mismatch `json:"mismatches,omitempty"`
}

// OK reports whether nothing failed verification (pending records allowed).
func (r Report) OK() bool { return len(r.Mismatches) == 0 && len(r.BadSeeds) == 0 }

// Verify checks one game's draw log. seeds maps period to its revealed seed,
// commitments maps period to the hex SHA-256 published before the period.
// It checks each revealed seed against its commitment, rejects two records
// with the same (game, period, command, index) — that would be a reroll
// (N1) — and recomputes every record whose seed is revealed. Mismatches are
// reported in log order, each naming the exact record.
func Verify(seeds map[string]Seed, commitments map[string]string, recs []Record) Report {
	var rep Report

	seedOK := map[string]string{} // period -> "" if the seed is good, else the reason
	for period, s := range seeds {
		c, ok := commitments[period]
		switch {
		case !ok:
			seedOK[period] = ReasonNoCommitment
		case strings.ToLower(strings.TrimSpace(c)) != s.Commitment():
			seedOK[period] = ReasonSeedCommitment
		default:
			seedOK[period] = ""
		}
		if seedOK[period] != "" {
			rep.BadSeeds = append(rep.BadSeeds, period)
		}
	}
	sort.Strings(rep.BadSeeds)

	type key struct {
		game, period, command string
		index                 int
	}
	seen := map[key]bool{}
	pending := map[string]bool{}
	bad := func(r Record, want int, reason string) {
		rep.Mismatches = append(rep.Mismatches, Mismatch{Record: r, Want: want, Reason: reason})
	}

	for _, r := range recs {
		k := key{r.Game, r.Period, r.Command, r.Index}
		if seen[k] {
			rep.Checked++
			bad(r, -1, ReasonDuplicateIndex)
			continue
		}
		seen[k] = true

		seed, revealed := seeds[r.Period]
		if !revealed {
			if _, committed := commitments[r.Period]; committed {
				rep.Pending++
				pending[r.Period] = true
				continue
			}
			rep.Checked++
			bad(r, -1, ReasonNoCommitment)
			continue
		}
		rep.Checked++
		if reason := seedOK[r.Period]; reason != "" {
			bad(r, -1, reason)
			continue
		}
		want, err := Draw(seed, r.Input)
		if err != nil {
			bad(r, -1, ReasonInvalidRecordPf+strings.TrimPrefix(err.Error(), "fair: "))
			continue
		}
		if want != r.Value {
			bad(r, want, ReasonValueDiffers)
		}
	}
	for p := range pending {
		rep.PendingPeriods = append(rep.PendingPeriods, p)
	}
	sort.Strings(rep.PendingPeriods)
	return rep
}

// String describes a mismatch in one line a player can act on.
func (m Mismatch) String() string {
	r := m.Record
	s := fmt.Sprintf("period %q command %q index %d purpose %q (n=%d): %s", r.Period, r.Command, r.Index, r.Purpose, r.N, m.Reason)
	if m.Reason == ReasonValueDiffers {
		s += fmt.Sprintf(": logged %d, recomputed %d", r.Value, m.Want)
	}
	return s
}
