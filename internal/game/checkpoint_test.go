package game_test

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/jsondelta"
	"croupier/internal/store"
)

// checkpointEvery is the tests' CheckpointEntries: a checkpoint every ten
// entries, so that a game of a few dozen commands has several.
const checkpointEvery = 10

// logReads is a store that counts the log entries queries read, and can
// hide the checkpoints (a service over it replays the whole log).
type logReads struct {
	store.Store
	hide bool
	mu   sync.Mutex
	read int
}

func (s *logReads) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if s.hide && strings.HasPrefix(q.Prefix, "CKPT#") {
		return store.Page{}, nil
	}
	p, err := s.Store.Query(ctx, q)
	s.mu.Lock()
	for _, it := range p.Items {
		if strings.HasPrefix(it.SK, "LOG#") {
			s.read++
		}
	}
	s.mu.Unlock()
	return p, err
}

func (s *logReads) take() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.read
	s.read = 0
	return n
}

func checkpointed(st store.Store, clk clock.Clock) *game.Service {
	return newLedgerService(st, clk, game.WithEntropy(gametest.Seeded(1)), game.WithCheckpointEntries(checkpointEvery))
}

// heads are the checkpoints' heads in the store, oldest first.
type head struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Entries int       `json:"entries"`
	Items   int       `json:"items"`
	Pages   int       `json:"pages"`
}

func heads(t *testing.T, st store.Store) []head {
	t.Helper()
	var out []head
	q := store.Query{PK: game.GamePK(gametest.Game), Prefix: "CKPT#", Index: store.IndexOrder}
	for {
		p, err := st.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			var h head
			if err := json.Unmarshal(it.Data, &h); err != nil {
				t.Fatal(err)
			}
			out = append(out, h)
		}
		if p.Next == "" {
			return out
		}
		q.Cursor = p.Next
	}
}

// playLedger plays a Ledger game of four players on svc: joins, a period
// end (which sets the checkpoint timer), then credits every few minutes,
// a departure and a return, with the scheduler run after each command.
func playLedger(t *testing.T, svc *game.Service, clk *clock.Manual, credits int) []string {
	t.Helper()
	ctx := context.Background()
	ids := []string{"discord:2", "discord:3", "discord:4", "discord:5"}
	for i, id := range ids {
		if _, err := svc.Join(ctx, gametest.Req(id, "j"+id), game.JoinGame{Name: fmt.Sprintf("Player %d", i)}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Minute)
	}
	clk.Advance(4 * 24 * time.Hour) // through a period end: the timer is set
	gametest.RunDue(t, svc)
	for i := range credits {
		clk.Advance(7 * time.Minute)
		var err error
		switch i {
		case credits / 3:
			_, err = svc.Leave(ctx, gametest.Req(ids[1], "leave"))
		case credits/3 + 1:
			_, err = credit(svc, ctx, gametest.Req(gametest.Admin, fmt.Sprint("c", i)), Credit{Player: ids[0], Points: 2, Reason: "test"})
		default:
			_, err = credit(svc, ctx, gametest.Req(gametest.Admin, fmt.Sprint("c", i)), Credit{Player: ids[[]int{0, 2, 3}[i%3]], Points: i%5 + 1, Reason: "test"})
		}
		if err != nil {
			t.Fatal(err)
		}
		gametest.RunDue(t, svc)
	}
	clk.Advance(2 * time.Hour)
	gametest.RunDue(t, svc)
	return ids
}

// sameReplay says how a replay from checkpoints differs from the whole
// log's (nothing: "").
func sameReplay(got, want *game.Replay) string {
	if got.AsOf != want.AsOf || got.Entries != want.Entries {
		return fmt.Sprintf("as of %+v after %d entries, where the whole log is as of %+v after %d", got.AsOf, got.Entries, want.AsOf, want.Entries)
	}
	if !slices.Equal(got.Defects, want.Defects) {
		return fmt.Sprintf("defects %v, where the whole log has %v", got.Defects, want.Defects)
	}
	for sk, w := range want.Items {
		g, ok := got.Items[sk]
		switch {
		case !ok:
			return sk + " is missing"
		case g.Version != w.Version || !g.Due.Equal(w.Due) || g.Order != w.Order || got.Refs[sk] != want.Refs[sk]:
			return fmt.Sprintf("%s is version %d due %s order %q, where the whole log has version %d due %s order %q", sk, g.Version, g.Due, g.Order, w.Version, w.Due, w.Order)
		case !jsondelta.Equal(g.Data, w.Data):
			return fmt.Sprintf("%s holds %s, where the whole log has %s", sk, g.Data, w.Data)
		case got.Last[sk] != want.Last[sk]:
			return fmt.Sprintf("%s was last changed by %s, where the whole log says %s", sk, got.Last[sk], want.Last[sk])
		}
	}
	for sk := range got.Items {
		if _, ok := want.Items[sk]; !ok {
			return sk + " is there, where the whole log has no such item"
		}
	}
	return ""
}

// Issue 25, checkpoints: a read of the past from the latest checkpoint at
// or before the moment is the read of the whole log, at every entry (just
// before and just after it), at each checkpoint's moment and either side
// of it; each checkpoint is in the log in words; and a read after a
// checkpoint replays about a checkpoint's worth of entries, not the log.
func TestCheckpoint_AReadFromACheckpointIsTheWholeLogs(t *testing.T) {
	for name, open := range map[string]func(testing.TB) store.Store{"bolt": gametest.Bolt, "dynamodb": gametest.Dynamo} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			base := open(t)
			st := &logReads{Store: base}
			clk := clock.NewManual(gametest.Start)
			svc := checkpointed(st, clk)
			if _, err := svc.Create(ctx, game.Request{Actor: gametest.Admin, Key: "create"}, game.CreateGame{ID: gametest.Game, Ruleset: ledgerID}); err != nil {
				t.Fatal(err)
			}
			ids := playLedger(t, svc, clk, 6*checkpointEvery)
			whole := checkpointed(&logReads{Store: base, hide: true}, clk)

			hs := heads(t, base)
			if len(hs) < 5 {
				t.Fatalf("%d checkpoints of a game of %d commands, one every %d entries: %+v", len(hs), 6*checkpointEvery+5, checkpointEvery, hs)
			}
			var entries []game.Entry
			if err := svc.LogRange(ctx, gametest.Game, gametest.Start.Add(-time.Hour), clk.Now(), func(e *game.Entry) error {
				entries = append(entries, *e)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			logged := 0
			for _, e := range entries {
				if e.Command != "checkpoint" {
					continue
				}
				logged++
				if s := svc.Sentence(e.Events[0], func(id string) string { return id }); !strings.Contains(s, "was recorded as a checkpoint") {
					t.Errorf("a checkpoint's entry reads %q", s)
				}
			}
			if logged != len(hs) {
				t.Errorf("%d checkpoints and %d checkpoint entries in the log", len(hs), logged)
			}
			for i := 1; i < len(hs); i++ {
				if n := hs[i].Entries - hs[i-1].Entries; n < checkpointEvery || n > checkpointEvery+1 {
					t.Errorf("checkpoint %s follows %s by %d entries, not %d", hs[i].ID, hs[i-1].ID, n, checkpointEvery)
				}
			}

			var moments []game.Moment
			for i, e := range entries {
				if name == "dynamodb" && i%3 != 0 {
					continue // fewer reads of DynamoDB Local: a third of the entries
				}
				moments = append(moments, game.Moment{Entry: e.ID}, game.Moment{Entry: e.ID, After: true}, game.Moment{At: e.At})
			}
			for _, h := range hs {
				moments = append(moments, game.Moment{At: h.At}, game.Moment{At: h.At.Add(-time.Nanosecond)}, game.Moment{At: h.At.Add(time.Nanosecond)})
			}
			moments = append(moments, game.Moment{At: clk.Now()})
			for _, m := range moments {
				st.take()
				got, err := svc.Replay(ctx, gametest.Game, m)
				read := st.take()
				want, werr := whole.Replay(ctx, gametest.Game, m)
				if err != nil || werr != nil {
					// Just before the first entry there was no game, read
					// either way.
					if gametest.RuleCode(err) != "before_game" || gametest.RuleCode(werr) != "before_game" {
						t.Fatalf("at %s: %v, where the whole log answers %v", m, err, werr)
					}
					continue
				}
				if d := sameReplay(got, want); d != "" {
					t.Errorf("at %s, from a checkpoint: %s", m, d)
				}
				if len(got.Defects) > 0 {
					t.Errorf("at %s the log has defects: %v", m, got.Defects)
				}
				if m.Entry == "" && !m.At.Before(hs[0].At) && read > 2*checkpointEvery {
					t.Errorf("at %s, after the first checkpoint, the read took %d log entries (of %d), not a checkpoint's worth", m, read, len(entries))
				}
			}
			// The views read through the past are the whole log's too.
			for _, h := range hs {
				for _, at := range []time.Time{h.At, h.At.Add(5 * time.Minute)} {
					p, _, err := svc.Past(ctx, gametest.Game, game.Moment{At: at})
					if err != nil {
						t.Fatal(err)
					}
					w, _, err := whole.Past(ctx, gametest.Game, game.Moment{At: at})
					if err != nil {
						t.Fatal(err)
					}
					if got, want := views(t, p, ids), views(t, w, ids); got != want {
						t.Errorf("at %s the views from checkpoint %s read\n%s\nwhere the whole log reads\n%s", at, h.ID, got, want)
					}
				}
			}
			if diffs, _, err := svc.Explain(ctx, gametest.Game); err != nil || len(diffs) > 0 {
				t.Fatalf("the log does not explain the state: %v %+v", err, diffs)
			}
		})
	}
}

// Runs of the checkpoint timer at once (four schedulers over one store)
// write each checkpoint once, with one log entry: the head's commit
// expects the timer's version each read, and a page another run wrote
// holds the same lines.
func TestCheckpoint_ConcurrentRunsWriteEachOnce(t *testing.T) {
	for name, open := range map[string]func(testing.TB) store.Store{"bolt": gametest.Bolt, "dynamodb": gametest.Dynamo} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := open(t)
			clk := clock.NewManual(gametest.Start)
			svc := checkpointed(st, clk)
			if _, err := svc.Create(ctx, game.Request{Actor: gametest.Admin, Key: "create"}, game.CreateGame{ID: gametest.Game, Ruleset: ledgerID}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Join(ctx, gametest.Req("discord:2", "j"), game.JoinGame{Name: "Ann"}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(4 * 24 * time.Hour)
			gametest.RunDue(t, svc)
			runners := make([]*game.Service, 4)
			for i := range runners {
				runners[i] = checkpointed(st, clk)
			}
			for round := range 3 {
				// A checkpoint's worth and a few more, every minute.
				for i := range checkpointEvery + 3 {
					clk.Advance(time.Minute)
					if _, err := credit(svc, ctx, gametest.Req(gametest.Admin, fmt.Sprint("c", round, "-", i)), Credit{Player: "discord:2", Points: 1, Reason: "test"}); err != nil {
						t.Fatal(err)
					}
				}
				clk.Advance(2 * time.Hour) // the timer is due
				before := len(heads(t, st))
				var wg sync.WaitGroup
				start := make(chan struct{})
				written := make([][]string, len(runners))
				for i, r := range runners {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						done, err := r.Checkpoint(ctx, gametest.Game)
						if err != nil {
							t.Errorf("runner %d: %v", i, err)
						}
						written[i] = done
					}()
				}
				close(start)
				wg.Wait()
				var all []string
				for _, w := range written {
					all = append(all, w...)
				}
				hs := heads(t, st)
				slices.Sort(all)
				if len(all) == 0 || len(slices.Compact(slices.Clone(all))) != len(all) || len(hs) != before+len(all) {
					t.Fatalf("round %d: four runs at once wrote %v, and there are %d checkpoints where there were %d", round, all, len(hs), before)
				}
			}
			entries := 0
			if err := svc.LogRange(ctx, gametest.Game, gametest.Start, clk.Now(), func(e *game.Entry) error {
				if e.Command == "checkpoint" {
					entries++
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if hs := heads(t, st); entries != len(hs) {
				t.Errorf("%d checkpoints, %d checkpoint entries in the log", len(hs), entries)
			}
			whole := checkpointed(&logReads{Store: st, hide: true}, clk)
			for _, h := range heads(t, st) {
				got, err := svc.Replay(ctx, gametest.Game, game.Moment{At: h.At})
				if err != nil {
					t.Fatal(err)
				}
				want, err := whole.Replay(ctx, gametest.Game, game.Moment{At: h.At})
				if err != nil {
					t.Fatal(err)
				}
				if d := sameReplay(got, want); d != "" {
					t.Errorf("at checkpoint %s: %s", h.ID, d)
				}
			}
		})
	}
}

// A checkpoint page altered in the store (an outsider's write) no longer
// adds up to its head: the read of the past replays the whole log instead,
// and gives the same answer; the audit names the checkpoint.
func TestCheckpoint_AnAlteredPageIsADefectAndTheLogStillAnswers(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	clk := clock.NewManual(gametest.Start)
	svc := checkpointed(st, clk)
	if _, err := svc.Create(ctx, game.Request{Actor: gametest.Admin, Key: "create"}, game.CreateGame{ID: gametest.Game, Ruleset: ledgerID}); err != nil {
		t.Fatal(err)
	}
	ids := playLedger(t, svc, clk, 3*checkpointEvery)
	hs := heads(t, st)
	last := hs[len(hs)-1]
	k := store.Key{PK: game.GamePK(gametest.Game), SK: "CKPT#" + last.ID + "#p0001"}
	it, err := st.Get(ctx, k)
	if err != nil || !it.Exists() {
		t.Fatalf("page %s: %v %+v", k, err, it)
	}
	forged := []byte(`{"sk":"META","v":1,"data":{}}` + "\n")
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: forged}, Expect: it.Version}}}); err != nil {
		t.Fatal(err)
	}
	whole := checkpointed(&logReads{Store: st, hide: true}, clk)
	m := game.Moment{At: clk.Now()}
	got, err := svc.Replay(ctx, gametest.Game, m)
	if err != nil {
		t.Fatal(err)
	}
	want, err := whole.Replay(ctx, gametest.Game, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Defects) != 1 || !strings.Contains(got.Defects[0], "CKPT#"+last.ID) {
		t.Fatalf("the altered checkpoint is not a defect of the read: %v", got.Defects)
	}
	got.Defects = nil
	if d := sameReplay(got, want); d != "" {
		t.Errorf("the read past an altered checkpoint: %s", d)
	}
	p, _, err := svc.Past(ctx, gametest.Game, m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := views(t, p, ids), views(t, svc, ids); got != want {
		t.Errorf("the views now read through the past\n%s\nwhere they read\n%s", got, want)
	}
	diffs, _, err := svc.Explain(ctx, gametest.Game)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 1 || diffs[0].SK != "CKPT#"+last.ID || !strings.Contains(diffs[0].Why, "its pages hold 1 item in 1 page") {
		t.Fatalf("the audit says %+v", diffs)
	}
	t.Logf("the audit: %s: %s", diffs[0].SK, diffs[0].Why)
}

// A checkpoint forged whole (a page altered and its head's hash with it)
// is found by the audit, which replays the whole log and compares the
// latest checkpoint with it at its moment.
func TestCheckpoint_AForgedCheckpointIsFoundByTheAudit(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	clk := clock.NewManual(gametest.Start)
	svc := checkpointed(st, clk)
	if _, err := svc.Create(ctx, game.Request{Actor: gametest.Admin, Key: "create"}, game.CreateGame{ID: gametest.Game, Ruleset: ledgerID}); err != nil {
		t.Fatal(err)
	}
	playLedger(t, svc, clk, 3*checkpointEvery)
	hs := heads(t, st)
	last := hs[len(hs)-1]
	if last.Pages != 1 {
		t.Fatalf("a checkpoint of a four-player game is one page: %+v", last)
	}
	pk := game.GamePK(gametest.Game)
	page, err := st.Get(ctx, store.Key{PK: pk, SK: "CKPT#" + last.ID + "#p0001"})
	if err != nil {
		t.Fatal(err)
	}
	raw := page.Data
	if len(raw) > 0 && raw[0] == 0 {
		if raw, err = io.ReadAll(flate.NewReader(bytes.NewReader(raw[1:]))); err != nil {
			t.Fatal(err)
		}
	}
	forged := regexp.MustCompile(`("sk":"PLAYER#discord:2".*?"points":)\d+`).ReplaceAll(raw, []byte("${1}999"))
	if bytes.Equal(forged, raw) {
		t.Fatalf("no points of discord:2 in the page:\n%s", raw)
	}
	hi, err := st.Get(ctx, store.Key{PK: pk, SK: "CKPT#" + last.ID})
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	if err := json.Unmarshal(hi.Data, &h); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(forged)
	h["sha256"] = hex.EncodeToString(sum[:])
	hb, _ := json.Marshal(h)
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{
		{Item: store.Item{Key: page.Key, Data: forged}, Expect: page.Version},
		{Item: store.Item{Key: hi.Key, Data: hb, Order: hi.Order}, Expect: hi.Version},
	}}); err != nil {
		t.Fatal(err)
	}
	diffs, _, err := svc.Explain(ctx, gametest.Game)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 1 || diffs[0].SK != "CKPT#"+last.ID || !strings.Contains(diffs[0].Why, "holds PLAYER#discord:2 otherwise than the log's replay then") {
		t.Fatalf("the audit says %+v", diffs)
	}
	t.Logf("the audit: %s: %s", diffs[0].SK, diffs[0].Why)
}
