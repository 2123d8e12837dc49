package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"croupier/internal/announce/announcetest"
	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/chat/slack"
	"croupier/internal/clock"
	"croupier/internal/config"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/lambdarun"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// Issue 23 acceptance 1 through the deployed functions: functions/discord
// and functions/slack, built as bootstraps and run under the Lambda
// Runtime Interface Emulator over one table on DynamoDB Local, get signed
// interactions (signed now, so they cannot be fixed files in events/) for
// a turns proposal, a turns appeal (appealSetup: voted on only during a
// turn), an Obelisk Gathering, a duel invitation to two players and a
// trade offer. Two players press in turn on each shared message:
// each is answered privately (Discord: type 4 with flags 64; Slack:
// response_type ephemeral on the response_url), and the message itself is
// edited with the bot token (Discord: PATCH /channels/{c}/messages/{m}, its
// body checked against Discord's OpenAPI description; Slack: chat.update)
// to its public state with its still valid buttons, never a presser's
// holdings or private answer. A refused press edits nothing. Each
// Lambda's own answer to Discord is checked against the description too.
func TestEmulatorSharedMessages(t *testing.T) {
	root := repoRoot(t)
	rie := testenv.RIE(t)
	client, table := testenv.DynamoTable(t, "e2e-shared")
	endpoint := testenv.DynamoEndpoint(t)
	ctx := t.Context()
	st := dynamo.New(client, table)
	quiet := game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	svc := rulesets.New(st, clock.Real{}, quiet)

	const (
		app         = "4242"
		discordBot  = "e2e-discord-bot"
		slackBot    = "xoxb-e2e"
		slackSecret = "e2e-slack-signing-secret"
	)
	rec := discordspec.NewRecorder(t)
	dapi := discordtest.NewAPI(t, discordBot, rec.Server)
	sapi := announcetest.NewSlack(t, slackBot, "C0PLAY")
	hooks := &responseURLs{}
	hookSrv := httptest.NewServer(hooks)
	t.Cleanup(hookSrv.Close)

	bin := t.TempDir()
	boots := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, fn := range []string{"discord", "slack"} {
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
	env := []string{lambdarun.Env("TABLE_NAME", table), lambdarun.Env("DYNAMODB_ENDPOINT", endpoint),
		lambdarun.Env("API_KEYS", APIKey+" as=*"), lambdarun.Env("LOG_LEVEL", "info"),
		lambdarun.Env(discord.EnvPublicKey, discordtest.PublicKeyHex()), lambdarun.Env(discord.EnvApplicationID, app),
		lambdarun.Env(discord.EnvBotToken, discordBot), lambdarun.Env(discord.EnvAPIBase, dapi.Base()),
		lambdarun.Env("SLACK_SIGNING_SECRET", slackSecret), lambdarun.Env(config.EnvSlackBotToken, slackBot),
		lambdarun.Env(config.EnvSlackAPIBase, sapi.APIBase()), lambdarun.Env(config.EnvSlackResponseURLPrefix, hookSrv.URL+"/")}
	funcs := map[string]*lambdarun.Function{}
	for fn, boot := range boots {
		f, err := lambdarun.Start(rie, boot, env)
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		t.Cleanup(f.Stop)
		funcs[fn] = f
	}
	// invoke sends one HTTP API request to fn and returns its status and
	// body; on failure the function's output for it is logged.
	invoke := func(t *testing.T, fn, path string, headers map[string]string, body []byte) (int, []byte) {
		t.Helper()
		f := funcs[fn]
		mark := len(f.Output())
		ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: "POST " + path, RawPath: path, Headers: headers, Body: string(body),
			RequestContext: events.APIGatewayV2HTTPRequestContext{RouteKey: "POST " + path, Stage: "$default", RequestID: "e2e-shared",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: http.MethodPost, Path: path, Protocol: "HTTP/1.1", SourceIP: "192.0.2.7"}}}
		payload, _ := json.Marshal(ev)
		ictx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		res, err := f.Invoke(ictx, payload)
		if err != nil || bytes.Contains(res, []byte(`"errorType"`)) {
			t.Fatalf("%s %s: %v %s\n%s output:\n%s", fn, path, err, res, fn, f.Output()[mark:])
		}
		var r events.APIGatewayV2HTTPResponse
		if err := json.Unmarshal(res, &r); err != nil || r.StatusCode == 0 {
			t.Fatalf("%s %s: not an API Gateway response (%v): %s", fn, path, err, res)
		}
		if r.StatusCode != http.StatusOK {
			t.Logf("%s output:\n%s", fn, f.Output()[mark:])
		}
		return r.StatusCode, []byte(r.Body)
	}

	t.Run("discord", func(t *testing.T) {
		names := map[string]string{"2": "Ada", "3": "Bob", "5": "Cy"}
		guild, n := "", 0
		post := func(user string, typ int, data any, msg map[string]any) discord.Response {
			t.Helper()
			n++
			d, _ := json.Marshal(data)
			in := map[string]any{"id": fmt.Sprint(7000 + n), "application_id": app, "type": typ, "token": fmt.Sprint("tok-", n), "version": 1,
				"guild_id": guild, "channel_id": "700",
				"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": names[user]}},
				"data":   json.RawMessage(d)}
			if msg != nil {
				in["message"] = msg
			}
			body, _ := json.Marshal(in)
			sig, ts := discordtest.Sign(time.Now(), body)
			status, out := invoke(t, "discord", "/discord/interactions", map[string]string{"content-type": "application/json",
				"x-signature-ed25519": sig, "x-signature-timestamp": ts, "user-agent": "Discord-Interactions/1.0 (+https://discord.com)"}, body)
			if status != http.StatusOK {
				t.Fatalf("interaction %s: status %d: %s", body, status, out)
			}
			rec.Response(body, out)
			var r discord.Response
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("not an interaction response (%v): %s", err, out)
			}
			return r
		}
		slash := func(user, name string, opts ...any) discord.Response {
			t.Helper()
			data := map[string]any{"id": "c-" + name, "name": name, "type": discord.CommandChatInput}
			if len(opts) > 0 {
				data["options"] = opts
			}
			return post(user, discord.InteractionCommand, data, nil)
		}
		sub := func(name string, opts ...any) map[string]any {
			return map[string]any{"name": name, "type": discord.OptSubCommand, "options": opts}
		}
		opt := func(name string, v any) map[string]any {
			typ := discord.OptString
			if _, ok := v.(int); ok {
				typ = discord.OptInteger
			}
			return map[string]any{"name": name, "type": typ, "value": v}
		}
		userOpt := func(name, id string) map[string]any {
			return map[string]any{"name": name, "type": discord.OptUser, "value": id}
		}
		pressOn := func(user, customID, msg string) discord.Response {
			t.Helper()
			return post(user, discord.InteractionComponent, map[string]any{"custom_id": customID, "component_type": discord.ComponentButton},
				map[string]any{"id": msg, "channel_id": "700", "flags": 0, "content": "", "author": map[string]any{"id": app, "username": "Croupier"}})
		}
		// press checks one press on the shared message msg: a private
		// answer with private; one more edit of msg showing public with
		// exactly buttons; no edit ever showing holdings or the answer.
		press := func(what, user, customID, msg, private, public string, buttons []string) discordtest.Msg {
			t.Helper()
			before := len(dapi.Edits("700", msg))
			r := pressOn(user, customID, msg)
			if r.Type != discord.ResponseMessage || r.Data == nil || r.Data.Flags&discord.FlagEphemeral == 0 || !strings.Contains(replyOf(r), private) {
				t.Fatalf("%s: answered %+v (%s), want the presser's private message (type 4, flags 64) with %q", what, r.Type, replyOf(r), private)
			}
			es := dapi.Edits("700", msg)
			if len(es) != before+1 {
				t.Fatalf("%s: %d edits of the shared message, want %d", what, len(es), before+1)
			}
			last := es[len(es)-1]
			if !strings.Contains(last.Text(), public) || !slices.Equal(last.Buttons(), buttons) {
				t.Errorf("%s: the shared message reads %q with buttons %q; want %q and %q", what, last.Text(), last.Buttons(), public, buttons)
			}
			for _, e := range es {
				if strings.Contains(e.Text(), "You hold") || strings.Contains(e.Text(), replyOf(r)) || e.Flags&discord.FlagEphemeral != 0 {
					t.Errorf("%s: the shared message shows a private answer: %q (flags %d)", what, e.Text(), e.Flags)
				}
			}
			t.Logf("%s: private %q; shared message now %q %q", what, firstLine(replyOf(r)), last.Text(), last.Buttons())
			return last
		}
		// refused checks a refused press: a private answer saying
		// sentence, and the shared message untouched.
		refused := func(what, user, customID, msg, sentence string) {
			t.Helper()
			before := len(dapi.Edits("700", msg))
			r := pressOn(user, customID, msg)
			if r.Type != discord.ResponseMessage || r.Data == nil || r.Data.Flags&discord.FlagEphemeral == 0 || replyOf(r) == "" || !strings.Contains(replyOf(r), sentence) {
				t.Errorf("%s: answered %+v (%s), want a private refusal saying %q", what, r.Type, replyOf(r), sentence)
			}
			t.Logf("%s: refused privately: %q", what, firstLine(replyOf(r)))
			if after := len(dapi.Edits("700", msg)); after != before {
				t.Errorf("%s: a refusal edited the shared message (%d edits, %d before)", what, after, before)
			}
		}
		votes := []string{"👍 For", "👎 Against"}

		// A turns proposal.
		guild = "9101"
		create(ctx, t, svc, "e2e-nomic", turns.ID, "discord", guild)
		for _, u := range []string{"2", "3", "5"} {
			slash(u, "join")
		}
		p := slash("2", "turns", sub("propose", opt("op", "amend"), opt("rule", 210), opt("text", "Rule 210, amended.")))
		if p.Data == nil || p.Data.Flags&discord.FlagEphemeral != 0 {
			t.Fatalf("a proposal is public: %+v", p.Data)
		}
		first := press("Bob's 👍", "3", buttonOf(t, p, "👍 For"), "9201", "Bob voted for proposal P1", "For: Bob. Against: nobody.", votes)
		press("Cy's 👎", "5", first.Button("👎 Against"), "9201", "Cy voted against proposal P1", "For: Bob. Against: Cy.", votes)

		// A turns appeal, filed in the turn before this one (appealSetup).
		guild = "9104"
		av, open := appealSetup(ctx, t, st, quiet, "e2e-appeal", "discord", guild, "discord:1", "discord:2", "discord:3", "discord:5")
		if open {
			first = press("Ada's 👍 on the appeal", "2", av["👍 For"], "9206", "Ada voted for the appeal A1 of case 5301",
				"For: Ada. Against: nobody.", votes)
			if !strings.Contains(first.Text(), "Appeal A1 of case 5301") {
				t.Errorf("the appeal's message reads %q", first.Text())
			}
			press("Bob's 👎 on the appeal", "3", first.Button("👎 Against"), "9206", "Bob voted against the appeal A1 of case 5301", "For: Ada. Against: Bob.", votes)
		} else {
			refused("Ada's 👍 on the appeal before its turn", "2", av["👍 For"], "9206", "is voted on during turn")
		}

		// An Obelisk Gathering.
		guild = "9102"
		stoneGame(ctx, t, svc, "e2e-stone", "discord", guild)
		for _, u := range []string{"2", "3"} {
			slash(u, "join")
		}
		slash("2", "task", opt("task", "herbalism"))
		slash("3", "observe")
		g := slash("2", "gathering", sub("start", opt("ritual_type", "cut-the-obelisk")))
		all := labelsOf(g)
		if len(all) < 2 || all[len(all)-1] != "Complete" {
			t.Fatalf("the Gathering's buttons: %q", all)
		}
		first = press("Ada's 🌿", "2", buttonOf(t, g, "🌿"), "9202", "You hold", "contributed: 1🌿 by Ada.", all)
		first = press("Bob's ⚡", "3", first.Button("⚡"), "9202", "You hold", "contributed: 1🌿 by Ada, 1⚡ by Bob.", all)
		refused("Bob's Complete (Ada started it)", "3", first.Button("Complete"), "9202", "Only the player who started")
		press("Ada's Complete", "2", first.Button("Complete"), "9202", "completed the Gathering of Cut the Obelisk", "Completed.", nil)

		// A duel invitation to two players and a trade offer (the Gilded
		// Hall).
		guild = "9103"
		create(ctx, t, svc, "e2e-hall", "", "discord", guild)
		for _, u := range []string{"2", "3", "5"} {
			slash(u, "join")
		}
		decks(ctx, t, svc, "e2e-hall", "discord:2", "discord:3", "discord:5")
		d := slash("2", "duel", sub("request", userOpt("player", "3"), userOpt("player2", "5")))
		first = press("Bob accepts the duel", "3", buttonOf(t, d, "Accept"), "9204", "<@3> accepted duel", "Accepted: <@3>; waiting for: <@5>.", []string{"Accept", "Decline"})
		refused("Bob accepts again", "3", first.Button("Accept"), "9204", "already accepted")
		press("Cy accepts the duel", "5", first.Button("Accept"), "9204", "has started", "Everyone accepted: the duel has started.", nil)
		ada, err := gildedhall.On(svc).Player(ctx, "e2e-hall", "discord:2")
		if err != nil || len(ada.Inventory.Cards) == 0 {
			t.Fatalf("Ada: %+v %v", ada, err)
		}
		o := slash("2", "trade", sub("offer", userOpt("player", "3"), opt("give_cards", ada.Inventory.Cards[0].ID)))
		refused("Cy accepts Bob's trade", "5", buttonOf(t, o, "Accept"), "9205", "can accept")
		press("Bob accepts the trade", "3", buttonOf(t, o, "Accept"), "9205", "You accepted Trade", ": executed", nil)

		appealEdits := len(dapi.Edits("700", "9206"))
		if open && appealEdits != 2 || !open && appealEdits != 0 {
			t.Errorf("%d edits of the appeal's message (its voting turn open: %v)", appealEdits, open)
		}
		if dapi.Refused() != 0 {
			t.Errorf("%d edits were sent without the bot token", dapi.Refused())
		}
		checked, failed := rec.Total()
		if edits := rec.Counts()["PATCH /channels/{channel_id}/messages/{message_id}"]; edits != 8+appealEdits || failed != 0 {
			t.Errorf("%d message edits checked against Discord's description (want %d: the votes, 3 Gathering presses, 2 acceptances, 1 trade), %d bodies refused", edits, 8+appealEdits, failed)
		}
		t.Logf("checked against Discord's description (%d bodies):\n%s", checked, rec.Summary())
	})

	t.Run("slack", func(t *testing.T) {
		team, n := "", 0
		sign := func(body string) map[string]string {
			stamp := strconv.FormatInt(time.Now().Unix(), 10)
			return map[string]string{"content-type": "application/x-www-form-urlencoded", "x-slack-request-timestamp": stamp,
				"x-slack-signature": slack.Sign([]byte(slackSecret), stamp, []byte(body)), "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)"}
		}
		cmd := func(user, text string) slack.Message {
			t.Helper()
			n++
			body := url.Values{"token": {"legacy"}, "team_id": {team}, "team_domain": {"e2e"}, "channel_id": {"C0PLAY"},
				"channel_name": {"play"}, "user_id": {user}, "user_name": {strings.ToLower(user)}, "command": {"/croupier"},
				"text": {text}, "api_app_id": {"A0APP"}, "response_url": {hookSrv.URL + "/commands/" + team + "/1/x"},
				"trigger_id": {fmt.Sprintf("13345224609.%d.e2e", n)}}.Encode()
			status, out := invoke(t, "slack", "/slack/commands", sign(body), []byte(body))
			var m slack.Message
			if status != http.StatusOK || json.Unmarshal(out, &m) != nil {
				t.Fatalf("/croupier %s: status %d %s", text, status, out)
			}
			if slackRefused(m) {
				t.Fatalf("/croupier %s was refused: %s", text, m.Text)
			}
			return m
		}
		pressOn := func(user, actionID, ts string) slack.Message {
			t.Helper()
			n++
			payload, _ := json.Marshal(map[string]any{"type": "block_actions", "user": map[string]any{"id": user, "username": strings.ToLower(user), "team_id": team},
				"team": map[string]any{"id": team}, "channel": map[string]any{"id": "C0PLAY"}, "trigger_id": fmt.Sprintf("shared-%d", n),
				"container":    map[string]any{"type": "message", "message_ts": ts, "channel_id": "C0PLAY", "is_ephemeral": false},
				"message":      map[string]any{"ts": ts, "type": "message"},
				"response_url": hookSrv.URL + "/actions/" + team + "/1/x", "actions": []any{map[string]any{"action_id": actionID, "type": "button", "value": actionID}}})
			body := url.Values{"payload": {string(payload)}}.Encode()
			before := len(hooks.all())
			status, out := invoke(t, "slack", "/slack/interactions", sign(body), []byte(body))
			if status != http.StatusOK {
				t.Fatalf("interaction: %d %s", status, out)
			}
			got := hooks.all()
			if len(got) != before+1 {
				t.Fatalf("the interaction posted %d replies to its response_url, want 1", len(got)-before)
			}
			return got[before]
		}
		press := func(what, user, action, ts, private, public string, buttons []string) announcetest.SlackUpdate {
			t.Helper()
			before := len(sapi.Updates("C0PLAY", ts))
			m := pressOn(user, action, ts)
			if m.ResponseType != "ephemeral" || m.ReplaceOriginal || slackRefused(m) || !strings.Contains(slackText(m), private) {
				t.Fatalf("%s: answered %+v, want the presser's ephemeral answer with %q", what, m, private)
			}
			us := sapi.Updates("C0PLAY", ts)
			if len(us) != before+1 {
				t.Fatalf("%s: %d updates of the shared message, want %d", what, len(us), before+1)
			}
			last := us[len(us)-1]
			if !strings.Contains(updateText(last), public) || !slices.Equal(updateButtons(last), buttons) {
				t.Errorf("%s: the shared message reads %s with buttons %q; want %q and %q", what, updateText(last), updateButtons(last), public, buttons)
			}
			for _, u := range us {
				if strings.Contains(updateText(u), "You hold") || strings.Contains(updateText(u), m.Text) {
					t.Errorf("%s: the shared message shows a private answer: %s", what, updateText(u))
				}
			}
			t.Logf("%s: private %q; shared message now %s %q", what, firstLine(m.Text), updateText(last), updateButtons(last))
			return last
		}
		// refused checks a refused press: a private refusal saying
		// sentence, and the shared message untouched.
		refused := func(what, user, action, ts, sentence string) {
			t.Helper()
			before := len(sapi.Updates("C0PLAY", ts))
			m := pressOn(user, action, ts)
			if m.ResponseType != "ephemeral" || !slackRefused(m) || !strings.Contains(slackText(m), sentence) {
				t.Errorf("%s: %+v, want a private refusal saying %q", what, m, sentence)
			}
			if after := len(sapi.Updates("C0PLAY", ts)); after != before {
				t.Errorf("%s: a refusal updated the shared message", what)
			}
			t.Logf("%s: refused privately: %q", what, firstLine(m.Text))
		}
		votes := []string{"👍 For", "👎 Against"}

		// A turns proposal.
		team = "T0NOMIC"
		create(ctx, t, svc, "e2e-slack-nomic", turns.ID, "slack", team)
		for u, name := range map[string]string{"U0ADA": "Ada", "U0BOB": "Bob", "U0CY": "Cy"} {
			cmd(u, "join "+name)
		}
		p := cmd("U0ADA", `turns propose op=amend rule=210 text="Rule 210, amended."`)
		if p.ResponseType != "in_channel" {
			t.Fatalf("a proposal is public: %+v", p)
		}
		first := press("Bob's 👍", "U0BOB", slackAction(t, p.Blocks, "For"), "1700000000.000100", "Bob voted for proposal P1", "For: Bob. Against: nobody.", votes)
		press("Cy's 👎", "U0CY", slackAction(t, first.Blocks, "Against"), "1700000000.000100", "Cy voted against proposal P1", "For: Bob. Against: Cy.", votes)

		// A turns appeal, filed in the turn before this one.
		team = "T0APPEAL"
		av, open := appealSetup(ctx, t, st, quiet, "e2e-slack-appeal", "slack", team, "slack:UADMIN", "slack:U0ADA", "slack:U0BOB", "slack:U0CY")
		const ats = "1700000000.000600"
		if open {
			first = press("Ada's 👍 on the appeal", "U0ADA", av["👍 For"], ats, "Ada voted for the appeal A1 of case 5301", "For: Ada. Against: nobody.", votes)
			if !strings.Contains(updateText(first), "Appeal A1 of case 5301") {
				t.Errorf("the appeal's message reads %s", updateText(first))
			}
			press("Bob's 👎 on the appeal", "U0BOB", slackAction(t, first.Blocks, "Against"), ats, "Bob voted against the appeal A1 of case 5301", "For: Ada. Against: Bob.", votes)
		} else {
			refused("Ada's 👍 on the appeal before its turn", "U0ADA", av["👍 For"], ats, "is voted on during turn")
		}

		// An Obelisk Gathering.
		team = "T0STONE"
		stoneGame(ctx, t, svc, "e2e-slack-stone", "slack", team)
		cmd("U0ADA", "join Ada")
		cmd("U0BOB", "join Bob")
		cmd("U0ADA", "task task=herbalism")
		cmd("U0BOB", "observe")
		g := cmd("U0ADA", "gathering start ritual_type=cut-the-obelisk")
		all := blockButtons(g.Blocks)
		if len(all) < 2 || all[len(all)-1] != "Complete" {
			t.Fatalf("the Gathering's buttons: %q", all)
		}
		const gts = "1700000000.000300"
		first = press("Ada's 🌿", "U0ADA", slackAction(t, g.Blocks, "🌿"), gts, "You hold", "contributed: 1🌿 by Ada.", all)
		first = press("Bob's ⚡", "U0BOB", slackAction(t, first.Blocks, "⚡"), gts, "You hold", "1🌿 by Ada, 1⚡ by Bob.", all)
		refused("Bob's Complete (Ada started it)", "U0BOB", slackAction(t, first.Blocks, "Complete"), gts, "Only the player who started")
		press("Ada's Complete", "U0ADA", slackAction(t, first.Blocks, "Complete"), gts, "completed the Gathering of Cut the Obelisk", "Completed.", nil)

		// A duel invitation to two players and a trade offer.
		team = "T0HALL"
		create(ctx, t, svc, "e2e-slack-hall", "", "slack", team)
		for u, name := range map[string]string{"U0ADA": "Ada", "U0BOB": "Bob", "U0CY": "Cy"} {
			cmd(u, "join "+name)
		}
		decks(ctx, t, svc, "e2e-slack-hall", "slack:U0ADA", "slack:U0BOB", "slack:U0CY")
		d := cmd("U0ADA", "duel request <@U0BOB|bob> <@U0CY|cy>")
		const dts = "1700000000.000400"
		first = press("Bob accepts the duel", "U0BOB", slackAction(t, d.Blocks, "Accept"), dts, "accepted duel", "Accepted: <@U0BOB>; waiting for: <@U0CY>.", []string{"Accept", "Decline"})
		refused("Bob accepts again", "U0BOB", slackAction(t, first.Blocks, "Accept"), dts, "already accepted")
		press("Cy accepts the duel", "U0CY", slackAction(t, first.Blocks, "Accept"), dts, "has started", "the duel has started", nil)
		o := cmd("U0ADA", "trade offer <@U0BOB> give_vertebrae=0 give_chips=1")
		const ots = "1700000000.000500"
		refused("Cy accepts Bob's trade", "U0CY", slackAction(t, o.Blocks, "Accept"), ots, "can accept")
		press("Bob accepts the trade", "U0BOB", slackAction(t, o.Blocks, "Accept"), ots, "You accepted Trade", ": executed", nil)
		if ts, err := trades.On(svc).Trades(ctx, "e2e-slack-hall", trades.TradeFilter{Status: trades.TradeExecuted}); err != nil || len(ts) != 1 {
			t.Errorf("executed trades: %+v %v", ts, err)
		}
	})
}

// appealSetup makes a turns game bound to space through the chat router
// as the Lambdas run it, on a manual clock over the same table: admin
// creates it, Ada, Bob and Cy (players, in order) join by name, Bob enters
// the judicial pool, Ada asks for judgment, Bob recuses himself, the admin
// rules FALSE and Cy appeals for TRUE. It returns the appeal reply's
// buttons (label to the id both platforms give them) and whether its
// voting is open now, for the Lambdas' real clock.
//
// An appeal is voted on during the turn after the one it is filed in
// (U10), and a turn's voting runs from Monday 22:00 to Saturday 22:00 in
// Chicago. During a turn, the game is made two hours before the turn
// began, so the appeal is voted on now. Between turns (Saturday 22:00 to
// Monday 22:00 Chicago) no appeal can be voted on in real time: the game
// is made now and a press is refused privately ("voting_not_open"),
// editing nothing.
func appealSetup(ctx context.Context, t *testing.T, st *dynamo.Store, opt game.Option, id, platform, space, admin string, players ...string) (map[string]string, bool) {
	t.Helper()
	cur := calendar.TurnAt(time.Now())
	if left := time.Until(cur.End); left > 0 && left < 5*time.Minute {
		// The presses must not race the turn's end: wait it out, and
		// take the between-turns path.
		time.Sleep(left + time.Second)
	}
	made, open := time.Now(), false
	if now := time.Now(); !now.Before(cur.Begin) && now.Before(cur.End) {
		made, open = cur.Begin.Add(-2*time.Hour), true
	}
	t.Logf("appeal: turn %s to %s; voting open now: %v", cur.Begin.UTC().Format(time.RFC3339), cur.End.UTC().Format(time.RFC3339), open)
	svc := rulesets.New(st, clock.NewManual(made), opt)
	create(ctx, t, svc, id, turns.ID, platform, space)
	router := chat.NewRouter(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	n := 0
	run := func(user, command string, opts map[string]string) *chat.Reply {
		t.Helper()
		n++
		rep := router.Handle(ctx, &chat.Invocation{Platform: platform, Guild: space, Channel: "700", User: user,
			Command: command, Options: opts, Key: fmt.Sprintf("%s-setup-%d", id, n)})
		if rep.Refusal {
			t.Fatalf("%s %v by %s was refused: %s", command, opts, user, rep.Text)
		}
		return rep
	}
	for i, p := range players {
		run(p, "join", map[string]string{"name": []string{"Ada", "Bob", "Cy"}[i]})
	}
	ada, bob, cy := players[0], players[1], players[2]
	run(bob, "pool-enter", nil)
	run(ada, "judgment-request", map[string]string{"statement": "Is rule 210 fair?"})
	run(bob, "case recuse", map[string]string{"case": "5301"})
	run(admin, "case rule", map[string]string{"case": "5301", "ruling": "FALSE", "reasons": "It is."})
	rep := run(cy, "case appeal", map[string]string{"case": "5301", "ruling": "TRUE", "reasons": "It is not."})
	out := map[string]string{}
	for _, b := range rep.Buttons {
		if cid, err := chat.EncodeAction(b.Action); err == nil {
			out[b.Label] = cid
		}
	}
	if out["👍 For"] == "" || out["👎 Against"] == "" {
		t.Fatalf("the appeal's reply has no vote buttons: %+v", rep)
	}
	return out, open
}

// create makes game id (ruleset "" is the Gilded Hall) by discord:1 /
// slack:UADMIN and binds it to the server or team space.
func create(ctx context.Context, t *testing.T, svc *game.Service, id, ruleset, platform, space string) {
	t.Helper()
	admin := map[string]string{"discord": "discord:1", "slack": "slack:UADMIN"}[platform]
	if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "create-" + id}, game.CreateGame{ID: id, Ruleset: ruleset}); err != nil {
		t.Fatalf("creating %s: %v", id, err)
	}
	if _, err := svc.Bind(ctx, game.Request{Game: id, Actor: admin, Key: "bind-" + id}, game.Bind{Platform: platform, Space: space}); err != nil {
		t.Fatalf("binding %s: %v", id, err)
	}
}

// stoneGame is an Obelisk game with a ritual type costing 1⚡ 1🌿.
func stoneGame(ctx context.Context, t *testing.T, svc *game.Service, id, platform, space string) {
	t.Helper()
	create(ctx, t, svc, id, obelisk.ID, platform, space)
	admin := map[string]string{"discord": "discord:1", "slack": "slack:UADMIN"}[platform]
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	if _, err := svc.Amend(ctx, game.Request{Game: id, Actor: admin, Key: "amend-" + id}, game.Amend{Patch: json.RawMessage(patch), Reason: "e2e: a ritual to gather for"}); err != nil {
		t.Fatalf("amending %s: %v", id, err)
	}
}

// decks grants each player (in order) 5 Chips and four cards to duel with.
func decks(ctx context.Context, t *testing.T, svc *game.Service, id string, players ...string) {
	t.Helper()
	suits := [][]string{{"2 of Hearts", "Ace of Spades", "3 of Hearts", "Queen of Diamonds"},
		{"7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds"}, {"2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs"}}
	admin := strings.SplitN(players[0], ":", 2)[0] + ":1"
	if strings.HasPrefix(admin, "slack:") {
		admin = "slack:UADMIN"
	}
	for i, p := range players {
		g := gildedhall.Grant{Player: p, Chips: 5, Reason: "e2e: a deck"}
		for _, c := range suits[i] {
			g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c})
		}
		if _, err := gildedhall.On(svc).Grant(ctx, game.Request{Game: id, Actor: admin, Key: "deck-" + p}, g); err != nil {
			t.Fatalf("grant in %s: %v", id, err)
		}
	}
}

// responseURLs is a loopback hooks.slack.com: it keeps what is posted to
// an interaction's response_url.
type responseURLs struct {
	mu   sync.Mutex
	msgs []slack.Message
}

func (h *responseURLs) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var m slack.Message
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil {
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	h.msgs = append(h.msgs, m)
	h.mu.Unlock()
	_, _ = io.WriteString(w, "ok")
}

func (h *responseURLs) all() []slack.Message {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]slack.Message(nil), h.msgs...)
}

// replyOf is an interaction response's content and embed text.
func replyOf(r discord.Response) string {
	if r.Data == nil {
		return ""
	}
	s := ""
	if r.Data.Content != nil {
		s = *r.Data.Content
	}
	for _, e := range r.Data.Embeds {
		s += "\n" + e.Title + "\n" + e.Description
		for _, f := range e.Fields {
			s += "\n" + f.Name + ": " + f.Value
		}
	}
	return s
}

func buttonOf(t *testing.T, r discord.Response, label string) string {
	t.Helper()
	if r.Data != nil && r.Data.Components != nil {
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				if c.Type == discord.ComponentButton && strings.HasPrefix(c.Label, label) {
					return c.CustomID
				}
			}
		}
	}
	t.Fatalf("no button %q in %s", label, replyOf(r))
	return ""
}

func labelsOf(r discord.Response) []string {
	var out []string
	if r.Data != nil && r.Data.Components != nil {
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				if c.Type == discord.ComponentButton {
					out = append(out, c.Label)
				}
			}
		}
	}
	return out
}

func slackRefused(m slack.Message) bool {
	b, _ := json.Marshal(m.Blocks)
	return strings.Contains(string(b), ":no_entry:")
}

// slackText is a message's text and blocks as JSON.
func slackText(m slack.Message) string {
	b, _ := json.Marshal(m.Blocks)
	return m.Text + "\n" + string(b)
}

func updateText(u announcetest.SlackUpdate) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(u.Blocks)
	return u.Text + "\n" + b.String()
}

func updateButtons(u announcetest.SlackUpdate) []string { return blockButtons(u.Blocks) }

// blockButtons are the labels of the buttons in actions blocks.
func blockButtons(blocks []map[string]any) []string {
	var out []string
	for _, b := range blocks {
		if b["type"] != "actions" {
			continue
		}
		for _, el := range b["elements"].([]any) {
			el := el.(map[string]any)
			if el["type"] == "button" {
				out = append(out, el["text"].(map[string]any)["text"].(string))
			}
		}
	}
	return out
}

// slackAction is the action_id of the first button whose label contains
// label.
func slackAction(t *testing.T, blocks []map[string]any, label string) string {
	t.Helper()
	for _, b := range blocks {
		if b["type"] != "actions" {
			continue
		}
		for _, el := range b["elements"].([]any) {
			el := el.(map[string]any)
			if txt, _ := el["text"].(map[string]any); el["type"] == "button" && txt != nil && strings.Contains(txt["text"].(string), label) {
				return el["action_id"].(string)
			}
		}
	}
	t.Fatalf("no button %q in %v", label, blocks)
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
