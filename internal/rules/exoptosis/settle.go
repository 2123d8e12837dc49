package exoptosis

import "croupier/internal/rules"

// Transfer is Chips paid out of the match pool to a player.
type Transfer struct {
	To     string `json:"to"`
	Chips  int    `json:"chips"`
	Reason string `json:"reason"` // "won" or "refund"
}

// Settle returns how the pool of an ended match is paid out, for the game
// layer to commit together with the match's end: the whole pool to the
// winner (X8), or, when the match was terminated, each bettor's own Chips
// back (X9). Refunds made during betting (declines, unmatched raises) were
// already paid as refunded events and are not in the pool. The transfers
// always add up to the pool.
func Settle(m *Match) ([]Transfer, error) {
	if m.Phase != PhaseEnded {
		return nil, rules.Refuse("match_not_over", "The match is still in %s; it settles when it ends.", m.Phase)
	}
	if m.Betting.Pool == 0 {
		return nil, nil
	}
	if m.Winner != "" {
		return []Transfer{{To: m.Winner, Chips: m.Betting.Pool, Reason: "won"}}, nil
	}
	var out []Transfer
	for _, p := range m.Participants {
		if p.Bet > 0 {
			out = append(out, Transfer{To: p.ID, Chips: p.Bet, Reason: "refund"})
		}
	}
	return out, nil
}
