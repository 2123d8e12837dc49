package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
)

// pages reads every page of a list route with the given limit, checking
// that no page is longer than the limit, and returns the items' ids (the
// field named by id) in order.
func (e *env) pages(path, name, id string, limit int) (all []string, n int) {
	e.T.Helper()
	cursor := ""
	for range 10000 {
		q := url.Values{"limit": {fmt.Sprint(limit)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page map[string]any
		e.mustStatus(e.Get(path+"?"+q.Encode()), http.StatusOK).Decode(e.T, &page)
		items, _ := page[name].([]any)
		if len(items) > limit {
			e.T.Fatalf("%s: a page of %d items with limit %d", path, len(items), limit)
		}
		for _, it := range items {
			all = append(all, fmt.Sprint(it.(map[string]any)[id]))
		}
		n++
		next, _ := page["next_cursor"].(string)
		if next == "" {
			return all, n
		}
		cursor = next
	}
	e.T.Fatalf("%s: paging does not end", path)
	return nil, n
}

// Every list route pages with limit and cursor; a page is never longer
// than its limit, following next_cursor lists everything once, and the
// period end of a game with more players than the entry's sample keeps
// the entry small and its whole activity lists readable a page at a time.
func TestListRoutesPage(t *testing.T) {
	e := withGame(t)
	g := "/v1/games/" + gameID
	want := []string{ada}
	for i := range 119 {
		id := fmt.Sprintf("discord:%d", 5000+i)
		want = append(want, id)
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/join", Actor: id, Idem: "join", Body: game.JoinGame{Name: fmt.Sprint("P", i)}}), http.StatusOK)
	}
	slices.Sort(want)

	got, n := e.pages(g+"/players", "players", "id", 50)
	if !slices.Equal(got, want) || n != 3 {
		t.Fatalf("players in %d pages of 50: %d listed, want the %d players once each in id order", n, len(got), len(want))
	}
	var first map[string]any
	e.mustStatus(e.Get(g+"/players"), http.StatusOK).Decode(t, &first)
	if items := first["players"].([]any); len(items) != game.DefaultPageLimit || first["next_cursor"] == nil {
		t.Fatalf("the default page holds %d players and a next_cursor: %d, %v", game.DefaultPageLimit, len(items), first["next_cursor"])
	}

	// The phase ends: all 120 acted (joining is an action, P2).
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: httpapi.ClockRequest{Advance: "72h"}}), 200)
	var ended *game.PeriodEnded
	for _, en := range e.logEntries(gameID) {
		if en.Command == "period-end" {
			var r game.PeriodEnded
			if err := json.Unmarshal(en.Response, &r); err != nil {
				t.Fatal(err)
			}
			ended = &r
		}
	}
	if ended == nil || ended.ActiveCount != 120 || ended.InactiveCount != 0 || len(ended.Active) != game.ActivitySample || ended.ActivityPages != 1 {
		t.Fatalf("the period-end entry holds counts and a sample of %d: %+v", game.ActivitySample, ended)
	}
	act, n := e.pages(g+"/periods/"+ended.Ended.ID+"/activity", "players", "player", 70)
	if !slices.Equal(act, want) || n != 2 {
		t.Fatalf("the whole activity list in 2 pages of 70: %d listed in %d pages", len(act), n)
	}
	e.mustStatus(e.Get(g+"/periods/"+ended.Ended.ID+"/activity?cursor=9.0"), http.StatusBadRequest)

	seeds, _ := e.pages(g+"/seeds", "seeds", "period", 1)
	if len(seeds) != 2 {
		t.Fatalf("two seed records, one a page: %v", seeds)
	}
	for _, l := range []struct{ path, name string }{{"/trades", "trades"}, {"/matches", "matches"}, {"/proposals", "proposals"},
		{"/justice", "requests"}, {"/rulings", "rulings"}} {
		if got, n := e.pages(g+l.path, l.name, "id", 1); len(got) != 0 || n != 1 {
			t.Fatalf("%s of a game without any: %v in %d pages", l.path, got, n)
		}
	}
}
