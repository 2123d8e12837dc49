package obelisk

import (
	"context"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// Correction is the payload of components-grant and components-revoke: an
// admin's correction of one player's components (RULINGS G3; the Gilded
// Hall's grant and revoke correct its items, named the same way): the
// player, a count of each component to move by its id, e.g.
// {"player": "Ada", "crystals": 2, "reason": "ruling 4"}, and the reason.
type Correction struct {
	Player string `json:"player"`
	ruleset.Components
	Reason string `json:"reason"`
}

// Corrected is the answer of a correction and its log event's data.
type Corrected struct {
	Player string `json:"player"`
	// Revoke: the components were taken; else granted.
	Revoke bool `json:"revoke,omitempty"`
	// Components are what was granted or revoked.
	Components ruleset.Components `json:"components"`
	// Changes are the correction's changes to the player's counts (cause
	// "correction"): the log explains the holdings with them.
	Changes []rob.Delta `json:"changes"`
	// Holding is what the player holds after it.
	Holding ruleset.Components `json:"holding"`
	Reason  string             `json:"reason"`
	// Admin is who made the correction.
	Admin string `json:"admin"`
}

// GrantComponents gives a player components (admins only), logged with
// the reason.
func (s *Service) GrantComponents(ctx context.Context, req engine.Request, c Correction) (*engine.Result, error) {
	return s.correct(ctx, req, c, false)
}

// RevokeComponents takes components from a player (admins only): all of
// them or, if the player lacks any, none.
func (s *Service) RevokeComponents(ctx context.Context, req engine.Request, c Correction) (*engine.Result, error) {
	return s.correct(ctx, req, c, true)
}

func (s *Service) correct(ctx context.Context, req engine.Request, c Correction, revoke bool) (*engine.Result, error) {
	command, verb := "components-grant", "grant components"
	if revoke {
		command, verb = "components-revoke", "revoke components"
	}
	player, err := s.ResolvePlayer(ctx, req, c.Player)
	if err != nil {
		return nil, err
	}
	if c.Player = player; !engine.ValidIdentity(c.Player) {
		return nil, rules.Refuse("invalid_request", "player %q is not a platform identity such as discord:1234.", c.Player)
	}
	amounts := c.Components
	if err := rob.CheckCounts(amounts); err != nil {
		return nil, err
	}
	if err := engine.NeedReason(c.Reason); err != nil {
		return nil, err
	}
	return s.run(ctx, spec{
		Req: req, Command: command, Body: c,
		Keys: func(g string) []store.Key {
			// The Obelisk too: the player catches up with its grants first.
			// The admin's record is read with them, for their name.
			return []store.Key{engine.PlayerKey(g, c.Player), engine.PlayerKey(g, req.Actor), obeliskKey(g)}
		},
		Apply: func(t *tx) (any, error) {
			if err := t.Admin(verb); err != nil {
				return nil, err
			}
			p, err := t.player(c.Player)
			if err != nil {
				return nil, err
			}
			rp := &rob.Player{}
			rp.ID = c.Player
			if p != nil {
				rp = &p.Player
			}
			changes, err := rob.Correct(rp, amounts, revoke)
			if err != nil {
				return nil, err
			}
			t.Save(p)
			if _, err := t.player(t.Entry.Actor); err != nil { // the admin's name, for the answer's sentence
				return nil, err
			}
			res := Corrected{Player: p.ID, Revoke: revoke, Components: amounts, Changes: changes, Holding: p.Components,
				Reason: c.Reason, Admin: t.Entry.Actor}
			t.Emit("components_corrected", p.ID, res)
			return res, nil
		},
	})
}
