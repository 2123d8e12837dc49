package reactions_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/reactions"
)

// fakeDiscord speaks Discord's documented wire format for the two routes
// the reader uses: the message object, and the users behind an emoji
// (sorted by id, paged by limit and after).
type fakeDiscord struct {
	t       *testing.T
	token   string
	mu      sync.Mutex
	msgs    map[string]fakeMessage // by message id
	limited int                    // answer this many 429s first
	calls   []string
}

type fakeMessage struct {
	edited bool
	users  map[string][]string // emoji -> user ids
}

func (f *fakeDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.URL.RequestURI())
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bot "+f.token {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"message": "401: Unauthorized", "code": 0}`)
		return
	}
	if f.limited > 0 {
		f.limited--
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"message": "You are being rate limited.", "retry_after": 0.05, "global": false}`)
		return
	}
	// /api/v10/channels/{c}/messages/{m}[/reactions/{emoji}]
	parts := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/api/v10/"), "/")
	if len(parts) < 4 || parts[0] != "channels" || parts[2] != "messages" {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message": "404: Not Found", "code": 0}`)
		return
	}
	m, ok := f.msgs[parts[3]]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message": "Unknown Message", "code": 10008}`)
		return
	}
	if len(parts) == 4 {
		msg := map[string]any{"id": parts[3], "channel_id": parts[1], "content": "proposal", "edited_timestamp": nil, "reactions": []any{}}
		if m.edited {
			msg["edited_timestamp"] = "2026-12-05T10:00:00.000000+00:00"
		}
		var rs []any
		for emoji, us := range m.users {
			rs = append(rs, map[string]any{"count": len(us), "me": false, "emoji": map[string]any{"id": nil, "name": emoji}})
		}
		if rs != nil {
			msg["reactions"] = rs
		}
		json.NewEncoder(w).Encode(msg)
		return
	}
	if len(parts) != 6 || parts[4] != "reactions" {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message": "404: Not Found", "code": 0}`)
		return
	}
	emoji, err := url.PathUnescape(parts[5])
	if err != nil {
		f.t.Errorf("bad emoji path %q", parts[5])
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if limit < 1 || limit > 100 {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"message": "Invalid Form Body", "code": 50035}`)
		return
	}
	after, _ := strconv.ParseUint(r.URL.Query().Get("after"), 10, 64)
	page := []map[string]any{}
	for _, id := range m.users[emoji] {
		n, _ := strconv.ParseUint(id, 10, 64)
		if n > after && len(page) < limit {
			page = append(page, map[string]any{"id": id, "username": "u" + id, "discriminator": "0", "global_name": nil, "avatar": nil})
		}
	}
	json.NewEncoder(w).Encode(page)
}

func ids(from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(100000000000000000 + from + i)
	}
	return out
}

func newFake(t *testing.T) (*fakeDiscord, *reactions.Discord) {
	f := &fakeDiscord{t: t, token: "secret", msgs: map[string]fakeMessage{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, &reactions.Discord{Token: "secret", BaseURL: srv.URL + "/api/v10", Client: srv.Client()}
}

func ref(msg string) reactions.MessageRef {
	return reactions.MessageRef{Platform: "discord", Channel: "555", Message: msg}
}

func TestDiscord_PagesPast100Users(t *testing.T) {
	f, d := newFake(t)
	up := ids(0, 250)
	down := append(ids(240, 10), ids(1000, 3)...) // 10 of them also 👍
	f.msgs["1"] = fakeMessage{users: map[string][]string{"👍": up, "👎": down, "🎉": ids(5000, 4)}}
	s, err := d.Reactions(context.Background(), ref("1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Up) != 250 || len(s.Down) != 13 || s.Edited || s.Deleted {
		t.Fatalf("got %d up, %d down, edited %v, deleted %v; want 250, 13, false, false", len(s.Up), len(s.Down), s.Edited, s.Deleted)
	}
	if s.Up[0] != "discord:"+up[0] || !slices.Contains(s.Up, "discord:"+up[249]) {
		t.Fatalf("users become discord identities: %v ... ", s.Up[:2])
	}
	// 1 message + 3 pages of 👍 (100, 100, 50) + 1 page of 👎; 🎉 never read.
	var pages []string
	for _, c := range f.calls {
		if strings.Contains(c, "/reactions/") {
			pages = append(pages, c)
		}
	}
	if len(f.calls) != 5 || len(pages) != 4 {
		t.Fatalf("calls %v", f.calls)
	}
	if !strings.Contains(pages[0], "/reactions/%F0%9F%91%8D?limit=100") || strings.Contains(pages[0], "after=") {
		t.Fatalf("first page request %q: emoji URL-encoded, limit 100, no after", pages[0])
	}
	if !strings.Contains(pages[1], "after="+up[99]) || !strings.Contains(pages[2], "after="+up[199]) {
		t.Fatalf("later pages continue after the last user id: %v", pages)
	}
}

func TestDiscord_DeletedAndEdited(t *testing.T) {
	f, d := newFake(t)
	f.msgs["2"] = fakeMessage{edited: true, users: map[string][]string{"👍": ids(0, 3)}}
	s, err := d.Reactions(context.Background(), ref("2"))
	if err != nil || !s.Edited || s.Deleted || len(s.Up) != 3 || len(s.Down) != 0 {
		t.Fatalf("edited message: %+v, %v", s, err)
	}
	s, err = d.Reactions(context.Background(), ref("404"))
	if err != nil || !s.Deleted || len(s.Up)+len(s.Down) != 0 {
		t.Fatalf("unknown message reads as deleted: %+v, %v", s, err)
	}
}

func TestDiscord_429ThenSuccess(t *testing.T) {
	f, d := newFake(t)
	f.msgs["3"] = fakeMessage{users: map[string][]string{"👎": ids(0, 2)}}
	f.limited = 2
	start := time.Now()
	s, err := d.Reactions(context.Background(), ref("3"))
	if err != nil || len(s.Down) != 2 {
		t.Fatalf("after two 429s: %+v, %v", s, err)
	}
	// retry_after 0.05 s in the body wins over the header's 1 s.
	if el := time.Since(start); el < 100*time.Millisecond || el > 900*time.Millisecond {
		t.Fatalf("two waits of retry_after=0.05s took %s", el)
	}
	if len(f.calls) != 4 || f.calls[0] != f.calls[1] || f.calls[1] != f.calls[2] {
		t.Fatalf("the limited request is repeated: %v", f.calls)
	}
	f.limited = 100
	d.MaxRetries = 2
	if _, err := d.Reactions(context.Background(), ref("3")); err == nil || !strings.Contains(err.Error(), "rate limited") {
		t.Fatalf("endless 429s: %v", err)
	}
}

func TestDiscord_401IsClear(t *testing.T) {
	f, d := newFake(t)
	f.msgs["4"] = fakeMessage{}
	d.Token = "wrong"
	_, err := d.Reactions(context.Background(), ref("4"))
	var he *reactions.HTTPError
	if !errors.Is(err, reactions.ErrUnauthorized) || !errors.As(err, &he) || he.Status != 401 {
		t.Fatalf("401: %v", err)
	}
	if !strings.Contains(err.Error(), "401") {
		t.Fatalf("message %q should say 401", err)
	}
	if _, err := d.Reactions(context.Background(), reactions.MessageRef{Platform: "slack", Channel: "C1", Message: "1.2"}); err == nil {
		t.Fatal("a slack message cannot be read from Discord")
	}
}
