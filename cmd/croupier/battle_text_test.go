package main

import (
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// A large battle's entrants are counted, not named one by one, in the
// match list and the match text; a small one names its players.
func TestLargeBattleTexts(t *testing.T) {
	big := gildedhall.MatchView{ID: "b-2026-W49-I", Kind: gildedhall.MatchBattle, Status: gildedhall.MatchPlaying, Phase: "selection",
		Entrants: 10000, Waiting: 9998, Players: []string{"discord:1", "discord:2"}}
	if got := matchText(big, func(id string) string { return id }); !strings.Contains(got, "10000 entrants, 9998 still to select; seated: discord:1 and discord:2.") {
		t.Errorf("match text of a large battle: %s", got)
	}
	list := matchesText("hall", []gildedhall.MatchSummary{{ID: big.ID, Kind: big.Kind, Status: big.Status, Entrants: 10000},
		{ID: "d1", Kind: gildedhall.MatchDuel, Status: gildedhall.MatchPlaying, Players: []string{"discord:1", "discord:3"}}},
		func(id string) string { return game.Or(map[string]string{"discord:1": "Ada"}[id], id) })
	if !strings.Contains(list, "b-2026-W49-I  battle  playing  10000 entrants") || !strings.Contains(list, "Ada and discord:3") {
		t.Errorf("match list: %s", list)
	}
}
