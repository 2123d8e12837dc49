package tracker

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/governance"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// Page sizes keep every page under 100 KB of HTML however long the game
// runs (docs/tracker.md).
const (
	LogPageSize  = 200 // log entries per log page
	ListPageSize = 100 // rows per page of matches, trades, proposals, rulings
	// auditDrawTarget is about how many draws an audit page holds: a page
	// ends with the log entry that reaches it (an entry's draws are never
	// split, so the button checks whole commands).
	auditDrawTarget = 120
	// maxReads bounds the store reads one filtered log or audit page makes.
	maxReads = 100
)

// pager is one page of a list shown ListPageSize rows at a time (?page=N,
// 1-based).
type pager struct {
	Page, Pages, Total int
	From, To           int // 1-based rows shown
}

func paginate(r *http.Request, total int) (pager, int, int) {
	p := pager{Page: 1, Total: total, Pages: max(1, (total+ListPageSize-1)/ListPageSize)}
	if n, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && n >= 1 && n <= p.Pages {
		p.Page = n
	}
	lo := (p.Page - 1) * ListPageSize
	hi := min(total, lo+ListPageSize)
	p.From, p.To = lo+1, hi
	if total == 0 {
		p.From = 0
	}
	return p, lo, hi
}

// Prev and Next are the neighbouring page numbers (0 when none).
func (p pager) Prev() int {
	if p.Page > 1 {
		return p.Page - 1
	}
	return 0
}

func (p pager) Next() int {
	if p.Page < p.Pages {
		return p.Page + 1
	}
	return 0
}

// setting is one named ruleset number shown on the overview.
type setting struct{ Group, Name, Value string }

type overviewData struct {
	Shape    game.RulesetShape
	HasJudge bool
	Judge    game.JudgeState
	Ruleset  *ruleset.Ruleset
	Settings []setting
	Players  int
	// Obelisk and OpenGatherings: an Obelisk game's own facts.
	Obelisk        *obelisk.ObeliskView
	OpenGatherings int
	// Turns: a turns game's own facts, and a page of its won rounds,
	// newest first.
	Turns       *turns.Status
	Rounds      []turns.PastRound
	RoundsPager pager
}

func (h *Handler) overview(ctx context.Context, r *http.Request, l *layout) (content, error) {
	g := l.Game
	rs, err := h.svc.Ruleset(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	shape, _ := h.svc.Shape(g.Ruleset)
	d := overviewData{Shape: shape, Ruleset: rs, Players: len(l.members), HasJudge: h.svc.RulesetHas(g.Ruleset, game.InstGovernance)}
	if d.HasJudge {
		if d.Judge, err = h.svc.Judge(ctx, g.ID); err != nil {
			return nil, err
		}
	}
	if h.svc.RulesetHas(g.Ruleset, obelisk.InstObelisk) {
		svc := obelisk.On(h.svc)
		o, err := svc.Obelisk(ctx, g.ID)
		if err != nil {
			return nil, err
		}
		gs, err := svc.Gatherings(ctx, g.ID)
		if err != nil {
			return nil, err
		}
		d.Obelisk = &o
		for _, x := range gs {
			if x.Status == rob.StatusOpen {
				d.OpenGatherings++
			}
		}
	}
	if h.svc.RulesetHas(g.Ruleset, turns.InstTurns) {
		st, err := turns.TurnsStatus(ctx, h.svc, g.ID)
		if err != nil {
			return nil, err
		}
		d.Turns = &st
		// The won rounds are the current round's number, or one fewer
		// while it is played: a page of them, by number.
		won := st.Round.Number - 1
		if st.Round.Over {
			won++
		}
		var lo, hi int
		d.RoundsPager, lo, hi = paginate(r, won)
		if d.Rounds, _, err = turns.PastRounds(ctx, h.svc, g.ID, lo, hi-lo); err != nil {
			return nil, err
		}
	}
	// Only the groups of numbers the ruleset has (a zero group is another
	// ruleset's: the Obelisk has no holographic chances).
	for _, grp := range []struct {
		name string
		v    any
	}{{"Thresholds", rs.Thresholds}, {"Chances (%)", rs.Chances}, {"Durations", rs.Durations}, {"Trading", rs.Trading}, {"Turns", rs.Turns}, {"Obelisk", rs.Obelisk}} {
		d.Settings = append(d.Settings, flatten(grp.name, grp.v)...)
	}
	l.Title, l.Section = g.Name, "overview"
	if g.Name == "" {
		l.Title = g.ID
	}
	l.Scripts = []string{"tracker.js"}
	return overviewContent(l, d), nil
}

// flatten lists a ruleset group's numbers by their JSON names, in order,
// a nested group's as "observation resolve"; lists of objects (ritual
// types, season modifiers) are left to the pages that show them. A group
// whose numbers are all zero is another ruleset's and lists nothing.
func flatten(group string, v any) []setting {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	var out []setting
	zero := true
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			name := strings.TrimSpace(prefix + " " + k)
			switch x := m[k].(type) {
			case map[string]any:
				walk(name, x)
			case []any:
				var parts []string
				for _, e := range x {
					if s, ok := e.(string); ok {
						parts = append(parts, s)
					} else if f, ok := e.(float64); ok {
						parts = append(parts, strconv.FormatFloat(f, 'f', -1, 64))
					}
				}
				if len(parts) == len(x) && len(x) > 0 {
					zero = false
					out = append(out, setting{Group: group, Name: name, Value: strings.Join(parts, ", ")})
				}
			case string:
				if d, err := time.ParseDuration(x); err == nil && strings.HasSuffix(x, "s") {
					zero = zero && d == 0
					x = game.Duration(d)
				} else {
					zero = zero && x == ""
				}
				out = append(out, setting{Group: group, Name: name, Value: x})
			case float64:
				zero = zero && x == 0
				out = append(out, setting{Group: group, Name: name, Value: strconv.FormatFloat(x, 'f', -1, 64)})
			case bool:
				zero = zero && !x
				out = append(out, setting{Group: group, Name: name, Value: map[bool]string{true: "yes", false: "no"}[x]})
			}
		}
	}
	walk("", m)
	if zero {
		return nil
	}
	return out
}

func (h *Handler) players(ctx context.Context, r *http.Request, l *layout) (content, error) {
	l.Title, l.Section = "Players", "players"
	return playersPage(l, l.members), nil
}

func (h *Handler) player(ctx context.Context, r *http.Request, l *layout) (content, error) {
	id := r.PathValue("player")
	if !game.ValidIdentity(id) {
		return nil, notFound{fmt.Sprintf("%q is not a player id such as discord:1234.", id)}
	}
	p, err := h.svc.Player(ctx, l.Game.ID, id)
	if err != nil {
		return nil, err
	}
	if p.Name != "" {
		l.Names[p.ID] = p.Name
	}
	l.Title, l.Section = "Player "+cmpName(p), "players"
	return playerPage(l, p), nil
}

func cmpName(p game.PlayerView) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

type matchesData struct {
	Live, Finished []gildedhall.MatchSummary
	Pager          pager
	// Battle is this phase's battle, which forms when the phase ends, and
	// Engaged the players who engaged in it so far.
	Battle  string
	Engaged []string
}

func (h *Handler) matches(ctx context.Context, r *http.Request, l *layout) (content, error) {
	all, err := gildedhall.On(h.svc).Matches(ctx, l.Game.ID, gildedhall.MatchFilter{})
	if err != nil {
		return nil, err
	}
	var d matchesData
	for _, p := range l.members {
		if b := gildedhall.ViewOf(p).Battle; b != "" {
			d.Battle, d.Engaged = b, append(d.Engaged, p.ID)
		}
	}
	var finished []gildedhall.MatchSummary
	for _, m := range all {
		if m.Status == gildedhall.MatchEnded || m.Status == gildedhall.MatchCancelled {
			finished = append(finished, m)
		} else {
			d.Live = append(d.Live, m)
		}
	}
	slices.Reverse(finished) // newest first
	var lo, hi int
	d.Pager, lo, hi = paginate(r, len(finished))
	d.Finished = finished[lo:hi]
	l.Title, l.Section = "Matches", "matches"
	return matchesContent(l, d), nil
}

type matchData struct {
	M      gildedhall.MatchView
	Replay gildedhall.MatchReplay
	// Board is the replay's states for tracker.js, which draws the hands
	// and the pile of the current step.
	Board replayBoard
}

// replayBoard is a replay in the shape tracker.js draws: each card name
// once (with its image), each hand as indexes of those names.
type replayBoard struct {
	Cards   []boardCard       `json:"cards"`
	Players map[string]string `json:"players"` // id: display name
	Pile    []int             `json:"pile"`    // the final pile; after step i, its first states[i].pile cards
	States  []boardState      `json:"states"`
}

type boardCard struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type boardState struct {
	Phase string      `json:"phase"`
	Turn  string      `json:"turn,omitempty"`
	Pile  int         `json:"pile"`
	Pool  int         `json:"pool"`
	Hands []boardHand `json:"hands"`
}

type boardHand struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Hand   []int  `json:"hand"` // null while hidden
}

func newReplayBoard(l *layout, rp gildedhall.MatchReplay) replayBoard {
	b := replayBoard{Cards: []boardCard{}, Players: map[string]string{}, Pile: []int{}, States: []boardState{}}
	index := map[string]int{}
	card := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(b.Cards)
			index[name] = i
			b.Cards = append(b.Cards, boardCard{Name: name, URL: cardURL(name, false)})
		}
		return i
	}
	for _, c := range rp.Pile {
		b.Pile = append(b.Pile, card(c))
	}
	for _, st := range rp.States {
		bs := boardState{Phase: st.Phase, Turn: st.Turn, Pile: st.Pile, Pool: st.Pool, Hands: []boardHand{}}
		for _, h := range st.Hands {
			bh := boardHand{ID: h.ID, Status: h.Status}
			if !h.Hidden {
				bh.Hand = []int{}
				for _, c := range h.Hand {
					bh.Hand = append(bh.Hand, card(c))
				}
			}
			if _, ok := b.Players[h.ID]; !ok {
				b.Players[h.ID] = cmp.Or(l.Names[h.ID], h.ID)
			}
			bs.Hands = append(bs.Hands, bh)
		}
		b.States = append(b.States, bs)
	}
	return b
}

func (h *Handler) match(ctx context.Context, r *http.Request, l *layout) (content, error) {
	id := r.PathValue("match")
	m, err := gildedhall.On(h.svc).Match(ctx, l.Game.ID, id, "")
	if err != nil {
		return nil, err
	}
	rp, err := gildedhall.On(h.svc).Replay(ctx, l.Game.ID, id, "")
	if err != nil {
		return nil, err
	}
	l.Title, l.Section = "Match "+m.ID, "matches"
	l.Scripts = []string{"tracker.js"}
	return matchContent(l, matchData{M: m, Replay: rp, Board: newReplayBoard(l, rp)}), nil
}

type tradesData struct {
	Trades []trades.Trade
	Pager  pager
}

func (h *Handler) trades(ctx context.Context, r *http.Request, l *layout) (content, error) {
	all, err := trades.On(h.svc).Trades(ctx, l.Game.ID, trades.TradeFilter{})
	if err != nil {
		return nil, err
	}
	slices.Reverse(all)
	d := tradesData{}
	var lo, hi int
	d.Pager, lo, hi = paginate(r, len(all))
	d.Trades = all[lo:hi]
	l.Title, l.Section = "Trades", "trades"
	return tradesContent(l, d), nil
}

type proposalsData struct {
	Open, Closed []game.ProposalView
	Pager        pager
}

func (h *Handler) proposals(ctx context.Context, r *http.Request, l *layout) (content, error) {
	all, err := h.svc.Proposals(ctx, l.Game.ID, "")
	if err != nil {
		return nil, err
	}
	var d proposalsData
	var closed []game.ProposalView
	for _, p := range all {
		if p.Status == governance.StatusOpen {
			d.Open = append(d.Open, p)
		} else {
			closed = append(closed, p)
		}
	}
	slices.Reverse(closed)
	var lo, hi int
	d.Pager, lo, hi = paginate(r, len(closed))
	d.Closed = closed[lo:hi]
	l.Title, l.Section = "Proposals", "proposals"
	l.Scripts = []string{"tracker.js"}
	return proposalsContent(l, d), nil
}

type judgeData struct {
	Judge       game.JudgeState
	Queue       []game.JusticeRecord
	Rulings     []game.RulingView
	Pager       pager
	Candidacies game.CandidaciesView
}

func (h *Handler) judge(ctx context.Context, r *http.Request, l *layout) (content, error) {
	g := l.Game.ID
	var d judgeData
	var err error
	if d.Judge, err = h.svc.Judge(ctx, g); err != nil {
		return nil, err
	}
	if d.Queue, err = h.svc.JudgeQueue(ctx, g); err != nil {
		return nil, err
	}
	all, err := h.svc.Rulings(ctx, g)
	if err != nil {
		return nil, err
	}
	slices.Reverse(all)
	var lo, hi int
	d.Pager, lo, hi = paginate(r, len(all))
	d.Rulings = all[lo:hi]
	if d.Candidacies, err = game.AllCandidacies(func(pr game.PageRequest) (game.CandidaciesView, error) {
		return h.svc.Candidacies(ctx, g, "", pr)
	}); err != nil {
		return nil, err
	}
	l.Title, l.Section = "The Judge", "judge"
	return judgeContent(l, d), nil
}

type logData struct {
	Entries       []logRow
	Player, Kind  string
	After, Next   string
	Kinds         []string
	FilterPlayers []game.PlayerView
}

// logRow is one log entry as the log table shows it: at most
// maxEventsShown events, each as short text.
type logRow struct {
	game.Entry
	Shown []eventRow
	More  int
}

// eventRow is one event: its type (for filters and tests) and its
// sentence, the components' narration the CLI and the announcer show too.
type eventRow struct {
	Type, Text string
}

// Log page limits: a row shows at most maxEventsShown events (a phase end
// can emit one per player), and a page ends before its rows' estimated
// size passes logBudget, so a page of long entries stays under 100 KB.
const (
	maxEventsShown = 8
	// rowOverhead is the bytes of a row's markup besides its events: its
	// cells, and its link to the game just after the entry (about 125
	// bytes and the game's id).
	rowOverhead   = 300 + 190
	eventOverhead = 60 // bytes of an event's markup besides its text
	logBudget     = 85_000
)

// fit takes the entries keep accepts while their rows fit in budget bytes
// (the first row of a page always fits, however long). cut is how many
// entries it went through: len(es) when all fitted.
func fit(es []game.Entry, keep func(game.Entry) bool, say func(game.Event) string, budget int, first bool) (rows []logRow, size, cut int) {
	for i, e := range es {
		if !keep(e) {
			continue
		}
		row, n := newLogRow(e, say)
		if size+n > budget && !(first && len(rows) == 0) {
			return rows, size, i
		}
		rows, size = append(rows, row), size+n
	}
	return rows, size, len(es)
}

func newLogRow(e game.Entry, say func(game.Event) string) (logRow, int) {
	r := logRow{Entry: e}
	size := rowOverhead
	for i, ev := range e.Events {
		if i == maxEventsShown {
			r.More = len(e.Events) - i
			break
		}
		er := eventRow{Type: ev.Type, Text: say(ev)}
		r.Shown = append(r.Shown, er)
		size += eventOverhead + len(er.Type) + len(html.EscapeString(er.Text))
	}
	return r, size
}

func (h *Handler) logPage(ctx context.Context, r *http.Request, l *layout) (content, error) {
	q := r.URL.Query()
	d := logData{Player: strings.TrimSpace(q.Get("player")), Kind: strings.TrimSpace(q.Get("kind")), After: q.Get("after"),
		FilterPlayers: l.members}
	quoted := strconv.Quote(d.Player)
	say := func(ev game.Event) string { return h.svc.Sentence(ev, l.name) }
	keep := func(e game.Entry) bool {
		if d.Player != "" && e.Actor != d.Player && !slices.ContainsFunc(e.Events, func(ev game.Event) bool {
			// An event names a player as its subject or in its data (the
			// other side of a trade, a duel's invitees...).
			return ev.Player == d.Player || strings.Contains(string(ev.Data), quoted)
		}) {
			return false
		}
		if d.Kind != "" && e.Command != d.Kind && !slices.ContainsFunc(e.Events, func(ev game.Event) bool { return ev.Type == d.Kind }) {
			return false
		}
		return true
	}
	// A page ends at LogPageSize rows or when its rows would pass the
	// byte budget. Store cursors resume only after a whole read, so a read
	// that overflows is repeated with a limit that ends just before the
	// entry that did not fit: at most one extra read per page.
	cursor, used := d.After, 0
	for reads := 0; reads < maxReads && len(d.Entries) < LogPageSize; reads++ {
		page, err := h.svc.Log(ctx, l.Game.ID, cursor, LogPageSize-len(d.Entries))
		if err != nil {
			return nil, err
		}
		rows, size, cut := fit(page.Entries, keep, say, logBudget-used, len(d.Entries) == 0)
		if cut < len(page.Entries) {
			if cut > 0 {
				again, err := h.svc.Log(ctx, l.Game.ID, cursor, cut)
				if err != nil {
					return nil, err
				}
				rows, size, _ = fit(again.Entries, keep, say, logBudget-used, len(d.Entries) == 0)
				cursor = again.Next
			}
			d.Entries = append(d.Entries, rows...)
			used += size
			break
		}
		d.Entries = append(d.Entries, rows...)
		used += size
		cursor = page.Next
		if cursor == "" {
			break
		}
	}
	d.Next = cursor
	kinds := map[string]bool{}
	for _, e := range d.Entries {
		kinds[e.Command] = true
		for _, ev := range e.Events {
			kinds[ev.Type] = true
		}
	}
	for k := range kinds {
		d.Kinds = append(d.Kinds, k)
	}
	slices.Sort(d.Kinds)
	l.Title, l.Section = "Log", "log"
	return logContent(l, d), nil
}

// auditSeed is one period's published seed record as the audit script reads it.
type auditSeed struct {
	Commitment string `json:"commitment"`
	Seed       string `json:"seed,omitempty"`
}

// auditDraw is one logged draw with its inputs. N and Value are decimal
// strings: the specification allows n up to 2^64-1, beyond what a
// JavaScript number holds exactly, so the script reads them as BigInt.
type auditDraw struct {
	Game    string `json:"game"`
	Period  string `json:"period"`
	Command string `json:"command"`
	Index   int    `json:"index"`
	Purpose string `json:"purpose"`
	N       string `json:"n"`
	Value   string `json:"value"`
	// Entry is the log entry that made the draw.
	Entry string `json:"entry"`
}

// auditPayload is the machine-readable content of the audit page, in
// <script type="application/json" id="audit-data">.
type auditPayload struct {
	Game  string               `json:"game"`
	Seeds map[string]auditSeed `json:"seeds"`
	Draws []auditDraw          `json:"draws"`
}

type auditData struct {
	Seeds  []game.SeedView
	Draws  []auditDraw
	Report reportView
	After  string
	Next   string
	// Payload is the page's draws and seeds for audit.js.
	Payload auditPayload
}

// reportView is the server's own verification of every draw of the game.
type reportView struct {
	Checked, Pending, Mismatches int
	BadSeeds                     []string
	OK                           bool
}

func (h *Handler) audit(ctx context.Context, r *http.Request, l *layout) (content, error) {
	g := l.Game.ID
	seeds, err := h.svc.Seeds(ctx, g)
	if err != nil {
		return nil, err
	}
	rep, err := h.svc.Audit(ctx, g)
	if err != nil {
		return nil, err
	}
	d := auditData{Seeds: seeds, After: r.URL.Query().Get("after"),
		Report: reportView{Checked: rep.Checked, Pending: rep.Pending, Mismatches: len(rep.Mismatches), BadSeeds: rep.BadSeeds, OK: rep.OK()}}
	pl := auditPayload{Game: g, Seeds: map[string]auditSeed{}, Draws: []auditDraw{}}
	for _, s := range seeds {
		pl.Seeds[s.Period] = auditSeed{Commitment: s.Commitment, Seed: s.Seed}
	}
	cursor := d.After
	for reads := 0; reads < maxReads && len(pl.Draws) < auditDrawTarget; reads++ {
		// Entries with many draws (a pack is 2 per card) come a few at a time,
		// so one read cannot carry a page far past its target.
		page, err := h.svc.Log(ctx, g, cursor, max(1, (auditDrawTarget-len(pl.Draws))/8))
		if err != nil {
			return nil, err
		}
		for _, e := range page.Entries {
			for _, dr := range e.Draws {
				pl.Draws = append(pl.Draws, auditDraw{Game: dr.Game, Period: dr.Period, Command: dr.Command, Index: dr.Index,
					Purpose: dr.Purpose, N: strconv.Itoa(dr.N), Value: strconv.Itoa(dr.Value), Entry: e.ID})
			}
		}
		cursor = page.Next
		if cursor == "" {
			break
		}
	}
	d.Next, d.Draws, d.Payload = cursor, pl.Draws, pl
	l.Title, l.Section = "Randomness audit", "audit"
	l.Scripts = []string{"audit.js"}
	return auditContent(l, d), nil
}
