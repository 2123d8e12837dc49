package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Issue 15 point 8: who has engaged in this phase's battle shows before the
// phase ends, in `matches`, in `status`, on the tracker's matches page and
// in the log (the announcement's sentence), not only once the battle forms.
func TestBattleEngagementIsVisible(t *testing.T) {
	h := exoGame(t)
	for _, p := range []struct{ id, name string }{{"discord:2", "Ada"}, {"discord:3", "Bob"}, {"discord:4", "Cy"}} {
		h.must("play", "--as", p.id, "join", "--name", p.name)
		h.must("play", "grant", p.id, "--random-cards", "6", "--reason", "deck")
	}
	if got := h.must("play", "matches"); strings.Contains(got, "Engaged") {
		t.Errorf("matches before anyone engaged: %s", got)
	}
	contains(t, "engage", h.must("play", "--as", "discord:2", "battle"), "Ada engaged in battle b-2026-W10-I")
	h.must("play", "--as", "discord:3", "battle")

	contains(t, "matches", h.must("play", "matches"), "Engaged in b-2026-W10-I, which forms when this phase ends: Ada and Bob (2).")
	contains(t, "status", h.must("play", "status", "Ada"), "; engaged in b-2026-W10-I (it starts when this phase ends).")
	if got := h.must("play", "status", "Cy"); strings.Contains(got, "engaged") {
		t.Errorf("Cy's status says engaged: %s", got)
	}
	contains(t, "log", h.must("play", "log", "--all"), "Bob engaged in the battle of 2026-W10-I (b-2026-W10-I, it starts when the phase ends).")

	res, err := http.Get(h.ts.URL + "/tracker/games/hall/matches")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(body)
	contains(t, "tracker matches page", page, `id="engaged" data-battle="b-2026-W10-I" data-engaged="2"`, "2 engaged in b-2026-W10-I", ">Ada (discord:2)</a>", ">Bob (discord:3)</a>")
	if strings.Contains(page, "Cy (discord:4)</a>") {
		t.Errorf("the tracker lists Cy as engaged")
	}

	// Once the phase ends, the battle is a match and the line is gone.
	h.must("play", "clock", "--to-period-end")
	if got := h.must("play", "matches"); strings.Contains(got, "Engaged in") || !strings.Contains(got, "b-2026-W10-I  battle") {
		t.Errorf("matches after the phase: %s", got)
	}
}
