package trades

import (
	engine "croupier/internal/game"
	"croupier/internal/rules/economy"
)

func chips(n int) string { return engine.Count(n, "Chip", "Chips") }

func tradeItems(it economy.Items, names map[string]string) string {
	var ws []string
	if it.Vertebrae > 0 {
		ws = append(ws, engine.Count(it.Vertebrae, "Vertebra", "Vertebrae"))
	}
	if it.Chips > 0 {
		ws = append(ws, chips(it.Chips))
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
	return engine.Or(engine.AndList(ws), "nothing")
}

func saysTrade(a engine.Answer) string {
	var tr Trade
	a.Decode(&tr)
	from, to := a.Who(tr.From, ""), a.Who(tr.To, "")
	what := " (" + tradeItems(tr.Give, tr.CardNames) + " for " + tradeItems(tr.Take, tr.CardNames) + ")."
	switch tr.Status {
	case TradeExecuted:
		return to + " accepted trade " + tr.ID + " from " + from + what
	case TradeWithdrawn:
		if tr.ClosedBy == tr.To {
			return to + " declined trade " + tr.ID + " from " + from + what
		}
		return from + " withdrew trade " + tr.ID + " to " + to + what
	case TradeExpired:
		return "Trade " + tr.ID + " from " + from + " to " + to + " expired" + what
	}
	return from + " offered " + to + " trade " + tr.ID + what + " " + to + " may accept or decline it until " + tr.ExpiresAt.UTC().Format("Mon 2 Jan 15:04 UTC") + "."
}
