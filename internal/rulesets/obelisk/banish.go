package obelisk

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/store"
)

// KindBanishment is the banishment proposal (RULINGS O11): a standard
// proposal of the shared governance naming a player and a Banishment
// Duration; its adoption banishes them from that moment.
const KindBanishment = "banishment"

// BanishmentParams are a banishment proposal's parameters.
type BanishmentParams struct {
	Player   string `json:"player"`
	Duration string `json:"duration"` // a Go duration, e.g. "72h"
}

func parseBanishment(raw json.RawMessage) (BanishmentParams, time.Duration, error) {
	var b BanishmentParams
	if err := json.Unmarshal(raw, &b); err != nil {
		return b, 0, rules.Refuse("invalid_request", "A banishment proposal's parameters are {\"player\": ..., \"duration\": \"72h\"}: %v.", err)
	}
	if !engine.ValidIdentity(b.Player) {
		return b, 0, rules.Refuse("invalid_request", "%q is not a platform identity such as discord:1234.", b.Player)
	}
	d, err := time.ParseDuration(b.Duration)
	if err != nil {
		return b, 0, rules.Refuse("invalid_duration", "%q is not a Banishment Duration such as 72h or 30m.", b.Duration)
	}
	return b, d, rob.CheckBanishmentDuration(d)
}

// banishmentKind is the governance's banishment proposal.
var banishmentKind = engine.ProposalKind{Kind: KindBanishment, Players: []string{"player"},
	Check: func(t *engine.Tx, raw json.RawMessage) error {
		b, _, err := parseBanishment(raw)
		if err != nil {
			return err
		}
		p, err := t.Member(b.Player)
		if err != nil {
			return err
		}
		if p == nil {
			return rules.Refuse("not_a_player", "%s is not a player in this game, so they cannot be banished.", b.Player)
		}
		return nil
	},
	Adopt: func(et *engine.Tx, rec *engine.ProposalRecord) error {
		b, d, err := parseBanishment(rec.Params)
		if err != nil {
			return err
		}
		t := wrap(et)
		p, err := t.player(b.Player)
		if err != nil {
			return err
		}
		if p == nil {
			return rules.Refuse("not_a_player", "%s never joined this game, so they cannot be banished.", b.Player)
		}
		res, err := rob.Banish(&p.Player, d, rec.ID, t.Now)
		if err != nil {
			return err
		}
		t.Save(p)
		t.Emit("player_banished", p.ID, res)
		return nil
	}}

// BanishmentProposal is the proposal-submit payload of a banishment
// proposal of player for duration (e.g. "72h"), made in the chat message m.
func BanishmentProposal(m engine.MessageRef, player, duration string) engine.SubmitProposal {
	params, _ := json.Marshal(BanishmentParams{Player: strings.TrimSpace(player), Duration: strings.TrimSpace(duration)})
	return engine.SubmitProposal{Message: m, Title: BanishmentTitle(player, duration), Kind: KindBanishment, Params: params}
}

// BanishmentTitle is a banishment proposal's title, with the player's
// display name (name) and the duration in words: "Banish Cy for 7 days"
// (a duration that does not parse is left as written; the proposal is
// refused for it).
func BanishmentTitle(name, duration string) string {
	duration = strings.TrimSpace(duration)
	if d, err := time.ParseDuration(duration); err == nil && d > 0 {
		duration = engine.Duration(d)
	}
	return "Banish " + strings.TrimSpace(name) + " for " + duration
}

// BanishmentEnded is the response of banishment-end.
type BanishmentEnded struct {
	Player string    `json:"player"`
	Since  time.Time `json:"since"`
	At     time.Time `json:"at"`
}

// EndBanishment ends the actor's banishment once it has lasted its
// Duration (RULINGS O11).
func (s *Service) EndBanishment(ctx context.Context, req engine.Request) (*engine.Result, error) {
	return s.run(ctx, spec{
		Req: req, Command: "banishment-end", Body: struct{}{},
		Keys: func(g string) []store.Key { return []store.Key{engine.PlayerKey(g, req.Actor)} },
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			var since time.Time
			if p.Banishment != nil {
				since = p.Banishment.Since
			}
			if err := rob.EndBanishment(&p.Player, t.Now); err != nil {
				return nil, err
			}
			t.Save(p)
			res := BanishmentEnded{Player: p.ID, Since: since, At: t.Now}
			t.Emit("banishment_ended", p.ID, res)
			return res, nil
		},
	})
}
