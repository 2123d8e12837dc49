package gildedhall

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules/exoptosis"
)

// A match item is rewritten by every move, so its size is a move's cost: a
// 2-player match and its timer fit in one write unit (1 KB; issue 16). It
// is stored without what it would only repeat (the engine's match id and
// start, which are the record's own; a duel's requester, its first player;
// the answers once every player has accepted; the players once they are
// the engine's participants, in order) and with each card by its short
// code ("QD" for the Queen of Diamonds, cardCode). Decoding
// (MatchRecord.UnmarshalJSON) puts everything back, so every reader sees
// the whole record; an item stored whole reads the same.

// plainRecord is MatchRecord without its methods (the default encoding).
type plainRecord MatchRecord

// MarshalJSON is the stored form of r.
func (r MatchRecord) MarshalJSON() ([]byte, error) {
	s := plainRecord(r)
	if s.Kind == MatchDuel {
		if len(s.Players) > 0 && s.RequestedBy == s.Players[0] {
			s.RequestedBy = ""
		}
		if allAccepted(s.Players, s.Answers) {
			s.Answers = nil
		}
	}
	if r.Match != nil {
		m := *r.Match
		if m.ID == r.ID {
			m.ID = ""
		}
		if m.Started.Equal(r.StartedAt) {
			m.Started = time.Time{}
		}
		if r.Entrants == 0 && len(s.Players) > 0 && slices.Equal(s.Players, participantIDs(&m)) {
			s.Players = nil
		}
		codeCards(&m, cardCode)
		s.Match = &m
	}
	return json.Marshal(s)
}

// UnmarshalJSON reads a match item, stored (MarshalJSON) or whole.
func (r *MatchRecord) UnmarshalJSON(b []byte) error {
	var s plainRecord
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*r = MatchRecord(s)
	if m := r.Match; m != nil {
		codeCards(m, cardName)
		if len(r.Players) == 0 && r.Entrants == 0 {
			r.Players = participantIDs(m)
		}
		if m.ID == "" {
			m.ID = r.ID
		}
		if m.Started.IsZero() {
			m.Started = r.StartedAt
		}
	}
	if r.Kind == MatchDuel {
		if r.RequestedBy == "" && len(r.Players) > 0 {
			r.RequestedBy = r.Players[0]
		}
		if r.Answers == nil {
			r.Answers = make(map[string]string, len(r.Players))
			for _, id := range r.Players {
				r.Answers[id] = AnswerAccepted
			}
		}
	}
	return nil
}

func participantIDs(m *exoptosis.Match) []string {
	ids := make([]string, len(m.Participants))
	for i, p := range m.Participants {
		ids[i] = p.ID
	}
	return ids
}

func allAccepted(players []string, answers map[string]string) bool {
	return len(answers) == len(players) && !slices.ContainsFunc(players, func(id string) bool { return answers[id] != AnswerAccepted })
}

// codeCards maps every card the match holds through f, in copies: m is a
// shallow copy of the record's match, whose slices it must not change.
func codeCards(m *exoptosis.Match, f func(string) string) {
	each := func(cards []string) []string {
		if cards == nil {
			return nil
		}
		out := make([]string, len(cards))
		for i, c := range cards {
			out[i] = f(c)
		}
		return out
	}
	ps := slices.Clone(m.Participants)
	for i := range ps {
		ps[i].Deck, ps[i].Hand = each(ps[i].Deck), each(ps[i].Hand)
	}
	m.Participants = ps
	m.Pile = each(m.Pile)
	if m.Pending != nil {
		p := *m.Pending
		p.Card = f(p.Card)
		m.Pending = &p
	}
}

// Card codes: a rank and a suit letter ("AH", "TD" for the 10 of Diamonds),
// or "RJ" and "BJ" for the Jokers. The ruleset's card names are validated
// to be "<rank> of <suit>" or a Joker's name (internal/ruleset), so every
// one has a code; any other name is stored as it is.
var (
	rankCodes = map[string]string{"Ace": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
		"8": "8", "9": "9", "10": "T", "Jack": "J", "Queen": "Q", "King": "K"}
	suitCodes  = map[string]string{"Hearts": "H", "Diamonds": "D", "Spades": "S", "Clubs": "C"}
	jokerCodes = map[string]string{"Red Joker": "RJ", "Black Joker": "BJ"}
	codeNames  = func() map[string]string {
		m := map[string]string{}
		for rank, rc := range rankCodes {
			for suit, sc := range suitCodes {
				m[rc+sc] = rank + " of " + suit
			}
		}
		for name, c := range jokerCodes {
			m[c] = name
		}
		return m
	}()
)

// cardCode is the stored code of a card name (the name itself if it has
// none).
func cardCode(name string) string {
	if c, ok := jokerCodes[name]; ok {
		return c
	}
	rank, suit, ok := strings.Cut(name, " of ")
	if rc, sc := rankCodes[rank], suitCodes[suit]; ok && rc != "" && sc != "" {
		return rc + sc
	}
	return name
}

// cardName is the card name of a stored code (a name stored as it is reads
// as itself).
func cardName(code string) string {
	if n, ok := codeNames[code]; ok {
		return n
	}
	return code
}
