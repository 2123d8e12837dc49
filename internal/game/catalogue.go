package game

import (
	"fmt"
	"slices"
	"strings"

	"croupier/internal/rules"
)

// The command catalogue: every command the service runs and every view that
// belongs to an institution, declared once, as values, with the flags the
// engine and the edges read, and which rulesets have it (RULINGS R3). It is
// the first step of the module contract (docs/architecture.md): today the
// engine still holds every ruleset's code, and the catalogue decides which
// of it a game may reach.
//
// Which ruleset has what is code, not ruleset data: ruleset data holds the
// numbers a proposal may amend (RULINGS R1), whereas the institutions a
// ruleset has are the shape of its module (an amendment cannot give the
// Obelisk a card table to gift from), and a game's ruleset never changes,
// so the answer for a game is fixed by the ruleset id in its META.

// Institutions: the groups of commands, views, due kinds and hooks a
// ruleset has or lacks as a whole.
const (
	// InstCommon is common to every ruleset (R3: joining, leaving, dice
	// rolls, the log and randomness) and the engine's own platform
	// commands (create, bind, amend, reaction and message pushes).
	InstCommon = "common"
	// InstCards is Gilded Hall's economy: Vertebrae, Chips, cards, packs,
	// the Croupier, gifts, and the admin grants and revocations of them.
	InstCards = "cards"
	// InstExoptosis is seed 001: duels, battles and their matches.
	InstExoptosis = "exoptosis"
	// InstTrades is the trading institution (who may trade is ruleset data).
	InstTrades = "trades"
	// InstGovernance is seed 000's governance: proposals, reaction votes,
	// the Judge, requests for justice, confidence votes, Judge elections.
	InstGovernance = "governance"
)

// Command is one command of the catalogue.
type Command struct {
	// Name is the command's name in the log (Entry.Command).
	Name string
	// Institution is the institution it belongs to (Inst*).
	Institution string
	// Action: an accepted command by a player is an action (RULINGS P2).
	Action bool
	// Draws: it may draw from the period's seed (RULINGS N2).
	Draws bool
	// Admin: only the game's admins may run it.
	Admin bool
	// AfterEnd: it is accepted after the game has ended (RULINGS C7).
	AfterEnd bool
	// Scheduled: only the scheduler runs it; it is not a player's command.
	Scheduled bool
	// Platform: a chat platform's or the bridge's report (reactions, edits),
	// not a player's command.
	Platform bool
	// What names the thing, in the plural, for a refusal ("gifts").
	What string
}

// View is a read-only query that belongs to an institution.
type View struct {
	Name        string
	Institution string
	What        string
}

// catalogue lists every command the service runs or the scheduler logs
// (Service.run refuses any other). Its order is the order refusals list
// commands in.
var catalogue = slices.Concat([]Command{
	{Name: "create", Institution: InstCommon, What: "game creation"},
	{Name: "join", Institution: InstCommon, Action: true, What: "joining"},
	{Name: "leave", Institution: InstCommon, AfterEnd: true, What: "leaving"},
	{Name: "roll", Institution: InstCommon, Draws: true, What: "dice rolls"},
	{Name: "bind", Institution: InstCommon, Admin: true, What: "chat bindings"},
	{Name: "amend", Institution: InstCommon, Admin: true, What: "ruleset amendments"},
	{Name: "push-reactions", Institution: InstCommon, AfterEnd: true, Platform: true, What: "reaction reports"},
	{Name: "push-message-event", Institution: InstCommon, AfterEnd: true, Platform: true, What: "message edit reports"},
	{Name: "period-end", Institution: InstCommon, AfterEnd: true, Scheduled: true, What: "period ends"},

	{Name: "purchase", Institution: InstCards, Action: true, Draws: true, What: "purchases from the Croupier"},
	{Name: "open", Institution: InstCards, Action: true, Draws: true, What: "packs"},
	{Name: "gift", Institution: InstCards, Action: true, Draws: true, What: "gifts"},
	{Name: "grant", Institution: InstCards, Admin: true, Draws: true, What: "grants of Vertebrae, Chips, cards or packs"},
	{Name: "revoke", Institution: InstCards, Admin: true, What: "revocations of Vertebrae, Chips, cards or packs"},

	{Name: "duel-request", Institution: InstExoptosis, Action: true, What: "duels"},
	{Name: "duel-accept", Institution: InstExoptosis, Action: true, What: "duels"},
	{Name: "duel-decline", Institution: InstExoptosis, Action: true, What: "duels"},
	{Name: "battle-engage", Institution: InstExoptosis, Action: true, What: "battles"},
	{Name: "match-timeout", Institution: InstExoptosis, Draws: true, AfterEnd: true, Scheduled: true, What: "Exoptosis matches"},
}, matchMoveCommands(), []Command{
	{Name: "trade-offer", Institution: InstTrades, Action: true, What: "trades"},
	{Name: "trade-accept", Institution: InstTrades, Action: true, What: "trades"},
	{Name: "trade-withdraw", Institution: InstTrades, Action: true, What: "trades"},
	{Name: "trade-expire", Institution: InstTrades, Scheduled: true, What: "trades"},

	{Name: "proposal-submit", Institution: InstGovernance, What: "proposals"},
	{Name: "proposal-withdraw", Institution: InstGovernance, What: "proposals"},
	{Name: "justice-request", Institution: InstGovernance, What: "requests for justice"},
	{Name: "ruling", Institution: InstGovernance, What: "rulings"},
	{Name: "ruling-overturn", Institution: InstGovernance, What: "rulings"},
	{Name: "confidence-open", Institution: InstGovernance, What: "votes of confidence"},
	{Name: "judge-removal-assent", Institution: InstGovernance, What: "a Judge"},
	{Name: "judge-resign", Institution: InstGovernance, What: "a Judge"},
	{Name: "judge-candidacy", Institution: InstGovernance, What: "Judge elections"},
	{Name: "proposal-tally", Institution: InstGovernance, AfterEnd: true, Scheduled: true, What: "proposals"},
	{Name: "confidence-tally", Institution: InstGovernance, AfterEnd: true, Scheduled: true, What: "votes of confidence"},
	{Name: "judge-election", Institution: InstGovernance, AfterEnd: true, Scheduled: true, What: "Judge elections"},
})

// matchMoveCommands are the moves of a match, one command each ("match-play").
func matchMoveCommands() []Command {
	out := make([]Command, 0, len(moveKinds))
	for _, k := range moveKinds {
		out = append(out, Command{Name: "match-" + k, Institution: InstExoptosis, Action: true, Draws: true, What: "Exoptosis matches"})
	}
	return out
}

// The read-only queries that belong to an institution; the common ones
// (the game, players, log, seeds, audit, activity, ruleset) every ruleset has.
var (
	viewShop      = View{Name: "shop", Institution: InstCards, What: "shop (the Croupier sells nothing)"}
	viewMatches   = View{Name: "matches", Institution: InstExoptosis, What: "Exoptosis matches"}
	viewTrades    = View{Name: "trades", Institution: InstTrades, What: "trades"}
	viewProposals = View{Name: "proposals", Institution: InstGovernance, What: "proposals"}
	viewJudge     = View{Name: "judge", Institution: InstGovernance, What: "Judge"}
	viewJustice   = View{Name: "justice", Institution: InstGovernance, What: "requests for justice"}
	viewRulings   = View{Name: "rulings", Institution: InstGovernance, What: "rulings"}
	viewElections = View{Name: "elections", Institution: InstGovernance, What: "Judge elections"}
)

// views lists the institution views.
var views = []View{viewShop, viewMatches, viewTrades, viewProposals, viewJudge, viewJustice, viewRulings, viewElections}

// RulesetShape is what one ruleset has (RULINGS R3).
type RulesetShape struct {
	// Title names the ruleset in a sentence ("The Obelisk game").
	Title string
	// Institutions it has, InstCommon always among them.
	Institutions []string
	// Seasons: its week ends advance the season (RULINGS T2; seasons are
	// seed 002's, which seed 003 does not have).
	Seasons bool
}

// shapes is every ruleset's shape, by ruleset id. Until the Obelisk and
// Turns modules land, obelisk and turns have the common commands and the
// institutions their rulings give them (R3): obelisk the 000 governance
// and trades between reputable players, turns nothing more.
var shapes = map[string]RulesetShape{
	"gilded-hall": {Title: "Gilded Hall", Seasons: true,
		Institutions: []string{InstCommon, InstCards, InstExoptosis, InstTrades, InstGovernance}},
	"obelisk": {Title: "Obelisk", Seasons: true,
		Institutions: []string{InstCommon, InstTrades, InstGovernance}},
	"turns": {Title: "turns", Institutions: []string{InstCommon}},
}

// Catalogue returns every command of the catalogue, in order.
func Catalogue() []Command { return slices.Clone(catalogue) }

// Views returns the institution views of the catalogue.
func Views() []View { return slices.Clone(views) }

// CommandNamed returns the catalogue's command name.
func CommandNamed(name string) (Command, bool) {
	i := slices.IndexFunc(catalogue, func(c Command) bool { return c.Name == name })
	if i < 0 {
		return Command{}, false
	}
	return catalogue[i], true
}

// Shape returns what ruleset id has.
func Shape(id string) (RulesetShape, bool) {
	s, ok := shapes[id]
	return s, ok
}

// RulesetHas reports whether ruleset id has institution inst.
func RulesetHas(id, inst string) bool {
	s, ok := shapes[id]
	return ok && slices.Contains(s.Institutions, inst)
}

// CommandsOf returns the names of the player and admin commands ruleset id
// has, in catalogue order (no scheduler or platform commands, nor create).
func CommandsOf(id string) []string {
	var out []string
	for _, c := range catalogue {
		if c.Scheduled || c.Platform || c.Name == "create" || !RulesetHas(id, c.Institution) {
			continue
		}
		out = append(out, c.Name)
	}
	return out
}

// notInRuleset is the refusal of a command or view the game's ruleset does
// not have (RULINGS R3).
func notInRuleset(game, rulesetID, name, what string) *rules.Error {
	title := rulesetID
	if s, ok := shapes[rulesetID]; ok {
		title = s.Title
	}
	has := CommandsOf(rulesetID)
	return rules.Refuse("not_in_ruleset", "The %s game %q has no %s. Its commands are: %s.", title, game, what, strings.Join(has, ", ")).
		With("ruleset", rulesetID).With("command", name).With("commands", has)
}

// allowCommand refuses c unless the game's ruleset has it.
func allowCommand(game, rulesetID string, c Command) error {
	return allow(game, rulesetID, c.Institution, c.Name, c.What)
}

// allowView refuses v unless the game's ruleset has it.
func allowView(game, rulesetID string, v View) error {
	return allow(game, rulesetID, v.Institution, v.Name, v.What)
}

func allow(game, rulesetID, inst, name, what string) error {
	if _, ok := shapes[rulesetID]; !ok {
		return fmt.Errorf("game %s: ruleset %q has no shape in the catalogue", game, rulesetID)
	}
	if !RulesetHas(rulesetID, inst) {
		return notInRuleset(game, rulesetID, name, what)
	}
	return nil
}
