package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// Text forms of the economy's answers (cards, packs, shop, trades).

// cardText is "7 of Hearts", or "holo 7 of Hearts" for a holographic copy:
// the way the item syntax of trade and revoke reads it back.
func cardText(c players.Card) string {
	if c.Holo {
		return "holo " + c.Name
	}
	return c.Name
}

// cardsText lists cards, equal ones counted: "2 × 7 of Hearts, holo Red Joker".
func cardsText(cs []players.Card) string {
	var parts []string
	var counts []int
	for _, c := range cs {
		t := cardText(c)
		if i := slices.Index(parts, t); i >= 0 {
			counts[i]++
			continue
		}
		parts, counts = append(parts, t), append(counts, 1)
	}
	for i, n := range counts {
		if n > 1 {
			parts[i] = fmt.Sprintf("%d × %s", n, parts[i])
		}
	}
	return strings.Join(parts, ", ")
}

// table writes rows through a tabwriter and trims the padding the last
// column would otherwise leave at the end of each line.
func table(b *strings.Builder, rows [][]string) {
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// money is "12 Vertebrae" or "1 Chip".
func money(n int, currency string) string {
	if currency == ruleset.CurrencyChips {
		return plural(n, "Chip", "Chips")
	}
	return vertebrae(n)
}

// vertebrae is "1 Vertebra" or "12 Vertebrae".
func vertebrae(n int) string { return plural(n, "Vertebra", "Vertebrae") }

// deckText lists the deck grouped by card (holographic copies counted and
// marked) and the unopened packs; with ids, every copy's id as well, which
// is what trades and revocations name.
func deckText(pv game.PlayerView, ids bool) string {
	v, ok := gildedhall.HoldingsOf(pv)
	if !ok {
		return "" // a player of a ruleset without cards
	}
	var b strings.Builder
	if len(v.Deck) > 0 {
		fmt.Fprintf(&b, "\nDeck, %s:\n", plural(v.DeckSize, "card", "cards"))
		var rows [][]string
		for _, e := range v.Deck {
			holo := ""
			if e.Holo > 0 {
				holo = fmt.Sprintf("%d holo", e.Holo)
			}
			row := []string{"  " + strconv.Itoa(e.Count), e.Card, holo}
			if ids {
				cs := make([]string, len(e.Copies))
				for i, c := range e.Copies {
					cs[i] = c.ID
					if c.Holo {
						cs[i] += " (holo)"
					}
				}
				row = append(row, strings.Join(cs, ", "))
			}
			rows = append(rows, row)
		}
		table(&b, rows)
	}
	if len(v.Packs) > 0 {
		n := 0
		var rows [][]string
		for _, p := range v.Packs {
			n += p.Count
			row := []string{"  " + strconv.Itoa(p.Count), p.Name, p.Pack}
			if ids {
				row = append(row, strings.Join(p.IDs, ", "))
			}
			rows = append(rows, row)
		}
		fmt.Fprintf(&b, "Unopened packs, %d:\n", n)
		table(&b, rows)
	}
	return strings.TrimRight(b.String(), "\n")
}

func shopText(g string, items []gildedhall.ShopItemView) string {
	if len(items) == 0 {
		return fmt.Sprintf("The Croupier of %s sells nothing.", g)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The Croupier of %s sells:\n", g)
	rows := [][]string{{"ITEM", "PRICE", "GIVES"}}
	for _, it := range items {
		gives := it.Name
		switch it.Kind {
		case ruleset.ItemRandomCard:
			gives = plural(it.Count, "random card", "random cards")
		case ruleset.ItemPack:
			gives = fmt.Sprintf("%s (%s, opened later)", it.Name, plural(it.Cards, "card", "cards"))
		case ruleset.ItemChips:
			gives = plural(it.Count, "Chip", "Chips")
		}
		if it.HoloChance > 0 {
			gives += fmt.Sprintf(", each %d%% holo", it.HoloChance)
		}
		rows = append(rows, []string{it.ID, money(it.Price, it.Currency), gives})
	}
	table(&b, rows)
	b.WriteString("Buy with: croupier play buy ITEM [--quantity N]")
	return b.String()
}

func boughtText(actor string, v gildedhall.PurchaseResult) string {
	s := fmt.Sprintf("%s bought %d × %s for %s", actor, v.Quantity, v.Name, money(v.Paid, v.Currency))
	var got []string
	if len(v.Cards) > 0 {
		got = append(got, cardsText(v.Cards))
	}
	for _, p := range v.Packs {
		got = append(got, "pack "+p.ID)
	}
	if v.ChipsBought > 0 {
		got = append(got, plural(v.ChipsBought, "Chip", "Chips"))
	}
	if len(got) > 0 {
		s += ": " + strings.Join(got, ", ")
	}
	if v.Vertebrae < 0 { // a log entry: no balances
		return s
	}
	s += fmt.Sprintf(". Now holds %s, %s.", vertebrae(v.Vertebrae), plural(v.Chips, "Chip", "Chips"))
	if len(v.Packs) > 0 {
		s += " Open with: croupier play open " + v.Packs[0].Kind
	}
	if v.Won {
		s += fmt.Sprintf("\n%s holds %s and wins the game!", actor, plural(v.Chips, "Chip", "Chips"))
	}
	return s
}

// itemNames names card and pack ids for people, from inventories.
type itemNames map[string]string

func (n itemNames) add(pv game.PlayerView) {
	v := gildedhall.ViewOf(pv)
	for _, c := range v.Inventory.Cards {
		n[c.ID] = cardText(c)
	}
	for _, p := range v.Packs {
		for _, id := range p.IDs {
			n[id] = p.Name
		}
	}
}

// itemsText is economy.Items.String with the cards and packs it can name
// by their names, equal ones counted ("2 × 7 of Hearts"); an id it cannot
// name is shown as the id.
func itemsText(it economy.Items, names itemNames) string {
	var parts []string
	if it.Vertebrae > 0 {
		parts = append(parts, vertebrae(it.Vertebrae))
	}
	if it.Chips > 0 {
		parts = append(parts, plural(it.Chips, "Chip", "Chips"))
	}
	parts = append(parts, countedNames("card", it.Cards, names)...)
	parts = append(parts, countedNames("pack", it.Packs, names)...)
	if !it.Components.IsZero() {
		parts = append(parts, it.Components.String())
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// countedNames names ids, equal names counted, in order of first mention.
func countedNames(kind string, ids []string, names itemNames) []string {
	n := map[string]int{}
	var order []string
	for _, id := range ids {
		s := names[id]
		if s == "" {
			s = kind + " " + id
		}
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
	return order
}

func tradeText(tr trades.Trade, names itemNames, name func(string) string) string {
	for id, n := range tr.CardNames {
		if names[id] == "" {
			names[id] = n
		}
	}
	verb := "gives"
	if tr.Status == trades.TradeExecuted {
		verb = "gave"
	}
	s := fmt.Sprintf("Trade %s, %s: %s %s %s; %s %s %s.", tr.ID, tr.Status,
		name(tr.From), verb, itemsText(tr.Give, names), name(tr.To), verb, itemsText(tr.Take, names))
	if tr.Note != "" {
		s += fmt.Sprintf(" Note: %q.", tr.Note)
	}
	switch tr.Status {
	case trades.TradeOpen:
		s += fmt.Sprintf(" Open until %s for %s to accept (croupier play trade accept %s); either may withdraw it.",
			stamp(tr.ExpiresAt), name(tr.To), tr.ID)
	case trades.TradeExecuted:
		s += fmt.Sprintf(" Executed at %s: the items have changed hands.", stamp(tr.ClosedAt))
	case trades.TradeWithdrawn:
		s += fmt.Sprintf(" Withdrawn by %s at %s.", name(tr.ClosedBy), stamp(tr.ClosedAt))
	case trades.TradeExpired:
		s += fmt.Sprintf(" Expired at %s.", stamp(tr.ExpiresAt))
	}
	return s
}

func tradesText(g string, ts []trades.Trade, name func(string) string) string {
	if len(ts) == 0 {
		return fmt.Sprintf("%s has no such trades.", g)
	}
	var b strings.Builder
	rows := [][]string{{"TRADE", "STATUS", "FROM", "GIVES", "TO", "TAKES", "UNTIL"}}
	for _, tr := range ts {
		until := stamp(tr.ExpiresAt)
		if tr.Status != trades.TradeOpen && !tr.ClosedAt.IsZero() {
			until = stamp(tr.ClosedAt)
		}
		names := itemNames(tr.CardNames)
		if names == nil {
			names = itemNames{}
		}
		rows = append(rows, []string{tr.ID, tr.Status, name(tr.From), itemsText(tr.Give, names), name(tr.To), itemsText(tr.Take, names), until})
	}
	table(&b, rows)
	return strings.TrimRight(b.String(), "\n")
}

func grantText(g gildedhall.Grant, v gildedhall.GrantResult, name func(string) string) string {
	var parts []string
	if g.Vertebrae != 0 {
		parts = append(parts, signed(g.Vertebrae)+map[bool]string{true: " Vertebra", false: " Vertebrae"}[g.Vertebrae == 1 || g.Vertebrae == -1])
	}
	if g.Chips != 0 {
		parts = append(parts, signed(g.Chips)+map[bool]string{true: " Chip", false: " Chips"}[g.Chips == 1 || g.Chips == -1])
	}
	if len(v.Cards) > 0 {
		parts = append(parts, cardsText(v.Cards))
	}
	for _, p := range v.Packs {
		parts = append(parts, "pack "+p.ID+" ("+p.Kind+")")
	}
	s := fmt.Sprintf("Granted %s %s%s. %s now holds %s, %s.",
		name(v.Player), strings.Join(parts, ", "), because(v.Reason), name(v.Player), vertebrae(v.Vertebrae), plural(v.Chips, "Chip", "Chips"))
	if v.Won {
		s += fmt.Sprintf("\n%s holds %s and wins the game!", name(v.Player), plural(v.Chips, "Chip", "Chips"))
	}
	return s
}

func revokeText(v gildedhall.RevokeResult, name func(string) string) string {
	r := v.Revoked
	var parts []string
	if r.Vertebrae > 0 {
		parts = append(parts, vertebrae(r.Vertebrae))
	}
	if r.Chips > 0 {
		parts = append(parts, plural(r.Chips, "Chip", "Chips"))
	}
	if len(r.Cards) > 0 {
		parts = append(parts, cardsText(r.Cards))
	}
	for _, p := range r.Packs {
		parts = append(parts, "pack "+p.ID+" ("+p.Kind+")")
	}
	return fmt.Sprintf("Revoked from %s: %s%s.", name(v.Player), strings.Join(parts, ", "), because(v.Reason))
}

// amendText says what the amendment changed (its summary), or shows the
// patch of an amendment recorded without one when it is short.
func amendText(g string, v game.AmendResult) string {
	s := fmt.Sprintf("Amended the ruleset of %s (%s) to version %d%s", g, v.Ruleset, v.Version, because(v.Amendment.Reason))
	patch := strings.TrimSpace(string(v.Amendment.Patch))
	switch {
	case v.Amendment.Summary != "":
		return s + ": " + v.Amendment.Summary + "."
	case len(patch) <= 200:
		return s + ": " + patch
	}
	return s + fmt.Sprintf(" (a %d-byte patch; croupier play log shows it).", len(patch))
}

func rulesetText(g string, rs ruleset.Ruleset) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s plays %s version %d: %s.\n", g, rs.ID, rs.Version, rs.Name)
	if len(rs.Shop) > 0 {
		parts := make([]string, len(rs.Shop))
		for i, it := range rs.Shop {
			parts[i] = fmt.Sprintf("%s %s", it.ID, money(it.Price, it.Currency))
		}
		fmt.Fprintf(&b, "Prices: %s.\n", strings.Join(parts, ", "))
	}
	if len(rs.Packs) > 0 {
		parts := make([]string, len(rs.Packs))
		for i, p := range rs.Packs {
			parts[i] = fmt.Sprintf("%s %s", p.ID, plural(p.Size(), "card", "cards"))
			if p.HoloCards > 0 {
				parts[i] += fmt.Sprintf(" (%d always holo)", p.HoloCards)
			}
		}
		fmt.Fprintf(&b, "Packs: %s.\n", strings.Join(parts, ", "))
	}
	c := rs.Chances
	fmt.Fprintf(&b, "Holo chances: granted card %d%%, pack card %d%%, the Croupier's card %d%%.\n", c.HoloGranted, c.HoloPack, c.HoloCroupierCard)
	t := rs.Thresholds
	if t.WinChips > 0 {
		fmt.Fprintf(&b, "Victory at %d Chips. ", t.WinChips)
	}
	gf := t.Gift
	fmt.Fprintf(&b, "Gift: %s, +%d to an inactive player, +%d below %s; %d back to the giver.\n",
		plural(gf.Base, "card", "cards"), gf.InactiveBonus, gf.SmallDeckBonus, plural(gf.SmallDeckBelow, "card", "cards"), gf.ReturnToGiver)
	fmt.Fprintf(&b, "Trade window %s; rejoin wait %s.\n", game.Duration(rs.Durations.TradeWindow.Std()), game.Duration(rs.Durations.RejoinWait.Std()))
	b.WriteString("Every number: croupier play ruleset --json; change one: croupier play amend")
	return b.String()
}
