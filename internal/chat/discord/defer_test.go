package discord_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/game"
)

// A command the test can make slow: it waits for the current test's
// release channel (one per run, so -count=N works).
var slowRelease atomic.Pointer[chan struct{}]

func init() {
	chat.Register(chat.Command{Name: "slowtest", Description: "test only: a command slower than the budget", Private: true, NoGame: true, Hidden: true,
		Handler: func(ctx context.Context, _ *game.Service, inv *chat.Invocation) (*chat.Reply, error) {
			var release chan struct{}
			if p := slowRelease.Load(); p != nil {
				release = *p
			}
			select {
			case <-release:
			case <-time.After(5 * time.Second):
			}
			return &chat.Reply{Text: "slow answer for " + inv.User, Ephemeral: true}, nil
		}})
}

// loopback is a stand-in for Discord's REST API: it records requests and
// answers each route as Discord documents it.
type loopback struct {
	mu   sync.Mutex
	reqs []string
	// bodies of PATCH @original by path
	edits    map[string]string
	commands map[string][]byte // registered commands by route
	puts     int
	limited  int // answer this many requests with 429 first
	srv      *httptest.Server
}

func newLoopback(t *testing.T) *loopback {
	lb := &loopback{edits: map[string]string{}, commands: map[string][]byte{}}
	lb.srv = httptest.NewServer(discordspec.NewRecorder(t).Server(http.HandlerFunc(lb.serve)))
	t.Cleanup(lb.srv.Close)
	return lb
}

func (lb *loopback) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	lb.mu.Lock()
	defer lb.mu.Unlock()
	lb.reqs = append(lb.reqs, r.Method+" "+r.URL.Path)
	if lb.limited > 0 {
		lb.limited--
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"You are being rate limited.","retry_after":0.05,"global":false}`))
		return
	}
	switch {
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/webhooks/") && strings.HasSuffix(r.URL.Path, "/messages/@original"):
		lb.edits[r.URL.Path] = string(body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"1"}`))
	case strings.HasPrefix(r.URL.Path, "/applications/") && strings.HasSuffix(r.URL.Path, "/commands"):
		if r.Header.Get("Authorization") != "Bot secret-token" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"401: Unauthorized","code":0}`))
			return
		}
		switch r.Method {
		case http.MethodGet:
			// Discord lists commands with fields it adds.
			var cmds []map[string]any
			_ = json.Unmarshal(lb.commands[r.URL.Path], &cmds)
			for i, c := range cmds {
				c["id"], c["application_id"], c["version"] = "99"+string(rune('0'+i%10)), "4242", "1"
				c["default_permission"], c["nsfw"], c["contexts"] = true, false, nil
				// Discord writes a permission bit set as a decimal string.
				if p, ok := c["default_member_permissions"]; ok && p != nil {
					c["default_member_permissions"] = fmt.Sprint(p)
				}
				if _, ok := c["description"]; !ok {
					c["description"] = ""
				}
			}
			if cmds == nil {
				cmds = []map[string]any{}
			}
			_ = json.NewEncoder(w).Encode(cmds)
		case http.MethodPut:
			lb.puts++
			lb.commands[r.URL.Path] = body
			_, _ = w.Write(body)
		}
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func TestDeferredReplyFinishedByFollowUp(t *testing.T) {
	hs := newHarness(t)
	lb := newLoopback(t)
	hs.h.Budget = 30 * time.Millisecond
	hs.h.API = &discord.Client{Base: lb.srv.URL}
	release := make(chan struct{})
	slowRelease.Store(&release)
	r := hs.send(slash("8001", ada, "slowtest"))
	if r.Type != discord.ResponseDeferredMessage || !r.ephemeral() {
		t.Fatalf("slow command answered %s, want a deferred ephemeral response (type 5, flags 64)", r.Raw)
	}
	close(release)
	path := "/webhooks/" + app + "/tok-8001/messages/@original"
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		lb.mu.Lock()
		body, ok := lb.edits[path]
		lb.mu.Unlock()
		if ok {
			var m struct{ Content string }
			if json.Unmarshal([]byte(body), &m); m.Content != "slow answer for <@2>" {
				t.Errorf("follow-up edit %s lacks the reply", body)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no PATCH %s within 5s; requests %v", path, lb.reqs)
}

// The Lambda deferrer invokes its own function asynchronously with the
// interaction body, which the function recognises and finishes: one POST
// to Lambda's Invoke API, signed with the function's credentials. A
// loopback stands for Lambda and checks the request as Lambda documents it,
// the signature recomputed from the request with the same key.
func TestLambdaDeferrerPayload(t *testing.T) {
	var got struct {
		path, typ, auth string
		payload         []byte
	}
	var sigOK bool
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret", SessionToken: "token"}
	lambdaAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.typ, got.auth = r.URL.Path, r.Header.Get("X-Amz-Invocation-Type"), r.Header.Get("Authorization")
		got.payload, _ = io.ReadAll(r.Body)
		// Re-sign a copy at the request's own X-Amz-Date: the same
		// Authorization means the signature covers what arrived.
		at, _ := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
		again, _ := http.NewRequest(r.Method, "http://"+r.Host+r.URL.Path, bytes.NewReader(got.payload))
		for _, h := range []string{"Content-Type", "X-Amz-Invocation-Type"} {
			again.Header.Set(h, r.Header.Get(h))
		}
		sum := sha256.Sum256(got.payload)
		_ = v4.NewSigner().SignHTTP(context.Background(), creds, again, hex.EncodeToString(sum[:]), "lambda", "eu-west-1", at)
		sigOK = again.Header.Get("Authorization") == got.auth && r.Header.Get("X-Amz-Security-Token") == "token"
		w.WriteHeader(http.StatusAccepted)
	}))
	defer lambdaAPI.Close()
	cfg := aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider(creds.AccessKeyID, creds.SecretAccessKey, creds.SessionToken)}
	d := discord.LambdaDeferrer{Function: "croupier-discord", Config: cfg, Endpoint: lambdaAPI.URL}
	body := []byte(`{"id":"1","type":2,"token":"t"}` + "\x00\xff")
	if err := d.Defer(context.Background(), body); err != nil {
		t.Fatal(err)
	}
	if got.path != "/2015-03-31/functions/croupier-discord/invocations" || got.typ != "Event" {
		t.Errorf("invoked %s as %q, want croupier-discord's invocations as Event", got.path, got.typ)
	}
	if !strings.HasPrefix(got.auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") || !strings.Contains(got.auth, "/eu-west-1/lambda/aws4_request") || !sigOK {
		t.Errorf("Authorization %q is not a SigV4 signature of the request for lambda in eu-west-1", got.auth)
	}
	if back, ok := discord.IsDeferred(got.payload); !ok || string(back) != string(body) {
		t.Errorf("IsDeferred(%s) = %q %v, want the body back", got.payload, back, ok)
	}
	for _, p := range []string{`{"version":"2.0","body":"x"}`, `{}`, `nonsense`, `{"croupier_discord_deferred":5}`} {
		if _, ok := discord.IsDeferred([]byte(p)); ok {
			t.Errorf("IsDeferred(%s) = true", p)
		}
	}
	// Lambda's refusal (a role without lambda:InvokeFunction) is an error
	// the handler logs before waiting for the command itself.
	denied := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"Message":"not authorized"}`, http.StatusForbidden)
	}))
	defer denied.Close()
	d.Endpoint = denied.URL
	if err := d.Defer(context.Background(), body); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("a 403 from Lambda: %v, want an error naming it", err)
	}
}

// Acceptance 4: registration against a loopback Discord, a no-op the
// second time; a 429 is waited out.
func TestRegisterIdempotent(t *testing.T) {
	lb := newLoopback(t)
	c := &discord.Client{Base: lb.srv.URL, Token: "secret-token"}
	cmds, err := discord.AppCommands(chat.Commands())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, guildID := range []string{"", "900"} {
		lb.limited = 1
		reg, err := discord.Register(ctx, c, app, guildID, cmds)
		if err != nil || !reg.Changed || reg.Commands != len(cmds) {
			t.Fatalf("first registration (guild %q): %+v %v", guildID, reg, err)
		}
		reg, err = discord.Register(ctx, c, app, guildID, cmds)
		if err != nil || reg.Changed {
			t.Errorf("second registration (guild %q): %+v %v, want no change", guildID, reg, err)
		}
	}
	if lb.puts != 2 {
		t.Errorf("%d bulk overwrites, want 2 (one per scope); requests %v", lb.puts, lb.reqs)
	}
	// What was registered: trade's subcommands grouped, admin commands
	// limited to server managers, menus without descriptions.
	var reg []discord.AppCommand
	_ = json.Unmarshal(lb.commands["/applications/"+app+"/commands"], &reg)
	byName := map[string]discord.AppCommand{}
	for _, c := range reg {
		byName[c.Name] = c
	}
	if tr := byName["trade"]; len(tr.Options) != 5 || tr.Options[0].Type != discord.OptSubCommand {
		t.Errorf("trade: %+v", tr)
	}
	if g := byName["grant"]; g.DefaultMemberPermissions == nil || *g.DefaultMemberPermissions != discord.PermManageGuild || !g.Options[0].Required {
		t.Errorf("grant: %+v", g)
	}
	if m := byName["Submit as proposal"]; m.Type != discord.CommandMessage || m.Description != "" {
		t.Errorf("Submit as proposal: %+v", m)
	}
	if _, ok := byName["buy confirm"]; ok {
		t.Error("a hidden command was registered")
	}
	if _, err := discord.Register(ctx, &discord.Client{Base: lb.srv.URL, Token: "wrong"}, app, "", cmds); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("wrong token: %v, want a 401 error", err)
	}
}
