package gildedhall

import (
	"fmt"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/rules/exoptosis"
)

// How Gilded Hall's events read (engine.Component.Events): cards by their
// names, players by their display names, never a copy id where a name
// says it.

// cardNames is "King (holo), 7 of Hearts" from a list of cards.
func cardNames(cs []engine.F) string {
	ns := make([]string, 0, len(cs))
	for _, c := range cs {
		n := engine.Or(c.Str("name"), "a card")
		if c.Bool("holo") {
			n += " (holo)"
		}
		ns = append(ns, n)
	}
	return strings.Join(ns, ", ")
}

// cardsPhrase is "2 cards: King (holo), 7 of Hearts".
func cardsPhrase(cs []engine.F) string {
	if len(cs) == 0 {
		return "no cards"
	}
	return engine.Count(len(cs), "card", "cards") + ": " + cardNames(cs)
}

// noteworthyItems are the purchases announced: the Chips that bring a
// player toward victory and the priciest pack.
var noteworthyItems = map[string]bool{"chip": true, "legendary-pack": true}

// cardsEvents narrate the economy component: purchases, packs, gifts,
// grants and revocations.
func cardsEvents() map[string]engine.Narration {
	return map[string]engine.Narration{
		"purchased": {Announce: true, Notable: func(ev engine.Event) bool { return noteworthyItems[engine.Fields(ev).Str("item")] },
			Sentence: func(ev engine.Event, name func(string) string) string {
				f := engine.Fields(ev)
				what := engine.Or(f.Str("name", "item"), "something")
				if q := f.Int("quantity"); q > 1 {
					what = fmt.Sprintf("%d × %s", q, what)
				}
				s := name(ev.Player) + " bought " + what + " from the Croupier"
				if paid := f.Int("paid"); paid > 0 {
					s += fmt.Sprintf(" for %d %s", paid, engine.Capitalize(engine.Or(f.Str("currency"), "Vertebrae")))
				}
				if cs := f.List("cards"); len(cs) > 0 {
					s += ": " + cardNames(cs)
				}
				return s + "."
			}},
		"pack_opened": {Announce: true, Notable: func(ev engine.Event) bool { return noteworthyItems[engine.Fields(ev).Obj("pack").Str("kind")] },
			Sentence: func(ev engine.Event, name func(string) string) string {
				f := engine.Fields(ev)
				pack := engine.Or(f.Str("name"), engine.Or(f.Obj("pack").Str("kind"), "pack"))
				return fmt.Sprintf("%s opened a %s: %s.", name(ev.Player), pack, engine.Or(cardNames(f.List("cards")), "it was empty"))
			}},
		"gifted": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			s := fmt.Sprintf("%s gifted %s %s", name(engine.Or(f.Str("giver"), ev.Player)), name(f.Str("receiver")), cardsPhrase(f.List("cards")))
			switch {
			case f.Bool("inactive"):
				s += " (bonus cards: the receiver was inactive)"
			case f.Bool("small_deck"):
				s += " (bonus cards: the receiver held a small deck)"
			}
			return s + "."
		}},
		"gift_returned": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			return fmt.Sprintf("%s got %s for the gift to %s, who acted after it.", name(ev.Player), cardsPhrase(f.List("cards")), name(f.Str("receiver")))
		}},
		"granted": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			var parts []string
			if v := f.Int("vertebrae"); v != 0 {
				parts = append(parts, signed(v)+" Vertebrae")
			}
			if c := f.Int("chips"); c != 0 {
				parts = append(parts, signed(c)+" Chips")
			}
			if cs := f.List("new_cards"); len(cs) > 0 {
				parts = append(parts, cardsPhrase(cs))
			}
			if ps := f.List("new_packs"); len(ps) > 0 {
				kinds := make([]string, len(ps))
				for i, p := range ps {
					kinds[i] = engine.Or(p.Str("kind"), "pack")
				}
				parts = append(parts, engine.Count(len(ps), "pack", "packs")+" ("+strings.Join(kinds, ", ")+")")
			}
			what := engine.Or(strings.Join(parts, ", "), "nothing")
			return fmt.Sprintf("%s was granted %s%s.", name(engine.Or(f.Str("player"), ev.Player)), what, engine.Because(f.Str("reason")))
		}},
		"holdings_imported": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			rows := f.List("rows")
			pre, v, c, cs, ps := 0, 0, 0, 0, 0
			for _, r := range rows {
				if r.Bool("preregistered") {
					pre++
				}
				v, c, cs, ps = v+r.Int("vertebrae"), c+r.Int("chips"), cs+r.Len("cards"), ps+r.Len("packs")
			}
			s := fmt.Sprintf("%s imported the holdings of %s", name(ev.Player), engine.Count(len(rows), "player", "players"))
			if pre > 0 {
				s += fmt.Sprintf(" (%d registered before joining)", pre)
			}
			s += fmt.Sprintf(": %d Vertebrae, %s, %s and %s in all%s", v, engine.Count(c, "Chip", "Chips"), engine.Count(cs, "card", "cards"),
				engine.Count(ps, "pack", "packs"), engine.Because(f.Str("reason")))
			if id := f.Str("id"); id != "" {
				s += "; import " + id
			}
			return s + "."
		}},
		"import_revoked": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			return fmt.Sprintf("%s revoked import %s, restoring the holdings of %s as they were before it%s.", name(ev.Player),
				engine.Or(f.Str("import"), "?"), engine.Count(f.Int("players"), "player", "players"), engine.Because(f.Str("reason")))
		}},
		"revoked": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			r := f.Obj("revoked")
			var parts []string
			if v := r.Int("vertebrae"); v != 0 {
				parts = append(parts, fmt.Sprintf("%d Vertebrae", v))
			}
			if c := r.Int("chips"); c != 0 {
				parts = append(parts, engine.Count(c, "Chip", "Chips"))
			}
			if cs := r.List("cards"); len(cs) > 0 {
				parts = append(parts, cardsPhrase(cs))
			}
			if n := r.Len("packs"); n > 0 {
				parts = append(parts, engine.Count(n, "pack", "packs"))
			}
			what := engine.Or(strings.Join(parts, ", "), "nothing")
			return fmt.Sprintf("%s lost %s to a revocation%s.", name(engine.Or(f.Str("player"), ev.Player)), what, engine.Because(f.Str("reason")))
		}},
	}
}

func signed(n int) string {
	if n > 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

// matchName is "battle 2026-W10-I" or "match m1".
func matchName(f engine.F) string {
	id := f.Str("match", "id")
	kind := engine.Or(f.Str("kind"), "match")
	if id == "" {
		return "the " + kind
	}
	return kind + " " + id
}

// exoptosisEvents narrate the card game component: duels and battles,
// and every event of a match's engine (match_<kind>).
func exoptosisEvents() map[string]engine.Narration {
	m := map[string]engine.Narration{
		"duel_requested": {Announce: true, Notify: func(ev engine.Event) []string { return engine.Fields(ev).Strs("invitees") },
			Sentence: func(ev engine.Event, name func(string) string) string {
				f := engine.Fields(ev)
				s := fmt.Sprintf("%s challenges %s to a duel", name(ev.Player), engine.NameList(name, f.Strs("invitees")))
				if id := f.Str("match"); id != "" {
					s += " (" + id + ")"
				}
				return s + "."
			}},
		"duel_accepted": {Sentence: func(ev engine.Event, name func(string) string) string {
			return fmt.Sprintf("%s accepted duel %s.", name(ev.Player), engine.Or(engine.Fields(ev).Str("match"), "?"))
		}},
		"duel_cancelled":   {Sentence: cancelled("duel")},
		"battle_cancelled": {Sentence: cancelled("battle")},
		"match_started": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			s := engine.Capitalize(matchName(f)) + " started"
			switch {
			case f.Len("participants") > 0:
				s += " between " + engine.NameList(name, f.Strs("participants"))
			case f.Has("entrants"):
				s += " with " + engine.Count(f.Int("entrants"), "entrant", "entrants")
			}
			return s + "."
		}},
		"match_forfeits": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			n := f.Int("count")
			if n == 0 {
				n = f.Len("players")
			}
			s := fmt.Sprintf("In %s, %s forfeited", matchName(f), engine.Count(n, "player", "players"))
			if ps := f.Strs("players"); len(ps) > 0 {
				s += " (" + engine.NameList(name, ps) + ")"
			}
			if r := f.Str("reason"); r != "" {
				s += ": " + engine.Words(r)
			}
			return s + "."
		}},
		"chips_destroyed": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			return fmt.Sprintf("%s due to %s from %s were destroyed: they are no longer a player.", engine.Count(f.Int("chips"), "Chip", "Chips"),
				name(ev.Player), matchName(f))
		}},
		"match_settled": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			winner := engine.Or(f.Str("winner"), ev.Player)
			s := engine.Capitalize(matchName(f))
			if winner != "" {
				s += " was won by " + name(winner)
			} else {
				s += " ended without a winner"
			}
			if r := f.Str("end_reason", "reason"); r != "" {
				s += " (" + engine.Words(r) + ")"
			}
			if pool := f.Int("pool"); pool > 0 && winner != "" {
				s += fmt.Sprintf("; the pool of %s goes to the winner", engine.Count(pool, "Chip", "Chips"))
			}
			if rw := f.Obj("reward"); len(rw) > 0 {
				s += "; reward: " + rewardText(rw)
			}
			return s + "."
		}},
		"battle_rewarded": {Sentence: func(ev engine.Event, name func(string) string) string {
			return fmt.Sprintf("%s was rewarded for winning the battle: %s.", name(ev.Player), rewardText(engine.Fields(ev)))
		}},
		"battle_engaged": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			s := name(engine.Or(f.Str("player"), ev.Player)) + " engaged in the battle"
			if p := f.Str("period"); p != "" {
				s += " of " + p
			}
			if b := f.Str("battle"); b != "" {
				s += " (" + b + ", it starts when the phase ends)"
			}
			return s + "."
		}},
		"battle_withdrawn": {Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			f["kind"] = "battle"
			return fmt.Sprintf("%s withdrew from %s.", name(ev.Player), matchName(f))
		}},
		"battle_forming": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			f["kind"] = "battle"
			return fmt.Sprintf("%s is forming with %d engaged: %s.", engine.Capitalize(matchName(f)), listCount(f, "engaged"), sampleNames(f, "engaged", name))
		}},
	}
	for _, k := range exoptosis.EventKinds {
		n := engine.Narration{Sentence: matchStep(k)}
		switch k {
		case exoptosis.EvTurnStarted:
			n.Announce, n.Notify = true, func(ev engine.Event) []string {
				if p := engine.Or(ev.Player, engine.Fields(ev).Str("participant")); p != "" {
					return []string{p}
				}
				return nil
			}
		case exoptosis.EvTurnSkipped:
			n.Announce = true
		}
		m["match_"+k] = n
	}
	return m
}

func listCount(f engine.F, key string) int {
	if f.Has(key + "_count") {
		return f.Int(key + "_count")
	}
	return f.Len(key)
}

func sampleNames(f engine.F, key string, name func(string) string) string {
	ids := f.Strs(key)
	s := engine.NameList(name, ids)
	if more := listCount(f, key) - len(ids); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

func cancelled(kind string) func(engine.Event, func(string) string) string {
	return func(ev engine.Event, name func(string) string) string {
		f := engine.Fields(ev)
		f["kind"] = kind
		s := engine.Capitalize(matchName(f)) + " was cancelled"
		if ev.Player != "" {
			s += " by " + name(ev.Player)
		}
		if d := f.Str("detail"); d != "" {
			s += ": " + engine.Clip(strings.TrimSuffix(d, "."), 300)
		} else if r := f.Str("reason"); r != "" {
			s += " (" + engine.Words(r) + ")"
		}
		return s + "."
	}
}

// rewardText is a battle reward: "3 cards: ...", "12 Vertebrae", "1 Chip".
func rewardText(f engine.F) string {
	switch {
	case len(f.List("cards")) > 0:
		return cardsPhrase(f.List("cards"))
	case f.Int("vertebrae") > 0:
		return fmt.Sprintf("%d Vertebrae", f.Int("vertebrae"))
	case f.Int("chips") > 0:
		return engine.Count(f.Int("chips"), "Chip", "Chips")
	}
	return engine.Or(f.Str("kind"), "nothing")
}

// choiceWords is what a pending choice of kind asks of its owner, other
// being who receives a card given; "" for a kind it does not know.
func choiceWords(kind, other string) string {
	switch kind {
	case exoptosis.ChoiceAce:
		return "choose another participant, who draws 2"
	case exoptosis.ChoiceQueen:
		return "choose a card of a hand to leave the match"
	case exoptosis.ChoiceKing:
		return "choose two participants, who draw 1 each"
	case exoptosis.ChoiceGiver:
		return "choose who gives them a card"
	case exoptosis.ChoiceGive:
		return "give " + engine.Or(other, "someone") + " a card"
	}
	return ""
}

// matchStep narrates one event of a match's engine (exoptosis.Event,
// under the match's id).
func matchStep(kind string) func(engine.Event, func(string) string) string {
	return func(ev engine.Event, name func(string) string) string {
		f := engine.Fields(ev)
		who := name(engine.Or(f.Str("participant"), ev.Player))
		other := name(f.Str("other"))
		card := engine.Or(f.Str("card"), "a card")
		cs := f.Strs("cards")
		in := ""
		if id := f.Str("match"); id != "" {
			in = " in match " + id
		}
		reason := f.Str("reason")
		var s string
		switch kind {
		case exoptosis.EvSelected:
			if len(cs) > 0 {
				s = fmt.Sprintf("%s selected a hand%s: %s", who, in, strings.Join(cs, ", "))
			} else {
				s = fmt.Sprintf("%s selected a hand%s", who, in)
			}
		case exoptosis.EvHandsRevealed:
			s = "The hands were revealed" + in
		case exoptosis.EvTurnOrder:
			s = "The turn order was drawn" + in
		case exoptosis.EvRaised:
			s = fmt.Sprintf("%s raised the bet to %d%s, paying %s", who, f.Int("level"), in, engine.Count(f.Int("chips"), "Chip", "Chips"))
		case exoptosis.EvMatched:
			s = fmt.Sprintf("%s matched the bet of %d%s, paying %s", who, f.Int("level"), in, engine.Count(f.Int("chips"), "Chip", "Chips"))
		case exoptosis.EvDeclined:
			s = fmt.Sprintf("%s declined the bet%s", who, in)
		case exoptosis.EvPassed:
			s = fmt.Sprintf("%s passed%s", who, in)
		case exoptosis.EvRefunded:
			s = fmt.Sprintf("%s got %s back from the pool%s", who, engine.Count(f.Int("chips"), "Chip", "Chips"), in)
		case exoptosis.EvBettingClosed:
			s = "Betting closed" + in
		case exoptosis.EvPlayStarted:
			s = "Play started" + in
		case exoptosis.EvTurnStarted:
			s = fmt.Sprintf("%s, it is your turn%s", who, in)
		case exoptosis.EvTurnSkipped:
			s = fmt.Sprintf("%s's turn was skipped%s", who, in)
			if reason != "" {
				s += " (" + engine.Words(reason) + ")"
			}
			reason = ""
		case exoptosis.EvPlayed:
			s = fmt.Sprintf("%s played %s%s", who, card, in)
		case exoptosis.EvAdded:
			s = fmt.Sprintf("%s added %s from their deck to their hand%s", who, card, in)
		case exoptosis.EvChoicePending:
			s = fmt.Sprintf("%s has a choice to make%s", who, in)
			if c := choiceWords(reason, other); c != "" {
				s = fmt.Sprintf("%s must %s%s", who, c, in)
			} else if reason != "" {
				s += " (" + engine.Words(reason) + ")"
			}
			if c := f.Str("card"); c != "" && reason != exoptosis.ChoiceGive && reason != exoptosis.ChoiceGiver {
				s += " (" + c + ")"
			}
			reason = ""
		case exoptosis.EvChosenAtRandom:
			s = fmt.Sprintf("The deadline passed: a random choice was made for %s%s", who, in)
			if reason != "" {
				s += " (" + engine.Words(reason) + ")"
			}
			reason = ""
		case exoptosis.EvGiverChosen:
			s = fmt.Sprintf("%s chose %s to give them a card%s", who, other, in)
		case exoptosis.EvGiven:
			s = fmt.Sprintf("%s gave %s to %s%s", who, card, other, in)
		case exoptosis.EvDrew:
			s = fmt.Sprintf("%s drew %s%s", who, card, in)
		case exoptosis.EvCardLeft:
			s = fmt.Sprintf("%s left %s's hand%s", engine.Capitalize(card), who, in)
		case exoptosis.EvEffect:
			s = fmt.Sprintf("The effect of %s resolved%s", card, in)
			if len(cs) > 0 { // its targets
				s = fmt.Sprintf("%s took effect on %s%s", card, engine.NameList(name, cs), in)
			}
		case exoptosis.EvForfeited:
			s = fmt.Sprintf("%s forfeited%s", who, in)
			if reason != "" && reason != exoptosis.MoveForfeit { // the move says itself
				s += " (" + engine.Words(reason) + ")"
			}
			reason = ""
		case exoptosis.EvConsented:
			s = fmt.Sprintf("%s consented to end the match%s", who, in)
		case exoptosis.EvEnded:
			s = "The match ended"
			if id := f.Str("match"); id != "" {
				s = "Match " + id + " ended"
			}
			if p := f.Str("participant"); p != "" {
				s += ": " + name(p) + " won"
			}
			if reason != "" {
				s += " (" + engine.Words(reason) + ")"
			}
			reason = ""
		default:
			s = fmt.Sprintf("%s: %s%s", who, engine.Words(kind), in)
		}
		return s + "."
	}
}
