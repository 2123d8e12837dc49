package chat_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/bridge"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/chat/slack"
	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// chatRequest is one request to a chat webhook, as sent on the wire.
type chatRequest struct {
	kind   string // what it is, for the report
	path   string
	header http.Header
	body   []byte
	// want is how it must be refused: the status and the problem's code
	// and a phrase of its detail; or, for a replay, replayOf is the
	// response of the request it repeats.
	status   int
	code     string
	detail   string
	replayOf []byte
}

// webhooks serves the three chat webhooks in-process over one store (bolt,
// or a fresh table on DynamoDB Local), with a game "hall" bound to a Discord guild, a Slack team and a Matrix
// room (the bridge).
type webhooks struct {
	t   *testing.T
	mux *http.ServeMux
	st  store.Store
	svc *game.Service
	clk *clock.Manual
}

var (
	slackSecret  = []byte("slack-signing-secret-for-tests")
	bridgeSecret = "matrix-relay-secret-for-tests"
	ircSecret    = "irc-relay-secret-for-tests"
)

func newWebhooks(t *testing.T, backend string) *webhooks {
	t.Helper()
	var st store.Store
	if backend == "dynamo" {
		client, table := testenv.DynamoTable(t, "forgery")
		st = dynamo.New(client, table)
	} else {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "w.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		st = b
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	clk := clock.NewManual(start)
	var seed [32]byte
	svc := rulesets.New(st, clk, game.WithEntropy(rand.NewChaCha8(seed)), game.WithLogger(quiet))
	ctx := context.Background()
	if _, err := svc.Create(ctx, game.Request{Actor: "discord:1", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	for _, b := range []game.Bind{{Platform: "discord", Space: "900"}, {Platform: "slack", Space: "T1"}, {Platform: "matrix", Space: "room1"}} {
		if _, err := svc.Bind(ctx, game.Request{Game: "hall", Actor: "discord:1", Key: "bind-" + b.Platform}, b); err != nil {
			t.Fatal(err)
		}
	}
	secrets, err := credential.ParseSecrets(bridgeSecret + " as=matrix:, " + ircSecret + " as=irc:")
	if err != nil {
		t.Fatal(err)
	}
	router := chat.NewRouter(svc, quiet)
	cache := &chat.ReplyCache{Store: st, Clock: clk}
	mux := http.NewServeMux()
	mux.Handle("POST /discord/interactions", &discord.Handler{Router: router, PublicKey: discordtest.PublicKey(), Cache: cache,
		Clock: clk, Budget: time.Minute, Log: quiet})
	(&slack.Handler{Router: router, Cache: cache, Secret: slackSecret, Clock: clk, Log: quiet}).Routes(mux)
	(&bridge.Handler{Router: router, Game: svc, Cache: cache, Secrets: secrets, Clock: clk, Log: quiet}).Routes(mux)
	return &webhooks{t: t, mux: mux, st: st, svc: svc, clk: clk}
}

func (w *webhooks) serve(r chatRequest) (int, []byte) {
	req := httptest.NewRequest(http.MethodPost, r.path, bytes.NewReader(r.body))
	for k, v := range r.header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	w.mux.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// state is the game's whole partition and its log length: what any
// accepted request would change.
func (w *webhooks) state() (string, int) {
	w.t.Helper()
	var b strings.Builder
	entries, cursor := 0, ""
	for {
		page, err := w.st.Query(context.Background(), store.Query{PK: "GAME#hall", Limit: 1000, Cursor: cursor})
		if err != nil {
			w.t.Fatal(err)
		}
		for _, it := range page.Items {
			b.WriteString(it.Key.String() + " " + string(it.Data) + "\n")
			if strings.HasPrefix(it.Key.SK, "LOG#") {
				entries++
			}
		}
		if cursor = page.Next; cursor == "" {
			return b.String(), entries
		}
	}
}

// The three platforms' signed joins, each by a new user with a new id.

func discordJoin(id, user string, at time.Time, key ed25519.PrivateKey) chatRequest {
	body, _ := json.Marshal(map[string]any{"id": id, "application_id": "4242", "type": discord.InteractionCommand, "token": "t-" + id,
		"version": 1, "guild_id": "900", "channel_id": "700",
		"member": map[string]any{"user": map[string]any{"id": user, "username": "u" + user}},
		"data":   map[string]any{"id": "c-join", "name": "join", "type": discord.CommandChatInput}})
	ts := strconv.FormatInt(at.Unix(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Signature-Timestamp", ts)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), body...))))
	return chatRequest{path: "/discord/interactions", header: h, body: body}
}

func slackJoin(trigger, user string, at time.Time, secret []byte) chatRequest {
	body := []byte(url.Values{"team_id": {"T1"}, "channel_id": {"C1"}, "user_id": {user}, "user_name": {"u" + user},
		"command": {"/croupier"}, "text": {"join"}, "trigger_id": {trigger}}.Encode())
	ts := strconv.FormatInt(at.Unix(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("X-Slack-Request-Timestamp", ts)
	h.Set("X-Slack-Signature", slack.Sign(secret, ts, body))
	return chatRequest{path: "/slack/commands", header: h, body: body}
}

func bridgeJoin(id, platform, user string, at time.Time, secret string) chatRequest {
	body, _ := json.Marshal(bridge.Command{ID: id, Platform: platform, Space: "room1", User: user, UserName: "u" + user, Command: "join"})
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set(bridge.Header, bridge.Sign([]byte(secret), at, body))
	return chatRequest{path: "/bridge/v1/commands", header: h, body: body}
}

// flipBit flips one random bit of b (a copy).
func flipBit(rng *rand.Rand, b []byte) []byte {
	out := bytes.Clone(b)
	i := rng.IntN(len(out))
	out[i] ^= 1 << rng.IntN(8)
	return out
}

// flipHexBit flips one random bit of the bytes a hex string encodes.
func flipHexBit(rng *rand.Rand, s string) string {
	b, _ := hex.DecodeString(s)
	return hex.EncodeToString(flipBit(rng, b))
}

// staleBy is a moment outside the 5-minute window, either way.
func staleBy(rng *rand.Rand, now time.Time) time.Time {
	d := 5*time.Minute + time.Second + time.Duration(rng.Int64N(int64(48*time.Hour)))
	if rng.IntN(2) == 0 {
		return now.Add(-d)
	}
	return now.Add(d)
}

const refusedSignature = "invalid_signature"

// forge makes the n-th forged or stale request: a join by a new user, so
// that accepting it would change the game.
func forge(rng *rand.Rand, n int, now time.Time) chatRequest {
	id, user := fmt.Sprintf("f%06d", n), fmt.Sprintf("9%06d", n)
	var seed [ed25519.SeedSize]byte
	for i := range seed {
		seed[i] = byte(rng.Uint32())
	}
	wrongKey := ed25519.NewKeyFromSeed(seed[:])
	var r chatRequest
	switch n % 11 {
	case 0:
		r = discordJoin(id, user, now, wrongKey)
		r.kind, r.detail = "discord: another key", "does not match"
	case 1:
		r = discordJoin(id, user, now, discordtest.PrivateKey())
		r.header.Set("X-Signature-Ed25519", flipHexBit(rng, r.header.Get("X-Signature-Ed25519")))
		r.kind, r.detail = "discord: a bit of the signature flipped", "does not match"
	case 2:
		r = discordJoin(id, user, now, discordtest.PrivateKey())
		r.body = flipBit(rng, r.body)
		r.kind, r.detail = "discord: a bit of the body flipped", "does not match"
	case 3:
		r = discordJoin(id, user, staleBy(rng, now), discordtest.PrivateKey())
		r.kind, r.detail = "discord: stale or future timestamp, validly signed", "away from now"
	case 4:
		r = slackJoin(id, user, now, []byte(fmt.Sprintf("guess-%d", n)))
		r.kind, r.detail = "slack: another secret", "does not match"
	case 5:
		r = slackJoin(id, user, staleBy(rng, now), slackSecret)
		r.kind, r.detail = "slack: stale or future timestamp, validly signed", "5 minutes"
	case 6:
		r = slackJoin(id, user, now, slackSecret)
		r.body = bytes.Replace(r.body, []byte("text=join"), []byte("text=roll+1d6"), 1)
		r.kind, r.detail = "slack: body altered after signing", "does not match"
	case 7:
		r = bridgeJoin(id, "matrix", user, now, fmt.Sprintf("guess-%d", n))
		r.kind, r.detail = "bridge: another secret", "no v1 signature matches"
	case 8:
		r = bridgeJoin(id, "matrix", user, staleBy(rng, now), bridgeSecret)
		r.kind, r.detail = "bridge: stale or future timestamp, validly signed", "5 minutes"
	case 9:
		r = bridgeJoin(id, "matrix", user, now, bridgeSecret)
		r.body = flipBit(rng, r.body)
		r.kind, r.detail = "bridge: a bit of the body flipped", "no v1 signature matches"
	case 10:
		// Validly signed, but by the IRC relay's secret naming a Matrix
		// user: the "one credential is every user".
		r = bridgeJoin(id, "matrix", user, now, ircSecret)
		r.kind, r.status, r.code, r.detail = "bridge: another platform's secret", http.StatusForbidden, "platform_out_of_scope", "may not act for matrix users"
		return r
	}
	r.status, r.code = http.StatusUnauthorized, refusedSignature
	return r
}

// TestForgedStaleAndReplayedChatRequests is issue 11's acceptance 4: of
// 10,000 forged, stale or replayed requests to the Discord, Slack and bridge
// webhooks, none is accepted.
//
// Accepted means: answered other than by the expected refusal. A forged or
// stale request must be refused with its code (401 invalid_signature for a
// signature, with the reason in the detail; 403 platform_out_of_scope for a
// secret naming another platform). A replay of a valid request (the same
// bytes and headers, within the window) is not accepted when it is answered
// with the first response byte for byte and changes nothing; a replay after
// the window is refused as stale. Across all 10,000 the game's partition,
// its log included, must be unchanged. On bolt and on DynamoDB Local.
func TestForgedStaleAndReplayedChatRequests(t *testing.T) {
	for _, backend := range []string{"bolt", "dynamo"} {
		t.Run(backend, func(t *testing.T) { testForgedStaleAndReplayed(t, backend) })
	}
}

func testForgedStaleAndReplayed(t *testing.T, backend string) {
	w := newWebhooks(t, backend)
	rng := rand.New(rand.NewChaCha8([32]byte{'f', 'o', 'r', 'g', 'e'}))
	now := w.clk.Now()

	// Valid joins, three platforms: each is accepted once and changes the game.
	var valid []chatRequest
	for i := range 30 {
		id, user := fmt.Sprintf("v%03d", i), fmt.Sprintf("1%03d", i)
		r := []chatRequest{discordJoin(id, user, now, discordtest.PrivateKey()), slackJoin(id, "U"+user, now, slackSecret),
			bridgeJoin(id, "matrix", "m"+user, now, bridgeSecret)}[i%3]
		_, logBefore := w.state()
		status, body := w.serve(r)
		if _, logAfter := w.state(); status != 200 || logAfter != logBefore+1 || bytes.Contains(body, []byte("Refusal")) {
			t.Fatalf("valid request %d (%s): %d %s, log %d -> %d; want accepted once", i, r.path, status, body, logBefore, logAfter)
		}
		r.replayOf = body
		valid = append(valid, r)
	}
	before, entries := w.state()

	const total = 10_000
	var reqs []chatRequest
	for n := range total - 2*len(valid)*10 {
		reqs = append(reqs, forge(rng, n, now))
	}
	// Replays within the window, ten of each valid request.
	for range 10 {
		for _, v := range valid {
			r := v
			r.kind = "replay within the window"
			reqs = append(reqs, r)
		}
	}
	rng.Shuffle(len(reqs), func(i, j int) { reqs[i], reqs[j] = reqs[j], reqs[i] })
	// Replays after the window, ten of each: refused as stale.
	var late []chatRequest
	for range 10 {
		for _, v := range valid {
			r := v
			r.kind, r.replayOf, r.status, r.code = "replay after the window", nil, http.StatusUnauthorized, refusedSignature
			switch r.path {
			case "/discord/interactions":
				r.detail = "away from now"
			default:
				r.detail = "5 minutes"
			}
			late = append(late, r)
		}
	}
	if len(reqs)+len(late) != total {
		t.Fatalf("generated %d requests, want %d", len(reqs)+len(late), total)
	}

	accepted := 0
	byKind := map[string]int{}
	check := func(r chatRequest) {
		byKind[r.kind]++
		status, body := w.serve(r)
		if r.replayOf != nil {
			if status != 200 || !bytes.Equal(body, r.replayOf) {
				accepted++
				if accepted <= 5 {
					t.Errorf("%s %s: %d %s, want the first answer byte for byte", r.kind, r.path, status, body)
				}
			}
			return
		}
		var p struct{ Code, Detail string }
		if status != r.status || json.Unmarshal(body, &p) != nil || p.Code != r.code || !strings.Contains(p.Detail, r.detail) {
			accepted++
			if accepted <= 5 {
				t.Errorf("%s %s: %d %s, want %d %s (%q)", r.kind, r.path, status, body, r.status, r.code, r.detail)
			}
		}
	}
	for _, r := range reqs {
		check(r)
	}
	w.clk.Advance(5*time.Minute + time.Second)
	for _, r := range late {
		check(r)
	}

	after, afterEntries := w.state()
	t.Logf("%d requests, %d accepted; log %d -> %d entries; by kind: %v", total, accepted, entries, afterEntries, byKind)
	if accepted != 0 {
		t.Errorf("%d of %d forged, stale or replayed requests were accepted, want 0", accepted, total)
	}
	if afterEntries != entries || after != before {
		t.Errorf("the game changed: log %d -> %d entries", entries, afterEntries)
	}
	if len(byKind) != 13 {
		t.Errorf("%d kinds of request sent, want 13 (11 forgeries and 2 replays): %v", len(byKind), byKind)
	}
}
