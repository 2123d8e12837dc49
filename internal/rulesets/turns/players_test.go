package turns_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// storedPool is the Judicial Pool as the store holds it: the pool's size
// in the game item, and each player item's slot, by id, checked against
// the ordered index (each member listed once, under their own slot).
func storedPool(t *testing.T, e *env) (size int, slots map[string]int) {
	t.Helper()
	pk := game.GamePK(e.g)
	it, err := e.st.Get(e.ctx, store.Key{PK: pk, SK: "TURNS"})
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		PoolSize int               `json:"pool_size"`
		Players  []json.RawMessage `json:"players"`
	}
	if err := json.Unmarshal(it.Data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Players) > 0 {
		t.Fatalf("the game item still holds %d players", len(g.Players))
	}
	slots = map[string]int{}
	cursor := ""
	for {
		page, err := e.st.Query(e.ctx, store.Query{PK: pk, Prefix: "TPLAYER#", Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			var p nomic.Player
			if err := json.Unmarshal(it.Data, &p); err != nil {
				t.Fatal(err)
			}
			want := ""
			if p.InPool {
				slots[p.ID] = p.Slot
				want = fmt.Sprintf("TPOOL#%06d#", p.Slot)
			}
			if it.Order != want {
				t.Fatalf("%s is stored under order %q, want %q", p.ID, it.Order, want)
			}
		}
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	var indexed []string
	cursor = ""
	for {
		page, err := e.st.Query(e.ctx, store.Query{PK: pk, Index: store.IndexOrder, Prefix: "TPOOL#", Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			indexed = append(indexed, strings.TrimPrefix(it.SK, "TPLAYER#"))
		}
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	if len(indexed) != len(slots) {
		t.Fatalf("the ordered index lists %d pool members, the player items %d", len(indexed), len(slots))
	}
	return g.PoolSize, slots
}

// dense fails unless slots are a permutation of 0..size-1.
func dense(t *testing.T, size int, slots map[string]int) {
	t.Helper()
	var got []int
	for _, s := range slots {
		got = append(got, s)
	}
	slices.Sort(got)
	for i, s := range got {
		if s != i {
			t.Fatalf("the pool's slots are %v, not 0..%d", got, size-1)
		}
	}
	if len(got) != size {
		t.Fatalf("the game item says the pool has %d members; %d player items are in it", size, len(got))
	}
}

// Many players entering and leaving the Judicial Pool at once, on bolt and
// DynamoDB Local: each change is a compare-and-set on the game item (the
// pool's size) and on the players it moves, so none is lost. Afterwards
// the pool's slots are a dense 0..n-1 permutation, the pool's size in the
// game item equals the members stored, the ordered index lists each of
// them under their own slot, and the members are exactly those whose last
// command was to enter.
func TestIssue22_ConcurrentPoolEntersAndLeavesKeepThePoolDense(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   func(t *testing.T) store.Store
	}{
		{"bolt", func(t *testing.T) store.Store { return boltStore(t) }},
		{"dynamodb", func(t *testing.T) store.Store {
			client, table := testenv.DynamoTable(t, "turnspool")
			return dynamo.New(client, table)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 24
			var ids []string
			for i := range n {
				ids = append(ids, fmt.Sprintf("discord:%d", 500+i))
			}
			e := newEnv(t, tc.st(t), ids...)
			b, _, _ := turnTimes(1)
			e.at(b.Add(time.Hour))
			var wg sync.WaitGroup
			errs := make(chan error, n)
			for i, id := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// enter, leave, enter, leave, enter; a third stop after a leave
					steps := []string{"pool-enter", "pool-leave", "pool-enter", "pool-leave", "pool-enter"}
					if i%3 == 0 {
						steps = steps[:4]
					}
					for _, cmd := range steps {
						for {
							_, err := e.callConcurrent(id, cmd, nil)
							if errors.Is(err, game.ErrBusy) {
								continue // too many conflicts: the same command again
							}
							var re *rules.Error
							if err != nil && !errors.As(err, &re) {
								errs <- fmt.Errorf("%s %s: %w", id, cmd, err)
								return
							}
							if err != nil {
								errs <- fmt.Errorf("%s %s refused: %w", id, cmd, err)
								return
							}
							break
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			size, slots := storedPool(t, e)
			dense(t, size, slots)
			for i, id := range ids {
				if _, in := slots[id]; in != (i%3 != 0) {
					t.Errorf("%s in the pool: %v; their last command was %s", id, in, map[bool]string{true: "pool-enter", false: "pool-leave"}[i%3 != 0])
				}
			}
			if st := e.status(); len(st.Pool) != size {
				t.Errorf("the status lists %d pool members, the game item %d", len(st.Pool), size)
			}
		})
	}
}

// A game stored before issue 22, its players and open proposals lists in
// the game item (as the first turns module wrote it: TURNS with "players"
// and "open"), still shows and plays: its views read the lists, its first
// command moves the players out into items of their own and the open
// proposals into the ordered index in bounded commits (80 a commit: 200
// players and a proposal in 4), and then the game is the same as before the move (every player's
// points, activity and pool membership, the pool in the same slot order)
// and goes on: a Request for Judgment draws its Judge from the pool, a
// turn end removes those who voted on nothing.
func TestIssue22_AGameWithItsPlayersInTheGameItemIsMovedOutAndPlaysOn(t *testing.T) {
	for _, slotted := range []bool{true, false} {
		t.Run(map[bool]string{true: "with slots", false: "from before slots"}[slotted], func(t *testing.T) {
			const n = 200
			var ids []string
			for i := range n {
				ids = append(ids, fmt.Sprintf("discord:%d", 700+i))
			}
			st := boltStore(t)
			e := newEnv(t, st, ids[:2]...)
			b, _, end := turnTimes(1)
			e.at(b.Add(time.Hour))
			e.must(ids[0], "pool-enter", nil, nil)
			var seeded []nomic.Player
			for i := 2; i < n; i++ {
				seeded = append(seeded, nomic.Player{ID: ids[i], Name: longName(i), Active: i%7 != 0, InPool: i%2 == 0 && i%7 != 0, JoinedAt: created})
			}
			if err := turns.SeedPlayers(e.ctx, st, e.g, seeded); err != nil {
				t.Fatal(err)
			}
			e.must(ids[1], "turns-propose", turns.Propose{Op: "enact", Text: "A rule."}, nil)
			before := e.status()

			// Back to the old layout: the players in the game item.
			toLegacy(t, e, slotted)
			if got := e.status(); !sameStatus(got, before, slotted) || len(got.Proposals) != 1 || got.Proposals[0].ID != "P1" {
				t.Fatalf("a legacy game's status differs from before:\n%+v\n%+v\n%+v", got.Pool, before.Pool, got.Proposals)
			}
			if !slotted {
				e.must(ids[4], "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"}, nil)
				if moved := len(e.entriesOf("turns-players-moved")); moved != 4 {
					t.Errorf("the players and proposals were moved in %d commits, want 4 (80 a commit)", moved)
				}
				size, slots := storedPool(t, e)
				dense(t, size, slots)
				if got := e.status(); !sameStatus(got, before, slotted) {
					t.Fatalf("the status after the move differs from before:\n%+v\n%+v", got, before)
				}
			} else {
				// A pool member leaves the game before the move (the
				// engine's leave runs the module's hook in its commit,
				// with the list still in the game item).
				if _, err := e.svc.Leave(e.ctx, e.req(ids[6])); err != nil {
					t.Fatal(err)
				}
				e.must(ids[4], "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"}, nil)
				size, slots := storedPool(t, e)
				dense(t, size, slots)
				if _, in := slots[ids[6]]; in || size != len(before.Pool)-1 {
					t.Fatalf("after %s left and the move: a pool of %d, %v", ids[6], size, slots)
				}
			}
			size, slots := storedPool(t, e)
			var c turns.CaseView
			e.must(ids[1], "judgment-request", turns.Judgment{Statement: "Is this so?"}, &c)
			if _, in := slots[c.Judge]; !in {
				t.Fatalf("the Judge %q was not drawn from the pool %v", c.Judge, slots)
			}
			e.at(end)
			size, slots = storedPool(t, e)
			dense(t, size, slots)
			want := map[string]int{ids[4]: 0}
			if c.Judge == ids[4] { // drawn as Judge: out of the pool (U8)
				want = map[string]int{}
			}
			if !maps.Equal(slots, want) {
				t.Fatalf("after the turn end the pool is %v; only %s voted", slots, ids[4])
			}
		})
	}
}

// sameStatus: the same players with the same points, activity and pool
// membership, and the same pool (in slot order when slotted; a game from
// before slots gives its members slots in joining order).
func sameStatus(a, b turns.Status, slotted bool) bool {
	key := func(ps []turns.PlayerStatus) []string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s %s %v %v %d", p.Player, p.Name, p.Active, p.InPool, p.Points))
		}
		slices.Sort(out)
		return out
	}
	pa, pb := slices.Clone(a.Pool), slices.Clone(b.Pool)
	if !slotted {
		slices.Sort(pa)
		slices.Sort(pb)
	}
	return slices.Equal(key(a.Players), key(b.Players)) && slices.Equal(pa, pb)
}

// toLegacy rewrites e's game in the layout before issue 22: every player
// item deleted and the players listed in the game item (without slots and
// pool size, when not slotted).
func toLegacy(t *testing.T, e *env, slotted bool) {
	t.Helper()
	pk := game.GamePK(e.g)
	var list []nomic.Player
	var dels []store.Check
	cursor := ""
	for {
		page, err := e.st.Query(e.ctx, store.Query{PK: pk, Prefix: "TPLAYER#", Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			var p nomic.Player
			if err := json.Unmarshal(it.Data, &p); err != nil {
				t.Fatal(err)
			}
			if !slotted {
				p.Slot = 0
			}
			list = append(list, p)
			dels = append(dels, store.Check{Key: it.Key, Version: it.Version})
		}
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	for len(dels) > 0 {
		k := min(len(dels), 90)
		if err := e.st.Commit(e.ctx, store.Tx{Deletes: dels[:k]}); err != nil {
			t.Fatal(err)
		}
		dels = dels[k:]
	}
	k := store.Key{PK: pk, SK: "TURNS"}
	it, err := e.st.Get(e.ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	var g map[string]any
	if err := json.Unmarshal(it.Data, &g); err != nil {
		t.Fatal(err)
	}
	g["players"] = list
	if !slotted {
		delete(g, "pool_size")
	}
	// The open proposals listed in the game item, their items out of the
	// ordered index.
	var open []map[string]any
	var puts []store.Put
	page, err := e.st.Query(e.ctx, store.Query{PK: pk, Index: store.IndexOrder, Prefix: "TOPEN#"})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range page.Items {
		var p nomic.Proposal
		if err := json.Unmarshal(it.Data, &p); err != nil {
			t.Fatal(err)
		}
		open = append(open, map[string]any{"id": p.ID, "proposer": p.Proposer, "round": p.Round, "ordinal": p.Ordinal, "seq": p.Seq})
		puts = append(puts, store.Put{Item: store.Item{Key: it.Key, Data: it.Data}, Expect: it.Version})
	}
	if len(open) == 0 {
		t.Fatal("no open proposal to list")
	}
	g["open"] = open
	data, _ := json.Marshal(g)
	puts = append(puts, store.Put{Item: store.Item{Key: k, Data: data, Due: it.Due}, Expect: it.Version})
	if err := e.st.Commit(e.ctx, store.Tx{Puts: puts}); err != nil {
		t.Fatal(err)
	}
}

// A proposal's data change that lowers the winning points ends the round
// at once for whoever already has them (U6, as the pure rules' data change
// does): with the players in items of their own, the turn end walks every
// player item for the one with the most points. Cy gains the dissenters'
// bonus in turn 3 (10 points); turn 4 adopts winPoints 10: Cy wins.
func TestIssue22_ADataChangeLoweringTheWinningPointsEndsTheRoundForTheLeader(t *testing.T) {
	a, b, c := "discord:11", "discord:12", "discord:13"
	e := newEnv(t, boltStore(t), a, b, c)
	b3, _, end3 := turnTimes(3)
	e.at(b3.Add(time.Hour))
	e.must(a, "turns-propose", turns.Propose{Op: "enact", Text: "A rule."}, nil)
	for voter, v := range map[string]string{a: "for", b: "for", c: "against"} {
		e.must(voter, "turns-vote", turns.Ballot{Proposal: "P1", Vote: v}, nil)
	}
	b4, _, end4 := turnTimes(4)
	e.at(end3)
	e.at(b4.Add(time.Hour))
	if pts := e.points(); pts["Cy"] != 10 || pts["Ada"] != 0 {
		t.Fatalf("points after turn 3: %v; Cy dissented from an adopted proposal", pts)
	}
	e.must(b, "turns-propose", turns.Propose{Data: json.RawMessage(`[{"op":"replace","path":"/turns/winPoints","value":10}]`), Note: "Short rounds."}, nil)
	for _, voter := range []string{a, b, c} {
		e.must(voter, "turns-vote", turns.Ballot{Proposal: "P2", Vote: "for"}, nil)
	}
	e.at(end4)
	st := e.status()
	if !st.Round.Over || st.Round.Winner != c || st.Round.WonBy != nomic.WinPoints {
		t.Fatalf("after the data change: round %+v; Cy has the winning points", st.Round)
	}
	// The round's record (issue 24): won by Cy, by points, in the turn
	// end's commit.
	rs, total, err := turns.PastRounds(e.ctx, e.svc, e.g, 0, turns.MaxRoundsPage)
	if err != nil || total != 1 || len(rs) != 1 || !rs[0].Recorded || rs[0].Number != 1 || rs[0].Winner != c || rs[0].WinnerName != "Cy" ||
		rs[0].WonBy != nomic.WinPoints || !rs[0].EndedAt.Equal(st.Round.EndedAt) {
		t.Fatalf("the past rounds after Cy won by points: %+v of %d, %v", rs, total, err)
	}
	// The record is the round's own item, not the game item's copy.
	if it, err := e.st.Get(e.ctx, store.Key{PK: game.GamePK(e.g), SK: "TROUND#000001"}); err != nil || !it.Exists() {
		t.Fatalf("no TROUND#000001 item: %v", err)
	}
}
