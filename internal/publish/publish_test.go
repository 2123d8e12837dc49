package publish_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/publish"
	"croupier/internal/rulesets"
	"croupier/internal/store/bolt"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// The sample stream event (events/announce/stream.json, as Lambda delivers
// a batch of the table's stream): two log entries become messages, the
// player update is not one.
func TestFromStreamSampleEvent(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "announce", "stream.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ev.Records {
		m, ok, err := publish.FromStream(r)
		if err != nil {
			t.Fatalf("record %s: %v", r.EventID, err)
		}
		if ok {
			got = append(got, m.Game+"/"+m.Entry.Command+"/"+m.Entry.Events[0].Type)
		}
	}
	if !slices.Equal(got, []string{"sample-hall/purchase/purchased", "sample-hall/roll/dice_rolled"}) {
		t.Errorf("messages %v, want the purchase and the roll", got)
	}
}

func TestFromStreamRefusesBadImages(t *testing.T) {
	img := func(d events.DynamoDBAttributeValue) events.DynamoDBEventRecord {
		return events.DynamoDBEventRecord{EventID: "e1", EventName: "INSERT", Change: events.DynamoDBStreamRecord{NewImage: map[string]events.DynamoDBAttributeValue{
			"PK": events.NewStringAttribute("GAME#hall"), "SK": events.NewStringAttribute("LOG#abc"), "V": events.NewNumberAttribute("1"), "D": d}}}
	}
	for name, r := range map[string]events.DynamoDBEventRecord{
		"payload not binary": img(events.NewStringAttribute(`{"id":"x"}`)),
		"payload not JSON":   img(events.NewBinaryAttribute([]byte("not json"))),
		"entry without id":   img(events.NewBinaryAttribute([]byte(`{"command":"roll"}`))),
	} {
		if _, ok, err := publish.FromStream(r); !ok || err == nil {
			t.Errorf("%s: ok %v err %v, want a log entry that is refused", name, ok, err)
		}
	}
	removed := img(events.NewBinaryAttribute([]byte(`{"id":"x"}`)))
	removed.EventName = "REMOVE"
	if _, ok, err := publish.FromStream(removed); ok || err != nil {
		t.Errorf("a removal: ok %v err %v, want it passed over", ok, err)
	}
}

// tailWorld is a bolt store with a game, and a recording handler.
type tailWorld struct {
	path string
	st   *bolt.Store
	svc  *game.Service
	clk  *clock.Manual
	mu   sync.Mutex
	seen []string
	fail map[string]int // command -> failures left
}

func newTailWorld(t *testing.T) *tailWorld {
	t.Helper()
	w := &tailWorld{path: filepath.Join(t.TempDir(), "c.db"), clk: clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), fail: map[string]int{}}
	w.open(t)
	if _, err := w.svc.Create(context.Background(), game.Request{Actor: "discord:1", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *tailWorld) open(t *testing.T) {
	t.Helper()
	st, err := bolt.Open(w.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w.st, w.svc = st, rulesets.New(st, w.clk, game.WithLogger(quiet))
}

func (w *tailWorld) join(t *testing.T, who string) {
	t.Helper()
	if _, err := w.svc.Join(context.Background(), game.Request{Game: "hall", Actor: who, Key: "j-" + who}, game.JoinGame{Name: who}); err != nil {
		t.Fatal(err)
	}
}

func (w *tailWorld) tail() *publish.Tail {
	return &publish.Tail{Feed: w.st, Store: w.st, Log: quiet, Batch: 2, Handle: func(_ context.Context, m publish.Message) error {
		w.mu.Lock()
		defer w.mu.Unlock()
		who := m.Entry.Actor
		if w.fail[who] > 0 {
			w.fail[who]--
			return errors.New("announcer down")
		}
		w.seen = append(w.seen, m.Game+"/"+m.Entry.Command+"/"+who)
		return nil
	}}
}

// Entries committed while nothing listened are handed over, in commit
// order, once; a failing handler stops the tail at that entry and the next
// poll starts there; a restarted tail (a new process on the same file)
// continues after the last entry handled.
func TestTailHandsEveryCommittedEntryOnceInOrder(t *testing.T) {
	ctx := context.Background()
	w := newTailWorld(t)
	w.join(t, "discord:2")
	w.join(t, "discord:3")
	w.fail["discord:3"] = 1
	n, err := w.tail().Poll(ctx)
	if err == nil || n != 2 {
		t.Fatalf("first poll handed %d, err %v; want create and discord:2's join, then the failure", n, err)
	}
	if n, err := w.tail().Poll(ctx); err != nil || n != 1 {
		t.Fatalf("second poll handed %d, err %v; want discord:3's join", n, err)
	}
	w.join(t, "discord:4")
	w.st.Close()
	w.open(t) // restart
	w.join(t, "discord:5")
	if n, err := w.tail().Poll(ctx); err != nil || n != 2 {
		t.Fatalf("after the restart: %d, %v; want the two joins since", n, err)
	}
	if n, err := w.tail().Poll(ctx); err != nil || n != 0 {
		t.Errorf("an idle poll handed %d (%v)", n, err)
	}
	want := []string{"hall/create/discord:1", "hall/join/discord:2", "hall/join/discord:3", "hall/join/discord:4", "hall/join/discord:5"}
	if !slices.Equal(w.seen, want) {
		t.Errorf("handled %v, want %v", w.seen, want)
	}
}

// Two tails on one cursor hand each entry at least once and never move the
// cursor back: after both have polled, nothing is left for either.
func TestTwoTailsShareTheCursor(t *testing.T) {
	ctx := context.Background()
	w := newTailWorld(t)
	for _, p := range []string{"discord:2", "discord:3", "discord:4", "discord:5", "discord:6"} {
		w.join(t, p)
	}
	a, b := w.tail(), w.tail()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, tl := range []*publish.Tail{a, b} {
		wg.Go(func() { _, errs[i] = tl.Poll(ctx) })
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("polls: %v", errs)
	}
	got := map[string]bool{}
	for _, s := range w.seen {
		got[s] = true
	}
	if len(got) != 6 {
		t.Errorf("handled %v, want all 6 entries", w.seen)
	}
	for _, tl := range []*publish.Tail{a, b} {
		if n, err := tl.Poll(ctx); n != 0 || err != nil {
			t.Errorf("a later poll handed %d (%v), want nothing", n, err)
		}
	}
}

// FuzzFromStream: whatever a stream batch holds, decoding it never panics,
// and a record it accepts is a log entry with a valid game and an id.
func FuzzFromStream(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "announce", "stream.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte(`{"Records":[{"eventName":"INSERT","dynamodb":{"NewImage":{"PK":{"S":"GAME#x"},"SK":{"S":"LOG#1"},"V":{"N":"1"},"D":{"B":"e30="}}}}]}`))
	f.Add([]byte(`{"Records":[{"eventName":"INSERT","dynamodb":{"NewImage":{"PK":{"N":"1"},"D":{"L":[{"M":{"a":{"NULL":true}}}]}}}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var ev events.DynamoDBEvent
		if json.Unmarshal(b, &ev) != nil {
			return
		}
		for _, r := range ev.Records {
			m, ok, err := publish.FromStream(r)
			if ok && err == nil && (!game.ValidGameID(m.Game) || m.Entry == nil || m.Entry.ID == "") {
				t.Errorf("accepted %+v from %s", m, b)
			}
		}
	})
}
