package game

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
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

// Institutions the engine holds: the common one every ruleset has, and the
// 000 governance, a component the modules that have it include. A module's
// own institutions are named in the module.
const (
	// InstCommon is common to every ruleset (R3: joining, leaving, dice
	// rolls, the log and randomness) and the engine's own platform
	// commands (create, bind, amend, reaction and message pushes).
	InstCommon = "common"
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
	// Summary says in one line what it does, for a person choosing a
	// command: an edge with no hand-written text for it (the CLI's help,
	// a chat command's description) shows it.
	Summary string
	// Call is how an edge runs the command by name with a JSON payload
	// (POST /v1/games/{game}/commands/{name}). It is nil for the commands
	// no edge calls by name: the scheduler's, create (the game it makes is
	// not there yet to be named) and bind (only a chat platform may ask for
	// it: it proves who administers the server being bound).
	Call *Call
	// Answer, for a command whose response is LoggedAs, rebuilds the whole
	// response from its log entry and the game's items: the answer to a
	// repeat (Service.AnswerOf). Nil: the entry holds the response whole.
	Answer func(ctx context.Context, s *Service, game string, e *Entry) (json.RawMessage, error)
	// Says is how its answer reads to a person: sentences over the decoded
	// result, with display names (answer.go). Every edge shows it
	// (Registry.Says), as every edge shows a log event's narration.
	Says func(a Answer) string

	// What every edge asks a person for and shows them
	// (catalogue_args.go): the arguments, the slash command's path in chat
	// (Chat: "turns propose"; empty, its Name), a longer Help than the
	// Summary, and whether its answer is for the caller alone (Private).
	Args    []Arg
	Chat    string
	Help    string
	Private bool
}

// View is a read-only query that belongs to an institution.
type View struct {
	Name        string
	Institution string
	What        string
}

// commonComponent is what every ruleset has. It is a function, not a
// variable, because its calls name the service's methods and those read the
// catalogue: a variable would be an initialisation cycle.
func commonComponent() Component {
	return Component{Name: InstCommon, Due: []DueWork{periodWork, checkpointWork}, Events: commonEvents(), Commands: []Command{
		{Name: "create", Institution: InstCommon, What: "game creation"},
		{Name: "join", Institution: InstCommon, Action: true, What: "joining", Summary: "Join the game", Call: call(commands.Join, optional), Says: saysJoin,
			Args: []Arg{{Name: "name", Type: FieldString, Positional: true, Description: "Your display name in the game (default: your name on the platform)"}}},
		{Name: "leave", Institution: InstCommon, AfterEnd: true, What: "leaving", Summary: "Leave the game (your items are destroyed)", Call: bare(commands.Leave), Says: saysLeave},
		{Name: "roll", Institution: InstCommon, Draws: true, What: "dice rolls", Summary: "Roll dice, logged and verifiable (e.g. 2d6)", Call: call(commands.Roll), Says: saysRoll,
			Args: []Arg{{Name: "dice", Type: FieldString, Required: true, Positional: true, Description: "NdK: N dice of K sides, e.g. 2d6"},
				{Name: "reason", Type: FieldString, Description: "Why (shown in the log)"}}},
		{Name: "bind", Institution: InstCommon, Admin: true, What: "chat bindings"},
		{Name: "amend", Institution: InstCommon, Admin: true, What: "ruleset amendments", Summary: "Amend the game's ruleset numbers (admins)", Call: call(commands.Amend), Says: saysAmend,
			Help: "A logged correction of the ruleset's numbers (RULINGS R4): a JSON Patch of its paths, or a merge patch, with the reason.",
			Args: []Arg{{Name: "patch", Type: FieldJSON, Required: true, Description: `The change: [{"op":"replace","path":"/turns/winPoints","value":150}]`},
				{Name: "reason", Type: FieldString, Required: true, Description: "Why, for the log"}}},
		{Name: "push-reactions", Institution: InstCommon, AfterEnd: true, Platform: true, What: "reaction reports", Summary: "Push a message's reactions (chat platforms, bridges)", Call: call(commands.PushReactions), Says: saysPushed,
			Args: []Arg{{Name: "message", Type: FieldJSON, Required: true, NotInChat: true, Description: "The message: {platform, channel, message}"},
				{Name: "op", Type: FieldString, Description: "set (the default: up and down are every reactor now), add or remove", Choices: []Choice{{Label: "set", Value: "set"}, {Label: "add", Value: "add"}, {Label: "remove", Value: "remove"}}},
				{Name: "up", Type: FieldStrings, Description: "The 👍 reactors, by platform identity"},
				{Name: "down", Type: FieldStrings, Description: "The 👎 reactors, by platform identity"}}},
		{Name: "push-message-event", Institution: InstCommon, AfterEnd: true, Platform: true, What: "message edit reports", Summary: "Push a message's edit or deletion (chat platforms, bridges)", Call: call(commands.PushMessageEvent), Says: saysPushed,
			Args: []Arg{{Name: "message", Type: FieldJSON, Required: true, NotInChat: true, Description: "The message: {platform, channel, message}"},
				{Name: "event", Type: FieldString, Required: true, Description: "edited or deleted", Choices: []Choice{{Label: "edited", Value: "edited"}, {Label: "deleted", Value: "deleted"}}}}},
		{Name: "period-end", Institution: InstCommon, AfterEnd: true, Scheduled: true, What: "period ends"},
		{Name: "checkpoint", Institution: InstCommon, AfterEnd: true, Scheduled: true, What: "checkpoints"},
	}}
}

// argMessage is a governance command's chat message: what the platform
// gives (the message a command is used on), not what a person types.
func argMessage(what string) Arg {
	return Arg{Name: "message", Type: FieldJSON, Required: true, NotInChat: true, Description: what + ": {platform, channel, message}"}
}

// The governance views.
var (
	viewProposals = View{Name: "proposals", Institution: InstGovernance, What: "proposals"}
	viewJudge     = View{Name: "judge", Institution: InstGovernance, What: "Judge"}
	viewJustice   = View{Name: "justice", Institution: InstGovernance, What: "requests for justice"}
	viewRulings   = View{Name: "rulings", Institution: InstGovernance, What: "rulings"}
	viewElections = View{Name: "elections", Institution: InstGovernance, What: "Judge elections"}
)

// Governance is seed 000's governance as a component: proposals and their
// reaction votes, the Judge and requests for justice, votes of confidence
// and Judge elections, with their timers and the tally before a period
// ends. Its numbers are the game's ruleset data (thresholds.governance).
func Governance() Component {
	return Component{Name: InstGovernance,
		Commands: []Command{
			{Name: "proposal-submit", Institution: InstGovernance, What: "proposals", Summary: "Submit a proposal", Call: call(commands.SubmitProposal, creates), Says: saysProposal,
				Help: "The proposal is the chat message; its 👍/👎 reactions when voting ends are the votes (RULINGS G2). A standard one is voted on through the whole next phase, an urgent one (reputable players) for 48 hours.",
				Args: []Arg{argMessage("The chat message that is the proposal, whose reactions are its votes"),
					{Name: "class", Type: FieldString, Description: "standard (the default) or urgent", Choices: []Choice{{Label: "standard", Value: "standard"}, {Label: "urgent", Value: "urgent"}}},
					{Name: "title", Type: FieldString, Description: "Its title, for announcements"},
					{Name: "text", Type: FieldString, Description: "Its text, for announcements"},
					{Name: "amendment", Type: FieldJSON, Description: `What adoption changes in the ruleset's numbers: [{"op":"replace","path":"/shop/random-card/price","value":2}]`},
					{Name: "kind", Type: FieldString, Description: "A kind of proposal the ruleset adds (the Obelisk's banishment)"},
					{Name: "params", Type: FieldJSON, Description: `The kind's parameters: {"player":"Cy","duration":"72h"}`},
				}},
			{Name: "proposal-withdraw", Institution: InstGovernance, What: "proposals", Summary: "Withdraw a proposal", Call: ByID[ProposalRef](commands.WithdrawProposal), Says: saysProposal,
				Args: []Arg{{Name: "proposal", Type: FieldString, Required: true, Positional: true, Description: "Your open proposal, by id"}}},
			{Name: "justice-request", Institution: InstGovernance, What: "requests for justice", Summary: "Request justice", Call: call(commands.RequestJustice, creates), Says: saysJustice,
				Help: "A statement the Judge rules TRUE or FALSE, or a question the Judge answers (RULINGS G4); the ruling may be overturned by a vote of confidence.",
				Args: []Arg{{Name: "kind", Type: FieldString, Required: true, Positional: true, Description: "statement or question", Choices: []Choice{{Label: "statement", Value: "statement"}, {Label: "question", Value: "question"}}},
					{Name: "text", Type: FieldString, Required: true, Positional: true, Description: "The statement or the question"},
					argMessage("The chat message the request was made in"),
					{Name: "at", Type: FieldString, Description: "The disputed moment: a time (RFC 3339) or a log entry's id; by default now. The Judge considers the rules in effect then"}}},
			{Name: "ruling", Institution: InstGovernance, What: "rulings", Summary: "Rule on a request (the Judge)", Call: call(commands.Rule, creates), Says: saysRuling,
				Args: []Arg{{Name: "request", Type: FieldString, Required: true, Positional: true, Description: "The request for justice, by id"},
					{Name: "answer", Type: FieldString, Required: true, Positional: true, Description: "Your ruling: TRUE or FALSE for a statement, an answer for a question"}}},
			{Name: "ruling-overturn", Institution: InstGovernance, What: "rulings", Summary: "Overturn your ruling", Call: ByID[RulingRef](commands.Overturn), Says: saysRuling,
				Args: []Arg{{Name: "ruling", Type: FieldString, Required: true, Positional: true, Description: "Your ruling, by id"}}},
			{Name: "confidence-open", Institution: InstGovernance, What: "votes of confidence", Summary: "Open a vote of confidence", Call: call(commands.OpenConfidence, creates), Says: saysRuling,
				Args: []Arg{{Name: "ruling", Type: FieldString, Required: true, Positional: true, Description: "The ruling the vote is about, by id"},
					{Name: "poll", Type: FieldJSON, Required: true, NotInChat: true, Description: "The chat message whose 👍/👎 reactions are the vote: {platform, channel, message}"}}},
			{Name: "judge-removal-assent", Institution: InstGovernance, What: "a Judge", Summary: "Assent to removing the Judge", Call: bare(commands.AssentRemoval), Says: saysOffice("Your assent to removing the Judge is counted.")},
			{Name: "judge-resign", Institution: InstGovernance, What: "a Judge", Summary: "Resign as Judge", Call: bare(commands.Resign), Says: saysOffice("You resigned as Judge.")},
			{Name: "judge-candidacy", Institution: InstGovernance, What: "Judge elections", Summary: "Stand for Judge", Call: call(commands.StandForJudge, creates), Says: saysCandidacy,
				Args: []Arg{argMessage("The chat message of your candidacy, whose 👍 reactions are its support")}},
			{Name: "proposal-tally", Institution: InstGovernance, AfterEnd: true, Scheduled: true, What: "proposals"},
			{Name: "confidence-tally", Institution: InstGovernance, AfterEnd: true, Scheduled: true, What: "votes of confidence"},
			{Name: "judge-election", Institution: InstGovernance, AfterEnd: true, Scheduled: true, What: "Judge elections"},
		},
		Views:           []View{viewProposals, viewJudge, viewJustice, viewRulings, viewElections},
		Due:             []DueWork{proposalWork, confidenceWork, electionWork},
		BeforePeriodEnd: []BeforeHook{tallyBeforePeriodEnd},
		Events:          governanceEvents(),
	}
}

// RulesetShape is what one ruleset has (RULINGS R3).
type RulesetShape struct {
	// Title names the ruleset in a sentence ("The Obelisk game").
	Title string
	// Institutions it has, InstCommon always among them.
	Institutions []string
	// Seasons: its week ends advance the season (RULINGS T2).
	Seasons bool
}

// Catalogue returns every command the service runs, in order: the common
// ones, then each module's.
func (r *Registry) Catalogue() []Command { return slices.Clone(r.commands) }

// Views returns the institution views of the service's modules.
func (r *Registry) Views() []View { return slices.Clone(r.views) }

// Rulesets returns the ids of the rulesets the service runs, in the order
// they were given.
func (r *Registry) Rulesets() []string {
	out := make([]string, 0, len(r.order))
	for _, id := range r.order {
		out = append(out, id)
	}
	return out
}

// CommandNamed returns the catalogue's command name.
func (r *Registry) CommandNamed(name string) (Command, bool) {
	c, ok := r.byName[name]
	return c, ok
}

// Shape returns what ruleset id has.
func (r *Registry) Shape(id string) (RulesetShape, bool) {
	m, ok := r.module(id)
	if !ok {
		return RulesetShape{}, false
	}
	sh := RulesetShape{Title: m.Title, Seasons: m.Seasons, Institutions: []string{InstCommon}}
	for _, c := range m.Components {
		sh.Institutions = append(sh.Institutions, c.Name)
	}
	return sh, true
}

// RulesetHas reports whether ruleset id has institution inst.
func (r *Registry) RulesetHas(id, inst string) bool {
	sh, ok := r.Shape(id)
	return ok && slices.Contains(sh.Institutions, inst)
}

// Has reports whether ruleset id has the command or view name.
func (r *Registry) Has(id, name string) bool {
	m, ok := r.module(id)
	return ok && (m.commands[name] || m.views[name])
}

// HasCommand reports whether ruleset id has the command name.
func (r *Registry) HasCommand(id, name string) bool {
	m, ok := r.module(id)
	return ok && m.commands[name]
}

// Data returns the ruleset data ruleset id runs on, as shipped (a game's
// own may have been amended since: Service.Ruleset): what an edge needs to
// shape a command to the ruleset (the items a trade offer names).
func (r *Registry) Data(id string) (*ruleset.Ruleset, error) { return ruleset.Load(r.dataOf(id)) }

// Zone is the time zone the games of ruleset id keep and their texts give
// times in: a turns game's America/Chicago (RULINGS T3), UTC otherwise
// (T1). It is read from the ruleset's data once.
func (r *Registry) Zone(id string) *time.Location {
	if z, ok := r.zones.Load(id); ok {
		return z.(*time.Location)
	}
	z := time.UTC
	if rs, err := r.Data(id); err == nil {
		z = calendar.Zone(rs.Calendar)
	}
	r.zones.Store(id, z)
	return z
}

// Title names ruleset id in a sentence ("Obelisk"); an unknown id is itself.
func (r *Registry) Title(id string) string { return r.title(id) }

// title names ruleset id in a sentence.
func (r *Registry) title(id string) string {
	if m, ok := r.module(id); ok {
		return m.Title
	}
	return id
}

// NotInRuleset is the refusal of a command or view the game's ruleset does
// not have (RULINGS R3).
func (r *Registry) NotInRuleset(game, rulesetID, name, what string) *rules.Error {
	has := r.CallableIn(rulesetID)
	return rules.Refuse("not_in_ruleset", "The %s game %q has no %s. Its commands are: %s.", r.title(rulesetID), game, what, strings.Join(has, ", ")).
		With("ruleset", rulesetID).With("command", name).With("commands", has)
}

// noModule is the error of a game whose ruleset this service does not run.
func noModule(game, rulesetID string) error {
	return fmt.Errorf("game %s: ruleset %q is not among the rulesets this service runs", game, rulesetID)
}

// allowCommand refuses c unless the game's ruleset has it.
func (r *Registry) allowCommand(game, rulesetID string, c Command) error {
	return r.allow(game, rulesetID, c.Name, c.What, func(m *moduleEntry) bool { return m.commands[c.Name] })
}

// allowView refuses v unless the game's ruleset has it.
func (r *Registry) allowView(game, rulesetID string, v View) error {
	return r.allow(game, rulesetID, v.Name, v.What, func(m *moduleEntry) bool { return m.views[v.Name] })
}

// allow refuses name (what, in a refusal) unless the module of rulesetID
// has it.
func (r *Registry) allow(game, rulesetID, name, what string, has func(*moduleEntry) bool) error {
	m, ok := r.module(rulesetID)
	if !ok {
		return noModule(game, rulesetID)
	}
	if !has(m) {
		return r.NotInRuleset(game, rulesetID, name, what)
	}
	return nil
}
