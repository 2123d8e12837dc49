package nomic

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// stored is an engine's storage as a Roster sees it: each player apart,
// each pool slot apart, and the rest of the State without players.
type stored struct {
	players map[string]Player
	slots   map[int]string
	rest    []byte
}

func (st *stored) Player(id string) *Player {
	if p, ok := st.players[id]; ok {
		return &p
	}
	return nil
}

func (st *stored) PoolMember(slot int) string { return st.slots[slot] }

// open is one command's State: the rest, and the Roster for players.
func (st *stored) open(t *rapid.T) *State {
	s := &State{}
	if err := json.Unmarshal(st.rest, s); err != nil {
		t.Fatal(err)
	}
	s.Players, s.Roster = nil, st
	return s
}

// save writes back what a command's State holds, as an engine would: each
// held player, and the slots they left or took.
func (st *stored) save(t *rapid.T, s *State) {
	held := s.Held()
	for _, p := range held {
		if old, ok := st.players[p.ID]; ok && old.InPool && st.slots[old.Slot] == p.ID {
			delete(st.slots, old.Slot)
		}
	}
	for _, p := range held {
		st.players[p.ID] = *p
		if p.InPool {
			st.slots[p.Slot] = p.ID
		}
	}
	rest := *s
	rest.Players, rest.Roster = []Player{}, nil
	st.rest = []byte(mustJSON(t, &rest))
}

// TestIssue22_TheRulesWithPlayersLoadedOnDemandAreTheRulesWithTheList: the
// same random commands that touch players by id (joins, leaves, activity,
// the pool, Requests for Judgment with their draws, recusals, rulings),
// run on a State holding every player and, one command at a time, on a
// State that reads each player and pool slot from storage when a rule
// looks them up (a Roster) and writes back only those it read: the same
// refusals, the same events, and after every command the same players and
// the same pool slot by slot.
func TestIssue22_TheRulesWithPlayersLoadedOnDemandAreTheRulesWithTheList(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := newGame(t, "a", "b", "c", "d", "e")
		for _, p := range []string{"a", "b", "c", "d"} {
			if _, err := g.s.EnterPool(p, created); err != nil {
				t.Fatal(err)
			}
		}
		st := &stored{players: map[string]Player{}, slots: map[int]string{}}
		for _, p := range g.s.Players {
			st.players[p.ID] = p
			if p.InPool {
				st.slots[p.Slot] = p.ID
			}
		}
		rest := *g.s
		rest.Players = []Player{}
		st.rest = []byte(mustJSON(t, &rest))

		people := []string{"a", "b", "c", "d", "e", "f", "g"}
		pick := func(label string, xs []string) string { return rapid.SampledFrom(xs).Draw(t, label) }
		now := created
		for range rapid.IntRange(10, 120).Draw(t, "steps") {
			now = now.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "minutes")) * time.Minute)
			seed := rapid.Uint64().Draw(t, "seed")
			action := rapid.IntRange(0, 7).Draw(t, "action")
			who := pick("who", people)
			var ment []string
			for _, p := range people {
				if rapid.IntRange(0, 4).Draw(t, "mention") == 0 {
					ment = append(ment, p)
				}
			}
			caseIdx := rapid.IntRange(0, 1000).Draw(t, "case")
			value := pick("value", []string{"TRUE", "FALSE"})
			active := rapid.Bool().Draw(t, "active")
			run := func(s *State) ([]Event, error) {
				src := randSource{rand.New(rand.NewPCG(seed, 7))}
				one := func(e Event, err error) ([]Event, error) { return []Event{e}, err }
				switch action {
				case 0:
					return one(s.Join(who, names[who], now))
				case 1:
					return s.Leave(who, now, src)
				case 2:
					return s.SetActive(who, active, now, src)
				case 3:
					return one(s.EnterPool(who, now))
				case 4:
					return one(s.LeavePool(who, now))
				case 5:
					_, evs, err := s.RequestJudgment(Request{Statement: "s", Mentioned: ment}, who, now, g.rs, src)
					return evs, err
				}
				if len(s.Cases) == 0 {
					return nil, nil
				}
				c := &s.Cases[caseIdx%len(s.Cases)]
				if action == 6 {
					return s.Recuse(c.Number, judgeOf(c, who), now, g.rs, src)
				}
				a, _ := c.Judge()
				return s.RuleOn(c.Number, judgeOf(c, who), a.Administrator, value, "r", now, g.rs)
			}
			r := st.open(t)
			want, werr := run(g.s)
			got, gerr := run(r)
			if code(werr) != code(gerr) || (werr == nil) != (gerr == nil) {
				t.Fatalf("action %d by %s: %v with every player, %v loading them", action, who, werr, gerr)
			}
			if gerr == nil {
				st.save(t, r)
			}
			if mustJSON(t, want) != mustJSON(t, got) {
				t.Fatalf("action %d by %s: events\n%s\nwith every player, and loading them\n%s", action, who, mustJSON(t, want), mustJSON(t, got))
			}
			var players []Player
			for _, p := range st.players {
				players = append(players, p)
			}
			slices.SortFunc(players, func(a, b Player) int { return strings.Compare(a.ID, b.ID) })
			list := slices.Clone(g.s.Players)
			slices.SortFunc(list, func(a, b Player) int { return strings.Compare(a.ID, b.ID) })
			if mustJSON(t, players) != mustJSON(t, list) {
				t.Fatalf("after action %d by %s: players\n%s\nwith every player, stored\n%s", action, who, mustJSON(t, list), mustJSON(t, players))
			}
			pool := []string{}
			for slot := range g.s.PoolSize {
				pool = append(pool, st.slots[slot])
			}
			if !slices.Equal(pool, g.s.Pool()) || len(st.slots) != g.s.PoolSize {
				t.Fatalf("after action %d by %s: pool %v with every player, stored slots %v", action, who, g.s.Pool(), st.slots)
			}
			rest := *g.s
			rest.Players = []Player{}
			if mustJSON(t, &rest) != string(st.rest) {
				t.Fatalf("after action %d by %s: the rest of the state differs:\n%s\n%s", action, who, mustJSON(t, &rest), st.rest)
			}
		}
	})
}
