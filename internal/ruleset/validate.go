package ruleset

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

var (
	idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	suits     = []string{"Hearts", "Diamonds", "Spades", "Clubs"}
	ranks     = []string{"Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"}
	colours   = []string{"Red", "Black"}
	effects   = []string{"", EffectAce, EffectJack, EffectQueen, EffectKing, EffectJoker}
	jokers    = []string{"Red Joker", "Black Joker"}
)

// tableSize is the size of seed 000's card table: 52 suit cards and two
// Jokers. Random cards are drawn uniformly from it (RULINGS C1).
const tableSize = 52 + 2

// Validate checks the ruleset's values and cross-references and returns an
// *InvalidError listing every problem, or nil.
//
// Which fields are required follows what the ruleset uses: a ruleset with a
// card table needs the card game's thresholds and durations; a UTC-phase
// ruleset needs the general durations of seed 002; a Chicago-turns ruleset
// needs seed 003's Judge durations. A zero duration or threshold means
// "not used"; a negative one is always wrong.
func (r *Ruleset) Validate() error {
	if r == nil {
		v := &validator{name: "(nil)"}
		v.add("", "ruleset is missing")
		return v.err()
	}
	v := &validator{name: strconv.Quote(r.ID)}
	if !idPattern.MatchString(r.ID) {
		v.add("id", "%q must be lower-case letters, digits and single dashes", r.ID)
	}
	if r.Name == "" {
		v.add("name", "must not be empty")
	}
	if r.Version < 1 {
		v.add("version", "must be at least 1, got %d", r.Version)
	}
	if len(r.Seeds) == 0 {
		v.add("seeds", "must name at least one seed file")
	}
	for i, s := range r.Seeds {
		if s == "" {
			v.add(fmt.Sprintf("seeds[%d]", i), "must not be empty")
		} else if slices.Index(r.Seeds, s) < i {
			v.add(fmt.Sprintf("seeds[%d]", i), "%q is listed twice", s)
		}
	}
	if r.Calendar != CalendarUTCPhases && r.Calendar != CalendarChicagoTurns {
		v.add("calendar", "%q is not a calendar (want %q or %q)", r.Calendar, CalendarUTCPhases, CalendarChicagoTurns)
	}
	r.validateCards(v)
	r.validatePacks(v)
	r.validateShop(v)
	r.validateRewards(v)
	r.validateNumbers(v)
	r.validateTurns(v)
	r.validateObelisk(v)
	return v.err()
}

// validator collects problems; name is what the error calls the ruleset
// until Parse or Amend replaces it with the file or amendment.
type validator struct {
	name     string
	problems []Problem
}

func (v *validator) add(field, format string, args ...any) {
	v.problems = append(v.problems, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) err() error {
	if len(v.problems) == 0 {
		return nil
	}
	return &InvalidError{File: v.name, Problems: v.problems}
}

func (r *Ruleset) validateCards(v *validator) {
	if len(r.Cards) == 0 {
		return
	}
	seen := map[string]int{}
	for i, c := range r.Cards {
		at := fmt.Sprintf("cards[%d]", i)
		if c.Name == "" {
			v.add(at+".name", "must not be empty")
			continue
		}
		at += fmt.Sprintf(" (%s)", c.Name)
		if j, dup := seen[c.Name]; dup {
			v.add(at+".name", "duplicate of cards[%d]", j)
			continue
		}
		seen[c.Name] = i
		if !slices.Contains(colours, c.Colour) {
			v.add(at+".colour", "%q is not a colour (want Red or Black)", c.Colour)
		}
		for k, t := range c.Types {
			if t != TypeSpecial {
				v.add(fmt.Sprintf("%s.types[%d]", at, k), "%q is not a card type (want %q)", t, TypeSpecial)
			} else if slices.Index(c.Types, t) < k {
				v.add(fmt.Sprintf("%s.types[%d]", at, k), "%q is listed twice", t)
			}
		}
		if !slices.Contains(effects, c.Effect) {
			v.add(at+".effect", "%q is not an effect (want one of ace, jack, queen, king, joker or none)", c.Effect)
		}
		if slices.Contains(jokers, c.Name) {
			if c.Effect != EffectJoker {
				v.add(at+".effect", "a Joker must have effect %q", EffectJoker)
			}
			if c.Value != 0 || c.Suit != "" {
				v.add(at, "a Joker has a colour only: no value and no suit (RULINGS C3)")
			}
			continue
		}
		if c.Effect == EffectJoker {
			v.add(at+".effect", "only the Red and Black Jokers have the joker effect")
		}
		if c.Value < 1 || c.Value > 13 {
			v.add(at+".value", "%d is out of range 1..13", c.Value)
		}
		if !slices.Contains(suits, c.Suit) {
			v.add(at+".suit", "%q is not a suit (want Hearts, Diamonds, Spades or Clubs)", c.Suit)
		} else if want := " of " + c.Suit; len(c.Name) < len(want) || c.Name[len(c.Name)-len(want):] != want {
			v.add(at+".suit", "is %s but the name says otherwise", c.Suit)
		}
	}
	var missing []string
	for _, s := range suits {
		for _, rk := range ranks {
			if _, ok := seen[rk+" of "+s]; !ok {
				missing = append(missing, strconv.Quote(rk+" of "+s))
			}
		}
	}
	for _, j := range jokers {
		if _, ok := seen[j]; !ok {
			missing = append(missing, strconv.Quote(j))
		}
	}
	if len(r.Cards) != tableSize || len(missing) > 0 {
		msg := fmt.Sprintf("the card table must hold exactly the %d cards of seed 000 (52 suit cards, Red Joker, Black Joker), got %d", tableSize, len(r.Cards))
		if len(missing) > 0 {
			msg += "; missing " + joinList(missing)
		}
		v.add("cards", "%s", msg)
	}
}

func joinList(xs []string) string {
	if len(xs) > 5 {
		return fmt.Sprintf("%s and %d more", joinList(xs[:5]), len(xs)-5)
	}
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

// listID checks the id of the list entry at: the id pattern, then that no
// earlier entry has it (seenBefore).
func (v *validator) listID(at, what, id string, seenBefore bool) {
	if !idPattern.MatchString(id) {
		v.add(at+".id", "%q must be lower-case letters, digits and single dashes", id)
	} else if seenBefore {
		v.add(at+".id", "duplicate %s id %q", what, id)
	}
}

func (r *Ruleset) validatePacks(v *validator) {
	for i, p := range r.Packs {
		at := fmt.Sprintf("packs[%d]", i)
		v.listID(at, "pack", p.ID, slices.IndexFunc(r.Packs, func(q Pack) bool { return q.ID == p.ID }) < i)
		if p.Name == "" {
			v.add(at+".name", "must not be empty")
		}
		if p.Cards < 0 {
			v.add(at+".cards", "must not be negative, got %d", p.Cards)
		}
		if p.HoloCards < 0 {
			v.add(at+".holoCards", "must not be negative, got %d", p.HoloCards)
		}
		if p.Size() <= 0 {
			v.add(at, "a pack must hold at least one card")
		}
		if len(r.Cards) == 0 {
			v.add(at, "packs need a card table, and this ruleset has none")
		}
	}
}

func (r *Ruleset) validateShop(v *validator) {
	for i, it := range r.Shop {
		at := fmt.Sprintf("shop[%d]", i)
		v.listID(at, "shop item", it.ID, slices.IndexFunc(r.Shop, func(o ShopItem) bool { return o.ID == it.ID }) < i)
		if it.Name == "" {
			v.add(at+".name", "must not be empty")
		}
		if it.Price <= 0 {
			v.add(at+".price", "must be greater than 0, got %d", it.Price)
		}
		if it.Currency != CurrencyVertebrae && it.Currency != CurrencyChips {
			v.add(at+".currency", "%q is not a currency (want %q or %q)", it.Currency, CurrencyVertebrae, CurrencyChips)
		}
		switch it.Kind {
		case ItemRandomCard, ItemChips:
			if it.Count <= 0 {
				v.add(at+".count", "must be greater than 0 for kind %q, got %d", it.Kind, it.Count)
			}
			if it.Pack != "" {
				v.add(at+".pack", "only kind %q names a pack", ItemPack)
			}
			if it.Kind == ItemRandomCard && len(r.Cards) == 0 {
				v.add(at+".kind", "random cards need a card table, and this ruleset has none")
			}
		case ItemPack:
			if _, ok := r.Pack(it.Pack); !ok {
				v.add(at+".pack", "%q is not one of this ruleset's packs", it.Pack)
			}
			if it.Count != 0 {
				v.add(at+".count", "a pack item grants one pack; leave count out")
			}
		default:
			v.add(at+".kind", "%q is not a shop item kind (want %q, %q or %q)", it.Kind, ItemRandomCard, ItemPack, ItemChips)
		}
	}
}

func (r *Ruleset) validateRewards(v *validator) {
	for i, rw := range r.BattleRewards {
		at := fmt.Sprintf("battleRewards[%d]", i)
		switch rw.Kind {
		case RewardCards, RewardChips:
			if rw.Count <= 0 {
				v.add(at+".count", "must be greater than 0 for kind %q, got %d", rw.Kind, rw.Count)
			}
			if rw.Min != 0 || rw.Max != 0 {
				v.add(at, "kind %q takes count, not min/max", rw.Kind)
			}
			if rw.Kind == RewardCards && len(r.Cards) == 0 {
				v.add(at+".kind", "card rewards need a card table, and this ruleset has none")
			}
		case RewardVertebrae:
			if rw.Min < 0 || rw.Max <= 0 || rw.Min > rw.Max {
				v.add(at, "want 0 <= min <= max and max > 0, got min %d max %d", rw.Min, rw.Max)
			}
			if rw.Count != 0 {
				v.add(at+".count", "kind %q takes min/max, not count", rw.Kind)
			}
		default:
			v.add(at+".kind", "%q is not a reward kind (want %q, %q or %q)", rw.Kind, RewardCards, RewardVertebrae, RewardChips)
		}
	}
}

func (r *Ruleset) validateNumbers(v *validator) {
	hasCards := len(r.Cards) > 0
	for _, c := range []struct {
		field string
		pct   int
	}{
		{"chances.holoGranted", r.Chances.HoloGranted},
		{"chances.holoPack", r.Chances.HoloPack},
		{"chances.holoCroupierCard", r.Chances.HoloCroupierCard},
	} {
		if c.pct < 0 || c.pct > 100 {
			v.add(c.field, "%d is not a percentage (0..100)", c.pct)
		}
	}

	t := r.Thresholds
	for _, n := range []struct {
		field    string
		value    int
		required bool
	}{
		{"thresholds.battleMinCards", t.BattleMinCards, hasCards},
		{"thresholds.handMinCards", t.HandMinCards, hasCards},
		{"thresholds.winChips", t.WinChips, hasCards},
		{"thresholds.gift.base", t.Gift.Base, hasCards},
		{"thresholds.gift.inactiveBonus", t.Gift.InactiveBonus, false},
		{"thresholds.gift.smallDeckBonus", t.Gift.SmallDeckBonus, false},
		{"thresholds.gift.smallDeckBelow", t.Gift.SmallDeckBelow, false},
		{"thresholds.gift.returnToGiver", t.Gift.ReturnToGiver, false},
		{"thresholds.joinEnergy", t.JoinEnergy, false},
	} {
		switch {
		case n.value < 0:
			v.add(n.field, "must not be negative, got %d", n.value)
		case n.value == 0 && n.required:
			v.add(n.field, "must be greater than 0 for this ruleset")
		}
	}

	// The 000 governance runs under the UTC-phase calendar (gilded-hall and
	// obelisk, RULINGS R3); turns has its own judicial system.
	if g := t.Governance; r.Calendar == CalendarUTCPhases || g != (Governance{}) {
		if g.UrgentMaxAgainst < 0 {
			v.add("thresholds.governance.urgentMaxAgainst", "must not be negative, got %d", g.UrgentMaxAgainst)
		}
		if g.JudgeRemovalAssents < 1 {
			v.add("thresholds.governance.judgeRemovalAssents", "must be at least 1 (missing or zero), got %d", g.JudgeRemovalAssents)
		}
	}

	d := r.Durations
	phases := r.Calendar == CalendarUTCPhases
	for _, n := range []struct {
		field    string
		value    Duration
		required bool
	}{
		{"durations.turnTimeout", d.TurnTimeout, hasCards},
		{"durations.rejoinWait", d.RejoinWait, phases},
		{"durations.tradeWindow", d.TradeWindow, phases},
		{"durations.urgentVoting", d.UrgentVoting, hasCards},
		{"durations.reputableTenure", d.ReputableTenure, phases},
		{"durations.reputableGrace", d.ReputableGrace, phases},
		{"durations.confidenceWindow", d.ConfidenceWindow, hasCards},
		{"durations.confidenceVote", d.ConfidenceVote, hasCards},
		{"durations.judgeOverturn", d.JudgeOverturn, hasCards},
	} {
		switch {
		case n.value < 0:
			v.add(n.field, "must be greater than 0, got %s", n.value)
		case n.value == 0 && n.required:
			v.add(n.field, "must be greater than 0 for this ruleset (missing or zero)")
		}
	}
}
