package game_test

import (
	"context"
	"testing"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
	"croupier/internal/store"
)

// Ledger is a ruleset that exists only in the engine's tests: the smallest
// module an engine test needs, so that what it tests is the engine's
// (the command path, idempotency, conflicts, membership, pages) and not a
// shipped ruleset's. A player record holds points; one admin command,
// credit, adds to them (or takes away, never below zero); a departure
// destroys them. It runs on the Gilded Hall's ruleset data (Module.Data),
// so its calendar and durations are a shipped game's: weekly phases and
// seasons (T2), a seven-day rejoin wait, a three-day reputable tenure.
const ledgerID = "ledger"

// ledgerPlayer is a Ledger player record: the membership and the points.
type ledgerPlayer struct {
	game.Player
	Points int `json:"points,omitempty"`
	// Notes make a record as large as a test needs.
	Notes []string `json:"notes,omitempty"`
}

// Credit is the payload of credit.
type Credit struct {
	Player string `json:"player"`
	Points int    `json:"points"`
	Reason string `json:"reason"`
}

// CreditResult is what credit answers.
type CreditResult struct {
	Player string `json:"player"`
	Points int    `json:"points"`
	Reason string `json:"reason"`
}

// LedgerHoldings is the Ledger's part of a player's status.
type LedgerHoldings struct {
	Points int `json:"points"`
}

func ledgerModule() game.Module {
	return game.Module{ID: ledgerID, Title: "Ledger", Data: "gilded-hall", Seasons: true,
		NewPlayer: func(m game.Player) game.PlayerRecord { return &ledgerPlayer{Player: m} },
		PlayerView: func(_ *game.Tx, p game.PlayerRecord, v *game.PlayerView) error {
			v.Holdings = LedgerHoldings{Points: p.(*ledgerPlayer).Points}
			return nil
		},
		Components: []game.Component{{Name: ledgerID,
			Commands: []game.Command{
				{Name: "credit", Institution: ledgerID, Admin: true, What: "credits", Summary: "Credit a player with points (admins)", Call: game.Method(credit)},
			},
			OnLeave: func(_ *game.Tx, r game.PlayerRecord, res *game.LeaveResult) error {
				if p := r.(*ledgerPlayer); p.Points > 0 {
					res.Lost = append(res.Lost, game.Count(p.Points, "point", "points"))
					p.Points = 0
				}
				return nil
			},
			Events: map[string]game.Narration{"credited": {Sentence: func(game.Event, func(string) string) string { return "Points credited." }}},
		}},
	}
}

// credit adds c.Points to c.Player's points: an admin's command on one
// player record.
func credit(s *game.Service, ctx context.Context, req game.Request, c Credit) (*game.Result, error) {
	if c.Points == 0 {
		return nil, rules.Refuse("invalid_request", "A credit moves at least one point.")
	}
	return s.Run(ctx, game.Spec{
		Req: req, Command: "credit", Body: c,
		Keys: func(g string) []store.Key { return []store.Key{game.PlayerKey(g, c.Player)} },
		Apply: func(t *game.Tx) (any, error) {
			if err := t.Admin("credit points"); err != nil {
				return nil, err
			}
			r, err := t.Record(c.Player)
			if err != nil {
				return nil, err
			}
			if r == nil || !r.Core().Member {
				return nil, rules.Refuse("not_a_player", "%s is not a player in this game.", c.Player)
			}
			p := r.(*ledgerPlayer)
			if p.Points+c.Points < 0 {
				return nil, rules.Refuse("insufficient_funds", "%s holds %d points; a balance never goes negative.", p.ID, p.Points)
			}
			p.Points += c.Points
			t.Save(p)
			t.Emit("credited", p.ID, c)
			return CreditResult{Player: p.ID, Points: p.Points, Reason: c.Reason}, nil
		},
	})
}

// newLedgerService is a service that runs the Ledger alone over st.
func newLedgerService(st store.Store, clk clock.Clock, opts ...game.Option) *game.Service {
	return game.New(st, clk, append([]game.Option{game.WithModules(ledgerModule())}, opts...)...)
}

// newLedger is a Ledger game, "hall", on st from start, made by admin.
func newLedger(t *testing.T, st store.Store) (*game.Service, *clock.Manual) {
	t.Helper()
	return gametest.NewGameOf(t, st, ledgerID, ledgerModule())
}

// points is what id holds, as their status says.
func points(t testing.TB, svc *game.Service, id string) (game.PlayerView, int) {
	t.Helper()
	v, err := svc.Player(context.Background(), "hall", id)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := v.Holdings.(LedgerHoldings)
	return v, h.Points
}
