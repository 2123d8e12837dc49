package gildedhall

import (
	"context"
	engine "croupier/internal/game"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/store"
)

// BattleEngagement is the response of engaging in battle.
type BattleEngagement struct {
	Player string `json:"player"`
	// Period is the phase engaged in; Battle the id its battle will have,
	// and StartsAt when it starts (the phase's end).
	Period   string    `json:"period"`
	Battle   string    `json:"battle"`
	StartsAt time.Time `json:"starts_at"`
	DeckSize int       `json:"deck_size"`
}

// battleID names the battle of a phase: one per phase, so creating it at
// the phase's end is idempotent by key.
func battleID(period string) string { return "b-" + period }

// EngageBattle engages the actor in this phase's battle (RULINGS X10): with
// at least the ruleset's minimum of cards in their deck (4), once per phase.
// The engagement is recorded on the player; when the phase ends, one
// collective match of every engaged player starts. Engaging is an action
// (RULINGS P2). Refusals: too_few_cards, already_engaged, no_battles (a
// calendar without phases).
func (s *Service) EngageBattle(ctx context.Context, req engine.Request) (*engine.Result, error) {
	return s.run(ctx, spec{
		Req: req, Command: "battle-engage", Body: struct{}{},
		Keys: func(g string) []store.Key { return []store.Key{engine.PlayerKey(g, req.Actor)} },
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			if !strings.HasPrefix(t.Period.Kind, "phase") {
				return nil, rules.Refuse("no_battles", "Battles are held at the end of a phase, and this game's calendar has no phases.")
			}
			if p.BattlePeriod == t.Period.ID {
				return nil, rules.Refuse("already_engaged", "You are already engaged in the battle of this phase; it starts %s.",
					t.Period.End.UTC().Format(time.RFC1123)).With("starts_at", t.Period.End.UTC())
			}
			need := t.Rules.Thresholds.BattleMinCards
			if len(p.Inventory.Cards) < need {
				return nil, rules.Refuse("too_few_cards", "Engaging in battle needs at least %d cards in your deck; you have %d.",
					need, len(p.Inventory.Cards)).With("needed", need).With("deck_size", len(p.Inventory.Cards))
			}
			if t.Meta.Closing == t.Period.ID {
				// The period is ending right now: wait for it, then
				// engage in the next phase (fencePeriod).
				return nil, &store.ConflictError{Keys: []store.Key{engine.MetaKey(t.Game)}}
			}
			p.BattlePeriod = t.Period.ID
			t.Save(p)
			// The engagement is for the period META says is open: if the
			// period ends before this commits, the commit fails and the
			// retry engages in the next phase, never in a battle already
			// formed without this player (RULINGS T4).
			t.Checks = append(t.Checks, store.Check{Key: engine.MetaKey(t.Game), Version: t.MetaVersion})
			res := BattleEngagement{Player: p.ID, Period: t.Period.ID, Battle: battleID(t.Period.ID), StartsAt: t.Period.End,
				DeckSize: len(p.Inventory.Cards)}
			t.Emit("battle_engaged", p.ID, res)
			return res, t.Acted(p)
		},
	})
}

// formBattleAtPeriodEnd is the Exoptosis component's period-end hook.
var formBattleAtPeriodEnd = engine.AtHook{Run: func(t *engine.Tx, ended, next calendar.Period, records []engine.PlayerRecord, res *engine.PeriodEnded) error {
	members := make([]*Player, 0, len(records))
	for _, r := range records {
		p, err := asPlayer(r)
		if err != nil {
			return err
		}
		members = append(members, p)
	}
	return formBattle(wrap(t), ended, next, members, res)
}}

// formBattle runs inside the period-end commit: the players who engaged in
// the ended phase make one battle (X10). It only writes the battle's item,
// due at the phase's end; the scheduler sets the match up in its own run
// (ExpireMatch), because the period-end commit must not draw; that run also
// adds the battle to its participants' indexes of live matches (the
// period-end commit reads no player items: a forming battle is found
// through BattlePeriod, see match_index.go). With fewer
// than 2 engaged players there is no match, and the log says so.
func formBattle(t *tx, ended, _ calendar.Period, members []*Player, _ *engine.PeriodEnded) error {
	var engaged []string
	for _, p := range members {
		if p.BattlePeriod == ended.ID {
			engaged = append(engaged, p.ID)
		}
	}
	if len(engaged) == 0 {
		return nil
	}
	r := &MatchRecord{ID: battleID(ended.ID), Kind: MatchBattle, Status: MatchForming, Players: engaged,
		Period: ended.ID, CreatedAt: ended.End, StartsAt: ended.End}
	if len(engaged) > battleInline {
		// Too many to name in the match item: the setup reads them again
		// (BattlePeriod) into the battle's roster (battle_roster.go).
		r.Players, r.Entrants = nil, len(engaged)
	}
	if len(engaged) < 2 {
		r.Status, r.CancelReason, r.CancelledBy, r.EndedAt = MatchCancelled, "too_few_players", engine.SchedulerActor, ended.End
		t.Emit("battle_cancelled", "", map[string]any{"match": r.ID, "reason": "too_few_players", "engaged": engaged})
	} else {
		t.Emit("battle_forming", "", map[string]any{"match": r.ID, "engaged": engine.Sample(engaged), "engaged_count": len(engaged),
			"starts_at": ended.End})
	}
	return t.saveMatch(r)
}
