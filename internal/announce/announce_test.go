package announce_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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

const (
	admin   = "discord:1"
	token   = "test-bot-token"
	channel = "555000111"
)

// world is a game on bolt whose committed log a tail hands to the
// announcer, posting to the fake Discord.
type world struct {
	svc    *game.Service
	clk    *clock.Manual
	st     *bolt.Store
	an     *announce.Announcer
	dc     *announce.Discord
	fake   *announcetest.Discord
	tail   *publish.Tail
	waits  []time.Duration
	last   publish.Message
	errors []error
}

func newWorld(t *testing.T) *world {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := &world{st: st, clk: clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), fake: announcetest.New(t, token, discordspec.NewRecorder(t).Server)}
	w.dc = &announce.Discord{BaseURL: w.fake.APIBase(), Token: token,
		Sleep: func(ctx context.Context, d time.Duration) error { w.waits = append(w.waits, d); return nil }}
	w.svc = rulesets.New(st, w.clk, game.WithLogger(quiet))
	w.an = &announce.Announcer{Store: st, Bindings: w.svc, Narrator: w.svc, Discord: w.dc, Clock: w.clk, Log: quiet}
	w.tail = &publish.Tail{Feed: st, Store: st, Log: quiet, Handle: func(ctx context.Context, m publish.Message) error {
		w.last = m
		if err := w.an.Handle(ctx, m); err != nil {
			w.errors = append(w.errors, err)
			return err
		}
		return nil
	}}
	ctx := context.Background()
	w.must(t)(w.svc.Create(ctx, game.Request{Actor: admin, Key: "c"}, game.CreateGame{ID: "hall"}))
	w.must(t)(w.svc.Bind(ctx, w.req(admin, "bind"), game.Bind{Platform: "discord", Space: "424242", Channels: map[string]string{game.ChannelAnnouncements: channel}}))
	for _, p := range []string{"discord:2", "discord:3"} {
		w.must(t)(w.svc.Join(ctx, w.req(p, "join"), game.JoinGame{Name: p}))
	}
	w.settle(t)
	return w
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// settle lets the tail announce everything committed so far.
func (w *world) settle(t *testing.T) {
	t.Helper()
	if _, err := w.tail.Poll(context.Background()); err != nil {
		t.Fatalf("the log tail: %v", err)
	}
}

func (w *world) req(actor, key string) game.Request {
	return game.Request{Game: "hall", Actor: actor, Key: key}
}

func (w *world) must(t *testing.T) func(*game.Result, error) {
	return func(_ *game.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestAnnouncementsEndToEnd(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	// Joining and binding are not announced.
	if n := len(w.fake.Sent(channel)); n != 0 {
		t.Fatalf("%d messages before anything of note: %+v", n, w.fake.Sent(channel))
	}
	w.must(t)(gildedhall.On(w.svc).Grant(ctx, w.req(admin, "g"), gildedhall.Grant{Player: "discord:2", Vertebrae: 80, Reason: "test"}))
	w.must(t)(gildedhall.On(w.svc).Purchase(ctx, w.req("discord:2", "b1"), gildedhall.Purchase{Item: "random-card"}))
	w.settle(t)
	if n := len(w.fake.Sent(channel)); n != 0 {
		t.Errorf("a random card (not of note) was announced: %+v", w.fake.Sent(channel))
	}
	// A Chip is of note, and Discord is rate limiting: the 429's retry_after
	// (0.25 s in the body; the header says 1 s) is honoured, then it posts once.
	w.fake.Limit(0.25)
	w.must(t)(gildedhall.On(w.svc).Purchase(ctx, w.req("discord:2", "b2"), gildedhall.Purchase{Item: "chip"}))
	w.settle(t)
	msgs := w.fake.Sent(channel)
	if len(msgs) != 1 || msgs[0].Content != "<@2> bought 1 Chip from the Croupier for 25 Vertebrae." {
		t.Fatalf("after the Chip: %+v", msgs)
	}
	if len(w.waits) != 1 || w.waits[0] != 250*time.Millisecond {
		t.Errorf("waits %v, want one of 250ms (the body's retry_after)", w.waits)
	}
	if len(msgs[0].AllowedMentions.Parse) != 0 || len(msgs[0].AllowedMentions.Users) != 0 || !msgs[0].EnforceNonce || msgs[0].Nonce == "" {
		t.Errorf("message %+v: want no mentions allowed, a nonce enforced", msgs[0])
	}

	// The stream delivers the same entry again: nothing more is posted.
	rep, err := w.an.Announce(ctx, w.last)
	if err != nil || !rep.Duplicate || len(rep.Posted) != 0 {
		t.Errorf("second delivery: %+v, %v; want a duplicate, nothing posted", rep, err)
	}
	if n := len(w.fake.Sent(channel)); n != 1 {
		t.Errorf("%d messages after a duplicate delivery, want 1", n)
	}

	// The period ends: a summary with who was active.
	w.clk.Advance(4 * 24 * time.Hour)
	if _, err := w.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	w.settle(t)
	msgs = w.fake.Sent(channel)
	last := msgs[len(msgs)-1].Content
	if !strings.Contains(last, "ended;") || !strings.Contains(last, "Active (2): <@2> and <@3>.") || !strings.Contains(last, "Inactive (0): nobody.") {
		t.Errorf("period summary %q: want both players active (joining is acting)", last)
	}
	if len(w.errors) > 0 {
		t.Errorf("announcer errors: %v", w.errors)
	}
}

func TestConcurrentDeliveriesPostOnce(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	entry := &game.Entry{ID: "01TESTENTRY", Command: "period-end", Events: []game.Event{{Type: "game_won", Player: "discord:2", Data: json.RawMessage(`{"chips":25}`)}}}
	m := publish.Message{Game: "hall", Entry: entry}
	var wg sync.WaitGroup
	results := make([]error, 8)
	for i := range results {
		wg.Go(func() { _, results[i] = w.an.Announce(ctx, m) })
	}
	wg.Wait()
	for _, err := range results {
		if err != nil && !errors.Is(err, announce.ErrInProgress) {
			t.Errorf("delivery failed: %v", err)
		}
	}
	msgs := w.fake.Sent(channel)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Content, "has won the game") || len(msgs[0].AllowedMentions.Users) != 1 {
		t.Errorf("8 concurrent deliveries made %+v, want one message pinging the winner", msgs)
	}
}

// failingStore fails every commit after the first n (a crash between
// Discord's answer and the delivery record).
type failingStore struct {
	store.Store
	n int
}

func (f *failingStore) Commit(ctx context.Context, tx store.Tx) error {
	if f.n <= 0 {
		return errors.New("crashed")
	}
	f.n--
	return f.Store.Commit(ctx, tx)
}

func TestCrashAfterPostingPostsOnce(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	entry := &game.Entry{ID: "01CRASH", Command: "trade-accept", Events: []game.Event{{Type: "trade_executed", Player: "discord:3",
		Data: json.RawMessage(`{"id":"t1","from":"discord:2","to":"discord:3","give":{"vertebrae":5},"take":{"cards":["a.1"]}}`)}}}
	m := publish.Message{Game: "hall", Entry: entry}
	crashing := *w.an
	crashing.Store = &failingStore{Store: w.st, n: 1} // the claim commits; recording the post does not
	if _, err := crashing.Announce(ctx, m); err == nil {
		t.Fatal("the crashing delivery reported success")
	}
	// The retry within the lease is told to come back later...
	if _, err := w.an.Announce(ctx, m); !errors.Is(err, announce.ErrInProgress) {
		t.Fatalf("retry within the lease: %v, want ErrInProgress", err)
	}
	// ...and after it takes over; Discord's nonce keeps it to one message.
	w.clk.Advance(3 * time.Minute)
	rep, err := w.an.Announce(ctx, m)
	if err != nil || len(rep.Posted) != 1 {
		t.Fatalf("retry after the lease: %+v, %v", rep, err)
	}
	msgs := w.fake.Sent(channel)
	if len(msgs) != 1 || msgs[0].Content != "Trade t1 executed: <@2> gives 5 Vertebrae; <@3> gives 1 card." {
		t.Errorf("messages %+v, want the trade once", msgs)
	}
	if rep, _ := w.an.Announce(ctx, m); !rep.Duplicate {
		t.Errorf("a delivery after completion is not a duplicate: %+v", rep)
	}
}

func TestRateLimitTooLongIsRetriedLater(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.dc.MaxWait = time.Second
	m := publish.Message{Game: "hall", Entry: &game.Entry{ID: "01SLOW", Events: []game.Event{{Type: "game_won", Player: "discord:2"}}}}
	w.fake.Limit(30)
	if _, err := w.an.Announce(ctx, m); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("a 30 s retry_after with MaxWait 1 s: %v, want a transient error", err)
	}
	// The lease was released: the retry posts at once.
	rep, err := w.an.Announce(ctx, m)
	if err != nil || len(rep.Posted) != 1 || len(w.fake.Sent(channel)) != 1 {
		t.Errorf("retry: %+v, %v, %d messages", rep, err, len(w.fake.Sent(channel)))
	}
}

func TestPermanentRefusalIsRecordedNotRetried(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.fake.Refuse(channel, http.StatusForbidden)
	m := publish.Message{Game: "hall", Entry: &game.Entry{ID: "01DENIED", Events: []game.Event{{Type: "game_won", Player: "discord:2"}}}}
	rep, err := w.an.Announce(ctx, m)
	if err != nil || !strings.Contains(rep.Failed[channel], "403") {
		t.Fatalf("report %+v err %v: want the 403 recorded and no error (a retry cannot help)", rep, err)
	}
	before := w.fake.Requests()
	if rep, _ := w.an.Announce(ctx, m); !rep.Duplicate || w.fake.Requests() != before {
		t.Errorf("the refused entry was tried again: %+v", rep)
	}
}

func TestNoChannelBoundPostsNothing(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	m := publish.Message{Game: "other", Entry: &game.Entry{ID: "01X", Events: []game.Event{{Type: "game_won", Player: "discord:2"}}}}
	rep, err := w.an.Announce(ctx, m)
	if err != nil || !rep.NoChannel || w.fake.Requests() != 0 {
		t.Errorf("%+v %v, want no channel and no request", rep, err)
	}
}

// A game bound to a Slack workspace too is announced there, in the same
// sentences, with Slack's mentions for its Slack players and the display
// names of the others (who have no mention there: never their id, issue
// 24), as Discord names its Slack players; a channel Slack
// does not know is a permanent refusal, recorded and not retried.
func TestAnnouncementsAlsoGoToABoundSlackChannel(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	const slackChannel, unknown = "C0ANNOUNCE", "C0GONE"
	fake := announcetest.NewSlack(t, "xoxb-test", slackChannel)
	fake.Limit(1) // a rate limit first: waited out, then posted once
	w.an.Slack = &announce.Slack{BaseURL: fake.APIBase(), Token: "xoxb-test",
		Sleep: func(ctx context.Context, d time.Duration) error { return nil }}
	w.must(t)(w.svc.Bind(ctx, w.req(admin, "bind-slack"), game.Bind{Platform: "slack", Space: "T0TEAM", Channels: map[string]string{game.ChannelAnnouncements: slackChannel}}))
	w.must(t)(w.svc.Join(ctx, w.req("slack:U0DEE", "join-dee"), game.JoinGame{Name: "Dee"}))
	w.must(t)(gildedhall.On(w.svc).Grant(ctx, w.req(admin, "g"), gildedhall.Grant{Player: "slack:U0DEE", Vertebrae: 30, Reason: "test"}))
	w.must(t)(gildedhall.On(w.svc).Purchase(ctx, w.req("slack:U0DEE", "b"), gildedhall.Purchase{Item: "chip"}))
	w.settle(t)
	want := "<@U0DEE> bought 1 Chip from the Croupier for 25 Vertebrae."
	if got := fake.Sent(slackChannel); len(got) != 1 || got[0].Text != want {
		t.Errorf("Slack got %+v, want one message %q", got, want)
	}
	if got := w.fake.Sent(channel); len(got) != 1 || got[0].Content != "Dee bought 1 Chip from the Croupier for 25 Vertebrae." {
		t.Errorf("Discord got %+v, want the same sentence with the Slack player's name", got)
	}

	// A second Slack workspace bound to a channel Slack does not know.
	w.must(t)(w.svc.Bind(ctx, w.req(admin, "bind-slack-2"), game.Bind{Platform: "slack", Space: "T0OTHER", Channels: map[string]string{game.ChannelAnnouncements: unknown}}))
	w.must(t)(w.svc.Join(ctx, w.req("discord:9", "join-9"), game.JoinGame{Name: "Nine"}))
	w.must(t)(gildedhall.On(w.svc).Grant(ctx, w.req(admin, "g9"), gildedhall.Grant{Player: "discord:9", Vertebrae: 30, Reason: "test"}))
	w.must(t)(gildedhall.On(w.svc).Purchase(ctx, w.req("discord:9", "b9"), gildedhall.Purchase{Item: "chip"}))
	w.settle(t)
	rep, err := w.an.Announce(ctx, w.last)
	if err != nil || !rep.Duplicate {
		t.Fatalf("re-delivery: %+v, %v; want a duplicate", rep, err)
	}
	if got := fake.Sent(slackChannel); len(got) != 2 || got[1].Text != "Nine bought 1 Chip from the Croupier for 25 Vertebrae." {
		t.Errorf("Slack got %+v", got)
	}
	if len(w.errors) > 0 {
		t.Errorf("announcer errors: %v (a refused channel is not an error to retry)", w.errors)
	}
	rep, err = w.an.Announce(ctx, publish.Message{Game: "hall", Entry: &game.Entry{ID: "01WON", Events: []game.Event{{Type: "game_won", Player: "slack:U0DEE"}}}})
	if err != nil || !slices.Equal(rep.Posted, []string{channel, "slack:" + slackChannel}) || !strings.Contains(rep.Failed["slack:"+unknown], "channel_not_found") {
		t.Errorf("a win: %+v, %v; want posted to both bound channels, the unknown Slack channel refused", rep, err)
	}
	if got := fake.Sent(slackChannel); len(got) != 3 || got[2].Text != "🏆 <@U0DEE> has won the game!" {
		t.Errorf("Slack got %+v", got)
	}
}
