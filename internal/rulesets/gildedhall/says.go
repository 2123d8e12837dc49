package gildedhall

import (
	"fmt"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
)

// How each command's answer reads (engine.Command.Says): names for ids,
// counts in words, lists as a sentence lists.

func cardWords(cs []players.Card) string {
	ws := make([]string, len(cs))
	for i, c := range cs {
		ws[i] = c.Name
		if c.Holo {
			ws[i] += " (holo)"
		}
	}
	return engine.AndList(ws)
}

func packWords(ps []players.Pack) string {
	ws := make([]string, len(ps))
	for i, p := range ps {
		ws[i] = p.Kind
	}
	return engine.Count(len(ps), "pack", "packs") + " (" + engine.AndList(ws) + ")"
}

// holdingWords is a set of holdings in words ("5 Vertebrae, 1 Chip and 2
// cards: A and B"), "nothing" for none.
func holdingWords(vertebrae, chips int, cards []players.Card, packs []players.Pack) string {
	var ws []string
	if vertebrae != 0 {
		ws = append(ws, fmt.Sprintf("%d Vertebrae", vertebrae))
	}
	if chips != 0 {
		ws = append(ws, engine.Count(chips, "Chip", "Chips"))
	}
	if len(cards) > 0 {
		ws = append(ws, engine.Count(len(cards), "card", "cards")+" ("+cardWords(cards)+")")
	}
	if len(packs) > 0 {
		ws = append(ws, packWords(packs))
	}
	if len(ws) == 0 {
		return "nothing"
	}
	return engine.AndList(ws)
}

func saysPurchase(a engine.Answer) string {
	var v PurchaseResult
	a.Decode(&v)
	currency := v.Currency
	if currency == "chips" {
		currency = "Chips"
	} else if currency == "vertebrae" {
		currency = "Vertebrae"
	}
	s := fmt.Sprintf("Bought %d × %s for %d %s", v.Quantity, v.Name, v.Paid, currency)
	if got := holdingWords(0, v.ChipsBought, v.Cards, v.Packs); got != "nothing" {
		s += ": " + got
	}
	s += fmt.Sprintf(". Now holding %d Vertebrae and %s.", v.Vertebrae, engine.Count(v.Chips, "Chip", "Chips"))
	if v.Won {
		s += " That wins the game!"
	}
	return s
}

func saysOpen(a engine.Answer) string {
	var v economy.Opened
	a.Decode(&v)
	name := v.Name
	if name == "" {
		name = v.Pack.Kind
	}
	return fmt.Sprintf("Opened %s: %s.", name, holdingWords(0, 0, v.Cards, nil))
}

func saysGift(a engine.Answer) string {
	var v GiftResult
	a.Decode(&v)
	giver, receiver := a.Who(v.Giver, ""), a.Who(v.Receiver, "")
	s := fmt.Sprintf("%s gifted %s %s.", giver, receiver, holdingWords(0, 0, v.Cards, nil))
	var why []string
	if v.Inactive {
		why = append(why, "was inactive")
	}
	if v.SmallDeck {
		why = append(why, "held a small deck")
	}
	if len(why) > 0 {
		s += fmt.Sprintf(" Bonus cards: %s %s.", receiver, strings.Join(why, " and "))
	}
	return s + fmt.Sprintf(" %s may gift again next period.", giver)
}

func saysGrant(a engine.Answer) string {
	var v GrantResult
	a.Decode(&v)
	who := a.Who(v.Player, "")
	// The answer gives the balances after the grant (its log entry the
	// amounts granted), and the cards and packs granted.
	s := fmt.Sprintf("Granted to %s%s: %s now holds %d Vertebrae and %s", who, engine.Because(v.Reason), who, v.Vertebrae, engine.Count(v.Chips, "Chip", "Chips"))
	if got := holdingWords(0, 0, v.Cards, v.Packs); got != "nothing" {
		s += ", and received " + got
	}
	s += "."
	if v.Won {
		s += fmt.Sprintf(" %s wins the game!", who)
	}
	return s
}

func saysRevoke(a engine.Answer) string {
	var v RevokeResult
	a.Decode(&v)
	r := v.Revoked
	return fmt.Sprintf("Revoked %s from %s%s.", holdingWords(r.Vertebrae, r.Chips, r.Cards, r.Packs), a.Who(v.Player, ""), engine.Because(v.Reason))
}

func saysImport(a engine.Answer) string {
	var v ImportResult
	a.Decode(&v)
	if v.Revoked != "" {
		return fmt.Sprintf("Import %s is revoked%s: what it carried over is taken back.", v.ID, engine.Because(v.Reason))
	}
	var rows []string
	for _, r := range v.Rows {
		rows = append(rows, fmt.Sprintf("%s %s", a.Who(r.Player, r.Name), holdingWords(r.Vertebrae, r.Chips, r.Cards, r.Packs)))
	}
	return fmt.Sprintf("Import %s carried over %s%s: %s.", v.ID, engine.Count(len(v.Rows), "player", "players"), engine.Because(v.Reason), strings.Join(rows, "; "))
}

func tradeItems(it economy.Items, names map[string]string) string {
	var ws []string
	if it.Vertebrae > 0 {
		ws = append(ws, fmt.Sprintf("%d Vertebrae", it.Vertebrae))
	}
	if it.Chips > 0 {
		ws = append(ws, engine.Count(it.Chips, "Chip", "Chips"))
	}
	for _, c := range it.Cards {
		ws = append(ws, engine.Or(names[c], "card "+c))
	}
	for _, p := range it.Packs {
		ws = append(ws, "pack "+p)
	}
	if !it.Components.IsZero() {
		ws = append(ws, it.Components.String())
	}
	if len(ws) == 0 {
		return "nothing"
	}
	return engine.AndList(ws)
}

func saysTrade(a engine.Answer) string {
	var tr Trade
	a.Decode(&tr)
	from, to := a.Who(tr.From, ""), a.Who(tr.To, "")
	give, take := tradeItems(tr.Give, tr.CardNames), tradeItems(tr.Take, tr.CardNames)
	switch tr.Status {
	case TradeExecuted:
		return fmt.Sprintf("%s accepted trade %s: %s gave %s %s for %s.", to, tr.ID, from, to, give, take)
	case TradeWithdrawn:
		if tr.ClosedBy == tr.To {
			return fmt.Sprintf("%s declined trade %s from %s (%s for %s).", to, tr.ID, from, give, take)
		}
		return fmt.Sprintf("%s withdrew trade %s to %s (%s for %s).", from, tr.ID, to, give, take)
	case TradeExpired:
		return fmt.Sprintf("Trade %s from %s to %s expired.", tr.ID, from, to)
	}
	s := fmt.Sprintf("%s offered %s trade %s: %s for %s", from, to, tr.ID, give, take)
	if tr.Note != "" {
		s += fmt.Sprintf(" (%q)", engine.Clip(tr.Note, 200))
	}
	return s + fmt.Sprintf("; %s may accept or decline it until %s.", to, tr.ExpiresAt.UTC().Format("Mon 2 Jan 15:04 UTC"))
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
	what := "Duel " + v.ID
	if v.Kind == MatchBattle {
		what = "Battle " + v.ID
	}
	switch v.Status {
	case MatchRequested:
		waiting := make([]string, len(v.WaitingFor))
		for i, id := range v.WaitingFor {
			waiting[i] = a.Who(id, "")
		}
		if len(waiting) == 0 {
			return fmt.Sprintf("%s between %s is requested.", what, engine.AndList(ps))
		}
		return fmt.Sprintf("%s between %s is requested; waiting for %s to answer.", what, engine.AndList(ps), engine.AndList(waiting))
	case MatchCancelled:
		return fmt.Sprintf("%s is cancelled%s.", what, engine.Because(engine.Words(v.CancelReason)))
	case MatchEnded:
		if v.Winner != "" {
			return fmt.Sprintf("%s is over: %s won.", what, a.Who(v.Winner, ""))
		}
		return fmt.Sprintf("%s is over.", what)
	}
	s := fmt.Sprintf("%s between %s is under way", what, engine.AndList(ps))
	if v.Phase != "" {
		s += ", in its " + engine.Words(v.Phase) + " phase"
	}
	if v.Turn != "" {
		s += "; it is " + a.Who(v.Turn, "") + "'s turn"
	}
	return s + "."
}

func saysMove(a engine.Answer) string {
	var v MoveResult
	a.Decode(&v)
	s := "Your move is made. " + matchWords(a, v.Match)
	if n := len(v.Events); n > 0 {
		s += " " + engine.Count(n, "thing happened", "things happened") + " in the match (the match view shows them)."
	}
	return s
}

func saysBattle(a engine.Answer) string {
	var v BattleEngagement
	a.Decode(&v)
	return fmt.Sprintf("%s is engaged in this phase's battle, with a deck of %s; it starts %s.", a.Who(v.Player, ""),
		engine.Count(v.DeckSize, "card", "cards"), v.StartsAt.UTC().Format("Mon 2 Jan 15:04 UTC"))
}
