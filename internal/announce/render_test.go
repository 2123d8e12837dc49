package announce_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"croupier/internal/announce"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/narratetest"
)

func ev(typ, player, data string) game.Event {
	return game.Event{Type: typ, Player: player, Data: json.RawMessage(data)}
}

func TestRender(t *testing.T) {
	reg := rulesets.Registry()
	for _, tc := range []struct {
		name string
		ev   game.Event
		want string // "" means not announced
		ping []string
	}{
		{"phase end summary", ev("period_ended", "", `{"ended":"2026-W49-I","started":"2026-W49-II","kind":"phase-2","active":["discord:2"],"inactive":["slack:U1","discord:3"]}`),
			"Period 2026-W49-I ended; 2026-W49-II (phase-2) began. Active (1): <@2>. Inactive (2): `slack:U1` and <@3>.", nil},
		{"a large game's phase end names a sample and counts the rest", ev("period_ended", "", `{"ended":"2026-W49-I","started":"2026-W49-II","kind":"phase-2","active":["discord:2","discord:4"],"active_count":7999,"inactive":["discord:3"],"inactive_count":1}`),
			"Period 2026-W49-I ended; 2026-W49-II (phase-2) began. Active (7999): <@2> and <@4> and 7997 more. Inactive (1): <@3>.", nil},
		{"chips are of note", ev("purchased", "discord:2", `{"item":"chip","name":"1 Chip","quantity":2,"paid":50,"currency":"Vertebrae"}`), "<@2> bought 2 × 1 Chip from the Croupier for 50 Vertebrae.", nil},
		{"legendary packs are of note", ev("purchased", "discord:2", `{"item":"legendary-pack","name":"Legendary Pack","quantity":1}`), "<@2> bought Legendary Pack from the Croupier.", nil},
		{"a random card is not", ev("purchased", "discord:2", `{"item":"random-card","name":"Random card","quantity":1}`), "", nil},
		{"legendary pack opened", ev("pack_opened", "discord:2", `{"pack":{"id":"p1","kind":"legendary-pack"},"name":"Legendary Pack","cards":[{"name":"King","holo":true},{"name":"Jester"}]}`),
			"<@2> opened a Legendary Pack: King (holo), Jester.", nil},
		{"handy pack opened is not", ev("pack_opened", "discord:2", `{"pack":{"kind":"handy-pack"},"name":"Handy Pack","cards":[]}`), "", nil},
		{"your turn pings", ev("match_turn_started", "discord:4", `{"match":"m1","kind":"turn_started","participant":"discord:4"}`), "<@4>, it is your turn in match m1.", []string{"discord:4"}},
		{"turn skipped", ev("match_turn_skipped", "", `{"match":"m1","participant":"discord:4","reason":"timeout"}`), "<@4>'s turn was skipped in match m1 (timeout).", nil},
		{"duel challenge pings the invitees", ev("duel_requested", "discord:2", `{"match":"d1","invitees":["discord:3"]}`), "<@2> challenges <@3> to a duel (d1).", []string{"discord:3"}},
		{"battle engagement is announced", ev("battle_engaged", "discord:2", `{"player":"discord:2","period":"2026-W49-I","battle":"battle-2026-W49-I"}`), "<@2> engaged in the battle of 2026-W49-I (battle-2026-W49-I, it starts when the phase ends).", nil},
		{"match result", ev("match_settled", "discord:5", `{"match":"m1","kind":"battle","winner":"discord:5","end_reason":"last_standing","pool":6}`), "Battle m1 was won by <@5> (last standing); the pool of 6 Chips goes to the winner.", nil},
		{"match without winner", ev("match_settled", "", `{"match":"m2","kind":"duel","end_reason":"terminated"}`), "Duel m2 ended without a winner (terminated).", nil},
		{"proposal adopted, by its summary", ev("proposal_adopted", "discord:2", `{"id":"p7","author":"discord:2","title":"More Chips","summary":"chip costs 22 Vertebrae, was 25","amendment":[{"op":"replace"}],"result":{"for":5,"against":1}}`),
			"Proposal p7 “More Chips” (chip costs 22 Vertebrae, was 25) by <@2> was adopted, 5 for and 1 against.", nil},
		{"proposal failed", ev("proposal_failed", "", `{"id":"p8"}`), "Proposal p8 failed.", nil},
		{"a submission is not announced", ev("proposal_submitted", "discord:2", `{"id":"p8"}`), "", nil},
		{"ruling", ev("ruling_made", "discord:6", `{"id":"r3-1","request":"r3","judge":"discord:6","answer":"TRUE","text":"Trades are legal."}`), "⚖️ Ruling on request r3 by <@6> (“Trades are legal.”): TRUE", nil},
		{"election", ev("judge_elected", "discord:6", `{"week":"2026-W49","judge":"discord:6","changed":true}`), "<@6> was elected Judge of 2026-W49.", []string{"discord:6"}},
		{"election kept", ev("judge_elected", "discord:6", `{"week":"2026-W49","previous":"discord:6","judge":"discord:6","changed":false}`), "<@6> remains Judge after the election of 2026-W49.", nil},
		{"election without winner", ev("judge_election_no_winner", "", `{"week":"2026-W49"}`), "The Judge election of 2026-W49 ended without a winner.", nil},
		{"judge resigned", ev("judge_resigned", "discord:6", `{"judge":"discord:6"}`), "<@6> resigned as Judge.", nil},
		{"winner pings", ev("game_won", "discord:2", `{"chips":25,"threshold":25}`), "🏆 <@2> has won the game, holding 25 Chips!", []string{"discord:2"}},
		{"data of another shape still renders", ev("period_ended", "", `[1,2]`), "Period ? ended.", nil},
		{"unknown type", ev("dice_thrown_away", "discord:2", `{}`), "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, _ := announce.Render(reg, "discord", &game.Entry{ID: "e", Events: []game.Event{tc.ev}})
			got := ""
			var ping []string
			if len(lines) > 0 {
				got, ping = lines[0].Text, lines[0].Ping
			}
			if got != tc.want || !slices.Equal(ping, tc.ping) {
				t.Errorf("got %q ping %v\nwant %q ping %v", got, ping, tc.want, tc.ping)
			}
		})
	}
}

// The announcer has no texts of its own: every event a component announces
// is posted as that component's sentence, never JSON or key=value, on
// Discord and on Slack with each platform's mentions.
func TestEveryAnnouncementReadsAsASentence(t *testing.T) {
	reg := rulesets.Registry()
	announced := map[string]bool{}
	for _, typ := range reg.EventTypes() {
		e := narratetest.Sample(typ)
		lines, skipped := announce.Render(reg, "discord", &game.Entry{ID: "e", Events: []game.Event{e}})
		if len(lines) == 0 {
			if !slices.Equal(skipped, []string{typ}) {
				t.Errorf("%s: neither announced nor skipped (%v)", typ, skipped)
			}
			continue
		}
		announced[typ] = true
		if want := reg.Sentence(e, func(id string) string { return announce.Who("discord", id) }); lines[0].Text != want {
			t.Errorf("%s: announced %q, the component's sentence is %q", typ, lines[0].Text, want)
		}
		if err := narratetest.CheckSentence(lines[0].Text); err != nil {
			t.Errorf("%s on Discord: %v", typ, err)
		}
		e.Data = []byte(strings.ReplaceAll(string(e.Data), "discord:", "slack:U"))
		e.Player = strings.ReplaceAll(e.Player, "discord:", "slack:U")
		sl, _ := announce.Render(reg, "slack", &game.Entry{ID: "e", Events: []game.Event{e}})
		if len(sl) == 1 && (strings.Contains(sl[0].Text, "slack:") || narratetest.CheckSentence(sl[0].Text) != nil) {
			t.Errorf("%s on Slack: %q", typ, sl[0].Text)
		}
	}
	for _, typ := range []string{"period_ended", "game_won", "match_settled", "match_turn_started", "proposal_adopted", "ruling_made", "judge_elected", "trade_executed", "battle_engaged", "duel_requested"} {
		if !announced[typ] {
			t.Errorf("%s is not announced", typ)
		}
	}
}

func TestSplitKeepsMessagesUnderDiscordsLimit(t *testing.T) {
	var lines []announce.Line
	for i := range 50 {
		lines = append(lines, announce.Line{Text: strings.Repeat("x", 90), Ping: []string{"discord:" + string(rune('1'+i%3))}})
	}
	lines = append(lines, announce.Line{Text: strings.Repeat("é", 2500)})
	posts := announce.Split(lines)
	total := 0
	for _, p := range posts {
		n := len([]rune(p.Text))
		if n > announce.MaxMessage {
			t.Errorf("a post of %d characters", n)
		}
		total += strings.Count(p.Text, strings.Repeat("x", 90))
	}
	if total != 50 || len(posts) != 4 || !strings.HasSuffix(posts[3].Text, "…") || len(posts[0].Ping) != 3 {
		t.Errorf("%d posts carrying %d lines (last %q...); want 4 posts, all 50 lines, the long line cut", len(posts), total, posts[len(posts)-1].Text[:10])
	}
	if a, b := announce.Nonce("e", "c", 0), announce.Nonce("e", "c", 1); len(a) != 25 || a == b || a != announce.Nonce("e", "c", 0) {
		t.Errorf("nonces %q %q: want 25 characters, stable, distinct per part", a, b)
	}
}
