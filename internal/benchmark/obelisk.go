package benchmark

import (
	"encoding/json"
	"fmt"

	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
)

// The Obelisk's commands (seed 002), through the catalogue route every edge
// uses: a task, an observation (which grants ⚡ to every player of the
// game, so it reads and writes them all), a contribution and a completion.

// obeliskGamePlayers is how many players each benchmark Obelisk game has
// (an observation's cost does not grow with them: its ⚡ is a game-level
// grant).
const obeliskGamePlayers = 10

// obeliskCommands plays n players, in games of obeliskGamePlayers, through
// the Obelisk: each performs Herbalism; the first of each game observes;
// players pair up, the first of a pair starts a Gathering, both contribute
// ⚡ and the starter completes it.
func obeliskCommands(call func(op, string) ([]byte, error), n int) error {
	// More ⚡ on joining than seed 002's 1 (ruleset data), for the task,
	// the Gathering and the contribution; and a ritual two ⚡ complete.
	patch := json.RawMessage(`[{"op":"replace","path":"/thresholds/joinEnergy","value":4},` +
		`{"op":"add","path":"/obelisk/ritualTypes/kindle","value":{"id":"kindle","name":"Kindle","cost":{"resolve":2},"effects":[{"kind":"add-cuts","amount":1}]}}]`)
	games := max(1, (n+obeliskGamePlayers-1)/obeliskGamePlayers)
	for g := range games {
		path := fmt.Sprintf("/v1/games/bench-ob-%d", g)
		if _, err := call(op{"create game (obelisk)", "POST", "/v1/games", admin, game.CreateGame{ID: fmt.Sprintf("bench-ob-%d", g), Ruleset: obelisk.ID}, 201}, fmt.Sprintf("ob-c%d", g)); err != nil {
			return err
		}
		if _, err := call(op{"amend", "POST", path + "/amendments", admin, game.Amend{Patch: patch, Reason: "bench"}, 200}, fmt.Sprintf("ob-a%d", g)); err != nil {
			return err
		}
		var ps []string
		for i := g * obeliskGamePlayers; i < min(n, (g+1)*obeliskGamePlayers); i++ {
			p := fmt.Sprintf("discord:%d", 5000+i)
			ps = append(ps, p)
			k := func(s string) string { return fmt.Sprintf("ob-%s-%d", s, i) }
			if _, err := call(op{"join (obelisk)", "POST", path + "/join", p, game.JoinGame{Name: "Player"}, 200}, k("join")); err != nil {
				return err
			}
			if _, err := call(op{"task (herbalism)", "POST", path + "/commands/task", p, obelisk.Task{Task: "herbalism"}, 200}, k("task")); err != nil {
				return err
			}
		}
		if _, err := call(op{fmt.Sprintf("observe (%d players)", len(ps)), "POST", path + "/commands/observe", ps[0], map[string]any{}, 200}, fmt.Sprintf("ob-o%d", g)); err != nil {
			return err
		}
		for j := 0; j+1 < len(ps); j += 2 {
			a, b := ps[j], ps[j+1]
			msg := fmt.Sprintf("rituals-%d", j)
			k := func(s string) string { return fmt.Sprintf("ob-%s-%d-%d", s, g, j) }
			for _, o := range []op{
				{"gathering start", "POST", path + "/commands/gathering-start", a, obelisk.StartGathering{RitualType: "kindle", Message: msg}, 201},
				{"gathering contribute", "POST", path + "/commands/gathering-contribute", b, obelisk.GatheringMove{Gathering: msg, Component: "⚡"}, 200},
				{"gathering contribute", "POST", path + "/commands/gathering-contribute", a, obelisk.GatheringMove{Gathering: msg, Component: "⚡"}, 200},
				{"gathering complete", "POST", path + "/commands/gathering-complete", a, obelisk.GatheringRef{Gathering: msg}, 200},
			} {
				if _, err := call(o, k(o.command+o.actor)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
