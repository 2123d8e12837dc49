package governance

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"croupier/internal/rules/calendar"
)

// voterIDs is n voter ids of the length Discord's have.
func voterIDs(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("discord:%s%017d", prefix, i)
	}
	return out
}

// Issue 22: a tally of 10,000 voters counts every one of them, and the
// result it stores and logs stays small: the counts are whole, the voter
// lists are sorted samples.
func TestG1_ATallyOf10000VotersCountsAllAndKeepsSamples(t *testing.T) {
	up, down, both := voterIDs("1", 6000), voterIDs("2", 3900), voterIDs("3", 100)
	res := Tally(Reactions{Up: slices.Concat(up, both), Down: slices.Concat(down, both, []string{"bot"})},
		func(id string) bool { return id != "bot" }, false, false, Standard, testConfig(t))
	if res.For != 6000 || res.Against != 4000 || res.UnclearCount != 100 || res.IgnoredCount != 1 || !res.Adopted {
		t.Fatalf("for %d against %d unclear %d ignored %d adopted %v; want 6000, 4000 (100 unclear), 1 ignored, adopted",
			res.For, res.Against, res.UnclearCount, res.IgnoredCount, res.Adopted)
	}
	for name, l := range map[string][]string{"for": res.ForVoters, "against": res.AgainstVoters, "unclear": res.Unclear} {
		if len(l) != VoterSample || !slices.IsSorted(l) {
			t.Errorf("%s voters: %d kept (sorted %v), want a sorted sample of %d", name, len(l), slices.IsSorted(l), VoterSample)
		}
	}
	if b, _ := json.Marshal(res); len(b) > 8*1024 {
		t.Errorf("the result is %d bytes", len(b))
	}
}

// G4 likewise for a vote of confidence.
func TestG4_AConfidenceVoteOf10000CountsAllAndKeepsSamples(t *testing.T) {
	res := TallyConfidence(Reactions{Up: voterIDs("1", 4000), Down: voterIDs("2", 6000)}, nil)
	if res.Affirm != 4000 || res.Overturn != 6000 || !res.Overturned || len(res.Affirmers) != VoterSample || len(res.Overturners) != VoterSample {
		t.Fatalf("affirm %d overturn %d overturned %v, %d and %d names kept", res.Affirm, res.Overturn, res.Overturned, len(res.Affirmers), len(res.Overturners))
	}
}

// G5: an election of 300 candidacies decides among all of them (the winner
// stood last, with the most 👍), and keeps MaxStandings standings, the
// winner's among them, and a count of all.
func TestG5_AnElectionOf300CandidaciesDecidesAmongAllAndKeepsTheLeaders(t *testing.T) {
	var bs []Ballot
	for i := range 300 {
		bs = append(bs, ballot(fmt.Sprintf("c%03d", i), fmt.Sprintf("p%03d", i), monday.Add(h).Add(time.Duration(i)*time.Minute),
			Reactions{Up: voterIDs("1", 5+i%7+i/299*20)}))
	}
	e := Elect(calendar.WeekAt(monday.Add(h)), "", bs, nil)
	if e.Winner != "c299" || e.Judge != "p299" || e.Candidacies != 300 || len(e.Standings) != MaxStandings {
		t.Fatalf("winner %s judge %s, %d candidacies, %d standings kept", e.Winner, e.Judge, e.Candidacies, len(e.Standings))
	}
	if !slices.ContainsFunc(e.Standings, func(s Standing) bool { return s.Candidacy == "c299" }) {
		t.Error("the winner's standing was not kept")
	}
	for _, s := range e.Standings {
		if len(s.UpVoters) > StandingVoters {
			t.Errorf("%s keeps %d voters", s.Candidacy, len(s.UpVoters))
		}
	}
	if !slices.IsSortedFunc(e.Standings, func(a, b Standing) int { return cmp.Compare(a.Candidacy, b.Candidacy) }) {
		t.Error("the standings kept are not in candidacy order")
	}
}
