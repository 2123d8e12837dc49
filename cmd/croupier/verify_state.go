package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"croupier/internal/client"
	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/jsondelta"
	"croupier/internal/rulesets"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// The state audit (issue 25, "A state audit"): `croupier verify --state`
// rebuilds a game's items from its log alone, as any player can, and
// compares what they say with what the server shows (over the API: its
// public views) or holds (from a store file: its items). A difference is
// state that no logged change explains: it names the item, the field, both
// values and the log's last change to the item, after which the two part.

// stateReport is what the audit found.
type stateReport struct {
	Game string `json:"game"`
	// Source is what was audited: the server's URL, or the store file.
	Source string `json:"source"`
	// Entries and Items are the log's entries replayed and the items the
	// replay holds; Views the public views compared (over the API).
	Entries     int         `json:"entries"`
	Items       int         `json:"items"`
	Views       int         `json:"views,omitempty"`
	Differences []stateDiff `json:"differences"`
	// Skipped are items the public log hides (their changes are secret
	// until a later change reveals them): not compared.
	Skipped []skippedItem `json:"skipped,omitempty"`
	// Defects are changes of the log that cannot be applied.
	Defects []string `json:"defects,omitempty"`
	// NotCompared says what a replay of the public log cannot know.
	NotCompared []string `json:"not_compared,omitempty"`
	// fromStore: the store's items were compared, not a server's views.
	fromStore bool
}

// OK: nothing differs.
func (r stateReport) OK() bool { return len(r.Differences) == 0 && len(r.Defects) == 0 }

// stateDiff is one field that is not what the log says.
type stateDiff struct {
	// Item is the stored item (its sort key) the field belongs to; "" for
	// a view no single item holds. Who is its player, for a player's item.
	Item string `json:"item,omitempty"`
	Who  string `json:"who,omitempty"`
	// View is the route of the public view that shows it (over the API).
	View  string `json:"view,omitempty"`
	Field string `json:"field"`
	// Shown is what the server shows (or the store holds), Log what the
	// log's replay says; absent where one of them has nothing there.
	Shown json.RawMessage `json:"shown,omitempty"`
	Log   json.RawMessage `json:"log,omitempty"`
	// Entry is the log's last change to the item: the two part after it.
	Entry   string     `json:"entry,omitempty"`
	EntryAt *time.Time `json:"entry_at,omitempty"`
	// EntryWhat is the entry's command and actor in words.
	EntryWhat string `json:"entry_what,omitempty"`
	// Why says it in words where the values do not (a version, an index).
	Why string `json:"why,omitempty"`
}

type skippedItem struct {
	Item string `json:"item"`
	Who  string `json:"who,omitempty"`
	Why  string `json:"why"`
}

// notComparedOverAPI is what a replay of the public log cannot know, and so
// what the audit over the API leaves out of its comparison.
var notComparedOverAPI = []string{
	"the seeds (croupier verify checks the draws)",
	"reactions pushed from chat (and the live tallies of open proposals and elections)",
	"ended periods' activity lists",
	"the clock's reading in a view",
}

// verifyState runs the audit and prints its report.
func (e *env) verifyState(ctx context.Context, g, serverURL, key, file string, asJSON bool) error {
	var rep stateReport
	var err error
	if file != "" {
		rep, err = stateFromStore(ctx, file, g)
	} else {
		var c *client.Client
		c, err = client.New(serverURL, key, "")
		if err != nil {
			return usagef("%v", err)
		}
		rep, err = stateOverAPI(ctx, c, g)
		p := &player{e: e, opts: playOpts{json: asJSON}}
		err = p.report(err)
	}
	if err != nil {
		return err
	}
	if asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		fmt.Fprint(e.stdout, stateText(rep))
	}
	if !rep.OK() {
		return &silentError{code: exitRefused}
	}
	return nil
}

// stateOverAPI audits what a server shows: it reads the public log, replays
// it on this machine and compares each public view the replay answers with
// the server's. The server's game may move while it is read (a command, a
// period end): a comparison that finds differences while the log grew is
// made again, up to three times.
func stateOverAPI(ctx context.Context, c *client.Client, g string) (stateReport, error) {
	for attempt := 1; ; attempt++ {
		rep, n, err := stateOverAPIOnce(ctx, c, g)
		if err != nil || rep.OK() || attempt == 3 {
			return rep, err
		}
		entries, err := c.AllLog(ctx, g)
		if err != nil {
			return stateReport{}, err
		}
		if len(entries) == n {
			return rep, nil
		}
	}
}

func stateOverAPIOnce(ctx context.Context, c *client.Client, g string) (stateReport, int, error) {
	entries, err := c.AllLog(ctx, g)
	if err != nil {
		return stateReport{}, 0, err
	}
	// The server's time: a server that does not say (a gateway without
	// /healthz) is read at its last entry's.
	health, _, err := c.Health(ctx)
	if err != nil && ctx.Err() != nil {
		return stateReport{}, 0, ctx.Err()
	}
	r := game.NewReplay(g)
	byID := make(map[string]*game.Entry, len(entries))
	for i := range entries {
		r.Add(&entries[i])
		byID[entries[i].ID] = &entries[i]
	}
	r.Finish()
	// The replay answers at the server's now, not at its last entry, so a
	// view that reads the clock (how long until a period ends) reads the
	// same time on both sides. Nothing was logged in between: the state
	// is the same.
	if health.Time.After(r.AsOf.At) {
		r.AsOf.At = health.Time
	}
	local, err := replayClient(r)
	if err != nil {
		return stateReport{}, 0, err
	}
	rep := stateReport{Game: g, Source: c.BaseURL, Entries: r.Entries, Items: len(r.Items), Differences: []stateDiff{}, Defects: r.Defects, NotCompared: notComparedOverAPI}
	a := &auditor{r: r, entries: byID, names: replayNames(r)}
	for _, sk := range r.Secret {
		if !slices.ContainsFunc(rep.Skipped, func(s skippedItem) bool { return s.Item == sk }) {
			rep.Skipped = append(rep.Skipped, skippedItem{Item: sk, Who: a.who(sk), Why: "the public log hides its changes until a later change reveals them"})
		}
	}
	views, err := compareViews(ctx, c, local, g, a)
	if err != nil {
		return stateReport{}, 0, err
	}
	rep.Views = views
	rep.Differences = append(rep.Differences, a.diffs...)
	return rep, len(entries), nil
}

// stateFromStore audits a store file: the log replayed against the items
// the store holds (game.Service.Explain), each different field with its
// two values. The file is opened for reading only.
func stateFromStore(ctx context.Context, file, g string) (stateReport, error) {
	path := storePath(file)
	st, err := bolt.OpenReadOnly(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return stateReport{}, fmt.Errorf("no store at %s: %w", path, err)
		}
		return stateReport{}, fmt.Errorf("cannot open the store (if croupier serve is using it, verify over HTTP with --url instead): %w", err)
	}
	defer st.Close()
	// The replay runs up to now: the later of this machine's clock and a
	// manual clock the server kept in the file (a game played ahead of
	// real time), so no entry is left out as "in the future".
	now := time.Now().UTC()
	if stored, ok, err := loadClock(ctx, st); err == nil && ok && stored.After(now) {
		now = stored
	}
	svc := rulesets.New(st, clock.NewManual(now))
	diffs, r, err := svc.Explain(ctx, g)
	if err != nil {
		return stateReport{}, fmt.Errorf("auditing the state of game %s: %w", g, err)
	}
	rep := stateReport{Game: g, Source: path, Entries: r.Entries, Items: len(r.Items), Differences: []stateDiff{}, fromStore: true}
	a := &auditor{r: r, entries: map[string]*game.Entry{}, names: replayNames(r)}
	stored := map[string]store.Item{}
	for _, d := range diffs {
		got, err := st.Get(ctx, store.Key{PK: game.GamePK(g), SK: d.SK})
		if err != nil {
			return stateReport{}, err
		}
		stored[d.SK] = got
		if id, ok := strings.CutPrefix(d.SK, game.PlayerPrefix); ok && a.names[id] == "" && got.Exists() {
			// A player only the store has: named as the store names them.
			a.learnName(got.Data)
		}
	}
	for _, d := range diffs {
		if slices.Contains(r.Defects, d.SK+": "+d.Why) {
			continue // a defect of the log itself, reported as one
		}
		if d.Entry != "" && a.entries[d.Entry] == nil {
			if e, err := svc.EntryByID(ctx, g, d.Entry); err == nil {
				a.entries[d.Entry] = e
			}
		}
		got := stored[d.SK]
		want, inLog := r.Items[d.SK]
		base := stateDiff{Item: d.SK, Who: a.who(d.SK)}
		a.entry(&base, d.SK)
		fields := []fieldDiff(nil)
		if got.Exists() && inLog && want.Data != nil {
			gotData := got.Data
			if d.SK == "META" {
				gotData = game.WithoutFence(gotData)
			}
			fields = diffFields(want.Data, gotData)
		}
		if len(fields) == 0 {
			base.Field = "(the whole item)"
			if len(d.Fields) > 0 {
				base.Field = strings.Join(d.Fields, ", ") // its due time or order
			}
			switch {
			case !got.Exists():
				base.Log = compact(want.Data)
			case !inLog:
				base.Shown = compact(got.Data)
			}
			base.Why = d.Why
			rep.Differences = append(rep.Differences, base)
			continue
		}
		for _, f := range fields {
			fd := base
			fd.Field, fd.Shown, fd.Log, fd.Why = f.field, f.shown, f.log, f.why
			rep.Differences = append(rep.Differences, fd)
		}
	}
	rep.Defects = r.Defects
	return rep, nil
}

// auditor attributes the differences it finds to items and entries.
type auditor struct {
	r       *game.Replay
	entries map[string]*game.Entry
	names   map[string]string
	diffs   []stateDiff
	keys    []string // sortedItemKeys, once
}

// replayNames are the display names the replay's players carry.
func replayNames(r *game.Replay) map[string]string {
	out := map[string]string{}
	for sk, it := range r.Items {
		id, ok := strings.CutPrefix(sk, game.PlayerPrefix)
		if !ok || it.Data == nil {
			continue
		}
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(it.Data, &p) == nil && p.Name != "" {
			out[id] = p.Name
		}
	}
	return out
}

// logPlayers are the players whose items the log's changes name, in
// order of their ids.
func (a *auditor) logPlayers() []string {
	seen := map[string]bool{}
	for _, e := range a.entries {
		for _, c := range e.Changes {
			if id, ok := strings.CutPrefix(c.SK, game.PlayerPrefix); ok {
				seen[id] = true
			}
		}
	}
	for sk := range a.r.Items {
		if id, ok := strings.CutPrefix(sk, game.PlayerPrefix); ok {
			seen[id] = true
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// learnNames takes the display names of the players a players view shows
// that the log's replay does not name (one only the server has).
func (a *auditor) learnNames(body json.RawMessage) {
	var v struct {
		Players []json.RawMessage `json:"players"`
	}
	if json.Unmarshal(body, &v) != nil {
		return
	}
	for _, p := range v.Players {
		a.learnName(p)
	}
}

// learnName takes a player's display name from a document of them (their
// view, their item), unless the log's replay names them already.
func (a *auditor) learnName(doc []byte) {
	var p struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	if json.Unmarshal(doc, &p) == nil && p.ID != "" && p.Name != "" && a.names[p.ID] == "" {
		a.names[p.ID] = p.Name
	}
}

// playerOf is the player an item belongs to: the identity after the kind
// (PLAYER#discord:2, TPLAYER#discord:2), if it is one.
func playerOf(sk string) string {
	_, rest, ok := strings.Cut(sk, "#")
	if !ok {
		return ""
	}
	if game.ValidIdentity(rest) {
		return rest
	}
	return ""
}

// who is the player an item is of, as people read them: "Bob (discord:2)".
func (a *auditor) who(sk string) string {
	id := playerOf(sk)
	if id == "" {
		return ""
	}
	if n := a.names[id]; n != "" {
		return n + " (" + id + ")"
	}
	return id
}

// entry fills in the log's last change to the item.
func (a *auditor) entry(d *stateDiff, sk string) {
	id := a.r.Last[sk]
	if id == "" {
		return
	}
	d.Entry = id
	if e := a.entries[id]; e != nil {
		at := e.At.UTC()
		d.EntryAt = &at
		// The scheduler's work reads as itself ("period end"), a player's
		// command with who ran it.
		d.EntryWhat = e.CommandWords()
		if e.Actor != game.SchedulerActor {
			actor := e.Actor
			if n := a.names[actor]; n != "" {
				actor = n
			}
			d.EntryWhat += " by " + actor
		}
	}
}

// view is one public view the audit compares.
type view struct {
	// path is the route under /v1/games/G ("" the game itself).
	path string
	// list is the member holding a paged list ("" for one object).
	list string
	// kinds are the item kinds (sort key prefixes, or whole keys) whose
	// fields the view shows, in the order a difference is blamed on them.
	kinds []string
	// player is the player whose view it is.
	player string
	// details: each element's own view, at path/<id>.
	details bool
	// unknowable are members of the view (and of each of its list's
	// elements) that a replay of the public log cannot know: left out on
	// both sides.
	unknowable []string
}

// publicViews are the views of every ruleset: a game's ruleset answers
// some and refuses the others (not_in_ruleset), alike on both sides.
var publicViews = []view{
	{path: "", kinds: []string{"META", "TURNS"}},
	{path: "/ruleset", kinds: []string{"META"}},
	{path: "/players", list: "players", kinds: []string{game.PlayerPrefix, "TPLAYER#"}},
	{path: "/shop", kinds: []string{"META"}},
	// The Obelisk.
	{path: "/obelisk", kinds: []string{"OBELISK"}},
	{path: "/gatherings", list: "gatherings", kinds: []string{"GATHERING#"}, details: true},
	// Turns.
	// Its now, and how long until the next effect in words, are readings
	// of the clock as the view is read, not state: a real clock moves on
	// between the two reads.
	{path: "/turns", kinds: []string{"TURNS", "TPLAYER#", "TROUND#", "META"}, unknowable: []string{"now", "in"}},
	{path: "/turns/rules", list: "rules", kinds: []string{"TRULE#", "TRULES"}},
	{path: "/turns/proposals", list: "proposals", kinds: []string{"TPROP#", "TVOTE#"}},
	{path: "/turns/cases", list: "cases", kinds: []string{"TCASE#"}},
	{path: "/turns/rounds", list: "rounds", kinds: []string{"TROUND#", "TURNS"}},
	// The Gilded Hall's institutions.
	{path: "/trades", list: "trades", kinds: []string{"TRADE#"}, details: true},
	{path: "/matches", list: "matches", kinds: []string{"MATCH#", "ROSTER#"}, details: true},
	// An open proposal's live tally counts the reactions the chat bridges
	// pushed, which keep their own history outside the log.
	{path: "/proposals", list: "proposals", kinds: []string{"PROPOSAL#", "MSG#"}, details: true, unknowable: []string{"live", "live_error"}},
	{path: "/justice", list: "requests", kinds: []string{"RFJ#"}},
	{path: "/rulings", list: "rulings", kinds: []string{"RFJ#", "CONFIDENCE#"}},
	{path: "/judge", kinds: []string{"JUDGE", "ELECTION#", "CANDIDACY#", "CONFIDENCE#"}},
	// The week's election: its live outcome counts pushed reactions too.
	{path: "/candidacies", list: "candidacies", kinds: []string{"CANDIDACY#", "ELECTION#"}, unknowable: []string{"live", "live_error"}},
}

// answer is a view as one side answered it: a body, or a refusal's code.
type answer struct {
	body json.RawMessage
	code string
}

// compareViews reads every public view from the server and from the
// replay, and records each difference; it returns how many views both
// sides answered.
func compareViews(ctx context.Context, server, local *client.Client, g string, a *auditor) (int, error) {
	n := 0
	base := "/v1/games/" + url.PathEscape(g)
	compare := func(vs []view) ([][2]answer, error) {
		ans, err := readViews(ctx, server, local, base, vs)
		if err != nil {
			return nil, err
		}
		for i, v := range vs {
			got, want := ans[i][0], ans[i][1]
			switch {
			case v.list == "players":
				a.learnNames(got.body)
			case v.player != "":
				a.learnName(got.body)
			}
			if got.code == "" || want.code == "" {
				n++
			}
			got.body, want.body = withoutMembers(got.body, v.list, v.unknowable), withoutMembers(want.body, v.list, v.unknowable)
			a.compare(v, got, want)
		}
		return ans, nil
	}
	for _, v := range publicViews {
		ans, err := compare([]view{v})
		if err != nil {
			return n, err
		}
		if v.list == "" || v.list != "players" && !v.details {
			continue
		}
		ids := listIDs(v.list, ans[0][0], ans[0][1])
		if v.list == "players" {
			// Every player the log names, those who left too (whom the
			// list leaves out).
			for _, id := range a.logPlayers() {
				if !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
		var each []view
		for _, id := range ids {
			if v.list == "players" {
				each = append(each, view{path: "/players/" + url.PathEscape(id), kinds: v.kinds, player: id})
			} else {
				each = append(each, view{path: v.path + "/" + url.PathEscape(id), kinds: v.kinds, unknowable: v.unknowable})
			}
		}
		if _, err := compare(each); err != nil {
			return n, err
		}
	}
	return n, nil
}

// viewReaders is how many views are read from the server at once: a game of
// thousands of players has as many player views, each a round trip.
const viewReaders = 4

// readViews reads each view from the server and from the replay, several
// at once; the answers are in the views' order, so the report is too.
func readViews(ctx context.Context, server, local *client.Client, base string, vs []view) ([][2]answer, error) {
	out := make([][2]answer, len(vs))
	errs := make([]error, len(vs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(viewReaders, len(vs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				v := vs[i]
				got, err := readView(ctx, server, base+v.path, v.list)
				if err != nil {
					errs[i] = err
					continue
				}
				want, err := readView(ctx, local, base+v.path, v.list)
				if err != nil {
					errs[i] = fmt.Errorf("the replay cannot answer %s: %w", v.path, err)
					continue
				}
				out[i] = [2]answer{got, want}
			}
		}()
	}
	for i := range vs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readView reads a view whole: a list's every page, one list.
func readView(ctx context.Context, c *client.Client, path, list string) (answer, error) {
	var all []json.RawMessage
	var first map[string]json.RawMessage
	cursor := ""
	for pages := 0; ; pages++ {
		p := path
		if list != "" {
			q := url.Values{"limit": {strconv.Itoa(game.MaxPageLimit)}}
			if cursor != "" {
				q.Set("cursor", cursor)
			}
			p += "?" + q.Encode()
		}
		var raw json.RawMessage
		_, err := c.Do(ctx, http.MethodGet, p, nil, "", &raw)
		var prob *client.Problem
		if errors.As(err, &prob) {
			return answer{code: prob.Code}, nil
		}
		if err != nil {
			return answer{}, err
		}
		if list == "" {
			return answer{body: raw}, nil
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return answer{body: raw}, nil
		}
		var page []json.RawMessage
		_ = json.Unmarshal(m[list], &page)
		all = append(all, page...)
		if first == nil {
			first = m
		}
		var next string
		_ = json.Unmarshal(m["next_cursor"], &next)
		if next == "" || next == cursor || pages > 10000 {
			break
		}
		cursor = next
	}
	delete(first, "next_cursor")
	if all == nil {
		all = []json.RawMessage{}
	}
	first[list], _ = json.Marshal(all)
	body, _ := json.Marshal(first)
	return answer{body: body}, nil
}

// withoutMembers is a view's body without the members named (its own, and
// each of its list's elements', for a list view).
func withoutMembers(body json.RawMessage, list string, names []string) json.RawMessage {
	if len(names) == 0 || body == nil {
		return body
	}
	strip := func(doc json.RawMessage) json.RawMessage {
		var m map[string]json.RawMessage
		if json.Unmarshal(doc, &m) != nil {
			return doc
		}
		for _, n := range names {
			delete(m, n)
		}
		out, _ := json.Marshal(m)
		return out
	}
	body = strip(body)
	if list == "" {
		return body
	}
	var m map[string]json.RawMessage
	var els []json.RawMessage
	if json.Unmarshal(body, &m) != nil || json.Unmarshal(m[list], &els) != nil {
		return body
	}
	for i := range els {
		els[i] = strip(els[i])
	}
	m[list], _ = json.Marshal(els)
	out, _ := json.Marshal(m)
	return out
}

// listIDs are the ids of a list view's elements, on either side.
func listIDs(list string, answers ...answer) []string {
	seen := map[string]bool{}
	var out []string
	for _, an := range answers {
		var m map[string]json.RawMessage
		if json.Unmarshal(an.body, &m) != nil {
			continue
		}
		var els []json.RawMessage
		_ = json.Unmarshal(m[list], &els)
		for _, el := range els {
			if id := elementID(el); id != "" && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// elementID is a list element's id member, as a string.
func elementID(el json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(el, &m) != nil {
		return ""
	}
	raw := m["id"]
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// compare records how the server's answer to v differs from the replay's.
func (a *auditor) compare(v view, got, want answer) {
	route := strings.TrimPrefix(v.path, "/")
	if route == "" {
		route = "game"
	}
	switch {
	case got.code != "" || want.code != "":
		if got.code == want.code {
			return
		}
		d := stateDiff{View: route, Field: "(the whole view)"}
		a.blame(&d, v, nil, nil)
		switch {
		case got.code == "":
			d.Shown = compact(got.body)
			d.Why = fmt.Sprintf("the server shows it; the log's replay refuses it (%s)", want.code)
		case want.code == "":
			d.Log = compact(want.body)
			d.Why = fmt.Sprintf("the server refuses it (%s); the log's replay shows it", got.code)
		default:
			d.Why = fmt.Sprintf("the server refuses it (%s); the log's replay refuses it otherwise (%s)", got.code, want.code)
		}
		a.add(d)
		return
	}
	fields := diffFields(want.body, got.body)
	var keyed json.RawMessage // the replay's answer keyed by ids, once
	if len(fields) > 0 {
		keyed = keyedCopy(want.body, got.body)
	}
	for _, f := range fields {
		d := stateDiff{View: route, Field: f.field, Shown: f.shown, Log: f.log, Why: f.why}
		a.blame(&d, v, f.path, keyed)
		a.add(d)
	}
}

// add records d, unless its item is one the public log hides.
func (a *auditor) add(d stateDiff) {
	if d.Item != "" && slices.Contains(a.r.Secret, d.Item) {
		return // reported among the skipped
	}
	a.diffs = append(a.diffs, d)
}

// blame names the item a view's field comes from: for a list's element,
// an item of the element's id; for a player's view, the player's items; of
// the view's kinds of item, the one holding a member of the field's name
// with the replay's value, else one holding such a member, else the first.
func (a *auditor) blame(d *stateDiff, v view, path []string, keyed json.RawMessage) {
	id, sub := v.player, path
	for i, seg := range path {
		if k, ok := strings.CutPrefix(seg, keyMark); ok {
			if id == "" {
				id = k
			}
			sub = path[i+1:]
			break
		}
	}
	if id == "" && v.list == "" && strings.Count(v.path, "/") >= 2 && !strings.HasPrefix(v.path, "/turns") {
		// A detail view (/trades/<id>): the id is the path's last part.
		id, _ = url.PathUnescape(v.path[strings.LastIndex(v.path, "/")+1:])
	}
	if a.keys == nil {
		a.keys = sortedItemKeys(a.r)
	}
	var cands []string
	for _, k := range v.kinds {
		for _, sk := range a.keys {
			if !strings.HasPrefix(sk, k) || (!strings.HasSuffix(k, "#") && sk != k) {
				continue
			}
			if id != "" && strings.HasSuffix(k, "#") && !ofID(sk, id) {
				continue
			}
			if !slices.Contains(cands, sk) {
				cands = append(cands, sk)
			}
		}
	}
	if len(cands) == 0 {
		// Nothing the log wrote: an element only the server shows is an
		// item of the view's kind no logged change wrote.
		for _, k := range v.kinds {
			if id != "" && strings.HasSuffix(k, "#") {
				d.Item, d.Who = k+id, a.who(k+id)
				return
			}
		}
		return
	}
	var logValue json.RawMessage
	if len(path) > 0 {
		logValue, _ = valueAt(keyed, path)
	}
	leaf := ""
	for i := len(sub) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(sub[i]); err != nil && !strings.HasPrefix(sub[i], keyMark) {
			leaf = sub[i]
			break
		}
	}
	best, score := cands[0], -1
	for _, sk := range cands {
		s := 0
		if leaf != "" {
			s = leafScore(a.r.Items[sk].Data, leaf, logValue)
		}
		if id != "" && ofID(sk, id) {
			s += 3 // the element's own item first
		}
		if s > score {
			best, score = sk, s
		}
	}
	d.Item, d.Who = best, a.who(best)
	a.entry(d, best)
}

// ofID: the item at sk is the thing named id (TRADE#t1, TPLAYER#discord:2,
// MATCH#m1#...).
func ofID(sk, id string) bool {
	return strings.HasSuffix(sk, "#"+id) || strings.Contains(sk, "#"+id+"#")
}

// keyedCopy is want as diffFields compares it (its lists keyed by id), so
// a path diffFields found can be read in it.
func keyedCopy(want, got json.RawMessage) json.RawMessage {
	a, errA := jsondelta.Decode(want)
	b, errB := jsondelta.Decode(got)
	if errA != nil || errB != nil {
		return want
	}
	var ignore []fieldDiff
	a, _ = keyLists(nil, a, b, &ignore)
	out, _ := json.Marshal(a)
	return out
}

// leafScore: 2 when the item has a member named leaf holding value, 1 when
// it has one so named, else 0.
func leafScore(doc []byte, leaf string, value json.RawMessage) int {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return 0
	}
	var want any
	hasWant := json.Unmarshal(value, &want) == nil
	best := 0
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for k, c := range t {
				if k == leaf {
					if hasWant && equalJSON(c, want) {
						best = 2
					} else if best < 1 {
						best = 1
					}
				}
				walk(c)
			}
		case []any:
			for _, c := range t {
				walk(c)
			}
		}
	}
	walk(v)
	return best
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// sortedItemKeys are the replay's items and those it hides, which a
// difference may be blamed on too (and then skipped).
func sortedItemKeys(r *game.Replay) []string {
	ks := make([]string, 0, len(r.Items)+len(r.Secret))
	for k := range r.Items {
		ks = append(ks, k)
	}
	for _, k := range r.Secret {
		if _, ok := r.Items[k]; !ok && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return ks
}

// replayClient is a client of the API served in this process over the
// replay: the same routes, the same JSON, answered from the log alone.
func replayClient(r *game.Replay) (*client.Client, error) {
	svc := rulesets.New(nil, clock.NewManual(r.AsOf.At)).Over(r, nil)
	const key = "replay"
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(key)}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	c, err := client.New("http://replay.invalid", key, "")
	if err != nil {
		return nil, err
	}
	c.HTTP = &http.Client{Transport: handlerTransport{api}}
	return c, nil
}

// handlerTransport answers a request with a handler, in process.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	w := &recorder{header: http.Header{}, status: http.StatusOK}
	t.h.ServeHTTP(w, req)
	return &http.Response{StatusCode: w.status, Header: w.header, Body: io.NopCloser(&w.body), Request: req,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: int64(w.body.Len())}, nil
}

type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (w *recorder) Header() http.Header { return w.header }
func (w *recorder) Write(b []byte) (int, error) {
	w.wrote = true
	return w.body.Write(b)
}
func (w *recorder) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
}

// stateText is the report as a player reads it.
func stateText(r stateReport) string {
	var b strings.Builder
	compared := fmt.Sprintf("%s, %s", plural(r.Entries, "entry", "entries"), plural(r.Items, "item", "items"))
	if r.Views > 0 {
		compared += ", " + plural(r.Views, "view", "views") + " compared"
	}
	if r.OK() {
		fmt.Fprintf(&b, "game %s: everything matches: %s\n", r.Game, compared)
	} else {
		var what []string
		if len(r.Differences) > 0 {
			items := map[string]bool{}
			for _, d := range r.Differences {
				items[d.Item] = true
			}
			what = append(what, fmt.Sprintf("the state differs from what its log says: %s in %s",
				plural(len(r.Differences), "difference", "differences"), plural(len(items), "item", "items")))
		}
		if len(r.Defects) > 0 {
			what = append(what, fmt.Sprintf("its log has %s: changes that cannot be replayed", plural(len(r.Defects), "defect", "defects")))
		}
		fmt.Fprintf(&b, "game %s: %s (%s)\n", r.Game, strings.Join(what, "; "), compared)
	}
	for _, d := range r.Defects {
		fmt.Fprintf(&b, "  the log itself has a defect: %s\n", d)
	}
	// Grouped by item, in the order first met.
	var order []string
	by := map[string][]stateDiff{}
	for _, d := range r.Differences {
		if _, ok := by[d.Item]; !ok {
			order = append(order, d.Item)
		}
		by[d.Item] = append(by[d.Item], d)
	}
	for _, it := range order {
		ds := by[it]
		d0 := ds[0]
		b.WriteString("\n")
		switch {
		case it == "":
			b.WriteString("a view no single stored item holds\n")
		case d0.Who != "":
			fmt.Fprintf(&b, "%s: item %s\n", d0.Who, it)
		default:
			fmt.Fprintf(&b, "item %s\n", it)
		}
		switch {
		case d0.Entry != "" && d0.EntryAt != nil:
			fmt.Fprintf(&b, "  the log's last change to it is entry %s (%s), at %s: they diverge after it\n", d0.Entry, d0.EntryWhat, d0.EntryAt.Format(time.RFC3339))
		case d0.Entry != "":
			fmt.Fprintf(&b, "  the log's last change to it is entry %s: they diverge after it\n", d0.Entry)
		case it != "":
			b.WriteString("  no logged change ever wrote it\n")
		}
		shown := "the server shows"
		if r.fromStore {
			shown = "the store holds"
		}
		for _, d := range ds {
			b.WriteString("  ")
			if d.View != "" {
				fmt.Fprintf(&b, "view %s, ", d.View)
			}
			fmt.Fprintf(&b, "field %s: %s %s, the log says %s", d.Field, shown, valueWords(d.Shown), valueWords(d.Log))
			if d.Why != "" {
				fmt.Fprintf(&b, " (%s)", d.Why)
			}
			b.WriteString("\n")
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, "\nskipped %s the public log hides (not differences):\n", plural(len(r.Skipped), "item", "items"))
		for _, s := range r.Skipped {
			if s.Who != "" {
				fmt.Fprintf(&b, "  %s: item %s: %s\n", s.Who, s.Item, s.Why)
			} else {
				fmt.Fprintf(&b, "  item %s: %s\n", s.Item, s.Why)
			}
		}
	}
	if len(r.NotCompared) > 0 {
		b.WriteString("\nnot compared (the public log does not carry them): " + strings.Join(r.NotCompared, "; ") + ".\n")
	}
	return b.String()
}

// valueWords is a value as the report prints it: its JSON, cut short.
func valueWords(v json.RawMessage) string {
	if v == nil {
		return "nothing"
	}
	s := string(v)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
