package tracker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/tracker"
)

// Monday 2026-11-30 12:00 UTC: Phase I of ISO week 49.
var start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const (
	gameID = "hall"
	admin  = "discord:1"
	ada    = "discord:2"
	bo     = "discord:3"
	cy     = "discord:4"
	dee    = "discord:5"
)

// played is a game the test played through the service: an economy
// (grants, purchases, a pack opened, a trade), a finished duel, a decided
// and an open proposal, a Judge elected by the week's vote, a ruling with a
// vote of confidence.
type played struct {
	t       *testing.T
	ctx     context.Context
	st      store.Store
	svc     *game.Service
	clk     *clock.Manual
	h       http.Handler
	n       int
	duel    string
	trade   string
	ruling  string
	decided string // proposal
	open    string // proposal
}

func (p *played) key() string { p.n++; return fmt.Sprintf("k%d", p.n) }

func (p *played) req(actor string) game.Request {
	return game.Request{Game: gameID, Actor: actor, Key: p.key()}
}

func (p *played) must(res *game.Result, err error) *game.Result {
	p.t.Helper()
	if err != nil {
		p.t.Fatal(err)
	}
	return res
}

func decode[T any](t *testing.T, res *game.Result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(res.Body, &v); err != nil {
		t.Fatalf("decoding %s: %v", res.Body, err)
	}
	return v
}

func msg(id string) game.MessageRef {
	return game.MessageRef{Platform: "discord", Channel: "500", Message: id}
}

func suit(s string, lo, hi int) []gildedhall.CardGrant {
	var out []gildedhall.CardGrant
	for v := lo; v <= hi; v++ {
		out = append(out, gildedhall.CardGrant{Name: fmt.Sprintf("%d of %s", v, s)})
	}
	return out
}

// newGame creates the game and its players, nothing else.
func newGame(t *testing.T) *played {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "croupier.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clock.NewManual(start)
	// A fixed entropy makes the story the same each run: its purchases
	// and packs draw the same cards (a random draw of a second holo 2 of
	// Hearts, say, once made the deck page differ from what it checks).
	svc := rulesets.New(st, clk, game.WithLogger(slog.New(slog.DiscardHandler)), game.WithEntropy(rand.NewChaCha8([32]byte{'t', 'r', 'a', 'c', 'k'})))
	p := &played{t: t, ctx: context.Background(), st: st, svc: svc, clk: clk}
	p.h = tracker.New(svc, tracker.Options{Cards: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg"/>`)
	})})
	p.must(svc.Create(p.ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: gameID, Name: "Tracker Test Hall"}))
	for id, name := range map[string]string{ada: "Ada", bo: "Bo", cy: "Cy", dee: "Dee"} {
		p.must(svc.Join(p.ctx, p.req(id), game.JoinGame{Name: name}))
	}
	return p
}

// play plays the whole story of the game, up to the Monday after the start
// (so the first period's seed is revealed) and a little beyond.
func play(t *testing.T) *played {
	p := newGame(t)
	p.economy()
	p.playDuel()
	p.governance()
	p.obelisk()
	return p
}

// obeliskID is the obelisk game the suite plays beside the hall: an
// observation, tasks, a ritual type added by amendment, a Gathering
// completed and another still open.
const obeliskID = "stone"

func (p *played) obelisk() {
	ctx, svc := p.ctx, p.svc
	r := func(actor string) game.Request { return game.Request{Game: obeliskID, Actor: actor, Key: p.key()} }
	p.must(svc.Create(ctx, game.Request{Actor: admin, Key: p.key()}, game.CreateGame{ID: obeliskID, Name: "The Obelisk", Ruleset: obelisk.ID}))
	ritual := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	p.must(svc.Amend(ctx, r(admin), game.Amend{Patch: json.RawMessage(ritual), Reason: "the fixture's ritual"}))
	p.must(svc.Join(ctx, r(ada), game.JoinGame{Name: "Ada"}))
	p.must(svc.Join(ctx, r(bo), game.JoinGame{Name: "Bo"}))
	ob := obelisk.On(svc)
	p.must(ob.PerformTask(ctx, r(ada), obelisk.Task{Task: "herbalism"}))
	p.must(ob.Observe(ctx, r(bo)))
	p.must(ob.StartGathering(ctx, r(ada), obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "rit-1"}))
	p.must(ob.Contribute(ctx, r(bo), obelisk.GatheringMove{Gathering: "rit-1", Component: "⚡"}))
	p.must(ob.Contribute(ctx, r(ada), obelisk.GatheringMove{Gathering: "rit-1", Component: "🌿"}))
	p.must(ob.Complete(ctx, r(ada), obelisk.GatheringRef{Gathering: "rit-1"}))
	p.must(ob.StartGathering(ctx, r(bo), obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "rit-2"}))
}

func (p *played) economy() {
	svc, ctx := p.svc, p.ctx
	p.must(gildedhall.On(svc).Grant(ctx, p.req(admin), gildedhall.Grant{Player: ada, Vertebrae: 100, Chips: 5, Reason: "test",
		Cards: append(suit("Hearts", 2, 9), gildedhall.CardGrant{Name: "King of Spades", Holo: true}, gildedhall.CardGrant{Name: "2 of Hearts", Holo: true})}))
	p.must(gildedhall.On(svc).Grant(ctx, p.req(admin), gildedhall.Grant{Player: bo, Vertebrae: 20, Chips: 5, Reason: "test", Cards: suit("Clubs", 2, 9)}))
	p.must(gildedhall.On(svc).Purchase(ctx, p.req(ada), gildedhall.Purchase{Item: "random-card", Quantity: 2}))
	bought := decode[gildedhall.PurchaseResult](p.t, p.must(gildedhall.On(svc).Purchase(ctx, p.req(ada), gildedhall.Purchase{Item: "handy-pack"})))
	if len(bought.Packs) != 1 {
		p.t.Fatalf("bought %+v, want one pack", bought)
	}
	p.must(gildedhall.On(svc).Open(ctx, p.req(ada), gildedhall.OpenPack{Pack: bought.Packs[0].ID}))
	tr := decode[trades.Trade](p.t, p.must(trades.On(svc).OfferTrade(ctx, p.req(ada), trades.OfferTrade{To: bo,
		Give: economy.Items{Vertebrae: 3}, Take: economy.Items{Vertebrae: 1}, Note: "three for one"})))
	p.trade = tr.ID
}

// playDuel plays a duel between Ada and Bo to its end with legal moves
// (the first of each list, passing in betting).
func (p *played) playDuel() {
	svc, ctx := p.svc, p.ctx
	v := decode[gildedhall.MatchView](p.t, p.must(gildedhall.On(svc).RequestDuel(ctx, p.req(ada), gildedhall.RequestDuel{Invitees: []string{bo}})))
	p.duel = v.ID
	p.must(gildedhall.On(svc).AnswerDuel(ctx, p.req(bo), gildedhall.AnswerDuel{Match: v.ID, Accept: true}))
	for range 300 {
		m, err := gildedhall.On(svc).Match(ctx, gameID, v.ID, "")
		if err != nil {
			p.t.Fatal(err)
		}
		if m.Status != gildedhall.MatchPlaying {
			return
		}
		mover := m.Movers[0]
		lv, err := gildedhall.On(svc).Match(ctx, gameID, v.ID, mover)
		if err != nil {
			p.t.Fatal(err)
		}
		var mv exoptosis.Move
		for _, c := range lv.LegalMoves {
			if c.Kind == "forfeit" || c.Kind == "terminate" {
				continue
			}
			if mv.Kind == "" || (lv.Phase == "betting" && (c.Kind == "pass" || c.Kind == "match")) {
				mv = c
			}
		}
		if mv.Kind == "select" {
			mv.Cards = mv.Cards[:4]
		}
		p.must(gildedhall.On(svc).Move(ctx, p.req(mover), gildedhall.MatchMove{Match: v.ID, Kind: mv.Kind, Card: mv.Card, Cards: mv.Cards,
			Target: mv.Target, Targets: mv.Targets, Amount: mv.Amount}))
	}
	p.t.Fatal("the duel did not end in 300 moves")
}

func (p *played) vote(message string, up, down []string) {
	p.must(p.svc.PushReactions(p.ctx, p.req(admin), game.PushReactions{Message: msg(message), Up: up, Down: down}))
}

func (p *played) runDue(at time.Time) {
	p.t.Helper()
	p.clk.Set(at)
	rep, err := p.svc.RunDue(p.ctx)
	if err != nil || len(rep.Failed) > 0 {
		p.t.Fatalf("RunDue: %v %v", err, rep.Failed)
	}
}

func (p *played) governance() {
	svc, ctx := p.svc, p.ctx
	pr := decode[game.ProposalView](p.t, p.must(svc.SubmitProposal(ctx, p.req(cy), game.SubmitProposal{Message: msg("prop-1"),
		Title: "More gifts", Text: "Gifts give one more card.", Amendment: json.RawMessage(`{"thresholds":{"gift":{"base":2}}}`)})))
	p.decided = pr.ID
	p.vote("prop-1", []string{ada, bo, cy}, []string{dee})
	// Thursday: Dee stands for Judge; the week's end elects her.
	p.clk.Set(time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC))
	p.must(svc.StandForJudge(ctx, p.req(dee), game.StandForJudge{Message: msg("cand-dee")}))
	p.vote("cand-dee", []string{ada, bo}, nil)
	p.runDue(time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC))
	// Monday of week 50: a request for justice, a ruling, a vote of confidence.
	p.clk.Set(time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC))
	rq := decode[game.JusticeRecord](p.t, p.must(svc.RequestJustice(ctx, p.req(ada), game.RequestJustice{Kind: governance.KindStatement,
		Text: "Kings are worth 13.", Message: msg("rq-1")})))
	ru := decode[game.RulingView](p.t, p.must(svc.Rule(ctx, p.req(dee), game.RuleOn{Request: rq.Request.ID, Answer: "true"})))
	p.ruling = ru.ID
	p.must(svc.OpenConfidence(ctx, p.req(bo), game.OpenConfidence{Ruling: ru.ID, Poll: msg("poll-1")}))
	p.vote("poll-1", []string{ada}, []string{bo})
	// A request still waiting, and a proposal still open.
	p.must(svc.RequestJustice(ctx, p.req(bo), game.RequestJustice{Kind: governance.KindQuestion, Text: "May Jokers be gifted?", Message: msg("rq-2")}))
	op := decode[game.ProposalView](p.t, p.must(svc.SubmitProposal(ctx, p.req(ada), game.SubmitProposal{Message: msg("prop-2"), Title: "Cheaper packs"})))
	p.open = op.ID
	p.vote("prop-2", []string{ada, cy}, []string{bo})
	// Something random in the new period, whose seed is still secret.
	p.must(gildedhall.On(svc).Purchase(ctx, p.req(ada), gildedhall.Purchase{Item: "random-card"}))
}

// get fetches a path from the tracker.
func (p *played) get(path string) (int, string, http.Header) {
	p.t.Helper()
	w := httptest.NewRecorder()
	p.h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w.Code, w.Body.String(), w.Header()
}

// page fetches a path and requires 200.
func (p *played) page(path string) string {
	p.t.Helper()
	code, body, _ := p.get(path)
	if code != http.StatusOK {
		p.t.Fatalf("GET %s: %d\n%.2000s", path, code, body)
	}
	return body
}

func gamePath(parts ...string) string {
	return "/tracker/games/" + strings.Join(append([]string{gameID}, parts...), "/")
}

func httptestDo(p *played, method, path string) int {
	w := httptest.NewRecorder()
	p.h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
	return w.Code
}
