package publish_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/publish"
	"croupier/internal/store/bolt"
)

// fakeBridge is a loopback server speaking EventBridge's PutEvents over the
// AWS JSON 1.1 protocol. fail(detail, attempt) says which entries it
// refuses (as EventBridge reports throttling: in the response, not as an
// HTTP error).
type fakeBridge struct {
	t    *testing.T
	srv  *httptest.Server
	mu   sync.Mutex
	reqs [][]putEntry
	seen map[string]int // detail -> times offered
	fail func(detail string, attempt int) bool
}

type putEntry struct {
	Source       string
	DetailType   string
	Detail       string
	EventBusName string
	Time         json.RawMessage
}

func newFakeBridge(t *testing.T) *fakeBridge {
	f := &fakeBridge{t: t, seen: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeBridge) serve(w http.ResponseWriter, r *http.Request) {
	if got := r.Header.Get("X-Amz-Target"); got != "AWSEvents.PutEvents" {
		f.t.Errorf("X-Amz-Target %q, want AWSEvents.PutEvents", got)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-amz-json-1.1" {
		f.t.Errorf("Content-Type %q, want application/x-amz-json-1.1", ct)
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		f.t.Errorf("request not SigV4-signed: %q", r.Header.Get("Authorization"))
	}
	body, _ := io.ReadAll(r.Body)
	var in struct{ Entries []putEntry }
	if err := json.Unmarshal(body, &in); err != nil {
		f.t.Errorf("PutEvents body %s: %v", body, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, in.Entries)
	type result struct {
		EventId      string `json:",omitempty"`
		ErrorCode    string `json:",omitempty"`
		ErrorMessage string `json:",omitempty"`
	}
	var out struct {
		FailedEntryCount int
		Entries          []result
	}
	for i, e := range in.Entries {
		f.seen[e.Detail]++
		if f.fail != nil && f.fail(e.Detail, f.seen[e.Detail]) {
			out.FailedEntryCount++
			out.Entries = append(out.Entries, result{ErrorCode: "ThrottlingException", ErrorMessage: "Rate exceeded"})
			continue
		}
		out.Entries = append(out.Entries, result{EventId: strings.Repeat("e", i+1)})
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(out)
}

func (f *fakeBridge) publisher(t *testing.T) *publish.EventBridge {
	t.Helper()
	c, err := publish.NewClient(context.Background(), f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	p := publish.NewEventBridge(c, "croupier-bus")
	p.Backoff = time.Millisecond
	return p
}

func entry(id string, data int) *game.Entry {
	e := &game.Entry{ID: id, Command: "purchase", Actor: "discord:2", At: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		Events: []game.Event{{Type: "purchased", Player: "discord:2"}}, Response: json.RawMessage(`{"big":"response"}`), RequestHash: "h"}
	if data > 0 {
		e.Events[0].Data, _ = json.Marshal(map[string]string{"pad": strings.Repeat("x", data)})
	}
	return e
}

func TestEventBridgeWireFormat(t *testing.T) {
	f := newFakeBridge(t)
	if err := f.publisher(t).Publish(context.Background(), "hall", entry("01J", 0)); err != nil {
		t.Fatal(err)
	}
	if len(f.reqs) != 1 || len(f.reqs[0]) != 1 {
		t.Fatalf("requests %v, want one with one entry", f.reqs)
	}
	e := f.reqs[0][0]
	if e.Source != "croupier" || e.DetailType != "purchase" || e.EventBusName != "croupier-bus" || len(e.Time) == 0 {
		t.Errorf("entry %+v: want source croupier, detail-type purchase, bus croupier-bus, a time", e)
	}
	m, err := publish.Decode([]byte(e.Detail))
	if err != nil {
		t.Fatal(err)
	}
	if m.Game != "hall" || m.Entry.ID != "01J" || m.Entry.Events[0].Type != "purchased" || m.Truncated {
		t.Errorf("detail %s decodes to %+v", e.Detail, m)
	}
	if m.Entry.Response != nil || m.Entry.RequestHash != "" {
		t.Errorf("detail carries the stored response or request hash: %s", e.Detail)
	}
}

func TestEventBridgeBatches(t *testing.T) {
	ctx := context.Background()
	t.Run("ten entries per request", func(t *testing.T) {
		f := newFakeBridge(t)
		var msgs []publish.Message
		for i := range 25 {
			msgs = append(msgs, publish.Message{Game: "hall", Entry: entry(string(rune('A'+i)), 0)})
		}
		if err := f.publisher(t).Send(ctx, msgs...); err != nil {
			t.Fatal(err)
		}
		var sizes []int
		var order string
		for _, r := range f.reqs {
			sizes = append(sizes, len(r))
			for _, e := range r {
				m, _ := publish.Decode([]byte(e.Detail))
				order += m.Entry.ID
			}
		}
		if len(sizes) != 3 || sizes[0] != 10 || sizes[1] != 10 || sizes[2] != 5 || order != "ABCDEFGHIJKLMNOPQRSTUVWXY" {
			t.Errorf("batches %v order %s, want 10, 10, 5 in order", sizes, order)
		}
	})
	t.Run("256 KB per request", func(t *testing.T) {
		f := newFakeBridge(t)
		var msgs []publish.Message
		for _, id := range []string{"A", "B", "C", "D", "E"} {
			msgs = append(msgs, publish.Message{Game: "hall", Entry: entry(id, 100*1024)})
		}
		if err := f.publisher(t).Send(ctx, msgs...); err != nil {
			t.Fatal(err)
		}
		if len(f.reqs) != 3 {
			t.Fatalf("%d requests, want 3 (two 100 KB entries fit in 256 KB, three do not)", len(f.reqs))
		}
		for i, r := range f.reqs {
			n := 0
			for _, e := range r {
				n += len(e.Source) + len(e.DetailType) + len(e.Detail) + 14
			}
			if n > publish.MaxBatchBytes {
				t.Errorf("request %d carries %d bytes, over %d", i, n, publish.MaxBatchBytes)
			}
		}
	})
	t.Run("an entry over 256 KB is shrunk, not dropped", func(t *testing.T) {
		f := newFakeBridge(t)
		if err := f.publisher(t).Send(ctx, publish.Message{Game: "hall", Entry: entry("BIG", 300*1024)}); err != nil {
			t.Fatal(err)
		}
		m, err := publish.Decode([]byte(f.reqs[0][0].Detail))
		if err != nil {
			t.Fatal(err)
		}
		if !m.Truncated || m.Entry.ID != "BIG" || len(m.Entry.Events) != 1 || m.Entry.Events[0].Type != "purchased" || m.Entry.Events[0].Data != nil {
			t.Errorf("shrunk detail %+v, want truncated, id and event types kept, data dropped", m)
		}
	})
}

func TestEventBridgeRetriesFailedEntries(t *testing.T) {
	ctx := context.Background()
	f := newFakeBridge(t)
	// B is throttled once, then accepted; A is never refused.
	f.fail = func(d string, attempt int) bool { return strings.Contains(d, `"id":"B"`) && attempt == 1 }
	p := f.publisher(t)
	if err := p.Send(ctx, publish.Message{Game: "hall", Entry: entry("A", 0)}, publish.Message{Game: "hall", Entry: entry("B", 0)}); err != nil {
		t.Fatal(err)
	}
	if len(f.reqs) != 2 || len(f.reqs[1]) != 1 || !strings.Contains(f.reqs[1][0].Detail, `"id":"B"`) {
		t.Errorf("requests %v, want the second to resend only B", f.reqs)
	}

	// Always throttled: a bounded number of attempts, then an error naming the code.
	f2 := newFakeBridge(t)
	f2.fail = func(string, int) bool { return true }
	err := f2.publisher(t).Publish(ctx, "hall", entry("C", 0))
	if err == nil || !strings.Contains(err.Error(), "ThrottlingException") || len(f2.reqs) != 3 {
		t.Errorf("err %v after %d requests, want ThrottlingException after 3", err, len(f2.reqs))
	}
}

func TestDecodeRefusesBadDetail(t *testing.T) {
	for _, d := range []string{``, `[]`, `{"game":"Bad Id","entry":{"id":"x"}}`, `{"game":"hall"}`, `{"game":"hall","entry":{}}`} {
		if _, err := publish.Decode([]byte(d)); err == nil {
			t.Errorf("Decode(%q) accepted", d)
		}
	}
}

func TestBusFansOutEveryCommittedEntry(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bus := publish.NewBus()
	var a, b []string
	bus.Subscribe(func(_ context.Context, m publish.Message) error {
		a = append(a, m.Game+"/"+m.Entry.Command)
		return errors.New("announcer down")
	})
	bus.Subscribe(func(_ context.Context, m publish.Message) error {
		b = append(b, m.Entry.Events[0].Type)
		return nil
	})
	svc := game.New(st, clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), game.WithPublisher(bus))
	if _, err := svc.Create(ctx, game.Request{Actor: "discord:1", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	// A failing subscriber fails no command and does not starve the next one.
	if _, err := svc.Join(ctx, game.Request{Game: "hall", Actor: "discord:2", Key: "j"}, game.JoinGame{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	// A replayed command commits nothing and publishes nothing.
	if _, err := svc.Join(ctx, game.Request{Game: "hall", Actor: "discord:2", Key: "j"}, game.JoinGame{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(a, ",") != "hall/create,hall/join" || strings.Join(b, ",") != "game_created,player_joined" {
		t.Errorf("subscribers saw %v and %v, want create then join once each", a, b)
	}
}
