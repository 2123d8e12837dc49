package discord_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
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
	lb.srv = httptest.NewServer(http.HandlerFunc(lb.serve))
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

// fakeInvoker records what the Lambda deferrer sends.
type fakeInvoker struct{ in *lambda.InvokeInput }

func (f *fakeInvoker) Invoke(_ context.Context, in *lambda.InvokeInput, _ ...func(*lambda.Options)) (*lambda.InvokeOutput, error) {
	f.in = in
	return &lambda.InvokeOutput{StatusCode: 202}, nil
}

// The Lambda deferrer invokes its own function asynchronously with the
// interaction body, which the function recognises and finishes.
func TestLambdaDeferrerPayload(t *testing.T) {
	fi := &fakeInvoker{}
	body := []byte(`{"id":"1","type":2,"token":"t"}` + "\x00\xff")
	if err := (discord.LambdaDeferrer{Client: fi, Function: "croupier-discord"}).Defer(context.Background(), body); err != nil {
		t.Fatal(err)
	}
	if *fi.in.FunctionName != "croupier-discord" || fi.in.InvocationType != "Event" {
		t.Errorf("invoked %s as %s, want croupier-discord as Event", *fi.in.FunctionName, fi.in.InvocationType)
	}
	got, ok := discord.IsDeferred(fi.in.Payload)
	if !ok || string(got) != string(body) {
		t.Errorf("IsDeferred(%s) = %q %v, want the body back", fi.in.Payload, got, ok)
	}
	for _, p := range []string{`{"version":"2.0","body":"x"}`, `{}`, `nonsense`, `{"croupier_discord_deferred":5}`} {
		if _, ok := discord.IsDeferred([]byte(p)); ok {
			t.Errorf("IsDeferred(%s) = true", p)
		}
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
