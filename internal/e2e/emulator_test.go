package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/lambdarun"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/governance"
	"croupier/internal/rules/players"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// APIKey is the bearer key every sample event in events/ sends; the
// emulated functions run with API_KEYS="<APIKey> as=*" (a key for anyone).
const APIKey = "dev-key"

// pastGame is created by the test, not by an event, with a clock 15 days
// back, so its periods are overdue when phase-end runs.
const pastGame = "e2e-past"

// step invokes the function named by the event's directory with one event
// file and checks the result.
type step struct {
	event string // under events/, e.g. "actions/join.json"
	check func(t *testing.T, res []byte) string
}

// httpResp decodes an actions result: the API Gateway response and its
// JSON body (nil when the body is not JSON).
func httpResp(t *testing.T, res []byte) (events.APIGatewayV2HTTPResponse, map[string]any) {
	t.Helper()
	var r events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(res, &r); err != nil || r.StatusCode == 0 {
		t.Fatalf("not an API Gateway response (%v): %s", err, res)
	}
	var body map[string]any
	_ = json.Unmarshal([]byte(r.Body), &body)
	return r, body
}

// ok expects status and the given top-level body fields.
func ok(status int, fields map[string]any) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		r, body := httpResp(t, res)
		if r.StatusCode != status {
			t.Fatalf("status %d, want %d; body %s", r.StatusCode, status, r.Body)
		}
		if ct := r.Headers["Content-Type"]; ct != "application/json" || r.IsBase64Encoded {
			t.Errorf("Content-Type %q base64 %v, want plain application/json", ct, r.IsBase64Encoded)
		}
		for k, want := range fields {
			if got := fmt.Sprint(body[k]); got != fmt.Sprint(want) {
				t.Errorf("body.%s = %s, want %v (body %s)", k, got, want, r.Body)
			}
		}
		return fmt.Sprint(r.StatusCode)
	}
}

// problem expects an application/problem+json answer with status and code.
func problem(status int, code string) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		r, body := httpResp(t, res)
		if r.StatusCode != status || body["code"] != code {
			t.Fatalf("status %d code %v, want %d %s; body %s", r.StatusCode, body["code"], status, code, r.Body)
		}
		if ct := r.Headers["Content-Type"]; ct != "application/problem+json" {
			t.Errorf("Content-Type %q, want application/problem+json", ct)
		}
		if d, _ := body["detail"].(string); d == "" {
			t.Errorf("problem without a detail: %s", r.Body)
		}
		return fmt.Sprintf("%d %s", r.StatusCode, code)
	}
}

// both runs checks in order.
func both(fs ...func(*testing.T, []byte) string) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		var out string
		for _, f := range fs {
			out = f(t, res)
		}
		return out
	}
}

// dueReport expects a phase-end result with exactly these transitions.
func dueReport(want func() []string) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		var rep game.DueReport
		if err := json.Unmarshal(res, &rep); err != nil || rep.Transitions == nil {
			t.Fatalf("not a due report (%v): %s", err, res)
		}
		if len(rep.Failed) > 0 {
			t.Errorf("failed work: %v", rep.Failed)
		}
		if w := want(); !slices.Equal(rep.Transitions, w) {
			t.Errorf("transitions %v, want %v", rep.Transitions, w)
		}
		return fmt.Sprintf("%d transitions", len(rep.Transitions))
	}
}

// TestEmulator builds every function, runs each under the Lambda Runtime
// Interface Emulator against a fresh table on DynamoDB Local, and invokes it
// with every events/*/*.json file in the order of steps. An event file with
// no step fails the test, so a new sample cannot go untested. Every DynamoDB
// call a function makes must be allowed by its template policies.
func TestEmulator(t *testing.T) {
	root := repoRoot(t)
	rie := testenv.RIE(t)
	client, table := testenv.DynamoTable(t, "e2e")
	endpoint := testenv.DynamoEndpoint(t)
	// No deadline around the whole test: it builds every function first,
	// and a build's time says how loaded the machine is, not whether the
	// function works. Each invocation has its own watchdog below.
	ctx := t.Context()

	// A game whose periods ended while nobody ran phase-end: the first
	// phase-end run ends them all, each as of its end; the second finds
	// nothing (RULINGS T4).
	st := dynamo.New(client, table)
	created := time.Now().UTC().AddDate(0, 0, -15)
	quiet := game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, err := rulesets.New(st, clock.NewManual(created), quiet).Create(ctx,
		game.Request{Actor: "discord:9", Key: "e2e-past-create"}, game.CreateGame{ID: pastGame}); err != nil {
		t.Fatalf("creating %s: %v", pastGame, err)
	}
	// A trade offered back then, never answered: its 7-day window is long
	// over, so phase-end closes it (as of its expiry) along with the periods.
	staleTrade := offerPastTrade(ctx, t, rulesets.New(st, clock.NewManual(created), quiet))
	// Two players with cards in a game whose turns time out in seconds,
	// for the duels and timeouts events (setupDuelGame).
	duel := setupDuelGame(ctx, t, rulesets.New(st, clock.Real{}, quiet))
	overdue := func() []string {
		sched, _ := calendar.For(calendar.UTCPhases)
		var ids []string
		now := time.Now()
		for p := sched.PeriodAt(created); !p.End.After(now); p = sched.Next(p) {
			ids = append(ids, pastGame+"/"+p.ID)
		}
		return ids
	}
	none := func() []string { return []string{} }
	expired := func(want ...string) func(*testing.T, []byte) string {
		return func(t *testing.T, res []byte) string {
			var rep game.DueReport
			_ = json.Unmarshal(res, &rep)
			if !slices.Equal(rep.Expired, want) {
				t.Errorf("expired trades %v, want %v", rep.Expired, want)
			}
			return fmt.Sprintf("%d transitions, %d trades expired", len(rep.Transitions), len(rep.Expired))
		}
	}

	const (
		g     = "sample-hall"
		ada   = "discord:1002"
		grace = "discord:1003"
	)
	// The ids the economy events refer to are derived from the actor and
	// the idempotency key of the event that made them (game.CommandID).
	grantedKing := game.CommandID("discord:1001", "discord-interaction-1101")[:10] + ".1"
	giftCard := game.CommandID(ada, "discord-interaction-1106")[:10] + ".1"
	sampleTrade := "t" + game.CommandID(ada, "discord-interaction-1107")[:10]
	var gov govPast // set up by the votes/judge.json step
	funcs := map[string]*lambdarun.Function{}
	steps := []step{
		{"actions/healthz.json", ok(200, map[string]any{"status": "ok"})},
		{"actions/openapi.json", func(t *testing.T, res []byte) string {
			r, _ := httpResp(t, res)
			if r.StatusCode != 200 || r.IsBase64Encoded || !strings.HasPrefix(r.Body, "openapi:") {
				t.Errorf("status %d base64 %v body %.40q, want 200 and the YAML contract as text", r.StatusCode, r.IsBase64Encoded, r.Body)
			}
			return fmt.Sprint(r.StatusCode)
		}},
		{"actions/wrong-api-key.json", problem(401, "invalid_api_key")},
		{"actions/unknown-route.json", problem(404, "not_found")},
		{"actions/malformed-json.json", problem(400, "invalid_json")},
		{"actions/create-game.json", ok(201, map[string]any{"id": g, "ruleset": "gilded-hall", "name": "Sample Gilded Hall"})},
		// The same event again is a repeat of the same idempotency key.
		{"actions/create-game.json", both(ok(201, map[string]any{"id": g}), func(t *testing.T, res []byte) string {
			r, _ := httpResp(t, res)
			if r.Headers["Idempotent-Replayed"] != "true" {
				t.Errorf("repeat not marked Idempotent-Replayed: headers %v", r.Headers)
			}
			return "201 replayed"
		})},
		{"actions/join.json", ok(200, map[string]any{"id": "discord:1002", "name": "Ada", "member": true, "game": g})},
		{"actions/join-base64-body.json", ok(200, map[string]any{"id": "discord:1003", "name": "Grace", "member": true})},
		{"actions/status.json", ok(200, map[string]any{"id": g, "ended": false})},
		{"actions/me.json", ok(200, map[string]any{"id": "discord:1002", "member": true})},
		{"actions/players.json", both(ok(200, nil), func(t *testing.T, res []byte) string {
			r, _ := httpResp(t, res)
			var body struct{ Players []struct{ ID string } }
			_ = json.Unmarshal([]byte(r.Body), &body)
			var ids []string
			for _, p := range body.Players {
				ids = append(ids, p.ID)
			}
			slices.Sort(ids)
			if !slices.Equal(ids, []string{"discord:1002", "discord:1003"}) {
				t.Errorf("players %v, want discord:1002 and discord:1003", ids)
			}
			return "200"
		})},
		// limit=2 in the raw query string: three entries exist, two come back.
		{"actions/log-page.json", both(ok(200, nil), func(t *testing.T, res []byte) string {
			r, _ := httpResp(t, res)
			var page struct {
				Entries []struct{ Command string }
				Next    string `json:"next_cursor"`
			}
			_ = json.Unmarshal([]byte(r.Body), &page)
			var cmds []string
			for _, e := range page.Entries {
				cmds = append(cmds, e.Command)
			}
			if !slices.Equal(cmds, []string{"create", "join"}) || page.Next == "" {
				t.Errorf("log page %v next %q, want [create join] and a cursor", cmds, page.Next)
			}
			return "200"
		})},
		// The economy, in the order events/README.md gives: the admin's grant
		// pays for Ada's purchases and the card she trades.
		{"actions/grant-items.json", both(ok(200, map[string]any{"player": ada, "vertebrae": 40}), func(t *testing.T, res []byte) string {
			var g gildedhall.GrantResult
			body(t, res, &g)
			if len(g.Cards) != 1 || g.Cards[0].ID != grantedKing || !g.Cards[0].Holo || len(g.Packs) != 1 {
				t.Errorf("granted cards %+v packs %+v, want one holographic King %s (trade-offer.json gives it) and one pack", g.Cards, g.Packs, grantedKing)
			}
			return "200"
		})},
		{"purchases/buy-random-card.json", both(ok(200, map[string]any{"item": "random-card", "paid": 5, "vertebrae": 35}), func(t *testing.T, res []byte) string {
			var b gildedhall.PurchaseResult
			body(t, res, &b)
			if len(b.Cards) != 1 || b.Cards[0].Name == "" {
				t.Errorf("bought cards %+v, want one random card", b.Cards)
			}
			return "200 " + b.Cards[0].Name
		})},
		// Two Chips cost 50; Ada has 35: refused, nothing spent, the
		// answer says what is missing.
		{"purchases/insufficient-funds.json", both(fields(map[string]any{"cost": 50, "have": 35, "missing": 15}), problem(422, "insufficient_funds"))},
		{"purchases/unknown-item.json", problem(400, "unknown_item")},
		{"purchases/shop.json", both(ok(200, nil), func(t *testing.T, res []byte) string {
			var shop struct{ Items []gildedhall.ShopItemView }
			body(t, res, &shop)
			prices := map[string]int{}
			for _, it := range shop.Items {
				prices[it.ID] = it.Price
			}
			want := map[string]int{"random-card": 5, "handy-pack": 12, "deck-pack": 18, "legendary-pack": 50, "chip": 25}
			if !maps.Equal(prices, want) {
				t.Errorf("shop prices %v, want %v", prices, want)
			}
			return fmt.Sprintf("200, %d items", len(prices))
		})},
		{"actions/open-pack.json", both(ok(200, map[string]any{"name": "Handy Pack"}), func(t *testing.T, res []byte) string {
			var o struct{ Cards []struct{ ID, Name string } }
			body(t, res, &o)
			if len(o.Cards) != 3 {
				t.Errorf("a Handy Pack gave %d cards, want 3", len(o.Cards))
			}
			return "200, 3 cards"
		})},
		{"actions/gift.json", both(ok(200, map[string]any{"giver": ada, "receiver": grace}), func(t *testing.T, res []byte) string {
			var g gildedhall.GiftResult
			body(t, res, &g)
			if len(g.Cards) == 0 || g.Cards[0].ID != giftCard {
				t.Errorf("gift cards %+v, want the first to be %s (trade-offer.json takes it)", g.Cards, giftCard)
			}
			return fmt.Sprintf("200, %d cards", len(g.Cards))
		})},
		{"actions/trade-offer.json", ok(201, map[string]any{"id": sampleTrade, "status": trades.TradeOpen, "from": ada, "to": grace})},
		{"actions/trade-accept.json", ok(200, map[string]any{"id": sampleTrade, "status": trades.TradeExecuted, "closed_by": grace})},
		{"actions/leave.json", ok(200, map[string]any{"player": "discord:1003"})},
		// The Obelisk (events/README.md): a game, a ritual type by
		// amendment; Ada joins (1⚡), observes (every player +1⚡), performs
		// Herbalism and starts a Gathering (1⚡ each): she has no ⚡ left to
		// contribute, so the contribution and the completion are refused.
		{"actions/obelisk-create-game.json", ok(201, map[string]any{"id": "sample-stone", "ruleset": "obelisk"})},
		{"actions/obelisk-amend-ritual.json", ok(200, map[string]any{"ruleset": "obelisk"})},
		{"actions/obelisk-join.json", ok(200, map[string]any{"id": ada, "member": true, "game": "sample-stone"})},
		{"actions/obelisk-observe.json", ok(200, map[string]any{"distance": 9, "moved": 1})},
		{"actions/obelisk-task.json", ok(200, map[string]any{"task": "herbalism", "experience": 1})},
		{"actions/obelisk-gathering-start.json", ok(201, map[string]any{"task": "gathering"})},
		{"actions/obelisk-gathering-contribute.json", problem(422, "no_component")},
		{"actions/obelisk-gathering-complete.json", problem(422, "cost_not_covered")},
		// A turns game (seed 003): a proposal, a vote, the turns view.
		{"actions/turns-create-game.json", ok(201, map[string]any{"id": "sample-nomic", "ruleset": "turns"})},
		{"actions/turns-join.json", ok(200, map[string]any{"id": ada, "member": true, "game": "sample-nomic"})},
		{"actions/turns-propose.json", ok(201, map[string]any{"id": "P1", "turn": "1-1", "proposer_name": "Ada", "status": "open"})},
		{"actions/turns-vote.json", ok(200, map[string]any{"proposal": "P1", "vote": "for", "voter_name": "Ada"})},
		{"actions/turns-status.json", ok(200, map[string]any{"game": "sample-nomic", "mode": "unanimity"})},
		{"phase-end/scheduler.json", both(dueReport(overdue), expired(pastGame+"/"+staleTrade))},
		{"phase-end/scheduled-event.json", both(dueReport(none), expired())},
		// Discord interactions, signed with the test key (discordtest) whose
		// public half the functions get as DISCORD_PUBLIC_KEY.
		{"discord/ping.json", discordReply(func(t *testing.T, r discord.Response) string {
			if r.Type != discord.ResponsePong || r.Data != nil {
				t.Errorf("PING answered %+v, want {\"type\":1}", r)
			}
			return "PONG"
		})},
		// The same function behind a Lambda Function URL (DiscordEndpoint).
		{"discord/function-url-ping.json", discordReply(func(t *testing.T, r discord.Response) string {
			if r.Type != discord.ResponsePong || r.Data != nil {
				t.Errorf("PING through a Function URL answered %+v, want {\"type\":1}", r)
			}
			return "PONG"
		})},
		{"discord/bind.json", discordReply(func(t *testing.T, r discord.Response) string {
			if r.Type != discord.ResponseMessage || r.Data == nil || !strings.Contains(*r.Data.Content, "now plays the game "+g) {
				t.Errorf("bind answered %+v", r.Data)
			}
			return "bound guild 1100 to " + g
		})},
		{"discord/status.json", discordReply(func(t *testing.T, r discord.Response) string {
			if r.Data == nil || r.Data.Flags != discord.FlagEphemeral || len(r.Data.Embeds) != 1 ||
				!slices.ContainsFunc(r.Data.Embeds[0].Fields, func(f discord.EmbedField) bool { return f.Name == "Vertebrae" && f.Value == "30" }) {
				t.Errorf("status answered %+v, want Ada's private status with 30 Vertebrae", r.Data)
			}
			return "ephemeral status"
		})},
		// Chat webhooks without their secret's signature change nothing.
		{"slack/bad-signature.json", problem(401, "invalid_signature")},
		{"slack/stale-timestamp.json", problem(401, "invalid_signature")},
		{"slack/bridge-unsigned.json", problem(401, "invalid_signature")},
		// Announcements: the bind above set announcement channel 1102; with
		// no bot token the function logs the post. The batch is as the
		// table's stream delivers it: the Chip purchase is announced, the
		// roll has nothing to say, the player update is passed over. The
		// same batch again is a retried delivery: the entry's record says
		// done, nothing is posted.
		{"announce/stream.json", streamBatch(func() string { return funcs["announce"].Output() }, 1, 0)},
		{"announce/stream.json", streamBatch(func() string { return funcs["announce"].Output() }, 1, 1)},
		// Exoptosis (functions/duels): a duel is requested and accepted, one
		// player selects, selecting again is someone else's turn; the match
		// shows the other player's legal moves and the selection deadline,
		// which this step waits out; then the timeouts function chooses for
		// the absent player, once (RULINGS X7).
		{"duels/request-duel.json", ok(201, map[string]any{"id": duel, "status": gildedhall.MatchRequested, "waiting_for": []string{"discord:2002"}})},
		{"duels/accept-duel.json", ok(200, map[string]any{"id": duel, "status": gildedhall.MatchPlaying, "phase": "selection"})},
		{"duels/select.json", both(ok(200, nil), func(t *testing.T, res []byte) string {
			var mr gildedhall.MoveResult
			body(t, res, &mr)
			if len(mr.Events) != 1 || mr.Events[0].Kind != "selected" || mr.Events[0].Participant != "discord:2001" {
				t.Errorf("select events %+v, want discord:2001's selection", mr.Events)
			}
			return "200 selected"
		})},
		{"duels/not-your-turn.json", problem(409, "not_your_turn")},
		{"duels/match.json", both(ok(200, map[string]any{"viewer": "discord:2002", "phase": "selection"}), func(t *testing.T, res []byte) string {
			var v gildedhall.MatchView
			body(t, res, &v)
			if len(v.LegalMoves) == 0 || v.LegalMoves[0].Kind != "select" || v.Deadline == nil {
				t.Fatalf("discord:2002's view %+v, want a select move and a deadline", v)
			}
			time.Sleep(time.Until(v.Deadline.Add(100 * time.Millisecond)))
			return "200, deadline " + v.Deadline.Format(time.RFC3339Nano) + " waited out"
		})},
		{"timeouts/scheduler.json", func(t *testing.T, res []byte) string {
			var rep game.DueReport
			if err := json.Unmarshal(res, &rep); err != nil {
				t.Fatalf("not a due report (%v): %s", err, res)
			}
			if want := []string{"e2e-duel/" + duel}; !slices.Equal(rep.Done["match"], want) || len(rep.Failed) > 0 {
				t.Errorf("timeouts did %v (failed %v), want the match timer %v", rep.Done, rep.Failed, want)
			}
			return fmt.Sprintf("match timers %v", rep.Done["match"])
		}},
		{"timeouts/scheduler.json", func(t *testing.T, res []byte) string {
			var rep game.DueReport
			_ = json.Unmarshal(res, &rep)
			if len(rep.Done["match"]) > 0 || len(rep.Failed) > 0 {
				t.Errorf("a second run did %v (failed %v), want nothing", rep.Done, rep.Failed)
			}
			return "nothing due"
		}},
		// Governance (functions/votes, RULINGS G1-G5) on sample-hall: Ada's
		// urgent proposal with an amendment, a bridge's reactions (a
		// non-player's 👎 is ignored), the live count, an edit, Ada's
		// candidacy, a request for justice by the (non-player) admin, a ruling
		// on no such request, the empty office.
		{"votes/submit-proposal.json", both(ok(201, map[string]any{"author": ada, "class": "urgent", "status": "open", "title": "Cheaper cards"}),
			func(t *testing.T, res []byte) string {
				var p game.ProposalView
				body(t, res, &p)
				if p.VotingEnd.Sub(p.CreatedAt) != 48*time.Hour || len(p.Amendment) == 0 {
					t.Errorf("urgent proposal %+v, want 48 hours of voting and its amendment", p)
				}
				return "201 " + p.ID
			})},
		{"votes/push-reactions.json", ok(200, map[string]any{"up": []string{ada}, "changes": 1})},
		{"votes/list-proposals.json", both(ok(200, nil), func(t *testing.T, res []byte) string {
			var l struct{ Proposals []game.ProposalView }
			body(t, res, &l)
			if len(l.Proposals) != 1 || l.Proposals[0].Live == nil || l.Proposals[0].Live.For != 1 ||
				!slices.Equal(l.Proposals[0].Live.Ignored, []string{"discord:1099"}) {
				t.Errorf("open proposals %+v, want Ada's with 1 for and the non-player ignored", l.Proposals)
			}
			return "200, live 1 for"
		})},
		{"votes/message-edited.json", ok(200, map[string]any{"edited": true, "changes": 2})},
		{"votes/stand-for-judge.json", ok(201, map[string]any{"candidate": ada})},
		{"votes/request-justice.json", both(ok(201, nil), func(t *testing.T, res []byte) string {
			var r game.JusticeRecord
			body(t, res, &r)
			if r.Request.Author != "discord:1001" || r.Request.Status != "open" || r.Request.Kind != "question" {
				t.Errorf("request %+v, want the admin's open question", r.Request)
			}
			return "201 " + r.Request.ID
		})},
		{"votes/rule-unknown-request.json", problem(404, "unknown_request")},
		// The office is empty; then a game 15 days in the past gets an
		// adopted-to-be urgent proposal and a candidacy, both long due, for
		// the scheduled functions below (setupGovPast).
		{"votes/judge.json", both(ok(200, map[string]any{"removal_assents": []string{}}), func(t *testing.T, res []byte) string {
			gov = setupGovPast(ctx, t, st, quiet)
			return "200, no Judge; " + govPastGame + " set up"
		})},
		// The weekly election run does all due work: the past game's
		// election seats its candidate as of the week's end, and its proposal
		// is adopted as of its deadline (however late). The minute tally run
		// after it (the same work delivered again) finds nothing: one result.
		{"judge-election/scheduler.json", func(t *testing.T, res []byte) string {
			var rep game.DueReport
			if err := json.Unmarshal(res, &rep); err != nil {
				t.Fatalf("not a due report (%v): %s", err, res)
			}
			if want := []string{govPastGame + "/" + gov.week}; !slices.Equal(rep.Done["election"], want) || len(rep.Failed) > 0 {
				t.Errorf("judge-election did %v (failed %v), want the election %v", rep.Done, rep.Failed, want)
			}
			gov.check(ctx, t, st, quiet)
			return fmt.Sprintf("elections %v", rep.Done["election"])
		}},
		{"tally/scheduler.json", func(t *testing.T, res []byte) string {
			var rep game.DueReport
			if err := json.Unmarshal(res, &rep); err != nil {
				t.Fatalf("not a due report (%v): %s", err, res)
			}
			if len(rep.Done["proposal"])+len(rep.Done["election"])+len(rep.Done["confidence"]) > 0 || len(rep.Failed) > 0 {
				t.Errorf("a second delivery did %v (failed %v), want nothing", rep.Done, rep.Failed)
			}
			gov.check(ctx, t, st, quiet)
			return "nothing due; one result"
		}},
		// The public tracker: pages of the sample game (no API key) and a
		// friendly 404; the cards function: a card image as PNG for chat
		// embeds.
		{"tracker/overview.json", htmlPage(200, "<h1>Sample Gilded Hall</h1>", `id="period"`, `<nav aria-label="Game">`)},
		{"tracker/audit.json", htmlPage(200, `id="audit-run"`, `<script type="application/json" id="audit-data">{"game":"sample-hall"`, `data-draw-index="0"`)},
		{"tracker/unknown-game.json", htmlPage(404, "<h1>Not found</h1>", "no-such-game")},
		{"cards/card-image.json", func(t *testing.T, res []byte) string {
			r, _ := httpResp(t, res)
			png, err := base64.StdEncoding.DecodeString(r.Body)
			if r.StatusCode != 200 || !r.IsBase64Encoded || err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) ||
				r.Headers["Content-Type"] != "image/png" || !strings.Contains(r.Headers["Cache-Control"], "immutable") {
				t.Errorf("card image: status %d base64 %v headers %v, %d bytes (%v)", r.StatusCode, r.IsBase64Encoded, r.Headers, len(png), err)
			}
			return fmt.Sprintf("%d image/png, %d bytes", r.StatusCode, len(png))
		}},
	}

	// Every event file needs a step, every step an event file.
	files, _ := filepath.Glob(filepath.Join(root, "events", "*", "*.json"))
	covered := map[string]bool{}
	for _, s := range steps {
		covered[s.event] = true
	}
	fnNames := map[string]bool{}
	for _, f := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(f, filepath.Join(root, "events")+string(filepath.Separator)))
		fnNames[strings.Split(rel, "/")[0]] = true
		if !covered[rel] {
			t.Errorf("events/%s has no step in TestEmulator: add one with its expected result", rel)
		}
		delete(covered, rel)
	}
	for rel := range covered {
		t.Errorf("TestEmulator has a step for events/%s, which does not exist", rel)
	}
	if t.Failed() {
		t.FailNow()
	}

	// Build every function with events (in parallel: each is a go build).
	bin := t.TempDir()
	boots := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for fn := range fnNames {
		if _, err := os.Stat(filepath.Join(root, "functions", fn, "main.go")); err != nil {
			t.Fatalf("events/%s/ names no function (functions/%s/main.go: %v)", fn, fn, err)
		}
		wg.Go(func() {
			path, err := lambdarun.Build(ctx, root, fn, bin)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Error(err)
			}
			boots[fn] = path
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	// Each function reaches DynamoDB Local through its own recorder, so the
	// test knows which permissions each one needs.
	recs := map[string]*dynamoRecorder{}
	for fn, boot := range boots {
		recs[fn] = recordDynamo(t, endpoint)
		env := []string{lambdarun.Env("TABLE_NAME", table), lambdarun.Env("DYNAMODB_ENDPOINT", recs[fn].srv.URL),
			lambdarun.Env("API_KEYS", APIKey+" as=*"), lambdarun.Env("LOG_LEVEL", "info"),
			// The sample Discord events are signed at a fixed moment.
			lambdarun.Env(discord.EnvPublicKey, discordtest.PublicKeyHex()), lambdarun.Env(discord.EnvTimestampWindow, "876000h")}
		f, err := lambdarun.Start(rie, boot, env)
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		t.Cleanup(f.Stop)
		funcs[fn] = f
	}

	for i, s := range steps {
		fn := strings.Split(s.event, "/")[0]
		f := funcs[fn]
		t.Run(fmt.Sprintf("%02d_%s", i+1, s.event), func(t *testing.T) {
			payload, err := os.ReadFile(filepath.Join(root, "events", s.event))
			if err != nil {
				t.Fatal(err)
			}
			mark := len(f.Output())
			defer func() {
				if t.Failed() {
					t.Logf("emulator and %s output for this invocation:\n%s", fn, f.Output()[mark:])
				}
			}()
			ictx, icancel := context.WithTimeout(ctx, time.Minute)
			defer icancel()
			res, err := f.Invoke(ictx, payload)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(res), `"errorType"`) {
				t.Fatalf("the function failed: %s", res)
			}
			t.Logf("invoked %s with events/%s: %s", fn, s.event, s.check(t, res))
		})
	}

	// Least privilege that works: every call each function made is one its
	// template policies allow.
	checkPermissions(t, loadTemplate(t, root), recs)
	// The scheduled functions report overdue work as the alarm expects.
	checkMetricLines(t, loadTemplate(t, root), funcs, table)

	// phase-end's work is visible to a reader with the real clock.
	reader := rulesets.New(st, clock.Real{}, quiet)
	v, err := reader.Game(ctx, pastGame)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Period.End.After(time.Now()) {
		t.Errorf("%s is still in period %s ending %s after phase-end ran", pastGame, v.Period.ID, v.Period.End)
	}
	// The executed sample trade moved the King and 5 Vertebrae to Grace and
	// the gift's first card to Ada; Ada paid 5 for her random card.
	// (Grace has left since, so only Ada's side is still a player's.)
	me, err := gildedhall.On(reader).Player(ctx, g, ada)
	if err != nil {
		t.Fatal(err)
	}
	if me.Inventory.Vertebrae != 30 || !holds(me.Inventory.Cards, giftCard) || holds(me.Inventory.Cards, grantedKing) {
		t.Errorf("after the sample trade Ada has %d Vertebrae and cards %+v; want 30, %s and not %s",
			me.Inventory.Vertebrae, me.Inventory.Cards, giftCard, grantedKing)
	}
	tr, err := trades.On(reader).Trade(ctx, pastGame, staleTrade)
	if err != nil || tr.Status != trades.TradeExpired || tr.ClosedBy != game.SchedulerActor {
		t.Errorf("stale trade %+v (%v), want expired by the scheduler", tr, err)
	}
}

// offerPastTrade sets up an offer in pastGame on svc's (past) clock: the
// admin grants discord:91 three Vertebrae, which they offer to discord:92.
// It returns the trade's id.
func offerPastTrade(ctx context.Context, t *testing.T, svc *game.Service) string {
	t.Helper()
	admin := game.Request{Game: pastGame, Actor: "discord:9", Key: "e2e-past-grant"}
	for _, p := range []string{"discord:91", "discord:92"} {
		if _, err := svc.Join(ctx, game.Request{Game: pastGame, Actor: p, Key: "e2e-past-join"}, game.JoinGame{Name: p}); err != nil {
			t.Fatalf("%s joining %s: %v", p, pastGame, err)
		}
	}
	if _, err := gildedhall.On(svc).Grant(ctx, admin, gildedhall.Grant{Player: "discord:91", Vertebrae: 3, Reason: "e2e: something to trade"}); err != nil {
		t.Fatalf("grant in %s: %v", pastGame, err)
	}
	res, err := trades.On(svc).OfferTrade(ctx, game.Request{Game: pastGame, Actor: "discord:91", Key: "e2e-past-offer"},
		trades.OfferTrade{To: "discord:92", Give: economy.Items{Vertebrae: 3}})
	if err != nil {
		t.Fatalf("offer in %s: %v", pastGame, err)
	}
	var tr trades.Trade
	if err := json.Unmarshal(res.Body, &tr); err != nil || tr.ID == "" {
		t.Fatalf("offer answered %s (%v)", res.Body, err)
	}
	return tr.ID
}

// body decodes an API Gateway response's JSON body into v.
func body(t *testing.T, res []byte, v any) {
	t.Helper()
	r, _ := httpResp(t, res)
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		t.Fatalf("body is not the expected JSON (%v): %s", err, r.Body)
	}
}

// fields expects these top-level body fields (a problem's extensions too).
func fields(want map[string]any) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		r, b := httpResp(t, res)
		for k, w := range want {
			if got := fmt.Sprint(b[k]); got != fmt.Sprint(w) {
				t.Errorf("body.%s = %s, want %v (body %s)", k, got, w, r.Body)
			}
		}
		return fmt.Sprint(r.StatusCode)
	}
}

func holds(cs []players.Card, id string) bool {
	return slices.ContainsFunc(cs, func(c players.Card) bool { return c.ID == id })
}

// discordReply expects a 200 interaction response and runs check on it.
func discordReply(check func(*testing.T, discord.Response) string) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		r, _ := httpResp(t, res)
		if r.StatusCode != 200 || r.Headers["Content-Type"] != "application/json" {
			t.Fatalf("status %d (%s), want 200 application/json: %s", r.StatusCode, r.Headers["Content-Type"], r.Body)
		}
		var resp discord.Response
		if err := json.Unmarshal([]byte(r.Body), &resp); err != nil {
			t.Fatalf("not an interaction response (%v): %s", err, r.Body)
		}
		return check(t, resp)
	}
}

// streamBatch expects a stream batch fully handled (no batch item
// failures) and, in the function's log so far, this many entries announced
// and duplicates ignored.
func streamBatch(output func() string, announced, duplicates int) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		var r events.DynamoDBEventResponse
		if err := json.Unmarshal(res, &r); err != nil || !strings.Contains(string(res), `"batchItemFailures"`) || len(r.BatchItemFailures) != 0 {
			t.Fatalf("response %s (%v), want a partial batch response without failures", res, err)
		}
		// The function's log reaches us through the emulator's pipe, which
		// may still hold the last lines when the response arrives: wait
		// for them (a watchdog, not a timing check), then compare exactly.
		var a, d int
		for wait := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			out := output()
			a, d = strings.Count(out, `"msg":"announced"`), strings.Count(out, `"msg":"already announced; duplicate delivery ignored"`)
			if (a >= announced && d >= duplicates) || time.Now().After(wait) {
				break
			}
		}
		if a != announced || d != duplicates {
			t.Errorf("the function has announced %d entries and ignored %d duplicates, want %d and %d", a, d, announced, duplicates)
		}
		return fmt.Sprintf("%d announced, %d duplicates", a, d)
	}
}

// setupDuelGame creates game e2e-duel on svc's (real) clock with Exoptosis
// turns of 8 seconds (an amendment), so the timeouts event finds an expired
// selection without waiting a day, and two players with six cards each:
// discord:2001 (Hearts) and discord:2002 (Clubs). It returns the id the
// duels/request-duel.json event's duel gets (from its actor and key).
func setupDuelGame(ctx context.Context, t *testing.T, svc *game.Service) string {
	t.Helper()
	const g, admin = "e2e-duel", "discord:2000"
	req := func(actor, key string) game.Request { return game.Request{Game: g, Actor: actor, Key: key} }
	if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "e2e-duel-create"}, game.CreateGame{ID: g}); err != nil {
		t.Fatalf("creating %s: %v", g, err)
	}
	if _, err := svc.Amend(ctx, req(admin, "e2e-duel-amend"), game.Amend{Patch: json.RawMessage(`{"durations":{"turnTimeout":"8s"}}`),
		Reason: "e2e: turns time out in seconds"}); err != nil {
		t.Fatalf("amending %s: %v", g, err)
	}
	for p, suit := range map[string]string{"discord:2001": "Hearts", "discord:2002": "Clubs"} {
		if _, err := svc.Join(ctx, req(p, "e2e-duel-join"), game.JoinGame{}); err != nil {
			t.Fatalf("%s joining %s: %v", p, g, err)
		}
		gr := gildedhall.Grant{Player: p, Reason: "e2e: a deck to duel with"}
		for v := 2; v <= 7; v++ {
			gr.Cards = append(gr.Cards, gildedhall.CardGrant{Name: fmt.Sprintf("%d of %s", v, suit)})
		}
		if _, err := gildedhall.On(svc).Grant(ctx, req(admin, "e2e-duel-grant-"+p), gr); err != nil {
			t.Fatalf("grant in %s: %v", g, err)
		}
	}
	return "d" + game.CommandID("discord:2001", "duel-request-1")[:12]
}

// govPastGame is a game 15 days in the past with governance work long due
// (setupGovPast), for the judge-election and tally events.
const govPastGame = "e2e-gov-past"

// govPast is what setupGovPast made and the state the scheduled runs must
// leave.
type govPast struct {
	proposal string
	end      time.Time // the proposal's voting end
	week     string    // the election's week
	weekEnd  time.Time
}

// setupGovPast creates govPastGame 15 days ago with three players: the
// first submits an urgent proposal (amending urgentVoting to 36h) and
// stands for Judge an hour in; the other two give both 👍. Both have long
// been due when the scheduled functions run.
func setupGovPast(ctx context.Context, t *testing.T, st *dynamo.Store, opt game.Option) govPast {
	t.Helper()
	created := time.Now().UTC().AddDate(0, 0, -15)
	clk := clock.NewManual(created)
	svc := rulesets.New(st, clk, opt)
	req := func(actor, key string) game.Request { return game.Request{Game: govPastGame, Actor: actor, Key: key} }
	if _, err := svc.Create(ctx, game.Request{Actor: "discord:3000", Key: "e2e-gov-create"}, game.CreateGame{ID: govPastGame}); err != nil {
		t.Fatalf("creating %s: %v", govPastGame, err)
	}
	for _, p := range []string{"discord:3001", "discord:3002", "discord:3003"} {
		if _, err := svc.Join(ctx, req(p, "e2e-gov-join"), game.JoinGame{}); err != nil {
			t.Fatalf("%s joining %s: %v", p, govPastGame, err)
		}
	}
	clk.Advance(time.Hour)
	msg := func(id string) game.MessageRef {
		return game.MessageRef{Platform: "discord", Channel: "3100", Message: id}
	}
	res, err := svc.SubmitProposal(ctx, req("discord:3001", "e2e-gov-propose"), game.SubmitProposal{Message: msg("3101"),
		Class: governance.Urgent, Amendment: json.RawMessage(`{"durations":{"urgentVoting":"36h"}}`)})
	if err != nil {
		t.Fatalf("proposal in %s: %v", govPastGame, err)
	}
	var p game.ProposalView
	if err := json.Unmarshal(res.Body, &p); err != nil {
		t.Fatal(err)
	}
	res, err = svc.StandForJudge(ctx, req("discord:3001", "e2e-gov-stand"), game.StandForJudge{Message: msg("3102")})
	if err != nil {
		t.Fatalf("candidacy in %s: %v", govPastGame, err)
	}
	var cd governance.Candidacy
	if err := json.Unmarshal(res.Body, &cd); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"3101", "3102"} {
		if _, err := svc.PushReactions(ctx, req("discord:3000", "e2e-gov-react-"+m),
			game.PushReactions{Message: msg(m), Up: []string{"discord:3002", "discord:3003"}}); err != nil {
			t.Fatalf("reactions in %s: %v", govPastGame, err)
		}
	}
	return govPast{proposal: p.ID, end: p.VotingEnd, week: cd.Week, weekEnd: calendar.WeekAt(cd.CreatedAt).End()}
}

// check reads govPastGame with the real clock: the proposal adopted once,
// dated at its deadline, its amendment applied; discord:3001 the Judge
// since the week's end.
func (g govPast) check(ctx context.Context, t *testing.T, st *dynamo.Store, opt game.Option) {
	t.Helper()
	reader := rulesets.New(st, clock.Real{}, opt)
	p, err := reader.Proposal(ctx, govPastGame, g.proposal)
	if err != nil || p.Status != governance.StatusAdopted || !p.ClosedAt.Equal(g.end) || p.RulesetVersion != 2 {
		t.Errorf("past proposal %+v (%v), want adopted at %s as ruleset version 2", p.ProposalRecord, err, g.end)
	}
	js, err := reader.Judge(ctx, govPastGame)
	if err != nil || js.Judge != "discord:3001" || !js.Since.Equal(g.weekEnd) {
		t.Errorf("past game's Judge %+v (%v), want discord:3001 since %s", js, err, g.weekEnd)
	}
	page, err := reader.Log(ctx, govPastGame, "", 500)
	if err != nil {
		t.Fatal(err)
	}
	tallies := 0
	for _, e := range page.Entries {
		if e.Command == "proposal-tally" {
			tallies++
		}
	}
	if tallies != 1 {
		t.Errorf("%d proposal-tally entries in %s, want 1", tallies, govPastGame)
	}
}

// htmlPage expects a tracker page: status, HTML, and the given fragments.
func htmlPage(status int, wants ...string) func(*testing.T, []byte) string {
	return func(t *testing.T, res []byte) string {
		r, _ := httpResp(t, res)
		if r.StatusCode != status || !strings.HasPrefix(r.Headers["Content-Type"], "text/html") || r.IsBase64Encoded {
			t.Fatalf("status %d Content-Type %q base64 %v, want %d text/html; body %.500s", r.StatusCode, r.Headers["Content-Type"], r.IsBase64Encoded, status, r.Body)
		}
		for _, w := range wants {
			if !strings.Contains(r.Body, w) {
				t.Errorf("the page lacks %q: %.3000s", w, r.Body)
			}
		}
		return fmt.Sprintf("%d text/html, %d bytes", r.StatusCode, len(r.Body))
	}
}
