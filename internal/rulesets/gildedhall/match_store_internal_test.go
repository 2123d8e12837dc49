package gildedhall

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// Every card of the ruleset has its own short code in the match item, and
// reads back as its name.
func TestMatchItemCardCodes(t *testing.T) {
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, c := range rs.Cards {
		code := cardCode(c.Name)
		if len(code) != 2 || cardName(code) != c.Name {
			t.Errorf("%s is stored as %q, which reads as %q", c.Name, code, cardName(code))
		}
		if other, dup := seen[code]; dup {
			t.Errorf("%s and %s share the code %q", c.Name, other, code)
		}
		seen[code] = c.Name
	}
	if len(seen) != 54 {
		t.Errorf("%d codes for the 54 cards", len(seen))
	}
	if cardCode("Handy Pack") != "Handy Pack" || cardName("Handy Pack") != "Handy Pack" {
		t.Error("a name with no code is not stored as it is")
	}
}

// Issue 16: a move rewrites the match item, so a 2-player match in play,
// with its timer, Discord's 18-digit ids, two 9-card decks of the longest
// names, full hands and a pile, fits in one write unit; and it reads back
// exactly as it was.
func TestMatchItemOfTwoFitsOneWriteUnit(t *testing.T) {
	r := twoInPlay(t)
	at := r.CreatedAt
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	it := store.Item{Key: matchKey("infinite-nomic", r.ID), Data: data, Due: at.Add(25 * time.Hour)}
	n := store.ItemSize(it)
	if n > 1024 {
		t.Errorf("the match item is %d bytes with its timer, over one write unit:\n%s", n, data)
	}
	t.Logf("the match item is %d bytes with its timer (%d stored whole)", n, len(mustJSON(t, plainRecord(*r))))
	var back MatchRecord
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, r) {
		t.Errorf("the match item reads back as\n%+v\nwant\n%+v", back, *r)
	}
}

// twoInPlay is a 2-player duel in play with Discord's 18-digit ids, two
// 9-card decks of the longest names, full hands and a pile.
func twoInPlay(t testing.TB) *MatchRecord {
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	ada, bo := "discord:123456789012345678", "discord:876543210987654321"
	deckA := []string{"Queen of Diamonds", "Queen of Hearts", "Jack of Diamonds", "King of Diamonds", "10 of Diamonds", "Queen of Spades", "Queen of Clubs", "King of Spades", "Jack of Spades"}
	deckB := []string{"King of Hearts", "Jack of Hearts", "10 of Hearts", "King of Clubs", "Jack of Clubs", "10 of Clubs", "10 of Spades", "Black Joker", "Red Joker"}
	m, _, err := exoptosis.New(rs, "d02177327dc75", []exoptosis.Entrant{{ID: ada, Deck: deckA, Chips: 12}, {ID: bo, Deck: deckB, Chips: 9}}, at)
	if err != nil {
		t.Fatal(err)
	}
	m.Phase, m.Order, m.TurnStart, m.Steps = exoptosis.PhasePlay, []string{ada, bo}, at.Add(time.Hour), 417
	m.Participants[0].Hand, m.Participants[0].Selected, m.Participants[0].Bet = deckA[:7], true, 3
	m.Participants[1].Hand, m.Participants[1].Selected, m.Participants[1].Bet = deckB[:6], true, 3
	m.Pile = []string{"10 of Diamonds", "10 of Hearts", "Jack of Hearts", "Jack of Diamonds", "Queen of Diamonds"}
	m.Betting = exoptosis.Betting{Level: 3, Pool: 6}
	return &MatchRecord{ID: m.ID, Kind: MatchDuel, Status: MatchPlaying, RequestedBy: ada, Players: []string{ada, bo},
		Answers: map[string]string{ada: AnswerAccepted, bo: AnswerAccepted}, Period: "2026-W49-I", CreatedAt: at, StartedAt: at, Match: m}
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkMatchItemCodec is a move's encoding and decoding of the match
// item: stored (without repeats, cards by code) against whole (the plain
// encoding it replaced), for the hot path's before and after.
func BenchmarkMatchItemCodec(b *testing.B) {
	r := twoInPlay(b)
	b.Run("stored", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			data, _ := json.Marshal(r)
			var back MatchRecord
			if err := json.Unmarshal(data, &back); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			data, _ := json.Marshal(plainRecord(*r))
			var back plainRecord
			if err := json.Unmarshal(data, &back); err != nil {
				b.Fatal(err)
			}
		}
	})
}
