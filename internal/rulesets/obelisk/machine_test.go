package obelisk_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/economy"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store"
)

// A cheap ritual for random games: it gives back more ⚡ than it costs,
// so games keep moving, and touches the Obelisk.
const machineRitual = `{"id":"kindle","name":"Kindle","cost":{"resolve":1},` +
	`"effects":[{"kind":"add-cuts","amount":1},{"kind":"summon-grebes","amount":1},{"kind":"grant","target":"contributors","components":{"resolve":2}}]}`

// An every-player ritual: its grant is game-level (rules/obelisk.Grants).
const machineBoon = `{"id":"boon","name":"Boon","cost":{"herbs":1},` +
	`"effects":[{"kind":"grant","target":"every-player","components":{"resolve":1,"crystals":1}}]}`

var machinePlayers = []string{"discord:2", "discord:3", "discord:4", "discord:5"}

// done is a command that committed, kept to be replayed with its key.
type done struct {
	what string
	req  game.Request
	run  func(game.Request) (*game.Result, error)
	body json.RawMessage
}

// TestModule_RandomGamesKeepTheInvariants is a state machine over random
// obelisk games through the module (service level, bolt store): tasks,
// observations, trades, gatherings, contributions, withdrawals,
// completions, phase ends, banishments, and replays of a committed
// command's idempotency key. After every step: no negative count; ⚡ never
// traded; every player's components are what the log's changes explain
// (join, task, recipe, observation, contribution and refund, ritual,
// trade, an admin's correction); a Gathering completes at most once; a failed Gathering refunded
// each contributor exactly what they had in it; a refusal or a replay
// changes nothing (and a replay answers as the first time).
func TestModule_RandomGamesKeepTheInvariants(t *testing.T) {
	stats := map[string]int{}
	defer func() { t.Logf("committed over all runs: %v", stats) }()
	rapid.Check(t, func(rt *rapid.T) {
		w := newWorld(t, gametest.Bolt(t), rapid.SampledFrom(calendar.Seasons).Draw(rt, "season"))
		w.t = rt
		// More ⚡ on joining than seed 002's 1, so random games get past
		// their first task (the number is ruleset data, RULINGS R1).
		if _, err := w.svc.Amend(w.ctx, w.req(admin), game.Amend{Patch: json.RawMessage(`[{"op":"replace","path":"/thresholds/joinEnergy","value":6}]`), Reason: "busier games"}); err != nil {
			rt.Fatal(err)
		}
		w.join(machinePlayers...)
		w.amendRitual(machineRitual)
		w.amendRitual(cutTheObelisk)
		w.amendRitual(machineBoon)
		var committed []done
		var gatherings, offered []string
		starter, receiver := map[string]string{}, map[string]string{}
		newest := "" // the phase the newest Gathering started in
		player := rapid.SampledFrom(machinePlayers)
		do := func(what string, actor string, run func(game.Request) (*game.Result, error)) *game.Result {
			before := w.snapshot()
			req := w.req(actor)
			res, err := run(req)
			if err != nil {
				var re *rules.Error
				if !errors.As(err, &re) {
					rt.Fatalf("%s by %s: not a refusal: %v", what, actor, err)
				}
				stats[what+" refused "+re.Code]++
				if after := w.snapshot(); after != before {
					rt.Fatalf("the refused %s (%v) changed state", what, err)
				}
				return nil
			}
			committed = append(committed, done{what: what, req: req, run: run, body: res.Body})
			stats[what]++
			return res
		}
		contribute := func(rt *rapid.T) {
			if len(gatherings) == 0 {
				rt.Skip("no gathering")
			}
			m := obelisk.GatheringMove{Gathering: pickRecent(rt, gatherings, "gathering"), Component: rapid.SampledFrom([]string{"⚡", "resolve", "🌿", "herbs", "crystals"}).Draw(rt, "component")}
			do("gathering-contribute", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) { return w.ob.Contribute(w.ctx, r, m) })
		}
		actions := map[string]func(*rapid.T){
			"task": func(rt *rapid.T) {
				task := rapid.SampledFrom([]string{"mining", "herbalism", "alchemy", "heart", "blood", "befriend"}).Draw(rt, "task")
				grebe := rapid.IntRange(1, 6).Draw(rt, "grebe")
				do("task", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) {
					return w.ob.PerformTask(w.ctx, r, obelisk.Task{Task: task, Grebe: grebe})
				})
			},
			"herbalism": func(rt *rapid.T) {
				do("task", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) {
					return w.ob.PerformTask(w.ctx, r, obelisk.Task{Task: "herbalism"})
				})
			},
			"observe": func(rt *rapid.T) {
				do("observe", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) { return w.ob.Observe(w.ctx, r) })
			},
			"start": func(rt *rapid.T) {
				if newest != "" && newest == calendar.PhaseAt(w.clk.Now()).ID() && rapid.IntRange(0, 2).Draw(rt, "start another") != 0 {
					rt.Skip("one Gathering at a time, mostly")
				}
				ritual := rapid.SampledFrom([]string{"kindle", "cut-the-obelisk", "boon"}).Draw(rt, "ritual")
				if res := do("gathering-start", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) {
					return w.ob.StartGathering(w.ctx, r, obelisk.StartGathering{RitualType: ritual, Message: "m-" + r.Key})
				}); res != nil {
					var d obelisk.TaskDone
					_ = json.Unmarshal(res.Body, &d)
					gatherings = append(gatherings, d.Gathering.ID)
					starter[d.Gathering.ID] = d.Gathering.Starter
					newest = d.Gathering.Period
				}
			},
			"contribute":       contribute,
			"contribute again": contribute,
			"contribute more":  contribute,
			"withdraw": func(rt *rapid.T) {
				if len(gatherings) == 0 {
					rt.Skip("no gathering")
				}
				m := obelisk.GatheringMove{Gathering: pickRecent(rt, gatherings, "gathering"), Component: rapid.SampledFrom([]string{"⚡", "herbs"}).Draw(rt, "component")}
				do("gathering-withdraw", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) { return w.ob.Withdraw(w.ctx, r, m) })
			},
			"complete": func(rt *rapid.T) {
				if len(gatherings) == 0 {
					rt.Skip("no gathering")
				}
				ref := obelisk.GatheringRef{Gathering: pickRecent(rt, gatherings, "gathering")}
				actor := starter[ref.Gathering]
				if rapid.IntRange(0, 4).Draw(rt, "anyone") == 0 {
					actor = player.Draw(rt, "actor")
				}
				do("gathering-complete", actor, func(r game.Request) (*game.Result, error) { return w.ob.Complete(w.ctx, r, ref) })
			},
			"trade": func(rt *rapid.T) {
				from := player.Draw(rt, "from")
				to := rapid.SampledFrom(slices.DeleteFunc(slices.Clone(machinePlayers), func(p string) bool { return p == from && rapid.IntRange(0, 9).Draw(rt, "self") != 0 })).Draw(rt, "to")
				give := ruleset.Components{Herbs: rapid.IntRange(0, 2).Draw(rt, "herbs"), Crystals: rapid.IntRange(0, 1).Draw(rt, "crystals")}
				if rapid.IntRange(0, 5).Draw(rt, "offers resolve") == 0 {
					give.Resolve = 1 // refused: ⚡ is never traded
				}
				take := ruleset.Components{Herbs: rapid.IntRange(0, 1).Draw(rt, "take")}
				th := trades.On(w.svc)
				res := do("trade-offer", from, func(r game.Request) (*game.Result, error) {
					return th.OfferTrade(w.ctx, r, trades.OfferTrade{To: to, Give: economy.Items{Components: give}, Take: economy.Items{Components: take}})
				})
				if res != nil {
					var tr trades.Trade
					_ = json.Unmarshal(res.Body, &tr)
					offered = append(offered, tr.ID)
					receiver[tr.ID] = tr.To
				}
			},
			"accept": func(rt *rapid.T) {
				if len(offered) == 0 {
					rt.Skip("no trade")
				}
				id := pickRecent(rt, offered, "trade")
				actor := receiver[id]
				if rapid.IntRange(0, 4).Draw(rt, "anyone") == 0 {
					actor = player.Draw(rt, "actor")
				}
				do("trade-accept", actor, func(r game.Request) (*game.Result, error) { return trades.On(w.svc).AcceptTrade(w.ctx, r, id) })
			},
			"phase-end": func(rt *rapid.T) {
				if rapid.IntRange(0, 1).Draw(rt, "sometimes") != 0 {
					rt.Skip("phase ends are rarer than commands")
				}
				w.clk.Set(calendar.PhaseAt(w.clk.Now()).End.Add(time.Duration(rapid.IntRange(0, 90).Draw(rt, "late")) * time.Minute))
				rep, err := w.svc.RunDue(w.ctx)
				if err != nil {
					rt.Fatal(err)
				}
				stats["gathering failed"] += len(rep.Done["gathering"])
			},
			"banish": func(rt *rapid.T) {
				if rapid.IntRange(0, 7).Draw(rt, "rarely") != 0 {
					rt.Skip("banishments are rare") // each takes a phase
				}
				who := player.Draw(rt, "banished")
				res := do("banishment-propose", player.Draw(rt, "proposer"), func(r game.Request) (*game.Result, error) {
					return w.svc.SubmitProposal(w.ctx, r, obelisk.BanishmentProposal(game.MessageRef{Platform: "discord", Channel: "c", Message: "p" + r.Key}, who, "6h"))
				})
				if res == nil {
					return
				}
				var p game.ProposalView
				_ = json.Unmarshal(res.Body, &p)
				w.clk.Set(p.VotingStart.Add(time.Minute))
				if _, err := w.svc.RunDue(w.ctx); err != nil {
					rt.Fatal(err)
				}
				if _, err := w.svc.PushReactions(w.ctx, w.req(admin), game.PushReactions{Message: p.Message, Up: machinePlayers}); err != nil {
					rt.Fatal(err)
				}
				w.clk.Set(p.VotingEnd.Add(time.Minute))
				if _, err := w.svc.RunDue(w.ctx); err != nil {
					rt.Fatal(err)
				}
			},
			"leave": func(rt *rapid.T) {
				if rapid.IntRange(0, 5).Draw(rt, "rarely") != 0 {
					rt.Skip("departures are rare")
				}
				do("leave", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) { return w.svc.Leave(w.ctx, r) })
			},
			"rejoin": func(rt *rapid.T) {
				do("join", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) { return w.svc.Join(w.ctx, r, game.JoinGame{}) })
			},
			"correct": func(rt *rapid.T) {
				// An admin's correction (RULINGS G3); a revocation of more
				// than held, or by a player, is refused.
				c := obelisk.Correction{Player: player.Draw(rt, "corrected"), Reason: "machine"}
				c.Add(rapid.SampledFrom(ruleset.ComponentIDs()).Draw(rt, "component"), rapid.IntRange(1, 3).Draw(rt, "count"))
				actor := admin
				if rapid.IntRange(0, 5).Draw(rt, "by a player") == 0 {
					actor = player.Draw(rt, "actor")
				}
				run := w.ob.GrantComponents
				if rapid.Bool().Draw(rt, "revoke") {
					run = w.ob.RevokeComponents
				}
				do("components-correct", actor, func(r game.Request) (*game.Result, error) { return run(w.ctx, r, c) })
			},
			"end-banishment": func(rt *rapid.T) {
				do("banishment-end", player.Draw(rt, "actor"), func(r game.Request) (*game.Result, error) { return w.ob.EndBanishment(w.ctx, r) })
			},
			"replay": func(rt *rapid.T) {
				if len(committed) == 0 {
					rt.Skip("nothing committed")
				}
				c := rapid.SampledFrom(committed).Draw(rt, "replayed")
				before := w.snapshot()
				res, err := c.run(c.req)
				if err != nil || !res.Replayed || !bytes.Equal(res.Body, c.body) {
					rt.Fatalf("replaying %s (key %s): replayed=%v err=%v\nfirst: %s\nagain: %s", c.what, c.req.Key, res != nil && res.Replayed, err, c.body, bodyOf(res))
				}
				if w.snapshot() != before {
					rt.Fatalf("replaying %s changed state", c.what)
				}
				stats["replay"]++
			},
		}
		actions[""] = w.checkInvariants
		rt.Repeat(actions)
	})
}

// pickRecent picks one of ids, the newest most often (older ones are
// mostly closed, and are picked to be refused).
func pickRecent(rt *rapid.T, ids []string, label string) string {
	if rapid.IntRange(0, 3).Draw(rt, label+" is the newest") != 0 {
		return ids[len(ids)-1]
	}
	return rapid.SampledFrom(ids).Draw(rt, label)
}

func bodyOf(res *game.Result) string {
	if res == nil {
		return "(none)"
	}
	return string(res.Body)
}

// snapshot is every item of the game but its log, for "nothing changed".
func (w *world) snapshot() string {
	var b strings.Builder
	for _, prefix := range []string{"META", game.PlayerPrefix, "OBELISK", "GATHERING#", "TRADE#", "PROPOSAL#"} {
		err := w.svc.Scan(w.ctx, store.Query{PK: game.GamePK(w.game), Prefix: prefix}, func(it store.Item) error {
			fmt.Fprintf(&b, "%s %d %s\n", it.SK, it.Version, it.Data)
			return nil
		})
		if err != nil {
			w.t.Fatal(err)
		}
	}
	return b.String()
}

// checkInvariants checks the machine's invariants against the state and
// the whole log.
func (w *world) checkInvariants(rt *rapid.T) {
	var entries []game.Entry
	cursor := ""
	for {
		page, err := w.svc.Log(w.ctx, w.game, cursor, 100)
		if err != nil {
			rt.Fatal(err)
		}
		entries = append(entries, page.Entries...)
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	explained := map[string]ruleset.Components{}
	add := func(ds []rob.Delta) {
		for _, d := range ds {
			c := explained[d.Player]
			c.Add(d.Component, d.Amount)
			explained[d.Player] = c
		}
	}
	completed := map[string]int{}
	held := map[string]map[string]int{} // gathering -> player/component -> net in it
	key := func(p, c string) string { return p + "/" + c }
	for id, c := range grantsExplained(rt, entries) {
		explained[id] = explained[id].Plus(c)
	}
	members := map[string]bool{}
	for _, e := range entries {
		for _, ev := range e.Events {
			switch ev.Type {
			case "player_joined":
				members[ev.Player] = true
			case "player_left":
				delete(members, ev.Player)
			case "components_granted": // the join's ⚡ (RULINGS O1; joinEnergy amended above)
				add(decodeAs[struct {
					Changes []rob.Delta `json:"changes"`
				}](rt, ev).Changes)
			case "task_performed":
				add(decodeAs[rob.TaskResult](rt, ev).Changes)
			case "obelisk_observed": // a game-level grant: grantsExplained
			case "gathering_contributed", "gathering_withdrawn":
				m := decodeAs[rob.Moved](rt, ev)
				add(m.Changes)
				if completed[m.Gathering] > 0 {
					rt.Fatalf("a %s after the gathering %s completed", ev.Type, m.Gathering)
				}
				if held[m.Gathering] == nil {
					held[m.Gathering] = map[string]int{}
				}
				sign := 1
				if ev.Type == "gathering_withdrawn" {
					sign = -1
				}
				held[m.Gathering][key(m.Player, m.Component)] += sign * m.Amount
			case "gathering_completed":
				c := decodeAs[rob.Completed](rt, ev)
				add(c.Changes)
				completed[c.Gathering]++
				if completed[c.Gathering] > 1 {
					rt.Fatalf("gathering %s completed twice", c.Gathering)
				}
			case "gathering_failed":
				f := decodeAs[struct {
					Gathering string             `json:"gathering"`
					Changes   []rob.Delta        `json:"changes"`
					Destroyed []rob.Contribution `json:"destroyed"`
				}](rt, ev)
				add(f.Changes)
				refunded := map[string]int{}
				for _, d := range f.Changes {
					if d.Cause != rob.CauseRefund || !members[d.Player] {
						rt.Fatalf("a failure's change is not a refund to a player: %+v", d)
					}
					refunded[key(d.Player, d.Component)] += d.Amount
				}
				// What is owed to one who left is destroyed (002 Items).
				for _, x := range f.Destroyed {
					if members[x.Player] {
						rt.Fatalf("a failure destroyed %+v, owed to a player", x)
					}
					refunded[key(x.Player, x.Component)] += x.Amount
				}
				want := map[string]int{}
				for k, n := range held[f.Gathering] {
					if n != 0 {
						want[k] = n
					}
				}
				if fmt.Sprint(want) != fmt.Sprint(refunded) {
					rt.Fatalf("gathering %s failed refunding %v; its contributors had %v in it", f.Gathering, refunded, want)
				}
			case "trade_executed":
				tr := decodeAs[trades.Trade](rt, ev)
				if tr.Give.Components.Resolve != 0 || tr.Take.Components.Resolve != 0 {
					rt.Fatalf("⚡ was traded: %+v", tr)
				}
				for _, side := range []struct {
					from, to string
					c        ruleset.Components
				}{{tr.From, tr.To, tr.Give.Components}, {tr.To, tr.From, tr.Take.Components}} {
					a, b := explained[side.from], explained[side.to]
					explained[side.from], explained[side.to] = a.Minus(side.c), b.Plus(side.c)
				}
			case "components_corrected":
				c := decodeAs[obelisk.Corrected](rt, ev)
				for _, d := range c.Changes {
					if d.Cause != rob.CauseCorrection {
						rt.Fatalf("a correction's change has cause %q", d.Cause)
					}
				}
				add(c.Changes)
			case "components_destroyed":
				add(decodeAs[struct {
					Changes []rob.Delta `json:"changes"`
				}](rt, ev).Changes)
			}
		}
	}
	for _, id := range machinePlayers {
		s := w.player(id)
		for _, c := range ruleset.ComponentIDs() {
			if s.Components.Get(c) < 0 {
				rt.Fatalf("%s holds %d %s", id, s.Components.Get(c), c)
			}
		}
		if s.Components != explained[id] {
			rt.Fatalf("%s holds %v; the log explains %v", id, s.Components, explained[id])
		}
	}
}

// grantsExplained is what the game-level grants in the log give each
// player (docs/rules-obelisk.md, "Grants to every player"): grant k (an
// observation's, a completed ritual's effect on every player) is a
// stint's if the stint's join said grants_seq < k and its departure, if
// any, grants_seq >= k. Grants are numbered 1, 2, ... with none missing.
func grantsExplained(t tb, entries []game.Entry) map[string]ruleset.Components {
	grants := map[int]ruleset.Components{}
	type stint struct {
		player   string
		from, to int
		open     bool
	}
	var stints []*stint
	current := map[string]*stint{}
	grant := func(g *rob.Grant) {
		if g == nil {
			return
		}
		if _, dup := grants[g.Seq]; dup {
			t.Fatalf("grant %d is in the log twice", g.Seq)
		}
		grants[g.Seq] = g.EveryMember
	}
	seqOf := func(ev game.Event) int {
		var d struct {
			Seq *int `json:"grants_seq"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil || d.Seq == nil {
			t.Fatalf("%s of %s says no grants_seq: %s", ev.Type, ev.Player, ev.Data)
		}
		return *d.Seq
	}
	for _, e := range entries {
		for _, ev := range e.Events {
			switch ev.Type {
			case "obelisk_observed":
				var o rob.Observation
				_ = json.Unmarshal(ev.Data, &o)
				grant(o.Grant)
			case "gathering_completed":
				var c rob.Completed
				_ = json.Unmarshal(ev.Data, &c)
				for _, ef := range c.Effects {
					grant(ef.Grant)
				}
			case "components_granted":
				st := &stint{player: ev.Player, from: seqOf(ev), open: true}
				stints = append(stints, st)
				current[ev.Player] = st
			case "components_destroyed":
				st := current[ev.Player]
				if st == nil {
					t.Fatalf("%s left without a stint in the log", ev.Player)
				}
				st.to, st.open = seqOf(ev), false
				delete(current, ev.Player)
			}
		}
	}
	for k := 1; k <= len(grants); k++ {
		if _, ok := grants[k]; !ok {
			t.Fatalf("the log has %d grants but not grant %d", len(grants), k)
		}
	}
	out := map[string]ruleset.Components{}
	for _, st := range stints {
		to := st.to
		if st.open {
			to = len(grants)
		}
		for k := st.from + 1; k <= to; k++ {
			out[st.player] = out[st.player].Plus(grants[k])
		}
	}
	return out
}

func decodeAs[T any](rt *rapid.T, ev game.Event) T {
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		rt.Fatalf("decoding %s: %v", ev.Type, err)
	}
	return v
}
