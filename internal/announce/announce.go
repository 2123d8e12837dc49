// Package announce turns committed game log entries into chat messages in
// each bound Discord server's and Slack workspace's announcement channel: period ends with who
// was active, your-turn notices and skipped turns, match results, purchases
// of note, executed trades, proposals adopted or failed, rulings, election
// results, and the winner. It reads the committed log, never a message sent
// beside a commit (internal/publish: the log is the outbox): on AWS
// functions/announce receives the table's stream (HandleStream); locally
// `croupier serve` runs a publish.Tail over the store's feed (Handle).
//
// # Posting once
//
// The stream and the tail deliver at least once: a failed batch is retried,
// a restarted or second tail hands an entry again, so the same entry can
// arrive twice, even concurrently. Each entry has a delivery record in the
// game's partition, SK "ANNOUNCED#<entry id>", expiring (TTL) after Keep:
//
//  1. claim: create the record as pending with a lease (a conditional
//     write: Expect version 0), or take over a pending record whose lease
//     has run out (Expect the version read). A record that is done means a
//     duplicate delivery: nothing is posted. A live lease held by another
//     delivery fails this one (ErrInProgress), so it is retried later.
//  2. post to each channel not yet done, marking each in the record as it
//     succeeds (Expect the version written, so a delivery that lost its
//     lease stops).
//  3. mark the record done.
//
// Crash windows: a crash after the claim and before posting leaves a
// pending record; the retry takes it over when the lease ends (nothing is
// lost while deliveries are retried). A crash after Discord accepted the
// message and before the record says so would post twice; every message
// carries a nonce derived from the entry, channel and part, with Discord's
// enforce_nonce, so Discord itself returns the first message instead of
// creating another when the retry comes within its nonce window (a few
// minutes). Only a retry later than that after such a crash can duplicate;
// the alternative (mark first, post after) would instead lose the message.
// A transient failure (rate limit longer than MaxWait, 5xx, network)
// releases the lease and returns an error, so the retry starts at once.
// A permanent refusal (unknown channel, missing permission) is recorded and
// logged, not retried.
package announce

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/publish"
	"croupier/internal/store"
)

// Bindings lists the chat spaces bound to a game (*game.Service).
type Bindings interface {
	Bindings(ctx context.Context, game string) ([]game.Binding, error)
}

// ErrInProgress: another delivery of the same entry holds the lease.
var ErrInProgress = errors.New("announce: another delivery of this entry is posting it")

// Announcer posts entries to their games' announcement channels.
type Announcer struct {
	Store    store.Store
	Bindings Bindings
	// Narrator reads the events (the game service: its components'
	// narrations say what is announced and how it reads).
	Narrator Narrator
	// Discord posts to Discord channels (a *Discord, or LogPoster locally).
	Discord Poster
	// Slack posts to Slack channels (a *Slack); nil leaves Slack bindings
	// unannounced.
	Slack Poster
	Clock clock.Clock
	Log   *slog.Logger
	// Lease is how long a claim keeps other deliveries off (default 2
	// minutes: longer than one delivery's bounded posting).
	Lease time.Duration
	// Keep is how long delivery records live (default 7 days, far beyond
	// the stream's 24 hours and the event source mapping's retry age).
	Keep time.Duration
}

// Report says what one delivery did.
type Report struct {
	Game  string `json:"game"`
	Entry string `json:"entry"`
	// Lines is how many lines the entry announces (0: nothing to say).
	Lines int `json:"lines"`
	// Posted lists the channels posted to by this delivery.
	Posted []string `json:"posted,omitempty"`
	// Duplicate: an earlier delivery had already announced the entry.
	Duplicate bool `json:"duplicate,omitempty"`
	// Failed maps channels to permanent refusals.
	Failed map[string]string `json:"failed,omitempty"`
	// Skipped lists event types without a renderer.
	Skipped []string `json:"skipped,omitempty"`
	// NoChannel: no announcement channel is bound to the game.
	NoChannel bool `json:"no_channel,omitempty"`
}

// MaxMessage is Discord's limit on a message's content, in characters.
const MaxMessage = 2000

const recordPrefix = "ANNOUNCED#"

// record is the delivery record of one entry.
type record struct {
	Entry      string            `json:"entry"`
	State      string            `json:"state"` // pending or done
	LeaseUntil time.Time         `json:"lease_until,omitzero"`
	Done       []string          `json:"done,omitempty"`
	Failed     map[string]string `json:"failed,omitempty"`
}

func (a *Announcer) defaults() {
	if a.Clock == nil {
		a.Clock = clock.Real{}
	}
	if a.Log == nil {
		a.Log = slog.Default()
	}
	if a.Lease <= 0 {
		a.Lease = 2 * time.Minute
	}
	if a.Keep <= 0 {
		a.Keep = 7 * 24 * time.Hour
	}
}

// Handle is Announce as a publish.Handler (the local log tail's).
func (a *Announcer) Handle(ctx context.Context, m publish.Message) error {
	_, err := a.Announce(ctx, m)
	return err
}

// Announce posts one entry's announcement, at most once per channel (see
// the package comment). Entries with nothing to announce cost no reads.
func (a *Announcer) Announce(ctx context.Context, m publish.Message) (Report, error) {
	a.defaults()
	rep := Report{Game: m.Game}
	if m.Entry == nil || m.Entry.ID == "" {
		return rep, errors.New("announce: message without an entry")
	}
	rep.Entry = m.Entry.ID
	entry := m.Entry
	// Whether anything is announced does not depend on the platform;
	// Discord's rendering decides it before any read.
	lines, skipped := Render(a.Narrator, "discord", entry)
	rep.Lines, rep.Skipped = len(lines), skipped
	log := a.Log.With("game", m.Game, "entry", entry.ID, "command", entry.Command)
	if len(lines) == 0 {
		log.DebugContext(ctx, "nothing to announce", "skipped_types", skipped)
		return rep, nil
	}
	targets, err := a.channels(ctx, m.Game)
	if err != nil {
		return rep, err
	}
	if len(targets) == 0 {
		rep.NoChannel = true
		log.InfoContext(ctx, "no announcement channel bound; not announced", "lines", len(lines))
		return rep, nil
	}

	rec, ver, err := a.claim(ctx, m.Game, entry.ID)
	if err != nil {
		return rep, err
	}
	if rec.State == "done" {
		rep.Duplicate = true
		log.InfoContext(ctx, "already announced; duplicate delivery ignored")
		return rep, nil
	}
	// A player of another platform than the channel's is named by their
	// display name: the names are read once, when something is posted.
	var names func(string) string
	if nm, ok := a.Narrator.(Namer); ok {
		names = nm.Names(ctx, m.Game)
	}
	posts := map[string][]Post{}
	for _, tg := range targets {
		ch := tg.key()
		if slices.Contains(rec.Done, ch) || rec.Failed[ch] != "" {
			continue
		}
		if _, ok := posts[tg.Platform]; !ok {
			l, _ := RenderNamed(a.Narrator, tg.Platform, entry, names)
			posts[tg.Platform] = Split(l)
		}
		err := a.postAll(ctx, entry.ID, tg, posts[tg.Platform])
		switch {
		case err == nil:
			rec.Done = append(rec.Done, ch)
			rep.Posted = append(rep.Posted, ch)
		case IsPermanent(err):
			if rec.Failed == nil {
				rec.Failed = map[string]string{}
			}
			rec.Failed[ch] = err.Error()
			log.ErrorContext(ctx, "announcement refused; not retried", "channel", ch, "err", err.Error())
		default:
			// Transient: keep what is done, release the lease so the
			// retried delivery can start at once.
			rec.LeaseUntil = time.Time{}
			if _, werr := a.write(ctx, m.Game, rec, ver); werr != nil {
				log.WarnContext(ctx, "releasing the delivery lease failed", "err", werr.Error())
			}
			return rep, fmt.Errorf("announce %s/%s: %w", m.Game, entry.ID, err)
		}
		if ver, err = a.write(ctx, m.Game, rec, ver); err != nil {
			return rep, fmt.Errorf("announce %s/%s: recording the post to %s: %w", m.Game, entry.ID, ch, err)
		}
	}
	rep.Failed = rec.Failed
	rec.State, rec.LeaseUntil = "done", time.Time{}
	if _, err := a.write(ctx, m.Game, rec, ver); err != nil {
		return rep, fmt.Errorf("announce %s/%s: marking it done: %w", m.Game, entry.ID, err)
	}
	log.InfoContext(ctx, "announced", "channels", rep.Posted, "lines", len(lines))
	return rep, nil
}

// target is one bound announcement channel.
type target struct{ Platform, Channel string }

// key names the channel in delivery records and reports: a Discord
// channel by its id (as records always have), another platform's with the
// platform's prefix ("slack:C0123").
func (t target) key() string {
	if t.Platform == "discord" {
		return t.Channel
	}
	return t.Platform + ":" + t.Channel
}

// channels lists the announcement channels bound to a game on the
// platforms this announcer posts to.
func (a *Announcer) channels(ctx context.Context, g string) ([]target, error) {
	if a.Bindings == nil {
		return nil, nil
	}
	bs, err := a.Bindings.Bindings(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("announce: reading the bindings of %s: %w", g, err)
	}
	var out []target
	for _, b := range bs {
		ch := b.Channels[game.ChannelAnnouncements]
		if ch == "" || a.poster(b.Platform) == nil {
			continue
		}
		if tg := (target{b.Platform, ch}); !slices.Contains(out, tg) {
			out = append(out, tg)
		}
	}
	return out, nil
}

// poster is the poster of a platform (nil: not announced there).
func (a *Announcer) poster(platform string) Poster {
	switch platform {
	case "discord":
		return a.Discord
	case "slack":
		return a.Slack
	}
	return nil
}

func recordKey(g, entry string) store.Key {
	return store.Key{PK: "GAME#" + g, SK: recordPrefix + entry}
}

// claim returns the entry's record with this delivery holding its lease,
// or a done record (a duplicate), or ErrInProgress.
func (a *Announcer) claim(ctx context.Context, g, entry string) (record, int64, error) {
	k := recordKey(g, entry)
	for range 3 {
		it, err := a.Store.Get(ctx, k)
		if err != nil {
			return record{}, 0, fmt.Errorf("announce: reading %s: %w", k, err)
		}
		rec := record{Entry: entry, State: "pending"}
		if it.Exists() {
			if err := json.Unmarshal(it.Data, &rec); err != nil {
				return record{}, 0, fmt.Errorf("announce: decoding %s: %w", k, err)
			}
			if rec.State == "done" {
				return rec, it.Version, nil
			}
			if a.Clock.Now().Before(rec.LeaseUntil) {
				return record{}, 0, ErrInProgress
			}
		}
		rec.LeaseUntil = a.Clock.Now().Add(a.Lease)
		v, err := a.write(ctx, g, rec, it.Version)
		if errors.Is(err, store.ErrConflict) {
			continue // another delivery claimed it between our read and write
		}
		return rec, v, err
	}
	return record{}, 0, ErrInProgress
}

// write stores rec if the record is still at version expect; it returns the
// new version.
func (a *Announcer) write(ctx context.Context, g string, rec record, expect int64) (int64, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return 0, err
	}
	it := store.Item{Key: recordKey(g, rec.Entry), Data: data, Expires: a.Clock.Now().Add(a.Keep)}
	if err := a.Store.Commit(ctx, store.Tx{Puts: []store.Put{{Item: it, Expect: expect}}}); err != nil {
		return 0, err
	}
	return expect + 1, nil
}

// postAll sends the parts of one entry's announcement to one channel.
func (a *Announcer) postAll(ctx context.Context, entry string, tg target, posts []Post) error {
	for i, p := range posts {
		p.Channel = tg.Channel
		p.Nonce = Nonce(entry, tg.Channel, i)
		if err := a.poster(tg.Platform).Post(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// Nonce is the Discord nonce of part i of an entry's announcement in a
// channel: 25 hex characters (Discord's maximum length), the same for
// every delivery of that entry.
func Nonce(entry, channel string, part int) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", entry, channel, part))
	return hex.EncodeToString(h[:])[:25]
}

// Split joins lines into messages of at most MaxMessage characters,
// breaking between lines (a single longer line is cut and marked).
func Split(lines []Line) []Post {
	var posts []Post
	var cur Post
	n := 0
	flush := func() {
		if cur.Text != "" {
			posts = append(posts, cur)
		}
		cur, n = Post{}, 0
	}
	for _, l := range lines {
		text := l.Text
		if c := utf8.RuneCountInString(text); c > MaxMessage {
			text = string([]rune(text)[:MaxMessage-1]) + "…"
		}
		c := utf8.RuneCountInString(text)
		if n > 0 && n+1+c > MaxMessage {
			flush()
		}
		if n > 0 {
			cur.Text += "\n"
			n++
		}
		cur.Text += text
		n += c
		for _, p := range l.Ping {
			if !slices.Contains(cur.Ping, p) {
				cur.Ping = append(cur.Ping, p)
			}
		}
	}
	flush()
	return posts
}

// Text is the whole announcement of an entry as one string (for logs and
// previews), as Discord shows it.
func Text(n Narrator, e *game.Entry) string {
	lines, _ := Render(n, "discord", e)
	ts := make([]string, len(lines))
	for i, l := range lines {
		ts[i] = l.Text
	}
	return strings.Join(ts, "\n")
}
