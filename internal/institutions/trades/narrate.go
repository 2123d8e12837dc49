package trades

import (
	"fmt"
	"strings"

	engine "croupier/internal/game"
)

// tradeEvents narrate the trading component.
func tradeEvents() map[string]engine.Narration {
	tr := func(verb string) func(engine.Event, func(string) string) string {
		return func(ev engine.Event, name func(string) string) string {
			f := engine.Fields(ev)
			id := ""
			if s := f.Str("id"); s != "" {
				id = " " + s
			}
			names := f.Obj("card_names")
			return fmt.Sprintf("Trade%s %s: %s gives %s; %s gives %s.", id, verb, name(f.Str("from")), tradeSide(f.Obj("give"), names),
				name(f.Str("to")), tradeSide(f.Obj("take"), names))
		}
	}
	return map[string]engine.Narration{
		"trade_offered":   {Sentence: tr("offered")},
		"trade_executed":  {Announce: true, Sentence: tr("executed")},
		"trade_withdrawn": {Sentence: tr("withdrawn")},
		"trade_expired":   {Sentence: tr("expired")},
	}
}

// tradeSide is one side of a trade, cards by name when the trade recorded
// their names (card_names, copy id to name), else counted.
func tradeSide(side, names engine.F) string {
	var parts []string
	if v := side.Int("vertebrae"); v > 0 {
		parts = append(parts, fmt.Sprintf("%d Vertebrae", v))
	}
	if c := side.Int("chips"); c > 0 {
		parts = append(parts, engine.Count(c, "Chip", "Chips"))
	}
	if ids := side.Strs("cards"); len(ids) > 0 {
		ns := make([]string, len(ids))
		known := 0
		for i, id := range ids {
			if n := names.Str(id); n != "" {
				ns[i], known = n, known+1
			}
		}
		if known == len(ids) {
			parts = append(parts, counted(ns))
		} else {
			parts = append(parts, engine.Count(len(ids), "card", "cards"))
		}
	}
	if n := side.Len("packs"); n > 0 {
		parts = append(parts, engine.Count(n, "pack", "packs"))
	}
	comps := side.Obj("components") // the Obelisk's Ritual Components
	for _, k := range []string{"resolve", "crystals", "herbs", "reagents", "blood", "heart"} {
		if n := comps.Int(k); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, engine.Capitalize(k)))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return engine.AndList(parts)
}

// counted lists names with repeats counted, in order: "2 × 7 of Hearts,
// Red Joker".
func counted(ns []string) string {
	n := map[string]int{}
	var order []string
	for _, s := range ns {
		if n[s] == 0 {
			order = append(order, s)
		}
		n[s]++
	}
	for i, s := range order {
		if n[s] > 1 {
			order[i] = fmt.Sprintf("%d × %s", n[s], s)
		}
	}
	return strings.Join(order, ", ")
}
