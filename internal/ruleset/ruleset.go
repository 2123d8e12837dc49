// Package ruleset holds the rule *numbers* of each ruleset a game can run:
// the card table, packs, Croupier prices, battle rewards, chances, thresholds
// and durations (RULINGS R1).
//
// They are data, not constants in code, because a nomic game changes its own
// rules: an adopted proposal may carry a change, path-level operations that
// Prepare checks and Apply applies each to its own path (RULINGS G3, R4). Each ruleset ships as an embedded JSON file, data/<id>.json,
// that is decoded strictly and validated whenever it is loaded or amended, so
// a broken file or a bad amendment is refused with an error naming the file,
// the field and what is wrong, never half-applied.
//
// The rules code (internal/rules/...) reads these numbers; it never hard-codes
// them.
package ruleset

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// Default is the ruleset a new game runs unless told otherwise (RULINGS R1).
const Default = "gilded-hall"

// Calendar kinds a ruleset may name; internal/rules/calendar implements them.
const (
	CalendarUTCPhases    = "utc-phases"    // RULINGS T1: UTC weeks, Phase I Mon-Thu, Phase II Fri-Sun
	CalendarChicagoTurns = "chicago-turns" // RULINGS T3: America/Chicago turns, Monday 22:00 to Saturday 22:00
)

// Ruleset is one ruleset's data. The zero value is not valid; obtain one with
// Load, Parse or Amend.
type Ruleset struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Version  int      `json:"version"`  // bumped by each Amend that does not set it itself
	Seeds    []string `json:"seeds"`    // seed file names (seeds/README.md) this ruleset implements
	Calendar string   `json:"calendar"` // CalendarUTCPhases or CalendarChicagoTurns

	// Cards is the card table of seed 000, in table order: 52 suit cards then
	// the Red and Black Jokers. Empty for rulesets without cards.
	Cards         []Card     `json:"cards,omitempty"`
	Packs         []Pack     `json:"packs,omitempty"`
	Shop          []ShopItem `json:"shop,omitempty"`          // the Croupier (RULINGS C6)
	BattleRewards []Reward   `json:"battleRewards,omitempty"` // one is chosen with equal odds (RULINGS X10)

	Trading    Trading    `json:"trading,omitzero"`
	Chances    Chances    `json:"chances,omitzero"`
	Thresholds Thresholds `json:"thresholds,omitzero"`
	Durations  Durations  `json:"durations,omitzero"`
	Turns      TurnsRules `json:"turns,omitzero"` // seed 003's numbers (turns.go)
}

// Card is one row of the card table. Players own copies of it (RULINGS C2).
type Card struct {
	Name   string   `json:"name"`
	Value  int      `json:"value,omitempty"` // 1..13; 0 for Jokers, which have a colour only (RULINGS C3)
	Suit   string   `json:"suit,omitempty"`  // Hearts, Diamonds, Spades, Clubs; "" for Jokers
	Colour string   `json:"colour"`          // Red or Black
	Types  []string `json:"types,omitempty"` // TypeSpecial or nothing
	Effect string   `json:"effect,omitempty"`
}

// Card type and effect names used in the card table.
const (
	TypeSpecial = "Special"

	EffectAce   = "ace"   // choose another participant, who draws 2 (RULINGS X5)
	EffectJack  = "jack"  // the next participant draws 1
	EffectQueen = "queen" // a chosen card leaves the match, its holder draws another
	EffectKing  = "king"  // two chosen participants draw 1 each
	EffectJoker = "joker" // plays on anything; only its colour may follow (RULINGS X3)
)

// Special reports whether the card has the Special type (A, J, Q, K and
// Jokers in seed 000), which restricts how it is played (RULINGS X3).
func (c Card) Special() bool { return slices.Contains(c.Types, TypeSpecial) }

// Joker reports whether the card is a Joker (no value, colour only).
func (c Card) Joker() bool { return c.Effect == EffectJoker }

// Pack is an unopened pack of random cards (RULINGS C5). Each of its Cards is
// holographic with Chances.HoloPack percent; its HoloCards are always
// holographic (the Legendary Pack's 2 extra cards, RULINGS C1).
type Pack struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Cards     int    `json:"cards"`
	HoloCards int    `json:"holoCards,omitempty"`
}

// Size is the number of cards opening the pack yields.
func (p Pack) Size() int { return p.Cards + p.HoloCards }

// Shop item kinds: what a purchase grants.
const (
	ItemRandomCard = "random-card" // Count random cards, each holographic with Chances.HoloCroupierCard percent
	ItemPack       = "pack"        // one unopened pack, Pack names it
	ItemChips      = "chips"       // Count Chips
)

// Currencies a price may be paid in.
const (
	CurrencyVertebrae = "vertebrae"
	CurrencyChips     = "chips"
)

// ShopItem is one thing the Croupier sells (RULINGS C6). A purchase is
// all-or-nothing: Price of Currency is revoked and the grant is made.
type ShopItem struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Price    int    `json:"price"`
	Currency string `json:"currency"`
	Kind     string `json:"kind"`            // ItemRandomCard, ItemPack or ItemChips
	Pack     string `json:"pack,omitempty"`  // Kind ItemPack: the pack id
	Count    int    `json:"count,omitempty"` // Kind ItemRandomCard or ItemChips: how many
}

// Reward kinds a battle winner may receive.
const (
	RewardCards     = "cards"     // Count random cards (holographic with Chances.HoloGranted percent)
	RewardVertebrae = "vertebrae" // uniform in Min..Max inclusive
	RewardChips     = "chips"     // Count Chips
)

// Reward is one entry of the battle reward list; the engine picks one entry
// with equal odds (RULINGS X10).
type Reward struct {
	Kind  string `json:"kind"`
	Count int    `json:"count,omitempty"`
	Min   int    `json:"min,omitempty"`
	Max   int    `json:"max,omitempty"`
}

// Trading says who may trade (seed 002 Trading).
type Trading struct {
	// ReputableOnly: only reputable players trade, with reputable players
	// (obelisk, seed 002). Gilded Hall's seed 000 lets any two players trade.
	ReputableOnly bool `json:"reputableOnly,omitempty"`
}

// Chances are percentages, 0..100.
type Chances struct {
	HoloGranted      int `json:"holoGranted"`      // a granted random card (gifts, rewards)
	HoloPack         int `json:"holoPack"`         // each random card of a pack
	HoloCroupierCard int `json:"holoCroupierCard"` // the Croupier's single Random Card
}

// Thresholds are the counts the rules compare against. Fields a ruleset does
// not use are zero.
type Thresholds struct {
	BattleMinCards int  `json:"battleMinCards,omitempty"` // deck size needed to engage in battle (000)
	HandMinCards   int  `json:"handMinCards,omitempty"`   // cards each participant selects at least (001)
	WinChips       int  `json:"winChips,omitempty"`       // Chips that win the cycle (RULINGS C7)
	Gift           Gift `json:"gift,omitzero"`            // RULINGS C4
	JoinEnergy     int  `json:"joinEnergy,omitempty"`     // obelisk: ⚡ gained on joining (002)

	// Governance holds the counts of the 000 governance (RULINGS R4).
	Governance Governance `json:"governance,omitzero"`
}

// Governance holds the counts the 000 governance rules state (RULINGS R4,
// G2, G4), so a proposal can amend them. Its fields have no omitempty: an
// urgent proposal may be amended to allow no votes against at all (0).
type Governance struct {
	// UrgentMaxAgainst: an urgent proposal is popular with at most this
	// many votes against (000 Urgent Class: "no more than two").
	UrgentMaxAgainst int `json:"urgentMaxAgainst"`
	// JudgeRemovalAssents: this many distinct players' assents remove the
	// Judge (000 Judgement: "the assent of two players").
	JudgeRemovalAssents int `json:"judgeRemovalAssents"`
}

// Gift holds the gifting numbers (RULINGS C4): the receiver gets Base random
// cards, InactiveBonus more if inactive, SmallDeckBonus more if they hold
// fewer than SmallDeckBelow cards before the gift; the giver gets
// ReturnToGiver if an inactive receiver then acts in that phase.
type Gift struct {
	Base           int `json:"base"`
	InactiveBonus  int `json:"inactiveBonus"`
	SmallDeckBonus int `json:"smallDeckBonus"`
	SmallDeckBelow int `json:"smallDeckBelow"`
	ReturnToGiver  int `json:"returnToGiver"`
}

// Durations are the rules' time spans. Fields a ruleset does not use are zero.
type Durations struct {
	TurnTimeout      Duration `json:"turnTimeout,omitzero"`      // Exoptosis turn skip (RULINGS X7)
	RejoinWait       Duration `json:"rejoinWait,omitzero"`       // no rejoining within this (RULINGS P1)
	TradeWindow      Duration `json:"tradeWindow,omitzero"`      // both consents within this (002 Trading)
	UrgentVoting     Duration `json:"urgentVoting,omitzero"`     // urgent proposal voting (RULINGS G2)
	ReputableTenure  Duration `json:"reputableTenure,omitzero"`  // continuous membership for reputable (RULINGS P4)
	ReputableGrace   Duration `json:"reputableGrace,omitzero"`   // ...or since within this of game start
	ConfidenceWindow Duration `json:"confidenceWindow,omitzero"` // a confidence vote can open within this of a ruling (G4)
	ConfidenceVote   Duration `json:"confidenceVote,omitzero"`   // how long it runs
	JudgeOverturn    Duration `json:"judgeOverturn,omitzero"`    // the Judge may overturn their ruling within this
}

// Duration is a time.Duration written in JSON as a Go duration string
// ("24h", "168h") so the data files stay readable and exact.
type Duration time.Duration

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// String formats d like time.Duration does.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON writes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Duration(d).String() + `"`), nil
}

// UnmarshalJSON reads a duration string such as "72h". Parse checks the
// same before decoding so that its error can name the field.
func (d *Duration) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return fmt.Errorf("want a duration string such as \"24h\", got %s", s)
	}
	v, err := time.ParseDuration(s[1 : len(s)-1])
	if err != nil {
		return fmt.Errorf("%s is not a duration (write hours, e.g. \"168h\" for 7 days)", s)
	}
	*d = Duration(v)
	return nil
}

//go:embed data/*.json
var files embed.FS

// IDs lists the ruleset ids that Load knows, sorted.
func IDs() []string {
	entries, err := fs.ReadDir(files, "data")
	if err != nil { // cannot happen: the directory is embedded
		return nil
	}
	var ids []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			ids = append(ids, name)
		}
	}
	slices.Sort(ids)
	return ids
}

// Load returns the embedded ruleset with the given id, decoded and validated.
// Every call returns a fresh copy, so callers may amend or modify it freely.
func Load(id string) (*Ruleset, error) {
	if !slices.Contains(IDs(), id) {
		return nil, fmt.Errorf("unknown ruleset %q (known: %s)", id, strings.Join(IDs(), ", "))
	}
	name := path.Join("data", id+".json")
	data, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("ruleset %q: %w", id, err)
	}
	r, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	if r.ID != id {
		return nil, &InvalidError{File: name, Problems: []Problem{{Field: "id", Message: fmt.Sprintf("is %q but the file is named for %q", r.ID, id)}}}
	}
	return r, nil
}

// Card returns the card table row with the given name.
func (r *Ruleset) Card(name string) (Card, bool) {
	for _, c := range r.Cards {
		if c.Name == name {
			return c, true
		}
	}
	return Card{}, false
}

// ShopItem returns the Croupier item with the given id.
func (r *Ruleset) ShopItem(id string) (ShopItem, bool) {
	for _, it := range r.Shop {
		if it.ID == id {
			return it, true
		}
	}
	return ShopItem{}, false
}

// Pack returns the pack with the given id.
func (r *Ruleset) Pack(id string) (Pack, bool) {
	for _, p := range r.Packs {
		if p.ID == id {
			return p, true
		}
	}
	return Pack{}, false
}

// CardSlug is the URL form of a card name: lower case, words joined by "-"
// ("7 of Hearts" -> "7-of-hearts", "Red Joker" -> "red-joker"): the
// name of its image (internal/cardart) and its pages. It lives with the card
// table so that what links to a card need not link the image renderer.
func CardSlug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}
