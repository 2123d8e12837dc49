package game

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"croupier/internal/rules/calendar"
	"croupier/internal/store"
)

// Module is one ruleset as the engine runs it: what a game of that ruleset
// can do, declared as values (docs/architecture.md, "Adding a ruleset").
// The engine knows no module; the wiring (internal/rulesets) hands it the
// list, and a game's META names the one it runs (RULINGS R3).
type Module struct {
	// ID is the ruleset id, as in META and the ruleset data.
	ID string
	// Title names the ruleset in a sentence ("The Obelisk game ...").
	Title string
	// Seasons: its week ends advance the season (RULINGS T2).
	Seasons bool
	// Data names the ruleset data it runs on (internal/ruleset/data/<Data>.json):
	// empty means its own ID. A module may run on another ruleset's numbers
	// (a ruleset that exists only in a test does: the shipped data is the
	// shipped rulesets').
	Data string
	// Components are the institutions it has besides the engine's common
	// one (joining, leaving, dice, the log, bindings, amendments): its own
	// and the shared ones it includes (Governance, a trades component).
	Components []Component
	// NewPlayer, if set, returns the module's player record around the
	// membership m (its type embeds players.Player; the stored item is one
	// flat object, so a single-player command reads and writes one item).
	// Without it a player record is the membership alone.
	NewPlayer func(m Player) PlayerRecord
	// Decoded, if set, brings a record just read from the store up to date
	// with what the game granted every member at once (the Obelisk's
	// game-level grants: nothing touching every player is written to every
	// player). Every read of a record calls it (Tx.Record, the players
	// list), a command's and a view's alike; a command writes the result
	// only if it saves the record.
	Decoded func(t *Tx, p PlayerRecord) error
	// Victory, if set, is checked for every player record a commit writes
	// (RULINGS C7: by any route, in the same commit): won ends the game with
	// that player as winner, and data goes into the game_won event.
	Victory func(t *Tx, p PlayerRecord) (won bool, data any)
	// PlayerView, if set, fills in what this ruleset shows of p's holdings
	// in their status (v.Holdings; the engine fills in the membership), and
	// may set v.Active to what being active means in this ruleset.
	PlayerView func(t *Tx, p PlayerRecord, v *PlayerView) error
	// PeriodName, if set, names the game's current period (t.Period, at
	// t.Now) for people, where its id is no name: a turns period is "turn
	// 1-2, first half, until Thu 12 Mar 10:00 CDT", not its calendar key.
	PeriodName func(t *Tx) (string, error)
	// Round, if set, is the game's current round, for a ruleset whose game
	// goes on in rounds won and begun again (turns, U6): the game
	// resource reports a won round although the game has not ended.
	Round func(t *Tx) (*RoundView, error)
}

// RoundView is a ruleset's current round as the game resource shows it.
type RoundView struct {
	Number int `json:"number"`
	// Over: the round is won; Winner (and WinnerName) won it, WonBy says
	// how ("points" or "paradox", with the Case ruled), at EndedAt.
	Over       bool       `json:"over"`
	Winner     string     `json:"winner,omitempty"`
	WinnerName string     `json:"winner_name,omitempty"`
	WonBy      string     `json:"won_by,omitempty"`
	Case       int        `json:"case,omitempty"`
	EndedAt    *time.Time `json:"ended_at,omitempty"`
}

// Component is an institution: commands, views, timers and period-end
// hooks that belong together, included by the modules that have it.
type Component struct {
	// Name names it (an Inst* constant or the module's own).
	Name     string
	Commands []Command
	Views    []View
	// Due are its kinds of timer (items in the due index).
	Due []DueWork
	// BeforePeriodEnd runs, in its own commits, before a period ends.
	BeforePeriodEnd []BeforeHook
	// AtPeriodEnd runs inside the period end's commit.
	AtPeriodEnd []AtHook
	// OnJoin, if set, adjusts a new stint's record p (prev is the earlier
	// record, or nil) before it is saved.
	OnJoin func(t *Tx, prev, p PlayerRecord) error
	// OnAction, if set, runs after an action is recorded for p (RULINGS P2):
	// what acting settles in this institution.
	OnAction func(t *Tx, p PlayerRecord) error
	// OnLeave, if set, runs when p leaves, in the same commit: what a
	// departure destroys, withdraws or forfeits; it may fill in res.
	OnLeave func(t *Tx, p PlayerRecord, res *LeaveResult) error
	// Events says how each event type this institution emits reads to a
	// person: the one text the CLI, the tracker and the announcer show.
	Events map[string]Narration
	// Proposals are the kinds of proposal it adds to the governance (the
	// Obelisk's banishment): a proposal of a kind carries parameters that
	// adoption applies.
	Proposals []ProposalKind
}

// ProposalKind is a kind of proposal a component adds to the governance.
// Besides its text, a proposal of the kind carries parameters (Params),
// checked at submission and applied in the commit that adopts it.
type ProposalKind struct {
	Kind string
	// Players are the members of its parameters that name a player: each
	// is resolved from a mention, an id or a display name (ResolvePlayer)
	// before Check reads them.
	Players []string
	// Check refuses, at submission, parameters that could never apply.
	Check func(t *Tx, params json.RawMessage) error
	// Adopt applies the adopted proposal rec as of its adoption (t.Now is
	// the end of its vote, RULINGS T4). A refusal (a *rules.Error: the
	// player named has left meanwhile) leaves the proposal adopted with
	// the reason in EffectError; any other error fails the tally.
	Adopt func(t *Tx, rec *ProposalRecord) error
}

// Narration is how one type of log event reads to a person.
type Narration struct {
	// Sentence renders ev, with name giving a player's display name for an
	// id. The log is read long after the code that wrote it changed: it
	// must tolerate data of any shape and say something plain, never fail.
	Sentence func(ev Event, name func(id string) string) string
	// Announce: the event is posted to the game's bound channels.
	Announce bool
	// Notable, if set, narrows Announce to the events it accepts (a
	// purchase of note, not every purchase).
	Notable func(ev Event) bool
	// Notify, if set, lists the identities an announcement notifies (a
	// your-turn notice pings its player); every other mention in it shows
	// as a name only.
	Notify func(ev Event) []string
}

// DueWork applies one kind of timer. Items in the due index are found by
// their sort key's prefix; Run applies what is due for the item as of its
// due moment (RULINGS T4), idempotently, and returns what it did ("game/id"
// strings; none when an earlier run already did it).
type DueWork struct {
	Kind   string
	Prefix string
	Run    func(s *Service, ctx context.Context, game, sk string) ([]string, error)
}

// BeforeHook is work that must be applied before a period ends, in its own
// commits (e.g. proposals whose voting ends with the period take effect
// before the season changes, RULINGS T2). It must be idempotent.
type BeforeHook struct {
	Run func(s *Service, ctx context.Context, game string, ended calendar.Period) error
}

// AtHook is work done inside a period end's commit (e.g. starting the
// battle of the players who engaged in the ended period). members are the
// game's current players, as read for the activity record.
type AtHook struct {
	Run func(t *Tx, ended, next calendar.Period, members []PlayerRecord, res *PeriodEnded) error
}

// WithModules sets the rulesets the service runs (internal/rulesets lists
// them). A game whose ruleset is not among them cannot be created or run.
func WithModules(ms ...Module) Option {
	return func(s *Service) { s.modules = append(s.modules, ms...) }
}

// Registry is the command catalogue of a list of modules: the common
// component and every module's, indexed. A Service embeds the registry of
// the modules it runs; an edge that runs no game (registering chat
// commands) builds one with NewRegistry.
type Registry struct {
	order    []string  // module ids, in the order given
	commands []Command // catalogue order: common first, then by module
	// byName indexes commands: every command looks itself up (Run).
	byName  map[string]Command
	events  map[string]Narration
	views   []View
	due     []DueWork
	modules map[string]*moduleEntry
	// zones holds each ruleset's time zone (Zone), read from its data once.
	zones sync.Map
}

// moduleEntry is a module with its commands and views by name.
type moduleEntry struct {
	Module
	commands map[string]bool
	views    map[string]bool
	due      []DueWork
	before   []BeforeHook
	at       []AtHook
	onJoin   []func(t *Tx, prev, p PlayerRecord) error
	onAction []func(t *Tx, p PlayerRecord) error
	onLeave  []func(t *Tx, p PlayerRecord, res *LeaveResult) error
	// proposals are its kinds of proposal, by Kind.
	proposals map[string]ProposalKind
}

// NewRegistry indexes the modules ms; it refuses a list in which two
// modules share an id or two components define one command differently.
func NewRegistry(ms ...Module) (*Registry, error) {
	r := &Registry{modules: map[string]*moduleEntry{}, byName: map[string]Command{}, events: map[string]Narration{}}
	byName := r.byName
	viewByName := map[string]View{}
	dueByPrefix := map[string]string{}
	addCommand := func(c Command, of string) error {
		if prev, ok := byName[c.Name]; ok {
			if prev.Institution != c.Institution {
				return fmt.Errorf("command %q of %s is also %s's", c.Name, of, prev.Institution)
			}
			return nil
		}
		if err := checkArgs(c); err != nil {
			return err
		}
		byName[c.Name] = c
		r.commands = append(r.commands, c)
		return nil
	}
	addDue := func(w DueWork, of string) {
		if _, ok := dueByPrefix[w.Prefix]; !ok {
			dueByPrefix[w.Prefix] = of
			r.due = append(r.due, w)
		}
	}
	common := commonComponent()
	for _, c := range common.Commands {
		if err := addCommand(c, InstCommon); err != nil {
			return nil, err
		}
	}
	for _, w := range common.Due {
		addDue(w, InstCommon)
	}
	for _, m := range ms {
		if m.ID == "" {
			return nil, fmt.Errorf("a module has no id")
		}
		if _, dup := r.modules[m.ID]; dup {
			return nil, fmt.Errorf("ruleset %q is listed twice", m.ID)
		}
		e := &moduleEntry{Module: m, commands: map[string]bool{}, views: map[string]bool{}, proposals: map[string]ProposalKind{}}
		comps := append([]Component{common}, m.Components...)
		seen := map[string]bool{}
		for _, comp := range comps {
			if seen[comp.Name] {
				return nil, fmt.Errorf("ruleset %q includes %s twice", m.ID, comp.Name)
			}
			seen[comp.Name] = true
			for _, c := range comp.Commands {
				if err := addCommand(c, comp.Name); err != nil {
					return nil, err
				}
				e.commands[c.Name] = true
			}
			for _, v := range comp.Views {
				if _, ok := viewByName[v.Name]; !ok {
					viewByName[v.Name] = v
					r.views = append(r.views, v)
				}
				e.views[v.Name] = true
			}
			for _, w := range comp.Due {
				addDue(w, comp.Name)
				e.due = append(e.due, w)
			}
			e.before = append(e.before, comp.BeforePeriodEnd...)
			e.at = append(e.at, comp.AtPeriodEnd...)
			if comp.OnJoin != nil {
				e.onJoin = append(e.onJoin, comp.OnJoin)
			}
			if comp.OnAction != nil {
				e.onAction = append(e.onAction, comp.OnAction)
			}
			if comp.OnLeave != nil {
				e.onLeave = append(e.onLeave, comp.OnLeave)
			}
			for _, k := range comp.Proposals {
				e.proposals[k.Kind] = k
			}
			for typ, n := range comp.Events {
				if _, ok := r.events[typ]; !ok {
					r.events[typ] = n
				}
			}
		}
		r.modules[m.ID] = e
		r.order = append(r.order, m.ID)
	}
	return r, nil
}

// Narration returns how events of type typ read (Component.Events).
func (r *Registry) Narration(typ string) (Narration, bool) {
	n, ok := r.events[typ]
	return n, ok
}

// EventTypes lists every event type a component narrates, sorted.
func (r *Registry) EventTypes() []string {
	ts := make([]string, 0, len(r.events))
	for t := range r.events {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	return ts
}

// dataOf names the ruleset data ruleset id runs on (Module.Data).
func (r *Registry) dataOf(id string) string {
	if m, ok := r.modules[id]; ok && m.Data != "" {
		return m.Data
	}
	return id
}

// module returns the module of ruleset id.
func (r *Registry) module(id string) (*moduleEntry, bool) {
	m, ok := r.modules[id]
	return m, ok
}

// module is the game's module. A game whose ruleset this service does not
// run is refused before any apply (allowCommand); should one get this far,
// an empty entry runs no hooks rather than failing on a missing one.
func (t *Tx) module() *moduleEntry {
	if m, ok := t.Svc.module(t.Meta.Ruleset); ok {
		return m
	}
	return &moduleEntry{}
}

// dueWorkFor returns the kind of timer of a due item's sort key.
func (r *Registry) dueWorkFor(sk string) (DueWork, bool) {
	for _, w := range r.due {
		if len(sk) >= len(w.Prefix) && sk[:len(w.Prefix)] == w.Prefix {
			return w, true
		}
	}
	return DueWork{}, false
}

// hasDue reports whether the module runs timers of w's kind.
func (m *moduleEntry) hasDue(w DueWork) bool {
	return slices.ContainsFunc(m.due, func(d DueWork) bool { return d.Prefix == w.Prefix })
}

// PlayerRecord is a player's record in a game's ruleset: the membership
// (Core) and whatever the module keeps with it in the player item.
type PlayerRecord interface {
	Core() *Player
}

// newPlayer returns the record of ruleset id around the membership m.
func (r *Registry) newPlayer(id string, m Player) PlayerRecord {
	if e, ok := r.modules[id]; ok && e.NewPlayer != nil {
		return e.NewPlayer(m)
	}
	return &m
}

// decoded is the record of a stored player item read by t, brought up to
// date by the module (Module.Decoded).
func (t *Tx) decoded(it store.Item) (PlayerRecord, error) {
	p, err := t.Svc.decodePlayer(t.Meta.Ruleset, it)
	if err != nil {
		return nil, err
	}
	if h := t.module().Decoded; h != nil {
		if err := h(t, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// decodePlayer decodes a stored player item as a record of ruleset id.
func (r *Registry) decodePlayer(id string, it store.Item) (PlayerRecord, error) {
	p := r.newPlayer(id, Player{})
	if err := json.Unmarshal(it.Data, p); err != nil {
		return nil, fmt.Errorf("decoding player %s: %w", it.Key, err)
	}
	return p, nil
}
