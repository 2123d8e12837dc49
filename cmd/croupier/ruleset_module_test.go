package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	slackchat "croupier/internal/chat/slack"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rulesets"
	"croupier/internal/store"
)

// Tally is a ruleset that exists only in this test (docs/architecture.md,
// "Adding a ruleset", follows it step by step): one command, score, which
// scores a point for the actor and, unless one is pending, sets a bonus
// point due an hour later; one due kind, the bonus; one victory rule,
// three points.
// A player's points are its part of the player record (Module.NewPlayer);
// a bonus timer is its own item, TALLY#<player>, in the game's partition,
// due when the bonus is. It runs on the turns ruleset's data (Module.Data):
// the shipped data files are the shipped rulesets'.

const (
	tallyID  = "tally"
	tallyWin = 3
	// tallyPrefix starts the sort key of a bonus timer: the due index
	// finds them by it.
	tallyPrefix = "TALLY#"
)

// tallyPlayer is a Tally player record: the membership and the points.
type tallyPlayer struct {
	game.Player
	Points int `json:"points,omitempty"`
}

// tallyBonus is a pending bonus point (the item's due time is At).
type tallyBonus struct {
	Player string    `json:"player"`
	At     time.Time `json:"at"`
}

// Score is the payload of score.
type Score struct {
	// Points scored, 1 (the default) or 2.
	Points int `json:"points,omitempty"`
	// Cheer is what the scorer says, if anything.
	Cheer string `json:"cheer,omitempty"`
}

// ScoreResult is what score answers.
type ScoreResult struct {
	Player  string    `json:"player"`
	Name    string    `json:"name"`
	Points  int       `json:"points"`
	BonusAt time.Time `json:"bonus_at,omitzero"`
	Won     bool      `json:"won"`
	Cheer   string    `json:"cheer,omitempty"`
}

func bonusKey(g, player string) store.Key {
	return store.Key{PK: game.GamePK(g), SK: tallyPrefix + player}
}

// tallyModule is the Tally ruleset as the engine runs it.
func tallyModule() game.Module {
	return game.Module{ID: tallyID, Title: "Tally", Data: "turns",
		NewPlayer: func(m game.Player) game.PlayerRecord { return &tallyPlayer{Player: m} },
		Components: []game.Component{{Name: tallyID,
			Commands: []game.Command{
				{Name: "score", Institution: tallyID, Action: true, What: "points",
					Summary: "Score a point (or 2); a bonus point follows an hour later", Call: game.Method(score), Says: saysScore,
					Help: "A player's third point wins the game.",
					Args: []game.Arg{
						{Name: "points", Type: game.FieldInteger, Positional: true, Min: game.Bound(1), Max: game.Bound(2), Description: "Points scored (1 unless given)"},
						{Name: "cheer", Type: game.FieldString, Description: "What you say as you score", Suggest: &cheers},
					}},
				{Name: "tally-bonus", Institution: tallyID, Scheduled: true, AfterEnd: true, What: "bonus points"},
			},
			Due: []game.DueWork{{Kind: "tally-bonus", Prefix: tallyPrefix, Run: runBonus}},
		}},
		// Checked for every player record a commit writes.
		Victory: func(_ *game.Tx, p game.PlayerRecord) (bool, any) {
			tp := p.(*tallyPlayer)
			return tp.Points >= tallyWin, map[string]int{"points": tp.Points}
		},
	}
}

// cheers suggests what a scorer may say: the game's cheers, the
// scorer's own first.
var cheers = game.Suggest{Name: "tally-cheers", List: func(ctx context.Context, s *game.Service, q game.SuggestQuery) ([]game.Choice, error) {
	out := []game.Choice{{Label: "Well played!", Value: "Well played!"}, {Label: "At last!", Value: "At last!"}}
	if q.Args["points"] == "2" {
		out = append([]game.Choice{{Label: "Two at once!", Value: "Two at once!"}}, out...)
	}
	return out, nil
}}

// saysScore is how score's answer reads on every edge (Command.Says).
func saysScore(a game.Answer) string {
	var r ScoreResult
	a.Decode(&r)
	s := fmt.Sprintf("%s scored: %s in all", a.Who(r.Player, r.Name), game.Count(r.Points, "point", "points"))
	if r.Cheer != "" {
		s = fmt.Sprintf("%s (%q)", s, r.Cheer)
	}
	if r.Won {
		return s + ", and wins the game!"
	}
	if !r.BonusAt.IsZero() {
		s += "; a bonus point follows at " + r.BonusAt.UTC().Format("15:04 UTC")
	}
	return s + "."
}

// tallyMember returns id's record if they are a current player, else nil.
func tallyMember(t *game.Tx, id string) (*tallyPlayer, error) {
	r, err := t.Record(id)
	if err != nil || r == nil || !r.Core().Member {
		return nil, err
	}
	return r.(*tallyPlayer), nil
}

func score(s *game.Service, ctx context.Context, req game.Request, p Score) (*game.Result, error) {
	if p.Points == 0 {
		p.Points = 1
	}
	if p.Points < 1 || p.Points > 2 {
		return nil, rules.Refuse("invalid_request", "A score is 1 or 2 points, not %d.", p.Points)
	}
	return s.Run(ctx, game.Spec{Req: req, Command: "score", Body: p,
		Keys: func(g string) []store.Key { return []store.Key{game.PlayerKey(g, req.Actor), bonusKey(g, req.Actor)} },
		Apply: func(t *game.Tx) (any, error) {
			if _, err := t.Actor(); err != nil { // refuses a non-player
				return nil, err
			}
			pl, err := tallyMember(t, req.Actor)
			if err != nil {
				return nil, err
			}
			pl.Points += p.Points
			bonus := tallyBonus{Player: pl.ID}
			if it := t.Loaded[bonusKey(t.Game, pl.ID)]; it.Exists() {
				if err := json.Unmarshal(it.Data, &bonus); err != nil {
					return nil, err
				}
			}
			if bonus.At.IsZero() {
				bonus.At = t.Now.Add(time.Hour)
				if err := t.Put(bonusKey(t.Game, pl.ID), bonus, bonus.At); err != nil {
					return nil, err
				}
			}
			if err := t.Acted(pl); err != nil {
				return nil, err
			}
			t.Save(pl)
			t.Emit("point_scored", pl.ID, map[string]int{"points": pl.Points})
			return ScoreResult{Player: pl.ID, Name: pl.Name, Points: pl.Points, BonusAt: bonus.At, Won: pl.Points >= tallyWin, Cheer: p.Cheer}, nil
		}})
}

var errBonusNotDue = errors.New("no bonus due")

// runBonus applies a due bonus point, as of its due moment (RULINGS T4);
// its idempotency key names the player and the moment, so a repeated or
// concurrent run does nothing.
func runBonus(s *game.Service, ctx context.Context, g, sk string) ([]string, error) {
	player := strings.TrimPrefix(sk, tallyPrefix)
	it, err := s.Store().Get(ctx, bonusKey(g, player))
	if err != nil {
		return nil, err
	}
	due := it.Due
	if !it.Exists() || due.IsZero() || due.After(s.Clock().Now()) {
		return nil, nil
	}
	key := "tally-bonus:" + player + ":" + due.UTC().Format(time.RFC3339Nano)
	res, err := s.Run(ctx, game.Spec{Req: game.Request{Game: g, Actor: game.SchedulerActor, Key: key}, Command: "tally-bonus",
		Body: map[string]string{"player": player, "due": due.UTC().Format(time.RFC3339Nano)},
		Keys: func(g string) []store.Key { return []store.Key{game.PlayerKey(g, player), bonusKey(g, player)} },
		Apply: func(t *game.Tx) (any, error) {
			if !t.Loaded[bonusKey(t.Game, player)].Due.Equal(due) {
				return nil, errBonusNotDue
			}
			t.Now, t.Entry.At, t.Entry.ID = due, due, s.NewLogID(due)
			// Done with the timer: the next point sets a new one.
			if err := t.Put(bonusKey(t.Game, player), tallyBonus{Player: player}, time.Time{}); err != nil {
				return nil, err
			}
			pl, err := tallyMember(t, player)
			if err != nil {
				return nil, err
			}
			// A game over, or a player gone, gets no bonus.
			if pl == nil || t.Meta.Ended {
				return map[string]any{"player": player, "bonus": false}, nil
			}
			pl.Points++
			t.Save(pl)
			t.Emit("bonus_scored", pl.ID, map[string]int{"points": pl.Points})
			return map[string]any{"player": player, "bonus": true, "points": pl.Points}, nil
		}})
	if errors.Is(err, errBonusNotDue) || err == nil && res.Replayed {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []string{g + "/" + player}, nil
}

// moduleHarness is `croupier serve`'s wiring (the JSON API, Slack's and
// Discord's endpoints) running every shipped ruleset and Tally: the one
// list the engine is handed.
func moduleHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessWith(t, "manual", func(c *serveConfig) {
		c.modules = append(rulesets.All(), tallyModule())
		c.slackSecret, c.discordKey = slackSecret, discordtest.PublicKey()
	})
}

// api sends one JSON API request as actor and returns the status and the
// decoded body.
func (h *harness) api(method, path, actor string, body any) (int, map[string]any) {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	r, _ := http.NewRequest(method, h.ts.URL+path, rd)
	r.Header.Set("Authorization", "Bearer "+testKey)
	r.Header.Set("X-Croupier-Actor", actor)
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &v); err != nil {
		h.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, v
}

// snapshot is every item of game g's partition: key, version, data, due.
func (h *harness) snapshot(g string) string {
	h.t.Helper()
	var b strings.Builder
	q := store.Query{PK: game.GamePK(g), Limit: 100}
	for {
		page, err := h.srv.store.Query(context.Background(), q)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, it := range page.Items {
			fmt.Fprintf(&b, "%s v%d due=%s %s\n", it.Key, it.Version, it.Due, it.Data)
		}
		if page.Next == "" {
			return b.String()
		}
		q.Cursor = page.Next
	}
}

const slackSecret = "slack-secret"

// slack sends `/croupier text` as Slack user in team T1 to the server's
// /slack/commands and returns the reply's JSON.
func (h *harness) slack(user, text string) string {
	h.t.Helper()
	h.keys++
	form := url.Values{"team_id": {"T1"}, "channel_id": {"C0PLAY"}, "user_id": {user}, "user_name": {strings.ToLower(user)},
		"command": {"/croupier"}, "text": {text}, "trigger_id": {fmt.Sprintf("trig-%d", h.keys)}}.Encode()
	r, _ := http.NewRequest(http.MethodPost, h.ts.URL+"/slack/commands", strings.NewReader(form))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	r.Header.Set("X-Slack-Request-Timestamp", stamp)
	r.Header.Set("X-Slack-Signature", slackchat.Sign([]byte(slackSecret), stamp, []byte(form)))
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		h.t.Fatalf("slack %q: %d %s", text, resp.StatusCode, b)
	}
	return string(b)
}

// slash sends Discord's slash command name with options as user in guild
// to the server's /discord/interactions, signed, and returns the reply's
// text (content, embed titles and fields).
func (h *harness) slash(guild, user, name string, opts ...map[string]any) string {
	h.t.Helper()
	h.keys++
	id := fmt.Sprintf("%d", 5000+h.keys)
	data, _ := json.Marshal(map[string]any{"id": "c-" + name, "name": name, "type": discord.CommandChatInput, "options": opts})
	body, _ := json.Marshal(map[string]any{"id": id, "application_id": "4242", "type": discord.InteractionCommand, "token": "tok-" + id, "version": 1,
		"guild_id": guild, "channel_id": "700", "data": json.RawMessage(data),
		"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": "User " + user}}})
	code, dr, raw := h.discordPost(body, true)
	if code != http.StatusOK || dr.Data == nil {
		h.t.Fatalf("/%s: %d %s", name, code, raw)
	}
	return replyText(dr)
}

// Acceptance 3 of issue 12: a ruleset module that exists only in this test,
// added to the one list of modules the engine is handed, works through
// the JSON API, `croupier play`, Discord (its commands registered for a
// guild, and run) and Slack, with no code of its own in the engine or an
// edge:
// a point counted, the bonus applied by the due work, the game won and then
// closed (game_over), and its command refused not_in_ruleset in a Gilded
// Hall game with that game's items unchanged.
func TestAddingARuleset(t *testing.T) {
	h := moduleHarness(t)
	ada, bob, cy := "discord:1", "discord:2", "discord:3"

	// The JSON API: create a Tally game, and read its commands.
	if st, v := h.api("POST", "/v1/games", ada, map[string]any{"id": "tally-1", "name": "Tally night", "ruleset": tallyID, "admins": []string{ada, "slack:USUE"}}); st != http.StatusCreated {
		t.Fatalf("create: %d %v", st, v)
	}
	st, list := h.api("GET", "/v1/games/tally-1/commands", ada, nil)
	if st != http.StatusOK || list["ruleset"] != tallyID {
		t.Fatalf("commands: %d %v", st, list)
	}
	var names []string
	var scoreInfo map[string]any
	for _, c := range list["commands"].([]any) {
		c := c.(map[string]any)
		names = append(names, c["name"].(string))
		if c["name"] == "score" {
			scoreInfo = c
		}
	}
	if scoreInfo == nil || !slices.Contains(names, "join") || slices.Contains(names, "purchase") || slices.Contains(names, "tally-bonus") || slices.Contains(names, "proposal-submit") {
		t.Fatalf("the tally game's commands are %v", names)
	}
	if want := `[{"description":"Points scored (1 unless given)","max":2,"min":1,"name":"points","positional":true,"required":false,"type":"integer"},{"description":"What you say as you score","name":"cheer","required":false,"suggest":"tally-cheers","type":"string"}]`; mustJSON(scoreInfo["fields"]) != want || !strings.Contains(scoreInfo["summary"].(string), "Score a point") || scoreInfo["help"] != "A player's third point wins the game." {
		t.Errorf("score is listed as %v, want the fields %s, its summary and help", scoreInfo, want)
	}
	for _, p := range []struct{ id, name string }{{ada, "Ada"}, {bob, "Bob"}, {cy, "Cy"}} {
		if st, v := h.api("POST", "/v1/games/tally-1/join", p.id, map[string]any{"name": p.name}); st != http.StatusOK {
			t.Fatalf("join %s: %d %v", p.name, st, v)
		}
	}
	st, v := h.api("POST", "/v1/games/tally-1/commands/score", ada, map[string]any{})
	if st != http.StatusOK || v["points"] != 1.0 || v["name"] != "Ada" || v["bonus_at"] != "2026-03-05T13:00:00Z" || v["won"] != false {
		t.Fatalf("API score: %d %v", st, v)
	}
	if st, v := h.api("POST", "/v1/games/tally-1/commands/score", ada, map[string]any{"points": 5}); st != http.StatusBadRequest || v["code"] != "invalid_request" {
		t.Errorf("a score of 5: %d %v, want 400 invalid_request", st, v)
	}

	// The CLI: score has no verb of its own in croupier play.
	h.vars["CROUPIER_GAME"] = "tally-1"
	out := h.must("play", "--as", bob, "score")
	contains(t, "play score", out, "Bob scored: 1 point in all; a bonus point follows at 13:00 UTC.")
	out = h.must("play", "help", "score")
	contains(t, "play help score", out, "score [POINTS] [--cheer CHEER]", "Score a point (or 2)", "A player's third point wins the game.",
		"POINTS", "Points scored (1 unless given); a whole number from 1 to 2", "--cheer CHEER", "What you say as you score")
	if r := h.cli("play", "--as", bob, "score", "lots"); r.code != exitUsage || !strings.Contains(r.stderr, `points must be a whole number, not "lots"`) {
		t.Errorf("play score lots: %s", r)
	}
	if r := h.cli("play", "--as", bob, "score", "3"); r.code != exitUsage || !strings.Contains(r.stderr, `points must be from 1 to 2, not 3`) {
		t.Errorf("play score 3: %s", r)
	}
	if r := h.cli("play", "--as", bob, "score", "1", "Yes!"); r.code != exitUsage || !strings.Contains(r.stderr, `"Yes!" is one argument too many`) {
		t.Errorf("play score 1 Yes! (cheer is named, not positional): %s", r)
	}

	// The due work: an hour after a point with no bonus pending, a bonus point.
	out = h.must("play", "clock", "--advance", "61m")
	contains(t, "clock", out, "Timers (tally-bonus): tally-1/discord:1, tally-1/discord:2.")
	rep, err := h.srv.svc.RunDue(context.Background())
	if err != nil || len(rep.Done["tally-bonus"]) != 0 {
		t.Errorf("a second RunDue: %v %v, want nothing more done", rep, err)
	}
	if it, err := h.srv.store.Get(context.Background(), game.PlayerKey("tally-1", bob)); err != nil || !strings.Contains(string(it.Data), `"points":2`) {
		t.Errorf("Bob's record after the bonus: %s %v", it.Data, err)
	}

	// Slack: the team bound to the Tally game runs /croupier score, its
	// option given by position or by name.
	if out := h.slack("USUE", "bind game=tally-1 announcements=<#C0ANN|announcements>"); !strings.Contains(out, "now plays the game tally-1") {
		t.Fatalf("slack bind: %s", out)
	}
	h.slack("USUE", "join Sue")
	if out := h.slack("USUE", "score 2"); !strings.Contains(out, `Sue scored: 2 points in all`) {
		t.Errorf("slack score 2: %s", out)
	}
	if out := h.slack("USUE", "score points=x"); !strings.Contains(out, "Option points must be a whole number") {
		t.Errorf("slack score points=x: %s", out)
	}

	// Discord: the guild bound to the Tally game gets score registered, and
	// /score runs it.
	registered := registerFor(t, h.srv.svc.Registry, tallyID)
	if !strings.Contains(registered, `{"name":"score","type":1,"description":"Score a point (or 2); a bonus point follows an hour later","options":[{"type":4,"name":"points","description":"Points scored (1 unless given)","min_value":1,"max_value":2},{"type":3,"name":"cheer","description":"What you say as you score","autocomplete":true}]}`) ||
		strings.Contains(registered, `"name":"buy"`) || !strings.Contains(registered, `"name":"join"`) {
		t.Errorf("registered for a tally guild: %s", registered)
	}
	if s := h.slash("900", "1", "bind", map[string]any{"name": "game", "type": discord.OptString, "value": "tally-1"}, map[string]any{"name": "announcements", "type": discord.OptChannel, "value": "701"}); !strings.Contains(s, "now plays the game tally-1") {
		t.Fatalf("bind: %s", s)
	}
	// Its cheer autocompletes from the declaration's source, which sees
	// the options typed so far.
	if got := h.autocomplete("900", "2", "score", map[string]any{"name": "points", "type": discord.OptInteger, "value": 2},
		map[string]any{"name": "cheer", "type": discord.OptString, "value": "t", "focused": true}); got != `[{"name":"Two at once!","value":"Two at once!"},{"name":"At last!","value":"At last!"}]` {
		t.Errorf("/score cheer autocompletes %s", got)
	}
	s := h.slash("900", "2", "score", map[string]any{"name": "cheer", "type": discord.OptString, "value": "At last!"})
	if !strings.Contains(s, `Bob scored: 3 points in all ("At last!"), and wins the game!`) {
		t.Fatalf("/score by Bob: %s", s)
	}
	// Bob has won: the game is over, by every edge.
	_, g := h.api("GET", "/v1/games/tally-1", ada, nil)
	if g["ended"] != true || g["winner"] != bob {
		t.Errorf("the game after Bob's third point: %v", g)
	}
	if s := h.slash("900", "1", "score", map[string]any{"name": "points", "type": discord.OptInteger, "value": 2}); !strings.Contains(s, `The game "tally-1" has ended (won by <@2>)`) {
		t.Errorf("/score after the end: %s", s)
	}
	if r := h.cli("play", "--as", ada, "score"); r.code != exitRefused || !strings.Contains(r.stderr, "[game_over]") {
		t.Errorf("play score after the end: %s", r)
	}
	if st, v := h.api("POST", "/v1/games/tally-1/commands/score", cy, map[string]any{}); st != http.StatusConflict || v["code"] != "game_over" {
		t.Errorf("API score after the end: %d %v", st, v)
	}

	// A Gilded Hall game has no score: refused by every edge, nothing written.
	if st, v := h.api("POST", "/v1/games", ada, map[string]any{"id": "hall"}); st != http.StatusCreated {
		t.Fatalf("create hall: %d %v", st, v)
	}
	h.api("POST", "/v1/games/hall/join", ada, map[string]any{"name": "Ada"})
	if s := h.slash("901", "1", "bind", map[string]any{"name": "game", "type": discord.OptString, "value": "hall"}, map[string]any{"name": "announcements", "type": discord.OptChannel, "value": "702"}); !strings.Contains(s, "now plays the game hall") {
		t.Fatalf("bind hall: %s", s)
	}
	if registered := registerFor(t, h.srv.svc.Registry, "gilded-hall"); strings.Contains(registered, `"name":"score"`) {
		t.Errorf("score registered for a Gilded Hall guild: %s", registered)
	}
	before := h.snapshot("hall")
	if st, v := h.api("POST", "/v1/games/hall/commands/score", ada, map[string]any{}); st != http.StatusUnprocessableEntity || v["code"] != "not_in_ruleset" {
		t.Errorf("API score in hall: %d %v", st, v)
	}
	if s := h.slash("901", "1", "score"); !strings.Contains(s, `The Gilded Hall game "hall" has no points.`) {
		t.Errorf("/score in hall: %s", s)
	}
	if r := h.cli("play", "--as", ada, "--game", "hall", "score"); r.code != exitUsage || !strings.Contains(r.stderr, `unknown play command "score": neither croupier play nor game hall's ruleset (gilded-hall) has it`) {
		t.Errorf("play score in hall: %s", r)
	}
	if after := h.snapshot("hall"); after != before {
		t.Errorf("the hall's items changed:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// autocomplete sends Discord's autocomplete interaction for command name
// with opts (one of them focused) as user in guild, and returns the
// choices it answers, as JSON.
func (h *harness) autocomplete(guild, user, name string, opts ...map[string]any) string {
	h.t.Helper()
	h.keys++
	id := fmt.Sprintf("%d", 7000+h.keys)
	data, _ := json.Marshal(map[string]any{"id": "c-" + name, "name": name, "type": discord.CommandChatInput, "options": opts})
	body, _ := json.Marshal(map[string]any{"id": id, "application_id": "4242", "type": discord.InteractionAutocomplete, "token": "tok-" + id, "version": 1,
		"guild_id": guild, "channel_id": "700", "data": json.RawMessage(data),
		"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": "User " + user}}})
	code, dr, raw := h.discordPost(body, true)
	if code != http.StatusOK || dr.Data == nil {
		h.t.Fatalf("autocomplete /%s: %d %s", name, code, raw)
	}
	return mustJSON(dr.Data.Choices)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// registerFor runs discord.Register for ruleset id's chat commands against
// a loopback of Discord's commands route and returns what it sent.
func registerFor(t *testing.T, reg *game.Registry, id string) string {
	t.Helper()
	var mu sync.Mutex
	var sent []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodPut {
			sent, _ = io.ReadAll(r.Body)
			_, _ = w.Write(sent)
			return
		}
		_, _ = w.Write([]byte("[]"))
	}))
	defer srv.Close()
	cmds, err := discord.AppCommands(chat.CommandsFor(reg, id))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := discord.Register(context.Background(), &discord.Client{Base: srv.URL, Token: "tok"}, "4242", "900", cmds); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return string(sent)
}
