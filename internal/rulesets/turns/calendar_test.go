package turns_test

import (
	"fmt"
	"testing"
	"time"

	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets/turns"
)

// Acceptance 2 of issue 14: turns across both 2026 US daylight-saving
// changes (8 March, 1 November) begin, reach their middle and end at
// 22:00 Monday, 10:00 Thursday and 22:00 Saturday Chicago wall time, as
// the scheduler's due work applies them; the job runs on time, late (by
// up to four days, several moments at once) and twice, and each moment is
// applied exactly once, logged as of its moment. A proposal of the turn
// that spans the spring change is decided as of that turn's end although
// the job runs two days late.
func TestAcceptance2_TurnsAcrossDSTChangesThroughTheScheduler(t *testing.T) {
	e := newEnv(t, boltStore(t), ada, bea, cy)
	e.must(ada, "turns-propose", turns.Propose{Op: "enact", Text: "Spring forward."}, nil)
	e.must(bea, "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"}, nil)
	end1 := time.Date(2026, 3, 8, 4, 0, 0, 0, time.UTC) // Sat 7 Mar 22:00 CST
	e.at(end1.Add(-time.Minute))
	e.must(cy, "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"}, nil)
	e.at(end1.Add(48 * time.Hour)) // two days late, across the change
	e.at(end1.Add(48 * time.Hour))

	// Then on to mid-November: some runs on the moment, some late, each twice.
	lateness := []time.Duration{0, 3 * time.Hour, 0, 50 * time.Hour, time.Second, 4 * 24 * time.Hour, 0}
	now, i := e.clk.Now(), 0
	for stop := time.Date(2026, 11, 12, 0, 0, 0, 0, time.UTC); now.Before(stop); i++ {
		st := e.status()
		if st.Next == nil {
			t.Fatalf("no next moment at %s", now)
		}
		now = st.Next.At.Add(lateness[i%len(lateness)])
		e.at(now)
		e.at(now)
	}

	moments := map[string][]time.Time{}
	seen := map[string]bool{}
	for _, typ := range []string{"turns_turn_began", "turns_turn_middle", "turns_turn_ended"} {
		for _, l := range e.eventsOf(typ) {
			var id string
			if typ == "turns_turn_ended" {
				id = decodeField(t, l.Event.Data, "turn")
			} else {
				id = decodeField(t, l.Event.Data, "id")
			}
			key := typ + " " + id
			if seen[key] {
				t.Errorf("%s applied twice", key)
			}
			seen[key] = true
			moments[typ] = append(moments[typ], l.Entry.At)
		}
	}
	want := map[string]struct {
		day  time.Weekday
		hour int
	}{"turns_turn_began": {time.Monday, 22}, "turns_turn_middle": {time.Thursday, 10}, "turns_turn_ended": {time.Saturday, 22}}
	for typ, ats := range moments {
		if len(ats) < 36 {
			t.Errorf("%s: only %d moments logged", typ, len(ats))
		}
		for k, at := range ats {
			local := at.In(calendar.Chicago())
			if local.Weekday() != want[typ].day || local.Hour() != want[typ].hour || local.Minute() != 0 || local.Second() != 0 {
				t.Errorf("%s #%d at %s (%s), want %s %02d:00", typ, k+1, local, at.UTC(), want[typ].day, want[typ].hour)
			}
			if k > 0 && at.Sub(ats[k-1]) != 7*24*time.Hour && at.Sub(ats[k-1]) != 7*24*time.Hour-time.Hour && at.Sub(ats[k-1]) != 7*24*time.Hour+time.Hour {
				t.Errorf("%s #%d is %s after the one before", typ, k+1, at.Sub(ats[k-1]))
			}
		}
	}
	// The instants at the changes, in UTC.
	for typ, at := range map[string]time.Time{
		"turns_turn_ended 1-1":   time.Date(2026, 3, 8, 4, 0, 0, 0, time.UTC),   // 22:00 CST
		"turns_turn_began 1-2":   time.Date(2026, 3, 10, 3, 0, 0, 0, time.UTC),  // 22:00 CDT
		"turns_turn_middle 1-2":  time.Date(2026, 3, 12, 15, 0, 0, 0, time.UTC), // 10:00 CDT
		"turns_turn_ended 1-35":  time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC),  // Sat 31 Oct 22:00 CDT
		"turns_turn_began 1-36":  time.Date(2026, 11, 3, 4, 0, 0, 0, time.UTC),  // Mon 2 Nov 22:00 CST
		"turns_turn_middle 1-36": time.Date(2026, 11, 5, 16, 0, 0, 0, time.UTC), // 10:00 CST
	} {
		if !seen[typ] {
			t.Errorf("%s not applied", typ)
			continue
		}
		found := false
		for _, l := range e.log() {
			if l.Event.Type+" "+field(l) == typ {
				found = true
				if !l.Entry.At.Equal(at) {
					t.Errorf("%s logged at %s, want %s", typ, l.Entry.At.UTC(), at)
				}
			}
		}
		if !found {
			t.Errorf("%s not found", typ)
		}
	}
	// The proposal of turn 1-1 was decided as of its end, not when the job ran.
	adopted := e.eventsOf("turns_proposal_adopted")
	if len(adopted) != 1 || !adopted[0].Entry.At.Equal(end1) {
		t.Fatalf("adoption = %+v", adopted)
	}
	if s := e.sentence(adopted[0].Event); !contains(s, "Proposal P1 by Ada is adopted", "2 for, 0 against") {
		t.Errorf("adoption reads %q", s)
	}
}

func field(l logged) string {
	if l.Event.Type == "turns_turn_ended" {
		return decodeField(nil, l.Event.Data, "turn")
	}
	return decodeField(nil, l.Event.Data, "id")
}

func decodeField(t *testing.T, raw []byte, name string) string {
	var m map[string]any
	if err := jsonUnmarshal(raw, &m); err != nil && t != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(m[name])
}
