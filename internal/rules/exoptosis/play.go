package exoptosis

import (
	"slices"
	"strings"
	"sync/atomic"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// oppositeColour is the colour opposing c (seed 000 Colours), "" for none.
func oppositeColour(c string) string {
	switch c {
	case "Red":
		return "Black"
	case "Black":
		return "Red"
	}
	return ""
}

// A verdict is judgePlay's answer: playable, or which part of X3 refuses.
type verdict uint8

const (
	playable         verdict = iota
	firstSpecial             // the first card of a match must be non-special
	jokerColour              // only the Joker's colour follows a Joker
	specialNotWithin         // a special card must be within one
	notWithin                // neither within one nor of the opposite colour
)

// cardOf returns the card named name, or nil. It does not copy the card, as
// ruleset.Card does, and it looks the name up in an index instead of
// scanning the table: listing moves looks up every card of a hand, and
// making a match every card of every deck.
func cardOf(rs *ruleset.Ruleset, name string) *ruleset.Card {
	idx := lastCards.Load()
	if idx == nil || idx.rs != rs {
		idx = indexCards(rs)
		lastCards.Store(idx)
	}
	// The check makes a stale index harmless: a ruleset's table is not
	// meant to change after Load, Parse or Amend, but nothing stops it.
	if i, ok := idx.pos[name]; ok && i < len(rs.Cards) && rs.Cards[i].Name == name {
		return &rs.Cards[i]
	}
	for i := range rs.Cards {
		if rs.Cards[i].Name == name {
			return &rs.Cards[i]
		}
	}
	return nil
}

// cardIndex is where each card name is in one ruleset's card table (the
// first place, should a name repeat).
type cardIndex struct {
	rs  *ruleset.Ruleset
	pos map[string]int
}

// lastCards indexes the ruleset cardOf was last asked about. A process
// plays one ruleset or a few, and indexing another costs one map insert
// per card, so one index is enough and its memory stays bounded.
var lastCards atomic.Pointer[cardIndex]

func indexCards(rs *ruleset.Ruleset) *cardIndex {
	idx := &cardIndex{rs: rs, pos: make(map[string]int, len(rs.Cards))}
	for i := range rs.Cards {
		if _, seen := idx.pos[rs.Cards[i].Name]; !seen {
			idx.pos[rs.Cards[i].Name] = i
		}
	}
	return idx
}

// noCard stands for a pile card the ruleset does not know (a match made
// under an older card table): no value, no colour, no effect. Never written.
var noCard ruleset.Card

// topCard is the card the next play must follow (X3), nil on an empty pile.
func topCard(rs *ruleset.Ruleset, pile []string) *ruleset.Card {
	if len(pile) == 0 {
		return nil
	}
	if c := cardOf(rs, pile[len(pile)-1]); c != nil {
		return c
	}
	return &noCard
}

// judgePlay is X3: whether c may be played on prev (nil: c would be the
// first card of the match). It allocates nothing, so listing moves can ask
// it of every card of a hand; CheckPlay words its refusals.
func judgePlay(prev, c *ruleset.Card) verdict {
	switch {
	case prev == nil:
		if c.Special() {
			return firstSpecial
		}
		return playable
	case prev.Joker():
		if c.Colour != prev.Colour {
			return jokerColour
		}
		return playable
	case c.Joker():
		return playable
	}
	if d := c.Value - prev.Value; d >= -1 && d <= 1 {
		return playable
	}
	if c.Special() {
		return specialNotWithin
	}
	if c.Colour == oppositeColour(prev.Colour) {
		return playable
	}
	return notWithin
}

// CheckPlay says whether the card named name may be played on pile (X3),
// and if not, why, as an illegal_play error a player understands:
//   - the first card of a match must be non-special;
//   - after a Joker of colour C only a card of colour C (Jokers included);
//   - a Joker on anything else;
//   - any other card within one of the previous card's value;
//   - a non-special card also on the opposite colour.
func CheckPlay(rs *ruleset.Ruleset, pile []string, name string) *rules.Error {
	c := cardOf(rs, name)
	if c == nil {
		return rules.Refuse("unknown_card", "%q is not a card of this ruleset.", name)
	}
	prev := topCard(rs, pile)
	switch judgePlay(prev, c) {
	case firstSpecial:
		return rules.Refuse("illegal_play", "%s is special, and the first card of a match must be non-special", name)
	case jokerColour:
		return rules.Refuse("illegal_play", "only a %s card may be played on the %s; %s is %s", prev.Colour, prev.Name, name, c.Colour)
	case specialNotWithin:
		return rules.Refuse("illegal_play", "%s is special, so it must be within one of %d (%s); the opposite-colour rule is only for non-special cards", name, prev.Value, prev.Name)
	case notWithin:
		return rules.Refuse("illegal_play", "%s is neither within one of %d nor of the opposite colour of %s", name, prev.Value, prev.Name)
	}
	return nil
}

// appendPlays appends to dst the cards of p's hand that may be played now,
// in hand order.
func appendPlays(dst []string, m *Match, rs *ruleset.Ruleset, p *Participant) []string {
	prev := topCard(rs, m.Pile)
	for _, name := range p.Hand {
		if c := cardOf(rs, name); c != nil && judgePlay(prev, c) == playable {
			dst = append(dst, name)
		}
	}
	return dst
}

// canPlay reports whether p holds a card that may be played now.
func canPlay(m *Match, rs *ruleset.Ruleset, p *Participant) bool {
	prev := topCard(rs, m.Pile)
	for _, name := range p.Hand {
		if c := cardOf(rs, name); c != nil && judgePlay(prev, c) == playable {
			return true
		}
	}
	return false
}

// play handles a play-phase move by p, who is the current player or the
// owner of the pending choice (Apply checked that).
func (e *eng) play(p *Participant, mv Move) *rules.Error {
	m := e.m
	if pd := m.Pending; pd != nil {
		switch {
		case mv.Kind == MoveTarget && (pd.Kind == ChoiceAce || pd.Kind == ChoiceQueen || pd.Kind == ChoiceKing):
			return e.target(p, pd, mv)
		case mv.Kind == MoveGiver && pd.Kind == ChoiceGiver:
			return e.chooseGiver(p, mv.Target)
		case mv.Kind == MoveGive && pd.Kind == ChoiceGive:
			return e.give(p, pd, mv.Card)
		}
		return rules.Refuse("choice_pending", "%s must first %s.", p.ID, describe(pd)).With("choice", pd.Kind)
	}
	switch mv.Kind {
	case MovePlay:
		return e.playCard(p, mv.Card)
	case MoveAdd:
		return e.add(p, mv.Card)
	case MoveGiver:
		if canPlay(m, e.rs, p) {
			return mustPlay(appendPlays(nil, m, e.rs, p))
		}
		if m.canAdd(p) {
			return rules.Refuse("must_add", "You can add a card from your deck (%s), so you cannot ask for one.", strings.Join(m.available(p, ""), ", "))
		}
		return e.chooseGiver(p, mv.Target)
	case MoveGive, MoveTarget:
		return rules.Refuse("no_pending_choice", "Nothing asks %s for a %s move now; it is their turn to play.", p.ID, mv.Kind)
	}
	return wrongMove(mv.Kind, "it is %s's turn: play a card, or add one if none can be played", p.ID)
}

func describe(pd *Pending) string {
	switch pd.Kind {
	case ChoiceAce:
		return "choose another participant to draw 2 (" + pd.Card + ")"
	case ChoiceQueen:
		return "choose a participant and a card of their hand (" + pd.Card + ")"
	case ChoiceKing:
		return "choose two different participants to draw 1 each (" + pd.Card + ")"
	case ChoiceGiver:
		return "choose a participant to give them a card"
	default:
		return "give " + pd.Receiver + " a card"
	}
}

func mustPlay(plays []string) *rules.Error {
	return rules.Refuse("must_play", "You can play %s, and a player who can play must play.", strings.Join(plays, ", ")).With("playable", plays)
}

func (e *eng) playCard(p *Participant, name string) *rules.Error {
	m := e.m
	if !slices.Contains(p.Hand, name) {
		return rules.Refuse("card_not_in_hand", "%s is not in %s's hand.", name, p.ID)
	}
	if err := CheckPlay(e.rs, m.Pile, name); err != nil {
		return err
	}
	c := cardOf(e.rs, name)
	p.Hand = remove(p.Hand, name)
	m.Pile = append(m.Pile, name)
	m.Constraint = ""
	if c.Joker() {
		m.Constraint = c.Colour
	}
	e.emit(Event{Kind: EvPlayed, Participant: p.ID, Card: name})
	if len(p.Hand) == 0 { // X6: wins at once, the card's effect is not resolved
		e.end(p.ID, EndWon)
		return nil
	}
	m.Resolving = true
	switch c.Effect {
	case ruleset.EffectAce:
		e.pend(ChoiceAce, p.ID, "", name)
	case ruleset.EffectQueen:
		e.pend(ChoiceQueen, p.ID, "", name)
	case ruleset.EffectKing:
		e.pend(ChoiceKing, p.ID, "", name)
	case ruleset.EffectJack:
		next := m.nextActive(m.Turn)
		e.emit(Event{Kind: EvEffect, Participant: p.ID, Card: name, Cards: []string{next}})
		m.Draws = append(m.Draws, Draw{Participant: next, Count: 1})
	}
	e.settle()
	return nil
}

func (e *eng) add(p *Participant, name string) *rules.Error {
	m := e.m
	if canPlay(m, e.rs, p) {
		return mustPlay(appendPlays(nil, m, e.rs, p))
	}
	if !slices.Contains(p.Deck, name) {
		return rules.Refuse("card_not_in_deck", "%s is not in %s's deck.", name, p.ID)
	}
	if m.InMatch(name) {
		return rules.Refuse("card_in_match", "%s is already in the match.", name).With("cards", []string{name})
	}
	p.Hand = append(p.Hand, name)
	e.emit(Event{Kind: EvAdded, Participant: p.ID, Card: name})
	e.nextTurn()
	return nil
}

// chooseGiver records receiver's choice of who gives them a card (X4).
func (e *eng) chooseGiver(receiver *Participant, target string) *rules.Error {
	g := e.m.part(target)
	switch {
	case g == nil || g.Status != StatusActive:
		return rules.Refuse("invalid_target", "%q is not a participant still in the match.", target)
	case g.ID == receiver.ID:
		return rules.Refuse("invalid_target", "Choose another participant to give you a card, not yourself.")
	case len(g.Hand) == 0:
		return rules.Refuse("invalid_target", "%s has no card to give.", g.ID)
	}
	e.m.Resolving = true
	e.emit(Event{Kind: EvGiverChosen, Participant: receiver.ID, Other: g.ID})
	e.pend(ChoiceGive, g.ID, receiver.ID, "")
	return nil
}

func (e *eng) give(g *Participant, pd *Pending, name string) *rules.Error {
	m := e.m
	if !slices.Contains(g.Hand, name) {
		return rules.Refuse("card_not_in_hand", "%s is not in %s's hand.", name, g.ID)
	}
	r := m.part(pd.Receiver)
	g.Hand = remove(g.Hand, name)
	r.Hand = append(r.Hand, name)
	m.Pending = nil
	e.emit(Event{Kind: EvGiven, Participant: g.ID, Other: r.ID, Card: name})
	if len(g.Hand) == 0 { // X6: giving one's last card wins
		e.end(g.ID, EndWon)
		return nil
	}
	e.settle()
	return nil
}

// target resolves an Ace, Queen or King choice (X5).
func (e *eng) target(p *Participant, pd *Pending, mv Move) *rules.Error {
	m := e.m
	want := 1
	if pd.Kind == ChoiceKing {
		want = 2
	}
	if len(mv.Targets) != want {
		return rules.Refuse("invalid_target", "%s needs %d target(s); got %d.", pd.Card, want, len(mv.Targets))
	}
	for _, t := range mv.Targets {
		if !m.active(t) {
			return rules.Refuse("invalid_target", "%q is not a participant still in the match.", t)
		}
	}
	// Each case checks its choice before it changes anything: a refusal
	// leaves the match untouched.
	switch pd.Kind {
	case ChoiceAce:
		if mv.Targets[0] == p.ID {
			return rules.Refuse("invalid_target", "The %s's target must be another participant.", pd.Card)
		}
		m.Draws = append(m.Draws, Draw{Participant: mv.Targets[0], Count: 2})
	case ChoiceKing:
		if mv.Targets[0] == mv.Targets[1] {
			return rules.Refuse("invalid_target", "The %s needs two different participants.", pd.Card)
		}
		m.Draws = append(m.Draws, Draw{Participant: mv.Targets[0], Count: 1}, Draw{Participant: mv.Targets[1], Count: 1})
	case ChoiceQueen:
		t := m.part(mv.Targets[0])
		if !slices.Contains(t.Hand, mv.Card) {
			return rules.Refuse("card_not_in_hand", "%s is not in %s's hand.", mv.Card, t.ID)
		}
		t.Hand = remove(t.Hand, mv.Card)
		e.emit(Event{Kind: EvCardLeft, Participant: t.ID, Card: mv.Card})
		m.Draws = append(m.Draws, Draw{Participant: t.ID, Count: 1, Exclude: mv.Card})
	}
	m.Pending = nil
	e.emit(Event{Kind: EvEffect, Participant: p.ID, Card: pd.Card, Cards: slices.Clone(mv.Targets)})
	e.settle()
	return nil
}

// settle resolves owed draws in order until one needs a choice, then, if
// nothing is left and the current player has moved, passes the turn.
func (e *eng) settle() {
	m := e.m
	for m.Phase == PhasePlay && m.Pending == nil && len(m.Draws) > 0 {
		d := m.Draws[0]
		if d.Count > 1 { // one of d's draws now, the rest stay first in line
			m.Draws[0].Count--
		} else {
			m.Draws = m.Draws[1:]
		}
		if p := m.part(d.Participant); p != nil && p.Status == StatusActive && d.Count > 0 {
			e.draw(p, d.Exclude)
		}
	}
	if len(m.Draws) == 0 {
		m.Draws = nil
	}
	if m.Phase == PhasePlay && m.Pending == nil && m.Resolving {
		e.nextTurn()
	}
}

// draw gives p a random card of their deck not in the match (and not
// exclude); with none left, p must choose a giver (X5, X4).
func (e *eng) draw(p *Participant, exclude string) {
	var (
		in  inMatch
		buf [16]string
	)
	in.fill(e.m)
	cands := appendAvailable(buf[:0], &in, p, exclude)
	if len(cands) == 0 {
		e.pend(ChoiceGiver, p.ID, "", "")
		return
	}
	name := cands[e.src.Intn(PurposeDraw, len(cands))]
	p.Hand = append(p.Hand, name)
	e.emit(Event{Kind: EvDrew, Participant: p.ID, Card: name})
}

func (e *eng) pend(kind, owner, receiver, card string) {
	e.m.Pending = &Pending{Kind: kind, Owner: owner, Receiver: receiver, Card: card, Deadline: e.now.Add(TurnTimeout(e.rs))}
	e.emit(Event{Kind: EvChoicePending, Participant: owner, Other: receiver, Card: card, Reason: kind})
}

// nextActive is the next active participant in turn order after index i.
func (m *Match) nextActive(i int) string {
	n := len(m.Order)
	for k := 1; k <= n; k++ {
		idx := ((i+k)%n + n) % n
		if m.active(m.Order[idx]) {
			return m.Order[idx]
		}
	}
	return ""
}

// nextTurn passes the turn to the next active participant (X2: wrapping).
func (e *eng) nextTurn() {
	m := e.m
	m.Resolving = false
	next := m.nextActive(m.Turn)
	m.Turn = slices.Index(m.Order, next)
	m.TurnStart = e.now
	e.emit(Event{Kind: EvTurnStarted, Participant: next})
}
