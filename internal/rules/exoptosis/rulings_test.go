package exoptosis

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// ---- X1: selection ----

func TestX1_SelectionCheckedInSubmissionOrder(t *testing.T) {
	rs := gilded(t)
	m, _, err := New(rs, "m", []Entrant{
		{ID: "a", Deck: cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts")},
		{ID: "b", Deck: cards("5 of Hearts,4 of Hearts,6 of Hearts,7 of Hearts,8 of Hearts,9 of Hearts")},
	}, t0)
	if err != nil {
		t.Fatal(err)
	}
	evs := apply(t, m, rs, Move{Kind: MoveSelect, Actor: "a", Cards: cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts")})
	if slices.ContainsFunc(evs, func(e Event) bool { return e.Kind == EvHandsRevealed }) {
		t.Fatal("hands revealed before the last selection")
	}
	re := refuse(t, m, rs, Move{Kind: MoveSelect, Actor: "b", Cards: cards("5 of Hearts,4 of Hearts,6 of Hearts,7 of Hearts")}, "card_in_match")
	if !strings.Contains(re.Message, "5 of Hearts, 4 of Hearts") || !slices.Equal(re.Fields["cards"].([]string), cards("5 of Hearts,4 of Hearts")) {
		t.Errorf("refusal does not name the conflicting cards: %v %v", re, re.Fields)
	}
	refuse(t, m, rs, Move{Kind: MoveSelect, Actor: "b", Cards: cards("6 of Hearts,7 of Hearts,8 of Hearts")}, "selection_too_small")
	refuse(t, m, rs, Move{Kind: MoveSelect, Actor: "b", Cards: cards("6 of Hearts,7 of Hearts,8 of Hearts,10 of Hearts")}, "card_not_in_deck")
	refuse(t, m, rs, Move{Kind: MoveSelect, Actor: "b", Cards: cards("6 of Hearts,7 of Hearts,8 of Hearts,8 of Hearts")}, "duplicate_card")
	refuse(t, m, rs, Move{Kind: MoveSelect, Actor: "a", Cards: cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts")}, "not_your_turn")
	evs = apply(t, m, rs, Move{Kind: MoveSelect, Actor: "b", Cards: cards("6 of Hearts,7 of Hearts,8 of Hearts,9 of Hearts,4 of Hearts")[:4]})
	if !slices.ContainsFunc(evs, func(e Event) bool { return e.Kind == EvHandsRevealed }) || m.Phase != PhaseBetting {
		t.Fatalf("last selection did not reveal the hands and open betting: phase %s, events %v", m.Phase, evs)
	}
}

func TestX1_DeckNeverChanges(t *testing.T) {
	rs := gilded(t)
	m := playing(nil,
		part{id: "a", hand: cards("5 of Spades,King of Hearts"), deck: cards("5 of Spades,King of Hearts,9 of Hearts")},
		part{id: "b", hand: cards("2 of Clubs,3 of Clubs")})
	before := slices.Clone(m.Participants[0].Deck)
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "5 of Spades"})
	if !slices.Equal(m.Participants[0].Deck, before) {
		t.Errorf("deck changed by a play: %v -> %v", before, m.Participants[0].Deck)
	}
}

func TestX1_DeckTooSmallForfeits(t *testing.T) {
	rs := gilded(t)
	four := cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts")
	m, evs, err := New(rs, "m", []Entrant{
		{ID: "a", Deck: four},
		{ID: "b", Deck: cards("6 of Hearts,7 of Hearts,8 of Hearts,9 of Hearts")},
		{ID: "c", Deck: cards("2 of Clubs,2 of Clubs,2 of Clubs,3 of Clubs")}, // 4 copies, 2 names
	}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Participant("c"); p.Status != StatusForfeited || len(evs) != 1 || evs[0].Reason != "deck_too_small" {
		t.Errorf("c with 2 different cards: status %s, events %v; want forfeited", p.Status, evs)
	}
	_, _, err = New(rs, "m", []Entrant{{ID: "a", Deck: four}, {ID: "b", Deck: four[:3]}}, t0)
	if err == nil || !strings.Contains(err.Error(), "too_few_players") {
		t.Errorf("New with one playable entrant: %v; want too_few_players", err)
	}
	_, _, err = New(rs, "m", []Entrant{{ID: "a", Deck: four}, {ID: "b", Deck: []string{"14 of Hearts"}}}, t0)
	if err == nil || !strings.Contains(err.Error(), "unknown_card") {
		t.Errorf("New with an unknown card: %v; want unknown_card", err)
	}
}

// ---- X2: turn order ----

func TestX2_TurnOrderByHandSizeTiesRandom(t *testing.T) {
	rs := gilded(t)
	decks := map[string][]string{
		"a": cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts"),
		"b": cards("2 of Spades,3 of Spades,4 of Spades,5 of Spades,6 of Spades,7 of Spades"),
		"c": cards("2 of Clubs,3 of Clubs,4 of Clubs,5 of Clubs"),
		"d": cards("2 of Diamonds,3 of Diamonds,4 of Diamonds,5 of Diamonds,6 of Diamonds"),
	}
	for _, tc := range []struct {
		draw int
		want []string
	}{{0, []string{"b", "d", "c", "a"}}, {1, []string{"b", "d", "a", "c"}}} {
		var es []Entrant
		for _, id := range []string{"a", "b", "c", "d"} {
			es = append(es, Entrant{ID: id, Deck: decks[id]})
		}
		m, _, err := New(rs, "m", es, t0)
		if err != nil {
			t.Fatal(err)
		}
		src := &script{vals: []int{tc.draw}}
		for _, id := range []string{"a", "b", "c", "d"} {
			apply(t, m, rs, Move{Kind: MoveSelect, Actor: id, Cards: decks[id]}, src)
		}
		if !slices.Equal(m.Order, tc.want) {
			t.Errorf("tie draw %d: order %v, want %v", tc.draw, m.Order, tc.want)
		}
		if !slices.Equal(src.asked, []string{PurposeOrder}) {
			t.Errorf("draws %v; want exactly one tie-break draw", src.asked)
		}
		if Movers(m)[0] != tc.want[0] {
			t.Errorf("betting starts with %v, want %s", Movers(m), tc.want[0])
		}
	}
}

func TestX2_NextParticipantWraps(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"5 of Spades"},
		part{id: "a", hand: cards("6 of Spades,9 of Spades")},
		part{id: "b", hand: cards("7 of Spades,9 of Clubs")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "6 of Spades"})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "b", Card: "7 of Spades"})
	if whoseTurn(m) != "a" {
		t.Errorf("after the last in order, turn is %q; want a", whoseTurn(m))
	}
}

// ---- X3: legality ----

func TestX3_Legality(t *testing.T) {
	rs := gilded(t)
	for _, tc := range []struct {
		name, prev, card string
		want             string // "" legal, else a substring of the refusal
	}{
		{"first non-special", "", "7 of Clubs", ""},
		{"first special", "", "Ace of Hearts", "first card of a match must be non-special"},
		{"first joker", "", "Red Joker", "must be non-special"},
		{"equal", "4 of Spades", "4 of Hearts", ""},
		{"one above", "4 of Spades", "5 of Spades", ""},
		{"one below", "4 of Spades", "3 of Spades", ""},
		{"opposite colour", "4 of Spades", "9 of Hearts", ""},
		{"same colour far", "4 of Spades", "9 of Clubs", "illegal_play: 9 of Clubs is neither within one of 4 nor of the opposite colour of 4 of Spades"},
		{"special within one", "10 of Spades", "Jack of Hearts", ""},
		{"queen on jack", "Jack of Spades", "Queen of Spades", ""},
		{"king on queen (both 12)", "Queen of Hearts", "King of Spades", ""},
		{"ace on two", "2 of Clubs", "Ace of Hearts", ""},
		{"king is 12 not 13", "Ace of Spades", "King of Hearts", "must be within one of 1"},
		{"non-special after king", "King of Spades", "Jack of Clubs", ""},
		{"joker on anything", "4 of Spades", "Red Joker", ""},
		{"joker on special", "Ace of Clubs", "Black Joker", ""},
		{"after red joker red", "Red Joker", "9 of Hearts", ""},
		{"after red joker red special any value", "Red Joker", "King of Diamonds", ""},
		{"after red joker black", "Red Joker", "9 of Clubs", "only a Red card may be played on the Red Joker; 9 of Clubs is Black"},
		{"after red joker black joker", "Red Joker", "Black Joker", "only a Red card"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pile []string
			if tc.prev != "" {
				pile = []string{"2 of Diamonds", tc.prev}
			}
			err := CheckPlay(rs, pile, tc.card)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s on %q refused: %v", tc.card, tc.prev, err)
			case tc.want != "" && (err == nil || err.Code != "illegal_play" || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s on %q: %v; want illegal_play containing %q", tc.card, tc.prev, err, tc.want)
			}
		})
	}
}

func TestX3_JokerThenOnlyItsColour(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"4 of Spades"},
		part{id: "a", hand: cards("Black Joker,2 of Hearts")},
		part{id: "b", hand: cards("5 of Hearts,Queen of Clubs,8 of Spades")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Black Joker"})
	if m.Constraint != "Black" {
		t.Errorf("constraint %q after the Black Joker", m.Constraint)
	}
	re := refuse(t, m, rs, Move{Kind: MovePlay, Actor: "b", Card: "5 of Hearts"}, "illegal_play")
	if !strings.Contains(re.Message, "only a Black card") {
		t.Errorf("message %q", re.Message)
	}
	// A black special of any value is fine after the Black Joker.
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "b", Card: "Queen of Clubs"})
	if m.Pending == nil || m.Pending.Kind != ChoiceQueen {
		t.Errorf("the Queen's choice is not pending: %+v", m.Pending)
	}
}

func TestX3_SpecialCannotUseOppositeColour(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"4 of Spades"}, part{id: "a", hand: cards("Jack of Hearts,9 of Spades")}, part{id: "b", hand: cards("2 of Clubs")})
	re := refuse(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Jack of Hearts"}, "illegal_play")
	if !strings.Contains(re.Message, "opposite-colour rule is only for non-special cards") {
		t.Errorf("message %q", re.Message)
	}
}

func TestX3_FirstPlayNonSpecial(t *testing.T) {
	rs := gilded(t)
	m := playing(nil, part{id: "a", hand: cards("Ace of Hearts,Red Joker,9 of Spades")}, part{id: "b", hand: cards("2 of Clubs")})
	refuse(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Ace of Hearts"}, "illegal_play")
	refuse(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Red Joker"}, "illegal_play")
	refuse(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "2 of Clubs"}, "card_not_in_hand")
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "9 of Spades"})
}

// ---- X4: must play, add, give ----

func TestX4_MustPlayThenAddThenGive(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"4 of Spades"},
		part{id: "a", hand: cards("5 of Spades,9 of Clubs"), deck: cards("5 of Spades,9 of Clubs,10 of Clubs")},
		part{id: "b", hand: cards("9 of Spades,10 of Spades"), deck: cards("9 of Spades,10 of Spades,10 of Clubs")},
		part{id: "c", hand: cards("2 of Hearts,3 of Hearts")})
	re := refuse(t, m, rs, Move{Kind: MoveAdd, Actor: "a", Card: "10 of Clubs"}, "must_play")
	if !strings.Contains(re.Message, "5 of Spades") {
		t.Errorf("must_play does not say what can be played: %s", re.Message)
	}
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "5 of Spades"})
	// b cannot play on 5 of Spades (9, 10 of Spades are black and far): add.
	refuse(t, m, rs, Move{Kind: MovePlay, Actor: "b", Card: "9 of Spades"}, "illegal_play")
	refuse(t, m, rs, Move{Kind: MoveAdd, Actor: "b", Card: "2 of Hearts"}, "card_not_in_deck")
	refuse(t, m, rs, Move{Kind: MoveGiver, Actor: "b", Target: "c"}, "must_add")
	apply(t, m, rs, Move{Kind: MoveAdd, Actor: "b", Card: "10 of Clubs"})
	if whoseTurn(m) != "c" || len(hand(t, m, "b")) != 3 {
		t.Fatalf("after adding: turn %s, b's hand %v", whoseTurn(m), hand(t, m, "b"))
	}
	// c plays; then a cannot play on 3 of Hearts... a holds 9 of Clubs (black
	// on red: legal by colour), so make a's hand unplayable instead.
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "c", Card: "3 of Hearts"})
	m.Participants[0].Hand = []string{"9 of Hearts"} // red on red, far
	m.Participants[0].Deck = cards("9 of Hearts,10 of Clubs")
	refuse(t, m, rs, Move{Kind: MoveAdd, Actor: "a", Card: "10 of Clubs"}, "card_in_match")
	refuse(t, m, rs, Move{Kind: MoveGiver, Actor: "a", Target: "a"}, "invalid_target")
	apply(t, m, rs, Move{Kind: MoveGiver, Actor: "a", Target: "b"})
	if m.Pending == nil || m.Pending.Kind != ChoiceGive || m.Pending.Owner != "b" || m.Pending.Receiver != "a" {
		t.Fatalf("pending %+v; want b to give a a card", m.Pending)
	}
	if !m.Pending.Deadline.Equal(t0.Add(time.Minute + 24*time.Hour)) {
		t.Errorf("give deadline %v; want the turn timeout after the choice", m.Pending.Deadline)
	}
	refuse(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "9 of Hearts"}, "not_your_turn")
	refuse(t, m, rs, Move{Kind: MoveGive, Actor: "b", Card: "2 of Hearts"}, "card_not_in_hand")
	apply(t, m, rs, Move{Kind: MoveGive, Actor: "b", Card: "9 of Spades"})
	if !slices.Contains(hand(t, m, "a"), "9 of Spades") || slices.Contains(hand(t, m, "b"), "9 of Spades") || whoseTurn(m) != "b" {
		t.Errorf("after giving: a %v, b %v, turn %s", hand(t, m, "a"), hand(t, m, "b"), whoseTurn(m))
	}
}

func TestX4_ExpiredGiveIsMadeAtRandom(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"3 of Hearts"},
		part{id: "a", hand: cards("9 of Hearts")},
		part{id: "b", hand: cards("9 of Spades,10 of Spades,Queen of Clubs")})
	apply(t, m, rs, Move{Kind: MoveGiver, Actor: "a", Target: "b"})
	dl := m.Pending.Deadline
	if evs := Timeout(m, rs, dl.Add(-time.Second), &script{}); len(evs) != 0 {
		t.Fatalf("timeout before the deadline acted: %v", evs)
	}
	evs := Timeout(m, rs, dl.Add(time.Hour), &script{vals: []int{2}})
	if !slices.Contains(hand(t, m, "a"), "Queen of Clubs") {
		t.Fatalf("random give did not happen: a %v, events %v", hand(t, m, "a"), evs)
	}
	if !m.TurnStart.Equal(dl) {
		t.Errorf("next turn starts %v; want as of the deadline %v", m.TurnStart, dl)
	}
}

// ---- X5: effects ----

func TestX5_AceAnotherDrawsTwo(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"2 of Clubs"},
		part{id: "a", hand: cards("Ace of Hearts,9 of Hearts")},
		part{id: "b", hand: cards("7 of Spades"), deck: cards("7 of Spades,2 of Hearts,3 of Hearts,4 of Hearts")},
		part{id: "c", hand: cards("8 of Spades")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Ace of Hearts"})
	refuse(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"a"}}, "invalid_target")
	refuse(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"zed"}}, "invalid_target")
	refuse(t, m, rs, Move{Kind: MoveTarget, Actor: "b", Targets: []string{"c"}}, "not_your_turn")
	apply(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"b"}}, &script{vals: []int{2, 0}})
	if got := hand(t, m, "b"); !slices.Equal(got, cards("7 of Spades,4 of Hearts,2 of Hearts")) {
		t.Errorf("b drew %v", got)
	}
	if whoseTurn(m) != "b" {
		t.Errorf("turn %s after the Ace; want b", whoseTurn(m))
	}
}

func TestX5_JackNextDrawsOneAndKeepsTheirTurn(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"10 of Clubs"},
		part{id: "a", hand: cards("Jack of Hearts,9 of Hearts")},
		part{id: "b", hand: cards("7 of Spades"), deck: cards("7 of Spades,2 of Hearts")},
		part{id: "c", hand: cards("8 of Spades")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Jack of Hearts"})
	if got := hand(t, m, "b"); !slices.Equal(got, cards("7 of Spades,2 of Hearts")) || whoseTurn(m) != "b" {
		t.Errorf("after the Jack: b %v, turn %s; want b drew and plays next", got, whoseTurn(m))
	}
}

func TestX5_QueenOnOneself(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"Jack of Clubs"},
		part{id: "a", hand: cards("Queen of Hearts,9 of Hearts"), deck: cards("Queen of Hearts,9 of Hearts,5 of Clubs")},
		part{id: "b", hand: cards("7 of Spades")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Queen of Hearts"})
	refuse(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"b"}, Card: "9 of Hearts"}, "card_not_in_hand")
	apply(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"a"}, Card: "9 of Hearts"})
	// 9 of Hearts left the match; the different card is the only other one.
	if got := hand(t, m, "a"); !slices.Equal(got, cards("5 of Clubs")) {
		t.Errorf("a's hand %v; want [5 of Clubs]", got)
	}
	if m.InMatch("9 of Hearts") {
		t.Error("the Queen's chosen card is still in the match")
	}
}

func TestX5_QueenWithoutDifferentCardUsesGiving(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"Jack of Clubs"},
		part{id: "a", hand: cards("Queen of Hearts,9 of Hearts")},
		part{id: "b", hand: cards("7 of Spades,8 of Spades")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Queen of Hearts"})
	apply(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"a"}, Card: "9 of Hearts"})
	if m.Pending == nil || m.Pending.Kind != ChoiceGiver || m.Pending.Owner != "a" || m.Phase != PhasePlay {
		t.Fatalf("pending %+v phase %s; want a to choose a giver (an emptied hand by a Queen is no win)", m.Pending, m.Phase)
	}
	apply(t, m, rs, Move{Kind: MoveGiver, Actor: "a", Target: "b"})
	apply(t, m, rs, Move{Kind: MoveGive, Actor: "b", Card: "8 of Spades"})
	if !slices.Equal(hand(t, m, "a"), cards("8 of Spades")) || whoseTurn(m) != "b" {
		t.Errorf("a %v turn %s", hand(t, m, "a"), whoseTurn(m))
	}
}

func TestX5_KingOnTwoOthers(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"Queen of Clubs"},
		part{id: "a", hand: cards("King of Hearts,9 of Hearts")},
		part{id: "b", hand: cards("7 of Spades"), deck: cards("7 of Spades,2 of Hearts")},
		part{id: "c", hand: cards("8 of Spades")}) // nothing to draw: giving rule
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "King of Hearts"})
	refuse(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"b", "b"}}, "invalid_target")
	refuse(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"b"}}, "invalid_target")
	apply(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"b", "c"}})
	if !slices.Equal(hand(t, m, "b"), cards("7 of Spades,2 of Hearts")) {
		t.Errorf("b %v", hand(t, m, "b"))
	}
	if m.Pending == nil || m.Pending.Owner != "c" || m.Pending.Kind != ChoiceGiver {
		t.Fatalf("pending %+v; want c to choose a giver", m.Pending)
	}
	apply(t, m, rs, Move{Kind: MoveGiver, Actor: "c", Target: "a"})
	apply(t, m, rs, Move{Kind: MoveGive, Actor: "a", Card: "9 of Hearts"})
	// a gave their last card: a wins (X6).
	if m.Phase != PhaseEnded || m.Winner != "a" {
		t.Errorf("phase %s winner %q; want a won by giving", m.Phase, m.Winner)
	}
}

func TestX5_KingMaySelectSelf(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"Queen of Clubs"},
		part{id: "a", hand: cards("King of Hearts,9 of Hearts"), deck: cards("King of Hearts,9 of Hearts,3 of Clubs")},
		part{id: "b", hand: cards("7 of Spades"), deck: cards("7 of Spades,2 of Hearts")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "King of Hearts"})
	apply(t, m, rs, Move{Kind: MoveTarget, Actor: "a", Targets: []string{"a", "b"}})
	if len(hand(t, m, "a")) != 2 || len(hand(t, m, "b")) != 2 || whoseTurn(m) != "b" {
		t.Errorf("a %v b %v turn %s", hand(t, m, "a"), hand(t, m, "b"), whoseTurn(m))
	}
}

// ---- X6: winning ----

func TestX6_PlayingLastCardWinsWithoutEffect(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"2 of Clubs"}, part{id: "a", hand: cards("Ace of Hearts")}, part{id: "b", hand: cards("7 of Spades")})
	evs := apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Ace of Hearts"})
	if m.Phase != PhaseEnded || m.Winner != "a" || m.EndReason != EndWon || m.Pending != nil {
		t.Errorf("phase %s winner %q reason %s pending %+v", m.Phase, m.Winner, m.EndReason, m.Pending)
	}
	if evs[len(evs)-1].Kind != EvEnded {
		t.Errorf("last event %+v", evs[len(evs)-1])
	}
	refuse(t, m, rs, Move{Kind: MovePlay, Actor: "b", Card: "7 of Spades"}, "match_over")
}

func TestX6_GivingLastCardWins(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"3 of Hearts"}, part{id: "a", hand: cards("9 of Hearts")}, part{id: "b", hand: cards("9 of Spades")})
	apply(t, m, rs, Move{Kind: MoveGiver, Actor: "a", Target: "b"})
	apply(t, m, rs, Move{Kind: MoveGive, Actor: "b", Card: "9 of Spades"})
	if m.Winner != "b" || m.EndReason != EndWon {
		t.Errorf("winner %q reason %s; want b won by giving", m.Winner, m.EndReason)
	}
}

// ---- X7: timeouts ----

func TestX7_ExpiredTurnSkipped(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"3 of Hearts"}, part{id: "a", hand: cards("4 of Hearts")}, part{id: "b", hand: cards("5 of Hearts")}, part{id: "c", hand: cards("6 of Hearts")})
	if evs := Timeout(m, rs, t0.Add(24*time.Hour-time.Second), &script{}); len(evs) != 0 || whoseTurn(m) != "a" {
		t.Fatalf("skipped early: %v", evs)
	}
	evs := Timeout(m, rs, t0.Add(49*time.Hour), &script{})
	skips := 0
	for _, e := range evs {
		if e.Kind == EvTurnSkipped {
			skips++
		}
	}
	if skips != 2 || whoseTurn(m) != "c" || !m.TurnStart.Equal(t0.Add(48*time.Hour)) {
		t.Errorf("a late run: %d skips, turn %s from %v; want 2 skips, c from +48h", skips, whoseTurn(m), m.TurnStart)
	}
	if evs := Timeout(m, rs, t0.Add(49*time.Hour), &script{}); len(evs) != 0 {
		t.Errorf("a duplicate run acted: %v", evs)
	}
	if len(hand(t, m, "a")) != 1 {
		t.Error("a skipped turn changed a hand")
	}
}

func TestX7_ExpiredChoiceMadeAtRandom(t *testing.T) {
	rs := gilded(t)
	m := playing([]string{"2 of Clubs"},
		part{id: "a", hand: cards("Ace of Hearts,9 of Hearts")},
		part{id: "b", hand: cards("7 of Spades")},
		part{id: "c", hand: cards("8 of Spades"), deck: cards("8 of Spades,2 of Diamonds,3 of Diamonds")})
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "Ace of Hearts"})
	src := &script{vals: []int{1}}
	evs := Timeout(m, rs, t0.Add(25*time.Hour), src)
	if len(hand(t, m, "c")) != 3 || src.asked[0] != PurposeChoice {
		t.Errorf("random Ace target: c %v, draws %v, events %v", hand(t, m, "c"), src.asked, evs)
	}
}

func TestX7_SelectionTimeout(t *testing.T) {
	rs := gilded(t)
	m, _, _ := New(rs, "m", []Entrant{
		{ID: "a", Deck: cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts")},
		{ID: "b", Deck: cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts,6 of Hearts")},
		{ID: "c", Deck: cards("2 of Clubs,3 of Clubs,4 of Clubs,5 of Clubs,6 of Clubs")},
	}, t0)
	apply(t, m, rs, Move{Kind: MoveSelect, Actor: "a", Cards: cards("2 of Hearts,3 of Hearts,4 of Hearts,5 of Hearts")})
	Timeout(m, rs, t0.Add(24*time.Hour), newRand(1))
	b, _ := m.Participant("b")
	c, _ := m.Participant("c")
	if b.Status != StatusForfeited || c.Status != StatusActive || len(c.Hand) != 4 || m.Phase != PhaseBetting {
		t.Errorf("b %s, c %s %v, phase %s; want b forfeits (cannot select), c gets a random hand", b.Status, c.Status, c.Hand, m.Phase)
	}
}

// ---- X8: betting ----

// bettingMatch makes a three-player match in betting with the given Chips.
func bettingMatch(t *testing.T, chips ...int) *Match {
	rs := gilded(t)
	suits := []string{"Hearts", "Spades", "Clubs"}
	var es []Entrant
	for i, id := range []string{"a", "b", "c"} {
		s := suits[i]
		es = append(es, Entrant{ID: id, Chips: chips[i], Deck: cards("2 of " + s + ",3 of " + s + ",4 of " + s + ",5 of " + s)})
	}
	m, _, err := New(rs, "m", es, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		apply(t, m, rs, Move{Kind: MoveSelect, Actor: e.ID, Cards: e.Deck})
	}
	m.Order = []string{"a", "b", "c"} // fix the tie-broken order for readability
	m.Turn = 0
	return m
}

func chipsOf(m *Match) (out []int) {
	for _, p := range m.Participants {
		out = append(out, p.Chips)
	}
	return out
}

func TestX8_UnmatchedRaiseRefunded(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 5, 5, 5)
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 1})
	if m.Betting.Pool != 1 || m.Participants[0].Chips != 4 {
		t.Fatalf("a bet moves at once: pool %d, a %d", m.Betting.Pool, m.Participants[0].Chips)
	}
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "b"})
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "c"})
	// Level 1 matched; a new round: a passes, b raises to 3, nobody meets it.
	apply(t, m, rs, Move{Kind: MovePass, Actor: "a"})
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "b", Amount: 3})
	refuse(t, m, rs, Move{Kind: MovePass, Actor: "c"}, "must_answer")
	apply(t, m, rs, Move{Kind: MoveDecline, Actor: "c"})
	evs := apply(t, m, rs, Move{Kind: MoveDecline, Actor: "a"})
	if m.Phase != PhasePlay || m.Betting.Level != 1 || m.Betting.Pool != 3 || !slices.Equal(chipsOf(m), []int{4, 4, 4}) {
		t.Fatalf("phase %s level %d pool %d chips %v; want play at level 1, b's raise refunded", m.Phase, m.Betting.Level, m.Betting.Pool, chipsOf(m))
	}
	if !slices.ContainsFunc(evs, func(e Event) bool { return e.Kind == EvRefunded && e.Participant == "b" && e.Chips == 2 }) {
		t.Errorf("no refund event for b: %v", evs)
	}
	for _, p := range m.Participants {
		if p.Status != StatusActive {
			t.Errorf("%s forfeited for declining an unmatched raise", p.ID)
		}
	}
}

func TestX8_MatchedRaiseDeclinersForfeitRefunded(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 5, 5, 1)
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 2})
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "b"})
	// c cannot pay 2: matching is not listed and is refused.
	if slices.ContainsFunc(LegalMoves(m, rs, "c"), func(mv Move) bool { return mv.Kind == MoveMatch }) {
		t.Error("match listed for c who cannot pay")
	}
	refuse(t, m, rs, Move{Kind: MoveMatch, Actor: "c"}, "insufficient_chips")
	apply(t, m, rs, Move{Kind: MoveDecline, Actor: "c"})
	if c, _ := m.Participant("c"); c.Status != StatusForfeited || c.Chips != 1 {
		t.Errorf("c %s with %d Chips; want forfeited with own Chips", c.Status, c.Chips)
	}
	apply(t, m, rs, Move{Kind: MovePass, Actor: "a"})
	apply(t, m, rs, Move{Kind: MovePass, Actor: "b"})
	if m.Phase != PhasePlay || m.Betting.Pool != 4 {
		t.Fatalf("phase %s pool %d", m.Phase, m.Betting.Pool)
	}
}

func TestX8_ClosesWhenEveryonePasses(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 0, 0, 0)
	refuse(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 1}, "insufficient_chips")
	refuse(t, m, rs, Move{Kind: MovePass, Actor: "b"}, "not_your_turn")
	for _, id := range []string{"a", "b", "c"} {
		apply(t, m, rs, Move{Kind: MovePass, Actor: id})
	}
	if m.Phase != PhasePlay || whoseTurn(m) != "a" {
		t.Errorf("phase %s turn %s", m.Phase, whoseTurn(m))
	}
}

func TestX8_WinnerTakesPool(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 3, 3, 3)
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 2})
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "b"})
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "c"})
	for _, id := range []string{"a", "b", "c"} {
		apply(t, m, rs, Move{Kind: MovePass, Actor: id})
	}
	m.Participants[0].Hand = []string{"7 of Hearts"}
	apply(t, m, rs, Move{Kind: MovePlay, Actor: "a", Card: "7 of Hearts"})
	tr, err := Settle(m)
	if err != nil || len(tr) != 1 || tr[0] != (Transfer{To: "a", Chips: 6, Reason: "won"}) {
		t.Errorf("Settle = %v, %v; want 6 Chips to a", tr, err)
	}
}

// ---- X9: forfeit and termination ----

func TestX9_ForfeitKeepsChipsLastStandingWins(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 3, 3, 3)
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 1})
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "b"})
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "c"})
	for _, id := range []string{"a", "b", "c"} {
		apply(t, m, rs, Move{Kind: MovePass, Actor: id})
	}
	apply(t, m, rs, Move{Kind: MoveForfeit, Actor: "b"}) // not b's turn: forfeit is allowed anyway
	if m.Phase != PhasePlay || m.Betting.Pool != 3 {
		t.Fatalf("phase %s pool %d", m.Phase, m.Betting.Pool)
	}
	apply(t, m, rs, Move{Kind: MoveForfeit, Actor: "a"})
	if m.Winner != "c" || m.EndReason != EndLastStanding || whoseTurn(m) == "" {
		t.Fatalf("winner %q reason %s", m.Winner, m.EndReason)
	}
	if tr, _ := Settle(m); len(tr) != 1 || tr[0].To != "c" || tr[0].Chips != 3 {
		t.Errorf("Settle %v; want the whole pool to c", tr)
	}
}

func TestX9_TerminationRefundsBettors(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 3, 3, 3)
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 2})
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "b"})
	apply(t, m, rs, Move{Kind: MoveTerminate, Actor: "a"})
	refuse(t, m, rs, Move{Kind: MoveTerminate, Actor: "a"}, "already_consented")
	apply(t, m, rs, Move{Kind: MoveTerminate, Actor: "c"})
	if m.Phase == PhaseEnded {
		t.Fatal("ended before everyone consented")
	}
	apply(t, m, rs, Move{Kind: MoveTerminate, Actor: "b"})
	if m.Phase != PhaseEnded || m.Winner != "" || m.EndReason != EndTerminated {
		t.Fatalf("phase %s winner %q reason %s", m.Phase, m.Winner, m.EndReason)
	}
	tr, _ := Settle(m)
	if !slices.Equal(tr, []Transfer{{"a", 2, "refund"}, {"b", 2, "refund"}}) {
		t.Errorf("Settle %v; want each bettor's own Chips back", tr)
	}
}

// ---- X11: duels pay only the pool ----

func TestX11_DuelPaysOnlyThePool(t *testing.T) {
	m := playing(nil, part{id: "a", hand: cards("2 of Hearts")}, part{id: "b", hand: cards("3 of Hearts")})
	if _, err := Settle(m); err == nil {
		t.Error("Settle of a running match succeeded")
	}
	apply(t, m, gilded(t), Move{Kind: MovePlay, Actor: "a", Card: "2 of Hearts"})
	if tr, err := Settle(m); err != nil || len(tr) != 0 {
		t.Errorf("Settle of a match without bets = %v, %v; want nothing", tr, err)
	}
}

func TestX8_RaiseOverRaiseUnmatchedLeavesFinalLevel(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 5, 5, 5)
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 1})
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "b", Amount: 3}) // meets a's 1, raises to 3
	apply(t, m, rs, Move{Kind: MoveDecline, Actor: "c"})
	apply(t, m, rs, Move{Kind: MoveDecline, Actor: "a"})
	// Nobody met 3: b gets 2 back; 1 (met by b's raise) is final; c owes it.
	if m.Phase != PhaseBetting || !m.Betting.Final || m.Betting.Level != 1 || !slices.Equal(Movers(m), []string{"c"}) {
		t.Fatalf("phase %s final %v level %d movers %v", m.Phase, m.Betting.Final, m.Betting.Level, Movers(m))
	}
	if !slices.Equal(chipsOf(m), []int{4, 4, 5}) {
		t.Errorf("chips %v; want b's raise refunded down to 1", chipsOf(m))
	}
	refuse(t, m, rs, Move{Kind: MoveRaise, Actor: "c", Amount: 2}, "betting_final")
	apply(t, m, rs, Move{Kind: MoveMatch, Actor: "c"})
	if m.Phase != PhasePlay || m.Betting.Pool != 3 {
		t.Errorf("phase %s pool %d; want play with 3 in the pool", m.Phase, m.Betting.Pool)
	}
}

func TestX8_FinalLevelDeclineForfeits(t *testing.T) {
	rs := gilded(t)
	m := bettingMatch(t, 5, 5, 5)
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "a", Amount: 1})
	apply(t, m, rs, Move{Kind: MoveRaise, Actor: "b", Amount: 3})
	apply(t, m, rs, Move{Kind: MoveDecline, Actor: "c"})
	apply(t, m, rs, Move{Kind: MoveDecline, Actor: "a"})
	apply(t, m, rs, Move{Kind: MoveDecline, Actor: "c"})
	if c, _ := m.Participant("c"); c.Status != StatusForfeited || c.Chips != 5 || m.Phase != PhasePlay {
		t.Errorf("c %s with %d Chips, phase %s; want c forfeited with nothing lost, play begun", c.Status, c.Chips, m.Phase)
	}
}
