package nomic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestU1U11_RandomRounds (acceptance 3, at the rules level): over random
// rounds of joins, leaves, activity changes, pool moves, proposals, votes,
// Requests for Judgment, recusals, rulings, appeals, deadlines, turn ends
// (applied late, and replayed) and new rounds, after every step:
//   - a refused command is a *rules.Error and changes nothing;
//   - each player has at most one vote per proposal and per appeal;
//   - points change only by U5 (dissent, defeat), U9 (late Judge) and the
//     round's start, and each player's points are the sum of those events;
//   - case numbers are consecutive from 5301;
//   - a drawn Judge was in the pool, active, and not excluded (petitioner,
//     mentioned players, earlier Judges of the case);
//   - the pool holds active players only;
//   - at most one winner per round, and nothing scores after the win;
//   - replaying Advance at the same moment does nothing.
func TestU1U11_RandomRounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := newGame(t, "a", "b", "c", "d", "e")
		// Numbers a proposal could set (R4), so that wins and majority turns
		// come within a short run.
		g.rs.Turns.WinPoints = 10
		g.rs.Turns.UnanimityTurns = rapid.IntRange(1, 2).Draw(t, "unanimity turns")
		for _, p := range []string{"a", "b", "c", "d"} {
			if _, err := g.s.EnterPool(p, created); err != nil {
				t.Fatal(err)
			}
		}
		src := randSource{rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 7))}
		people := []string{"a", "b", "c", "d", "e", "f", "g"}
		now := created
		ledger := map[string]int{}
		wins := map[int]int{}
		props, appeals := []string{}, []string{}
		nextID := 0
		id := func(prefix string) string { nextID++; return fmt.Sprintf("%s%d", prefix, nextID) }
		pick := func(label string, xs []string) string { return rapid.SampledFrom(xs).Draw(t, label) }

		steps := rapid.IntRange(10, 200).Draw(t, "steps")
		for range steps {
			now = now.Add(time.Duration(rapid.IntRange(0, 16*60).Draw(t, "minutes")) * time.Minute)
			poolBefore := g.s.Pool()
			roundBefore := g.s.Round.Number
			var evs []Event
			var err error
			snapshot := mustJSON(t, g.s)
			rsBefore := mustJSON(t, g.rs)
			action := rapid.IntRange(0, 20).Draw(t, "action")
			if action > 14 {
				action = 6 // votes are the most common command
			}
			if action != 13 { // the engine applies what is due before a command (T4)
				var pre []Event
				g.rs, pre, err = g.s.Advance(now, g.rs, src, randomReactions(t, people, props, appeals))
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, pre...)
				snapshot, rsBefore = mustJSON(t, g.s), mustJSON(t, g.rs)
			}
			var more []Event
			switch action {
			case 0:
				var e Event
				e, err = g.s.Join(pick("who", people), "", now)
				more = []Event{e}
			case 1:
				more, err = g.s.Leave(pick("who", people), now, src)
			case 2:
				more, err = g.s.SetActive(pick("who", people), rapid.Bool().Draw(t, "active"), now, src)
			case 3:
				var e Event
				e, err = g.s.EnterPool(pick("who", people), now)
				more = []Event{e}
			case 4:
				var e Event
				e, err = g.s.LeavePool(pick("who", people), now)
				more = []Event{e}
			case 5:
				var c RuleChange
				switch rapid.IntRange(0, 2).Draw(t, "change") {
				case 0:
					c = RuleChange{Op: RuleEnacted, Text: "new"}
				case 1:
					c = RuleChange{Op: RuleAmended, Rule: rapid.IntRange(200, 226).Draw(t, "rule"), Text: "amended"}
				default:
					c = RuleChange{Op: RuleRepealed, Rule: rapid.IntRange(200, 226).Draw(t, "rule")}
				}
				pid := id("p")
				_, err = g.s.Submit(Submission{ID: pid, Changes: []RuleChange{c}}, pick("who", people), now, g.rs)
				if err == nil {
					props = append(props, pid)
				}
			case 6, 7:
				if len(props) > 0 {
					err = g.s.Vote(pick("proposal", props[max(0, len(props)-3):]), pick("who", people), rapid.Bool().Draw(t, "for"), now) // mostly open ones
				}
			case 8:
				var ment []string
				for _, p := range people {
					if rapid.IntRange(0, 4).Draw(t, "mention") == 0 {
						ment = append(ment, p)
					}
				}
				req := Request{Statement: "s", Mentioned: ment, Paradox: rapid.IntRange(0, 5).Draw(t, "paradox") == 0}
				_, more, err = g.s.RequestJudgment(req, pick("who", people), now, g.rs, src)
			case 9:
				if c := g.randomCase(t); c != nil {
					more, err = g.s.Recuse(c.Number, judgeOf(c, pick("who", people)), now, g.rs, src)
				}
			case 10:
				if c := g.randomCase(t); c != nil {
					a, _ := c.Judge()
					more, err = g.s.RuleOn(c.Number, judgeOf(c, pick("who", people)), a.Administrator, pick("value", []string{"TRUE", "FALSE", "false"}), "r", now, g.rs)
				}
			case 11:
				if c := g.randomCase(t); c != nil {
					aid := id("ap")
					_, err = g.s.Appeal(aid, c.Number, pick("who", people), pick("value", []string{"TRUE", "FALSE"}), "r", now)
					if err == nil {
						appeals = append(appeals, aid)
					}
				}
			case 12:
				if len(appeals) > 0 {
					err = g.s.VoteAppeal(pick("appeal", appeals[max(0, len(appeals)-3):]), pick("who", people), rapid.Bool().Draw(t, "for"), now)
				}
			case 13: // a late run of the scheduler, then its replay (T4)
				now = now.Add(time.Duration(rapid.IntRange(0, 20*24).Draw(t, "late hours")) * time.Hour)
				g.rs, more, err = g.s.Advance(now, g.rs, src, randomReactions(t, people, props, appeals))
				if err == nil {
					s1, r1 := mustJSON(t, g.s), mustJSON(t, g.rs)
					rs2, again, err2 := g.s.Advance(now, g.rs, src, randomReactions(t, people, props, appeals))
					if err2 != nil || len(again) != 0 || mustJSON(t, g.s) != s1 || mustJSON(t, rs2) != r1 {
						t.Fatalf("replaying Advance at %s: %v, events %+v", now, err2, again)
					}
				}
			case 14:
				more, err = g.s.StartRound(now, g.rs)
			}
			if err != nil {
				if code(err) == "" {
					t.Fatalf("action %d: error %v is not a rule refusal", action, err)
				}
				if mustJSON(t, g.s) != snapshot || mustJSON(t, g.rs) != rsBefore {
					t.Fatalf("action %d refused (%v) but changed the state", action, err)
				}
				more = nil
			}
			byAdvance := len(evs) // evs[:byAdvance] come from Advance
			if action == 13 {
				byAdvance += len(more)
			}
			evs = append(evs, more...)

			// Points move only by U5, U9 and the round's start: dissent,
			// defeat and late Judges in Advance, the reset in StartRound.
			over := false
			for i, e := range evs {
				switch e.Kind {
				case EvRoundWon:
					wins[roundBefore]++ // a win comes before any StartRound of the same step
					over = true
				case EvPoints:
					allowed := map[string]bool{PointsDissent: true, PointsDefeat: true, PointsLateJudge: true, PointsRoundStart: true}
					if !allowed[e.Reason] || (e.Reason == PointsRoundStart) == (i < byAdvance) || (e.Reason == PointsRoundStart && action != 14) {
						t.Fatalf("points moved by %q in action %d (event %d, %d from Advance)", e.Reason, action, i, byAdvance)
					}
					// (StartRound's reset follows a win Advance made in the same step.)
					if over && (e.Reason != PointsRoundStart || i < byAdvance) {
						t.Fatalf("points moved after the round was won: %+v", e)
					}
					ledger[e.Player] += e.Delta
				case EvJudgeDrawn:
					if e.Player != "" && !slices.Contains(poolBefore, e.Player) {
						t.Fatalf("Judge %s drawn from outside the pool %v", e.Player, poolBefore)
					}
				case EvRoundStarted:
					over = false
				}
			}
			g.checkInvariants(t, ledger, wins)
		}
		// The state is plain data: what the engine stores reads back the same.
		var back State
		if err := json.Unmarshal([]byte(mustJSON(t, g.s)), &back); err != nil || mustJSON(t, &back) != mustJSON(t, g.s) {
			t.Fatalf("the state does not round-trip through JSON: %v", err)
		}
	})
}

func (g *game) randomCase(t *rapid.T) *Case {
	if len(g.s.Cases) == 0 {
		return nil
	}
	return &g.s.Cases[rapid.IntRange(0, len(g.s.Cases)-1).Draw(t, "case")]
}

// judgeOf returns the case's current Judge most of the time, so rulings and
// recusals happen, and someone else otherwise.
func judgeOf(c *Case, other string) string {
	if a, ok := c.Judge(); ok && a.Judge != "" && other != "g" {
		return a.Judge
	}
	return other
}

func randomReactions(t *rapid.T, people, props, appeals []string) map[string]Reactions {
	out := map[string]Reactions{}
	for _, id := range append(slices.Clone(props), appeals...) {
		if rapid.IntRange(0, 3).Draw(t, "reacts") == 0 {
			out[id] = Reactions{
				Up:   rapid.SliceOfN(rapid.SampledFrom(people), 0, 3).Draw(t, "up"),
				Down: rapid.SliceOfN(rapid.SampledFrom(people), 0, 3).Draw(t, "down"),
			}
		}
	}
	return out
}

func (g *game) checkInvariants(t *rapid.T, ledger map[string]int, wins map[int]int) {
	s := g.s
	for _, p := range s.Players {
		if p.Points != ledger[p.ID] {
			t.Fatalf("%s has %d points, but the point events sum to %d", p.Name, p.Points, ledger[p.ID])
		}
		if p.InPool && (!p.Member || !p.Active) {
			t.Fatalf("%s is in the pool but not an active player", p.Name)
		}
	}
	// The pool's members hold the slots 0..PoolSize-1, one each (issue 22).
	var slots []int
	for _, p := range s.Players {
		if p.InPool {
			slots = append(slots, p.Slot)
		}
	}
	slices.Sort(slots)
	for i, sl := range slots {
		if sl != i || len(slots) != s.PoolSize {
			t.Fatalf("pool of %d: its members hold the slots %v", s.PoolSize, slots)
		}
	}
	oneVoteEach := func(what string, vs []Vote) {
		seen := map[string]bool{}
		for _, v := range vs {
			if seen[v.Voter] {
				t.Fatalf("%s: %s has two votes", what, v.Voter)
			}
			seen[v.Voter] = true
		}
	}
	for _, p := range s.Proposals {
		oneVoteEach("proposal "+p.ID, p.Votes)
	}
	for i, c := range s.Cases {
		if c.Number != 5301+i {
			t.Fatalf("case %d is number %d, want %d", i, c.Number, 5301+i)
		}
		for k, a := range c.Appointments {
			if a.Judge == "" {
				continue
			}
			earlier := []string{c.Petitioner}
			earlier = append(earlier, c.Mentioned...)
			for _, b := range c.Appointments[:k] {
				earlier = append(earlier, b.Judge)
			}
			if slices.Contains(earlier, a.Judge) {
				t.Fatalf("case %d: Judge %s is excluded (%v)", c.Number, a.Judge, earlier)
			}
		}
		for _, ap := range c.Appeals {
			oneVoteEach("appeal "+ap.ID, ap.Votes)
		}
	}
	if s.NextCase != 5301+len(s.Cases) {
		t.Fatalf("next case %d after %d cases", s.NextCase, len(s.Cases))
	}
	for r, n := range wins {
		if n > 1 {
			t.Fatalf("round %d has %d winners", r, n)
		}
	}
	if s.Round.Over != (s.Round.Winner != "") {
		t.Fatalf("round %+v: over without a winner or a winner without the end", s.Round)
	}
}

func mustJSON(t *rapid.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
