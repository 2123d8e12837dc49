package obelisk

import (
	"context"
	"strings"
	"time"

	"croupier/internal/fair"
	engine "croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

var zeroTime time.Time

// Task is the payload of task: which task, and for Befriend a Grebe the
// Grebe's number. Start a Gathering is gathering-start (it names more).
type Task struct {
	Task  string `json:"task"`
	Grebe int    `json:"grebe,omitempty"`
}

// TaskDone is the response of task and gathering-start: what the task did
// (the roll with its N and modifiers, what it cost, consumed and gained)
// and what the player holds after it. Its sentence is saysTask's.
type TaskDone struct {
	rob.TaskResult
	Holding ruleset.Components `json:"holding"`
}

// PerformTask performs a task for the acting player (RULINGS O2-O5, O7): one
// read (the player, the Obelisk, the period's seed) and one write (the
// player; the Obelisk too when a Grebe is befriended), every die a logged
// draw.
func (s *Service) PerformTask(ctx context.Context, req engine.Request, a Task) (*engine.Result, error) {
	a.Task = strings.ToLower(strings.TrimSpace(a.Task))
	if a.Task == ruleset.TaskGathering {
		return nil, rules.Refuse("invalid_request", "Start a Gathering with gathering-start: it names the ritual type and the message that starts it.")
	}
	return s.run(ctx, spec{
		Req: req, Command: "task", Body: a, Random: true,
		Keys: func(g string) []store.Key { return []store.Key{engine.PlayerKey(g, req.Actor), obeliskKey(g)} },
		Apply: func(t *tx) (any, error) {
			return t.perform(rob.TaskRequest{Task: a.Task, Grebe: a.Grebe})
		},
	})
}

// perform applies a task for the actor and logs it.
func (t *tx) perform(r rob.TaskRequest) (any, error) {
	p, err := t.actor()
	if err != nil {
		return nil, err
	}
	o, err := t.obelisk()
	if err != nil {
		return nil, err
	}
	src, err := t.Source()
	if err != nil {
		return nil, err
	}
	res, err := rob.Perform(o, &p.Player, envOf(t.Tx), r, src)
	if err != nil {
		return nil, err
	}
	if res.Task == ruleset.TaskBefriend && res.Success {
		t.touchObelisk()
	}
	t.Save(p)
	if res.Gathering != nil {
		if err := t.putGathering(res.Gathering); err != nil {
			return nil, err
		}
	}
	t.Emit("task_performed", p.ID, res)
	if res.Task == ruleset.TaskBefriend && res.Success {
		t.Emit("grebe_befriended", p.ID, map[string]any{"grebe": res.Grebe, "player": p.ID})
	}
	if res.Gathering != nil {
		t.Emit("gathering_started", p.ID, res.Gathering)
	}
	if err := t.Acted(p); err != nil {
		return nil, err
	}
	return TaskDone{TaskResult: res, Holding: p.Components}, nil
}

// StartGathering is the payload of gathering-start: the ritual type, the
// chat message (in #rituals) that starts it, whose reactions and buttons
// contribute, and the player its effects name, if it names one.
type StartGathering struct {
	RitualType string `json:"ritual_type"`
	Message    string `json:"message,omitempty"`
	Named      string `json:"player,omitempty"`
}

// StartGathering performs the task Start a Gathering (RULINGS O8): the
// Gathering is its own item, named by its chat message, due at the end of
// the phase (when it fails unless completed).
func (s *Service) StartGathering(ctx context.Context, req engine.Request, a StartGathering) (*engine.Result, error) {
	a.RitualType = strings.TrimSpace(a.RitualType)
	a.Message = strings.TrimSpace(a.Message)
	named, err := s.ResolvePlayer(ctx, req, a.Named)
	if err != nil {
		return nil, err
	}
	a.Named = named
	if len(a.Message) > 64 || strings.ContainsAny(a.Message, "# /\t\n") {
		return nil, rules.Refuse("invalid_message", "%q is not a chat message id.", a.Message)
	}
	if a.Named != "" && !engine.ValidIdentity(a.Named) {
		return nil, rules.Refuse("invalid_request", "%q is not a platform identity such as discord:1234.", a.Named)
	}
	return s.run(ctx, spec{
		Req: req, Command: "gathering-start", Body: a, Random: true,
		Keys: func(g string) []store.Key {
			ks := []store.Key{engine.PlayerKey(g, req.Actor), obeliskKey(g)}
			if a.Message != "" {
				ks = append(ks, gatheringKey(g, a.Message))
			}
			if a.Named != "" {
				ks = append(ks, engine.PlayerKey(g, a.Named))
			}
			return ks
		},
		Apply: func(t *tx) (any, error) {
			if a.Named != "" {
				n, err := t.player(a.Named)
				if err != nil {
					return nil, err
				}
				if n == nil || !n.Member {
					return nil, rules.Refuse("not_a_player", "%s is not a player in this game, so a ritual cannot name them.", a.Named)
				}
			}
			// A Gathering is named by the chat message that starts it, so a
			// reaction or a button on that message names it too; one without
			// a message is named after the command.
			id := a.Message
			if id == "" {
				id = "g" + t.Entry.CommandID[:10]
			} else if t.Loaded[gatheringKey(t.Game, id)].Exists() {
				return nil, rules.Refuse("message_already_used", "The message %s already started a Gathering; start another from a new message.", id)
			}
			return t.perform(rob.TaskRequest{Task: ruleset.TaskGathering, RitualType: a.RitualType, Message: a.Message, Named: a.Named,
				Gathering: id})
		},
	})
}

// Observed is the response of observe. Its sentence is saysObserve's.
type Observed struct {
	rob.Observation
}

// Observe is the acting player's weekly observation of the Obelisk
// (RULINGS O6, O7): the ⚡ every player gains is a game-level grant on the
// Obelisk (rules/obelisk.Grants), so it writes the Obelisk, the observer
// and the log entry whatever the number of players.
func (s *Service) Observe(ctx context.Context, req engine.Request) (*engine.Result, error) {
	return s.run(ctx, spec{
		Req: req, Command: "observe", Body: struct{}{}, Random: true,
		Keys: func(g string) []store.Key { return []store.Key{engine.PlayerKey(g, req.Actor), obeliskKey(g)} },
		Apply: func(t *tx) (any, error) {
			by, err := t.actor()
			if err != nil {
				return nil, err
			}
			o, err := t.obelisk()
			if err != nil {
				return nil, err
			}
			// A second observation in the week is refused by the rules,
			// before any draw.
			var src fair.Source
			if last := o.LastObservation; last == nil || last.Week != calendar.WeekAt(t.Now).String() {
				if src, err = t.Source(); err != nil {
					return nil, err
				}
			}
			res, err := rob.Observe(o, &by.Player, envOf(t.Tx), src)
			if err != nil {
				return nil, err
			}
			t.touchObelisk()
			rob.CatchUp(&by.Player, &o.Grants, t.Now) // the observer is a member too
			t.Save(by)
			t.Emit("obelisk_observed", by.ID, res)
			if res.Summon != nil {
				t.Emit("grebe_summoned", by.ID, res.Summon)
			}
			if err := t.Acted(by); err != nil {
				return nil, err
			}
			return Observed{Observation: res}, nil
		},
	})
}
