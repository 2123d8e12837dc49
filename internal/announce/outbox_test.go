package announce_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"croupier/internal/announce"
	"croupier/internal/announce/announcetest"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/publish"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// The log is the outbox (issue 11, acceptance 7): what was committed is
// announced, once, whatever happened to the process that committed it.

// process is one `croupier serve` over a bolt file: its service commits,
// its tail announces (when started).
type process struct {
	st   *bolt.Store
	svc  *game.Service
	an   *announce.Announcer
	tail *publish.Tail
}

// outbox is a game bound to an announcement channel on a bolt file, with
// the fake Discord; processes come and go over the same file.
type outbox struct {
	path string
	clk  *clock.Manual
	fake *announcetest.Discord
	dc   *announce.Discord
}

func newOutbox(t *testing.T) *outbox {
	t.Helper()
	o := &outbox{path: filepath.Join(t.TempDir(), "c.db"), clk: clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), fake: announcetest.New(t, token, discordspec.NewRecorder(t).Server)}
	o.dc = &announce.Discord{BaseURL: o.fake.APIBase(), Token: token, Sleep: func(context.Context, time.Duration) error { return nil }}
	p := o.start(t)
	ctx := context.Background()
	if _, err := p.svc.Create(ctx, game.Request{Actor: admin, Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.svc.Bind(ctx, game.Request{Game: "hall", Actor: admin, Key: "bind"},
		game.Bind{Platform: "discord", Space: "424242", Channels: map[string]string{game.ChannelAnnouncements: channel}}); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"discord:2", "discord:3", "discord:4", "discord:5"} {
		if _, err := p.svc.Join(ctx, game.Request{Game: "hall", Actor: who, Key: "join"}, game.JoinGame{Name: who}); err != nil {
			t.Fatal(err)
		}
		if _, err := gildedhall.On(p.svc).Grant(ctx, game.Request{Game: "hall", Actor: admin, Key: "grant-" + who}, gildedhall.Grant{Player: who, Vertebrae: 100, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	p.st.Close() // the setup process ends; nothing it made is of note
	return o
}

// start opens the file as a new process would.
func (o *outbox) start(t *testing.T) *process {
	t.Helper()
	st, err := bolt.Open(o.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p := &process{st: st, svc: rulesets.New(st, o.clk, game.WithLogger(quiet))}
	p.an = &announce.Announcer{Store: st, Bindings: p.svc, Narrator: p.svc, Discord: o.dc, Clock: o.clk, Log: quiet}
	p.tail = &publish.Tail{Feed: st, Store: st, Handle: p.an.Handle, Log: quiet, Batch: 2}
	return p
}

// buyChip commits a Chip purchase (announced as "<@N> bought ... 1 Chip.").
func (p *process) buyChip(t *testing.T, who string) {
	t.Helper()
	if _, err := gildedhall.On(p.svc).Purchase(context.Background(), game.Request{Game: "hall", Actor: who, Key: "chip"}, gildedhall.Purchase{Item: "chip"}); err != nil {
		t.Fatal(err)
	}
}

// postedOnce checks the channel holds exactly these messages, each posted
// once: created once and never even re-sent (Accepted counts repeats that
// Discord's nonce would have absorbed).
func (o *outbox) postedOnce(t *testing.T, want ...string) {
	t.Helper()
	msgs := o.fake.Sent(channel)
	var got []string
	for _, m := range msgs {
		got = append(got, m.Content)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("channel holds %q, want %q", got, want)
	}
	if n := o.fake.Accepted(channel); n != len(want) {
		t.Errorf("%d posts accepted for %d messages: something was posted twice", n, len(want))
	}
}

func chip(n string) string { return "<@" + n + "> bought 1 Chip from the Croupier for 25 Vertebrae." }

// A command commits and its process dies before anything is announced (no
// announcer was even running: what a failed publish used to be). The next
// process's tail posts it, once; its later polls post nothing more.
func TestOutboxProcessDiesAfterCommit(t *testing.T) {
	ctx := context.Background()
	o := newOutbox(t)
	p := o.start(t)
	p.buyChip(t, "discord:2")
	p.st.Close() // killed right after the commit

	p2 := o.start(t)
	if _, err := p2.tail.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p2.tail.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	o.postedOnce(t, chip("2"))
}

// Discord is down when the entry is committed: the tail keeps the entry
// (and the ones after it, in order) and posts each once when Discord is
// back.
func TestOutboxDiscordDownThenBack(t *testing.T) {
	ctx := context.Background()
	o := newOutbox(t)
	p := o.start(t)
	p.buyChip(t, "discord:2")
	p.buyChip(t, "discord:3")
	o.fake.Fail(channel, 3*5) // three polls of five attempts each
	for range 3 {
		if _, err := p.tail.Poll(ctx); err == nil || !strings.Contains(err.Error(), "500") {
			t.Fatalf("poll during the outage: %v, want Discord's 500", err)
		}
	}
	if len(o.fake.Sent(channel)) != 0 {
		t.Fatalf("posted during the outage: %+v", o.fake.Sent(channel))
	}
	if n, err := p.tail.Poll(ctx); err != nil || n == 0 {
		t.Fatalf("poll after the outage: %d, %v", n, err)
	}
	o.postedOnce(t, chip("2"), chip("3"))
}

// Two tails over one store, each with its own cursor, so that each hands
// every entry to its own announcer and they race on all of them: only the
// delivery record keeps the posts single.
func TestOutboxTwoTailsPostOnce(t *testing.T) {
	ctx := context.Background()
	o := newOutbox(t)
	p := o.start(t)
	for _, who := range []string{"discord:2", "discord:3", "discord:4", "discord:5"} {
		p.buyChip(t, who)
	}
	second := *p.tail
	second.Name = "announce-twin"
	second.Handle = (&announce.Announcer{Store: p.st, Bindings: p.svc, Narrator: p.svc, Discord: o.dc, Clock: o.clk, Log: quiet}).Handle
	tails := []*publish.Tail{p.tail, &second}
	// Poll both at once until neither has anything left; a poll that meets
	// the other's lease stops (ErrInProgress) and comes back.
	for round := 0; ; round++ {
		if round == 50 {
			t.Fatal("the tails never caught up")
		}
		var wg sync.WaitGroup
		ns, errs := make([]int, 2), make([]error, 2)
		for i, tl := range tails {
			wg.Go(func() { ns[i], errs[i] = tl.Poll(ctx) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, announce.ErrInProgress) {
				t.Fatal(err)
			}
		}
		if errs[0] == nil && errs[1] == nil && ns[0] == 0 && ns[1] == 0 {
			break
		}
	}
	o.postedOnce(t, chip("2"), chip("3"), chip("4"), chip("5"))
}

// cursorKiller is a store whose process dies when the tail moves its
// cursor to or past position kill: the entries were announced, the cursor
// still points before them.
type cursorKiller struct {
	store.Store
	kill uint64
}

func (c *cursorKiller) Commit(ctx context.Context, tx store.Tx) error {
	if len(tx.Puts) == 1 && strings.HasPrefix(tx.Puts[0].Item.PK, "TAIL#") {
		var cur struct{ Seq uint64 }
		if err := json.Unmarshal(tx.Puts[0].Item.Data, &cur); err != nil || cur.Seq >= c.kill {
			return errors.New("killed")
		}
	}
	return c.Store.Commit(ctx, tx)
}

// The tail is killed mid-way, after announcing entries and before its
// cursor moved past them; the restarted tail hands them again and posts
// nothing twice.
func TestOutboxTailRestartMidway(t *testing.T) {
	ctx := context.Background()
	o := newOutbox(t)
	p := o.start(t)
	for _, who := range []string{"discord:2", "discord:3", "discord:4"} {
		p.buyChip(t, who)
	}
	// The first poll dies moving the cursor past the second Chip (its
	// batch holds the first two Chips, or the second alone).
	changes, err := p.st.Changes(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	dying := *p.tail
	dying.Store = &cursorKiller{Store: p.st, kill: changes[len(changes)-2].Seq}
	if _, err := dying.Poll(ctx); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the dying poll: %v", err)
	}
	o.postedOnce(t, chip("2"), chip("3"))
	p.st.Close()

	p2 := o.start(t)
	p2.buyChip(t, "discord:5")
	if _, err := p2.tail.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	o.postedOnce(t, chip("2"), chip("3"), chip("4"), chip("5"))
}

// streamRecord is the stream record DynamoDB writes when it creates it:
// the item in the table's attribute layout (internal/store/dynamo) as the
// NEW_IMAGE.
func streamRecord(it store.Item, seq string) events.DynamoDBEventRecord {
	img := map[string]events.DynamoDBAttributeValue{
		"PK": events.NewStringAttribute(it.PK), "SK": events.NewStringAttribute(it.SK),
		"V": events.NewNumberAttribute(strconv.FormatInt(it.Version, 10)), "D": events.NewBinaryAttribute(it.Data),
		"Ord": events.NewStringAttribute(it.Order)}
	return events.DynamoDBEventRecord{EventID: "ev-" + seq, EventName: "INSERT", EventSource: "aws:dynamodb",
		Change: events.DynamoDBStreamRecord{Keys: map[string]events.DynamoDBAttributeValue{"PK": img["PK"], "SK": img["SK"]},
			NewImage: img, SequenceNumber: seq, StreamViewType: "NEW_IMAGE"}}
}

// A stream batch as Lambda delivers it: the entries after a failed post
// are reported with it (Lambda retries from the first), the same batch
// again posts only what was not posted, and a third delivery nothing.
func TestOutboxStreamBatchRetriedFromTheFailure(t *testing.T) {
	ctx := context.Background()
	o := newOutbox(t)
	p := o.start(t)
	before, err := p.st.Changes(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"discord:2", "discord:3", "discord:4"} {
		p.buyChip(t, who)
	}
	changes, err := p.st.Changes(ctx, before[len(before)-1].Seq, 0)
	if err != nil || len(changes) != 3 {
		t.Fatalf("changes %v (%v), want the three purchases", changes, err)
	}
	var ev events.DynamoDBEvent
	for i, c := range changes {
		ev.Records = append(ev.Records, streamRecord(c.Item, fmt.Sprint(100+i)))
	}
	// A player's update in the batch is not an announcement.
	ev.Records = append(ev.Records[:1], append([]events.DynamoDBEventRecord{{EventName: "MODIFY", Change: events.DynamoDBStreamRecord{SequenceNumber: "100b",
		NewImage: map[string]events.DynamoDBAttributeValue{"PK": events.NewStringAttribute("GAME#hall"), "SK": events.NewStringAttribute("PLAYER#discord:2")}}}}, ev.Records[1:]...)...)

	failed := func(r events.DynamoDBEventResponse) string {
		var ids []string
		for _, f := range r.BatchItemFailures {
			ids = append(ids, f.ItemIdentifier)
		}
		return strings.Join(ids, ",")
	}
	// discord:3's Chip meets an outage.
	posts := 0
	first := &announce.Announcer{Store: p.st, Bindings: p.svc, Narrator: p.svc, Discord: failAfter{o.dc, &posts, 1}, Clock: o.clk, Log: quiet}
	resp, err := first.HandleStream(ctx, ev)
	if err != nil || failed(resp) != "101,102" {
		t.Fatalf("first delivery: failures %q (%v), want 101,102 (the failed post and the one after it)", failed(resp), err)
	}
	o.postedOnce(t, chip("2"))
	for range 2 {
		resp, err = p.an.HandleStream(ctx, ev)
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("retried delivery: failures %q (%v), want none", failed(resp), err)
		}
	}
	o.postedOnce(t, chip("2"), chip("3"), chip("4"))
}

// failAfter posts through p until n posts went through, then fails as an
// outage would.
type failAfter struct {
	p     announce.Poster
	posts *int
	n     int
}

func (f failAfter) Post(ctx context.Context, p announce.Post) error {
	if *f.posts >= f.n {
		return errors.New("discord answered HTTP 503")
	}
	*f.posts++
	return f.p.Post(ctx, p)
}
