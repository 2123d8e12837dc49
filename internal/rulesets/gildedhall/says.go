package gildedhall

import (
	"slices"
	"strconv"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rules/players"
)

// How each command's answer reads (engine.Command.Says): names for ids,
// counts in words, lists as a sentence lists them. Written with string
// concatenation rather than fmt: the sentences are linked into every chat
// Lambda, which has little room (TestBootstrapSizes).

// holdingWords is a set of holdings in words ("5 Vertebrae, 1 Chip and 2
// cards (A and B)"), "nothing" for none.
func holdingWords(vertebrae, chips int, cards []players.Card, packs []players.Pack) string {
	var ws []string
	if vertebrae != 0 {
		ws = append(ws, engine.Count(vertebrae, "Vertebra", "Vertebrae"))
	}
	if chips != 0 {
		ws = append(ws, engine.Count(chips, "Chip", "Chips"))
	}
	if len(cards) > 0 {
		names := make([]string, len(cards))
		for i, c := range cards {
			names[i] = c.Name
		}
		ws = append(ws, engine.Count(len(cards), "card", "cards")+" ("+engine.AndList(names)+")")
	}
	if len(packs) > 0 {
		kinds := make([]string, len(packs))
		for i, p := range packs {
			kinds[i] = p.Kind
		}
		ws = append(ws, engine.Count(len(packs), "pack", "packs")+" ("+engine.AndList(kinds)+")")
	}
	return engine.Or(engine.AndList(ws), "nothing")
}

func chips(n int) string { return engine.Count(n, "Chip", "Chips") }

func saysPurchase(a engine.Answer) string {
	var v PurchaseResult
	a.Decode(&v)
	s := "Bought " + strconv.Itoa(v.Quantity) + " × " + v.Name + " for " + strconv.Itoa(v.Paid) + " " + engine.Capitalize(v.Currency)
	if got := holdingWords(0, v.ChipsBought, v.Cards, v.Packs); got != "nothing" {
		s += ": " + got
	}
	s += ". Now holding " + strconv.Itoa(v.Vertebrae) + " Vertebrae and " + chips(v.Chips) + "."
	if v.Won {
		s += " That wins the game!"
	}
	return s
}

func saysOpen(a engine.Answer) string {
	var v OpenResult
	a.Decode(&v)
	s := "Opened "
	if v.Player != "" { // an answer logged before it named the opener has none
		s = a.Who(v.Player, "") + " opened "
	}
	return s + engine.Or(v.Name, v.Pack.Kind) + " " + v.Pack.ID + ": " + cardWords(v.Cards) + "."
}

// cardWords lists cards as a deck shows them, equal copies counted: "2 ×
// 7 of Hearts, holo Red Joker and King of Spades".
func cardWords(cs []players.Card) string {
	var names []string
	var counts []int
	for _, c := range cs {
		n := c.Name
		if c.Holo {
			n = "holo " + n
		}
		if i := slices.Index(names, n); i >= 0 {
			counts[i]++
			continue
		}
		names, counts = append(names, n), append(counts, 1)
	}
	for i, n := range counts {
		if n > 1 {
			names[i] = strconv.Itoa(n) + " × " + names[i]
		}
	}
	return engine.Or(engine.AndList(names), "no cards")
}

func saysGift(a engine.Answer) string {
	var v GiftResult
	a.Decode(&v)
	giver, receiver := a.Who(v.Giver, ""), a.Who(v.Receiver, "")
	s := giver + " gifted " + receiver + " " + engine.Count(len(v.Cards), "card", "cards") + ": " + cardWords(v.Cards) + "."
	var why []string
	if v.Inactive {
		why = append(why, "was inactive")
	}
	if v.SmallDeck {
		why = append(why, "held a small deck")
	}
	if len(why) > 0 {
		s += " Bonus cards: " + receiver + " " + engine.AndList(why) + "."
	}
	if v.Inactive {
		s += " If " + receiver + " acts in period " + v.Period + ", " + giver + " gets a card too."
	}
	return s + " " + giver + " may gift again once period " + v.Period + " has ended."
}

func saysGrant(a engine.Answer) string {
	var v GrantResult
	a.Decode(&v)
	who := a.Who(v.Player, "")
	// The answer gives the balances after the grant (its log entry the
	// amounts granted), and the cards and packs granted.
	s := "Granted to " + who + engine.Because(v.Reason) + ": " + who + " now holds " + strconv.Itoa(v.Vertebrae) + " Vertebrae and " + chips(v.Chips)
	if got := holdingWords(0, 0, v.Cards, v.Packs); got != "nothing" {
		s += ", and received " + got
	}
	if v.Won {
		return s + ", and wins the game!"
	}
	return s + "."
}

func saysRevoke(a engine.Answer) string {
	var v RevokeResult
	a.Decode(&v)
	r := v.Revoked
	return "Revoked " + holdingWords(r.Vertebrae, r.Chips, r.Cards, r.Packs) + " from " + a.Who(v.Player, "") + engine.Because(v.Reason) + "."
}

func saysImport(a engine.Answer) string {
	var v ImportResult
	a.Decode(&v)
	if v.Revoked != "" {
		// v.Reason is the import's own: it names the import, not why it
		// is revoked (the log keeps that).
		what := "Import " + v.ID
		if v.Reason != "" {
			what += " (" + strconv.Quote(v.Reason) + ")"
		}
		return what + " is revoked: what it carried over to " + engine.Count(len(v.Rows), "player", "players") + " is taken back."
	}
	return "Import " + v.ID + " carried over the holdings of " + engine.Count(len(v.Rows), "player", "players") + engine.Because(v.Reason) + "."
}

func saysMatch(a engine.Answer) string {
	var v MatchView
	a.Decode(&v)
	return matchWords(a, v)
}

func matchWords(a engine.Answer, v MatchView) string {
	ps := make([]string, len(v.Players))
	for i, id := range v.Players {
		ps[i] = a.Who(id, "")
	}
	what := engine.Capitalize(v.Kind) + " " + v.ID + " between " + engine.AndList(ps)
	switch v.Status {
	case MatchRequested:
		return what + " is requested; it starts once everyone accepts."
	case MatchCancelled:
		return what + " is cancelled" + engine.Because(engine.Words(v.CancelReason)) + "."
	case MatchEnded:
		if v.Winner != "" {
			return what + " is over: " + a.Who(v.Winner, "") + " won."
		}
		return what + " is over."
	}
	return what + " is under way."
}

// saysMove tells what the move did, step by step as the log narrates the
// match's events (a hand selected stays hidden until every hand is in),
// then where the match stands.
func saysMove(a engine.Answer) string {
	var v MoveResult
	a.Decode(&v)
	who := func(id string) string { return a.Who(id, "") }
	var ss []string
	for _, ev := range v.Events {
		if ev.Kind == exoptosis.EvSelected {
			ev.Cards = nil
		}
		if ev.Kind == exoptosis.EvTurnOrder || ev.Kind == exoptosis.EvEnded {
			continue // the order follows from the turns; the end is matchWords'
		}
		ss = append(ss, matchStep(ev.Kind)(engine.MakeEvent("match_"+ev.Kind, ev.Participant, ev), who))
	}
	if len(ss) == 0 {
		ss = append(ss, "Your move is made.")
	}
	return strings.Join(append(ss, matchWords(a, v.Match)), " ")
}

func saysBattle(a engine.Answer) string {
	var v BattleEngagement
	a.Decode(&v)
	return a.Who(v.Player, "") + " engaged in battle " + v.Battle + " with a deck of " + engine.Count(v.DeckSize, "card", "cards") +
		"; it starts " + v.StartsAt.UTC().Format("Mon 2 Jan 15:04 UTC") + ", the end of period " + v.Period + "."
}
