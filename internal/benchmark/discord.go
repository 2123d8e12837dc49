package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// The Discord interactions handler's latency from request to reply (issue
// 6, acceptance 5): signed interactions POSTed over loopback to the same
// discord.Handler functions/discord serves (reply cache on, the default
// 2-second budget before it defers), for a purchase (/buy, then its
// confirmation button) and for the moves of a duel (/match move).

// Command names of the Discord rows.
const (
	dcJoin        = "discord /join"
	dcBuy         = "discord /buy (confirm prompt)"
	dcBuyConfirm  = "discord buy confirm (purchase)"
	dcDuelRequest = "discord /duel request"
	dcDuelAccept  = "discord duel Accept button (starts)"
	dcStatus      = "discord /match status (legal moves)"
	dcSelect      = "discord /match move select"
	dcBet         = "discord /match move raise/match/pass"
	dcPlay        = "discord /match move play/add/choice"
	// dcPlayWins is the play that empties the last hand but one: it ends
	// the match and pays the winner (a third item), so it is a row of its
	// own, as the API's settling forfeit is.
	dcPlayWins = "discord /match move play (wins, settles)"
)

// discordBudget is the handler's wait before it defers, Discord's default
// for the bench; the tests, which hold the costs and not the machine's
// speed, set it out of reach.
var discordBudget = discord.DefaultBudget

// MaxDiscordDuels bounds the duels MeasureDiscord plays, so the Discord
// section adds seconds, not minutes, to a large run: its move rows still
// get tens of samples per duel.
const MaxDiscordDuels = 25

const (
	discordGame  = "bench-discord"
	discordGuild = "900"
	discordAdmin = "1" // the Discord user id of admin
)

// discordBench sends signed interactions and records each under its row.
type discordBench struct {
	ctx    context.Context
	url    string
	client *http.Client
	clk    *clock.Manual
	m      *meter
	rec    *recorder
	last   sample
	ids    int
	seq    int
}

// send posts one interaction by user, signed now with the test key, and
// returns the decoded response. A refusal, a deferral (the command outlived
// the budget) or any status but 200 is an error: every measured
// interaction is one that succeeds in time.
func (b *discordBench) send(command, user string, typ int, data any) (discord.Response, error) {
	var resp discord.Response
	b.ids++
	b.seq++
	id := strconv.Itoa(1_000_000 + b.ids)
	d, _ := json.Marshal(data)
	body, _ := json.Marshal(map[string]any{
		"id": id, "application_id": "4242", "type": typ, "token": "tok-" + id, "version": 1,
		"guild_id": discordGuild, "channel_id": "700",
		"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": "User " + user}},
		"data":   json.RawMessage(d),
	})
	sig, stamp := discordtest.Sign(b.clk.Now(), body)
	req, err := http.NewRequestWithContext(b.ctx, http.MethodPost, b.url+"/discord/interactions", bytes.NewReader(body))
	if err != nil {
		return resp, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set(seqHeader, strconv.Itoa(b.seq))
	t0 := time.Now()
	res, err := b.client.Do(req)
	if err != nil {
		return resp, fmt.Errorf("%s: %w", command, err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	elapsed := time.Since(t0)
	cost := b.m.take(strconv.Itoa(b.seq))
	if res.StatusCode != http.StatusOK {
		return resp, fmt.Errorf("%s: status %d: %s", command, res.StatusCode, got)
	}
	if err := json.Unmarshal(got, &resp); err != nil {
		return resp, fmt.Errorf("%s: the response is not JSON: %.200s", command, got)
	}
	switch {
	case resp.Type == discord.ResponseDeferredMessage || resp.Type == discord.ResponseDeferredUpdate:
		return resp, fmt.Errorf("%s was deferred: the command outlived the handler's %s budget", command, discordBudget)
	case resp.Data == nil:
		return resp, fmt.Errorf("%s answered no message: %.200s", command, got)
	case resp.Data.Flags&discord.FlagEphemeral != 0 && len(resp.Data.Embeds) == 0 && (resp.Data.Components == nil || len(*resp.Data.Components) == 0):
		// A refusal is the rule's sentence alone, privately: no embed,
		// no buttons.
		return resp, fmt.Errorf("%s was refused: %s", command, text(resp))
	}
	if command != "" {
		b.rec.add(command, elapsed, cost)
		b.last = sample{command, elapsed, cost}
	}
	return resp, nil
}

// sample is one measured interaction.
type sample struct {
	command string
	elapsed time.Duration
	cost    store.Cost
}

// relabel moves the last measured interaction to another row.
func (b *discordBench) relabel(command string) {
	l := b.last
	r := b.rec
	n := len(r.samples[l.command])
	if n == 0 {
		return
	}
	if n == 1 {
		delete(r.samples, l.command)
		delete(r.costs, l.command)
		r.order = slices.DeleteFunc(r.order, func(c string) bool { return c == l.command })
	} else {
		r.samples[l.command] = r.samples[l.command][:n-1]
		r.costs[l.command] = r.costs[l.command].Minus(l.cost)
	}
	r.add(command, l.elapsed, l.cost)
}

// text is a response's content and embed titles.
func text(r discord.Response) string {
	if r.Data == nil {
		return ""
	}
	s := ""
	if r.Data.Content != nil {
		s = *r.Data.Content
	}
	for _, e := range r.Data.Embeds {
		s += " " + e.Title
	}
	return s
}

// button is the custom_id of the response's button labelled label...
func button(r discord.Response, label string) (string, bool) {
	if r.Data == nil || r.Data.Components == nil {
		return "", false
	}
	for _, row := range *r.Data.Components {
		for _, c := range row.Components {
			if c.Type == discord.ComponentButton && strings.HasPrefix(c.Label, label) {
				return c.CustomID, true
			}
		}
	}
	return "", false
}

func (b *discordBench) slash(command, user, name string, opts ...map[string]any) (discord.Response, error) {
	return b.send(command, user, discord.InteractionCommand, map[string]any{"id": "c-" + name, "name": name, "type": discord.CommandChatInput, "options": opts})
}

func (b *discordBench) press(command, user, customID string) (discord.Response, error) {
	return b.send(command, user, discord.InteractionComponent, map[string]any{"custom_id": customID, "component_type": discord.ComponentButton})
}

func strOpt(name, v string) map[string]any {
	return map[string]any{"name": name, "type": discord.OptString, "value": v}
}

func userOpt(name, identity string) map[string]any {
	return map[string]any{"name": name, "type": discord.OptUser, "value": strings.TrimPrefix(identity, "discord:")}
}

func sub(name string, opts ...map[string]any) map[string]any {
	if opts == nil {
		opts = []map[string]any{}
	}
	return map[string]any{"name": name, "type": discord.OptSubCommand, "options": opts}
}

// MeasureDiscord runs n players through the Discord interactions handler
// on st: each joins (/join) and buys a random card (/buy, then the
// confirmation button); then pairs of them (at most MaxDiscordDuels) duel:
// /duel request, the Accept button, and /match status and /match move for
// every move, each move one the mover's legal moves list (read from the
// service, unmeasured). Moves leave the match option empty, as a player
// with one running match does, so the handler finds the match itself.
func MeasureDiscord(ctx context.Context, backend string, st store.Store, n int) ([]Row, error) {
	clk := clock.NewManual(Start)
	svc := rulesets.New(st, clk)
	h := &discord.Handler{Router: chat.NewRouter(svc, nil), PublicKey: discordtest.PublicKey(),
		Cache: &chat.ReplyCache{Store: st, Clock: clk}, Clock: clk, Budget: discordBudget}
	mux := http.NewServeMux()
	mux.Handle("/discord/interactions", h)
	m := &meter{cost: map[string]chan store.Cost{}, next: mux}
	srv := httptest.NewServer(m)
	defer srv.Close()
	b := &discordBench{ctx: ctx, url: srv.URL, client: srv.Client(), clk: clk, m: m, rec: newRecorder()}

	adminID := "discord:" + discordAdmin
	if _, err := svc.Create(ctx, game.Request{Actor: adminID, Key: "create-" + discordGame}, game.CreateGame{ID: discordGame}); err != nil {
		return nil, fmt.Errorf("creating %s: %w", discordGame, err)
	}
	if _, err := b.slash("", discordAdmin, "bind", strOpt("game", discordGame)); err != nil {
		return nil, err
	}
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		return nil, err
	}
	players := make([]string, n)
	for i := range players {
		user := strconv.Itoa(1000 + i)
		players[i] = "discord:" + user
		if _, err := b.slash(dcJoin, user, "join"); err != nil {
			return nil, err
		}
		// The admin's grant is setup, not measured: the Vertebrae for a
		// random card, a deck and Chips for a duel.
		if _, err := gildedhall.On(svc).Grant(ctx, game.Request{Game: discordGame, Actor: adminID, Key: "grant-" + user},
			gildedhall.Grant{Player: players[i], Vertebrae: 5, Cards: deckOf(rs, i), Chips: duelChips, Reason: "bench"}); err != nil {
			return nil, fmt.Errorf("grant to %s: %w", players[i], err)
		}
		r, err := b.slash(dcBuy, user, "buy", strOpt("item", "random-card"))
		if err != nil {
			return nil, err
		}
		confirm, ok := button(r, "Buy for")
		if !ok {
			return nil, fmt.Errorf("/buy offered no confirmation button: %s", text(r))
		}
		if r, err = b.press(dcBuyConfirm, user, confirm); err != nil {
			return nil, err
		}
		if !strings.Contains(text(r), "Bought 1 × Random Card") {
			return nil, fmt.Errorf("the buy confirmation answered %q", text(r))
		}
	}
	for d := 0; d+1 < n && d/2 < MaxDiscordDuels; d += 2 {
		if err := b.duel(svc, players[d], players[d+1]); err != nil {
			return nil, fmt.Errorf("discord duel %d: %w", d/2, err)
		}
	}
	return b.rec.rows(backend, SurfaceDiscord), nil
}

// duel plays one duel of a and b through the handler, as duels does
// through the API: selections, a raise and its match, passes, then
// duelPlayMoves moves; the match is left running (its players have no
// other).
func (b *discordBench) duel(svc *game.Service, a, bb string) error {
	user := func(id string) string { return strings.TrimPrefix(id, "discord:") }
	r, err := b.slash(dcDuelRequest, user(a), "duel", sub("request", userOpt("player", bb)))
	if err != nil {
		return err
	}
	accept, ok := button(r, "Accept")
	if !ok {
		return fmt.Errorf("/duel request offered no Accept button: %s", text(r))
	}
	if r, err = b.press(dcDuelAccept, user(bb), accept); err != nil {
		return err
	}
	if !strings.Contains(text(r), "has started") {
		return fmt.Errorf("accepting the duel answered %q", text(r))
	}
	ms, err := gildedhall.On(svc).Matches(b.ctx, discordGame, gildedhall.MatchFilter{Player: a, Status: gildedhall.MatchPlaying})
	if err != nil || len(ms) != 1 {
		return fmt.Errorf("%s has %d running matches (%v), want the duel", a, len(ms), err)
	}
	id := ms[0].ID
	// legal reads who's legal moves from the service (unmeasured).
	legal := func(who string) (gildedhall.MatchView, error) {
		return gildedhall.On(svc).Match(b.ctx, discordGame, id, who)
	}

	for _, p := range []string{a, bb} {
		v, err := legal(p)
		if err != nil {
			return err
		}
		sel, ok := listed(v, exoptosis.MoveSelect)
		if !ok {
			return fmt.Errorf("%s may not select: %+v", p, v.LegalMoves)
		}
		cards := strings.Join(sel.Cards[:min(5, len(sel.Cards))], ", ")
		if _, err := b.slash(dcSelect, user(p), "match", sub("move", strOpt("kind", exoptosis.MoveSelect), strOpt("card", cards))); err != nil {
			return err
		}
	}
	plays, raised := 0, false
	for round := 0; plays < duelPlayMoves && round < 4*duelPlayMoves; round++ {
		v, err := legal("")
		if err != nil {
			return err
		}
		if v.Phase == string(exoptosis.PhaseEnded) {
			return nil
		}
		if len(v.Movers) == 0 {
			return fmt.Errorf("nobody may move in %s", v.Phase)
		}
		mover := v.Movers[0]
		command := dcPlay
		var mv exoptosis.Move
		if v.Phase == string(exoptosis.PhaseBetting) {
			command = dcBet
		} else {
			plays++
			// A player looks at the match before moving.
			if _, err := b.slash(dcStatus, user(mover), "match", sub("status")); err != nil {
				return err
			}
		}
		if v, err = legal(mover); err != nil {
			return err
		}
		switch {
		case command == dcBet && raised:
			mv, ok = listed(v, exoptosis.MoveMatch, exoptosis.MovePass, exoptosis.MoveDecline)
		case command == dcBet:
			mv, ok = listed(v, exoptosis.MoveRaise, exoptosis.MoveMatch, exoptosis.MovePass, exoptosis.MoveDecline)
			raised = mv.Kind == exoptosis.MoveRaise
		default:
			mv, ok = listed(v, exoptosis.MovePlay, exoptosis.MoveAdd, exoptosis.MoveTarget, exoptosis.MoveGiver, exoptosis.MoveGive)
		}
		if !ok {
			return fmt.Errorf("%s must move in %s but lists %+v", mover, v.Phase, v.LegalMoves)
		}
		if _, err := b.slash(command, user(mover), "match", sub("move", moveOpts(mv)...)); err != nil {
			return err
		}
		if command == dcPlay {
			if v, err = legal(""); err == nil && v.Phase == string(exoptosis.PhaseEnded) {
				b.relabel(dcPlayWins)
			}
		}
	}
	return nil
}

// moveOpts are the /match move options of a listed move.
func moveOpts(mv exoptosis.Move) []map[string]any {
	opts := []map[string]any{strOpt("kind", mv.Kind)}
	if mv.Card != "" {
		opts = append(opts, strOpt("card", mv.Card))
	}
	if mv.Kind == exoptosis.MoveRaise {
		opts = append(opts, map[string]any{"name": "level", "type": discord.OptInteger, "value": mv.Amount})
	}
	if mv.Target != "" {
		opts = append(opts, userOpt("player", mv.Target))
	}
	for i, t := range mv.Targets {
		name := "player"
		if i > 0 {
			name = "player2"
		}
		opts = append(opts, userOpt(name, t))
	}
	return opts
}
