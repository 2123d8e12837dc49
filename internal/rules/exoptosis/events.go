package exoptosis

import "time"

// Event is one thing a move or timeout did. Events are plain data for the
// game layer (announcements, inventory updates) and for the match log.
// Every change to a hand is an event, so hands can be rebuilt from events.
type Event struct {
	Kind        string    `json:"kind"`
	Participant string    `json:"participant,omitempty"`
	Other       string    `json:"other,omitempty"` // target, receiver or giver
	Card        string    `json:"card,omitempty"`
	Cards       []string  `json:"cards,omitempty"`
	Chips       int       `json:"chips,omitempty"` // Chips moved by this event
	Level       int       `json:"level,omitempty"`
	Reason      string    `json:"reason,omitempty"`
	At          time.Time `json:"at"`
}

// Event kinds. Hand changes: selected (hand := Cards), played (-Card),
// added (+Card), given (Participant -Card, Other +Card), drew (+Card),
// card_left (-Card), forfeited (hand emptied; Cards were in it).
// Chip movements: raised and matched (Chips from the participant into the
// pool), refunded (Chips from the pool back to the participant).
const (
	EvSelected       = "selected"
	EvHandsRevealed  = "hands_revealed"
	EvTurnOrder      = "turn_order"
	EvRaised         = "raised"   // Chips paid into the pool; Level is the new level
	EvMatched        = "matched"  // Chips paid into the pool; Level is the level met
	EvDeclined       = "declined" // the participant declined the level
	EvPassed         = "passed"
	EvRefunded       = "refunded"
	EvBettingClosed  = "betting_closed"
	EvPlayStarted    = "play_started"
	EvTurnStarted    = "turn_started"
	EvTurnSkipped    = "turn_skipped"
	EvPlayed         = "played"
	EvAdded          = "added"
	EvChoicePending  = "choice_pending" // Reason is the choice kind, Participant its owner
	EvChosenAtRandom = "chosen_at_random"
	EvGiverChosen    = "giver_chosen" // Participant chose Other to give them a card
	EvGiven          = "given"
	EvDrew           = "drew"
	EvCardLeft       = "card_left"
	EvEffect         = "effect" // an effect resolved: Card is the card, Cards the targets
	EvForfeited      = "forfeited"
	EvConsented      = "consented"
	EvEnded          = "ended" // Participant is the winner, if any; Reason the end reason
)

// EventKinds lists every event kind, in the order above (the game layer
// logs each as match_<kind> and narrates every one).
var EventKinds = []string{EvSelected, EvHandsRevealed, EvTurnOrder, EvRaised, EvMatched, EvDeclined, EvPassed, EvRefunded, EvBettingClosed, EvPlayStarted, EvTurnStarted, EvTurnSkipped, EvPlayed, EvAdded, EvChoicePending, EvChosenAtRandom, EvGiverChosen, EvGiven, EvDrew, EvCardLeft, EvEffect, EvForfeited, EvConsented, EvEnded}
