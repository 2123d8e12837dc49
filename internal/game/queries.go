package game

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"time"

	"croupier/internal/fair"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// PeriodView describes a period of the game's calendar.
type PeriodView struct {
	ID string `json:"id"`
	// Name is the period as people read it, where the ruleset names it
	// (Module.PeriodName); without one the id reads as a name (2026-W10-I).
	Name  string    `json:"name,omitempty"`
	Kind  string    `json:"kind"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

func periodView(p calendar.Period) PeriodView {
	return PeriodView{ID: p.ID, Kind: p.Kind, Start: p.Start, End: p.End}
}

// GameView is the public description of a game.
type GameView struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Ruleset   string     `json:"ruleset"`
	Admins    []string   `json:"admins"`
	CreatedAt time.Time  `json:"created_at"`
	Period    PeriodView `json:"period"`
	Season    string     `json:"season,omitempty"` // none for a ruleset without seasons (turns)
	Ended     bool       `json:"ended"`
	Winner    string     `json:"winner,omitempty"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
	// RulesetVersion counts the ruleset's amendments (RULINGS R1).
	RulesetVersion int `json:"ruleset_version"`
	// Round is the current round of a ruleset played in rounds (turns).
	Round *RoundView `json:"round,omitempty"`
	// Zone is the game's own time zone, where its rules keep one other
	// than UTC (a turns game's America/Chicago, RULINGS T3): its texts give
	// times in it. Absent: UTC.
	Zone string `json:"zone,omitempty"`
}

func (t *Tx) gameView() (GameView, error) {
	m := t.Meta
	v := GameView{ID: m.ID, Name: m.Name, Ruleset: m.Ruleset, Admins: m.Admins, CreatedAt: m.CreatedAt,
		Period: periodView(t.Period), Season: m.Season, Ended: m.Ended, Winner: m.Winner, RulesetVersion: t.Rules.Version, Zone: t.zoneName()}
	var err error
	if v.Period.Name, err = t.periodName(); err != nil {
		return GameView{}, err
	}
	if r := t.module().Round; r != nil {
		if v.Round, err = r(t); err != nil {
			return GameView{}, err
		}
	}
	if m.Ended {
		at := m.EndedAt
		v.EndedAt = &at
	}
	return v, nil
}

// PlayerView is a player's status: their membership, as the engine keeps
// it, and what the game's ruleset module shows of their holdings.
type PlayerView struct {
	Game             string     `json:"game"`
	Ruleset          string     `json:"ruleset"`
	ID               string     `json:"id"`
	Name             string     `json:"name,omitempty"`
	Member           bool       `json:"member"`
	JoinedAt         time.Time  `json:"joined_at"`
	LeftAt           *time.Time `json:"left_at,omitempty"`
	RejoinPossibleAt *time.Time `json:"rejoin_possible_at,omitempty"`
	Active           bool       `json:"active"`
	Reputable        bool       `json:"reputable"`
	Period           string     `json:"period"`
	// PeriodName is the current period as people read it, where the
	// ruleset names it (PeriodView.Name).
	PeriodName string `json:"period_name,omitempty"`
	// Zone is the game's own time zone (GameView.Zone).
	Zone string `json:"zone,omitempty"`
	// Holdings is the module's part of the view (Module.PlayerView): a
	// value whose JSON is an object, whose members the view's JSON carries
	// beside the membership's, one flat object as the stored player item
	// is. The engine knows no ruleset's holdings; each module reads its own
	// back from a view (gildedhall.HoldingsOf...). Decoded from JSON it is
	// the json.RawMessage of those members.
	Holdings any `json:"-"`
}

// periodName is the current period's name for people, if the game's
// module names its periods.
func (t *Tx) periodName() (string, error) {
	if m := t.module(); m.PeriodName != nil {
		return m.PeriodName(t)
	}
	return "", nil
}

// zone is the time zone the game's texts give times in (its calendar's,
// RULINGS T1, T3).
func (t *Tx) zone() *time.Location {
	if t.Schedule == nil {
		return time.UTC
	}
	return calendar.Zone(t.Schedule.Name())
}

// zoneName names the game's zone for its views, "" for UTC.
func (t *Tx) zoneName() string {
	if z := t.zone(); z != time.UTC {
		return z.String()
	}
	return ""
}

// playerCore is PlayerView without its JSON methods.
type playerCore PlayerView

// coreKeys are the members of a player view's JSON that are the engine's.
var coreKeys = func() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeFor[playerCore]()
	for i := range t.NumField() {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); k != "" && k != "-" {
			out[k] = true
		}
	}
	return out
}()

// MarshalJSON writes the membership and the module's holdings as one
// object.
func (v PlayerView) MarshalJSON() ([]byte, error) {
	core, err := json.Marshal(playerCore(v))
	if err != nil || v.Holdings == nil {
		return core, err
	}
	part, err := json.Marshal(v.Holdings)
	if err != nil {
		return nil, fmt.Errorf("encoding the holdings of %s: %w", v.ID, err)
	}
	part = bytes.TrimSpace(part)
	if bytes.Equal(part, []byte("null")) || bytes.Equal(part, []byte("{}")) {
		return core, nil
	}
	if len(part) < 2 || part[0] != '{' {
		return nil, fmt.Errorf("the holdings of %s are not a JSON object: %.40s", v.ID, part)
	}
	return append(append(core[:len(core)-1:len(core)-1], ','), part[1:]...), nil
}

// UnmarshalJSON reads the membership, and keeps the other members as the
// holdings, for the module to decode.
func (v *PlayerView) UnmarshalJSON(b []byte) error {
	var core playerCore
	if err := json.Unmarshal(b, &core); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	maps.DeleteFunc(all, func(k string, _ json.RawMessage) bool { return coreKeys[k] })
	*v = PlayerView(core)
	if len(all) > 0 {
		rest, err := json.Marshal(all)
		if err != nil {
			return err
		}
		v.Holdings = json.RawMessage(rest)
	}
	return nil
}

// HoldingsAs decodes v's holdings as a module's type T: the value itself
// when v came from the module, or T decoded from the JSON members when
// they include key, a member only that module's holdings have. false: v
// has no holdings of that module (a player of another ruleset).
func HoldingsAs[T any](v PlayerView, key string) (T, bool) {
	var out T
	switch h := v.Holdings.(type) {
	case T:
		return h, true
	case json.RawMessage:
		var members map[string]json.RawMessage
		if json.Unmarshal(h, &members) != nil || members[key] == nil {
			return out, false
		}
		return out, json.Unmarshal(h, &out) == nil
	}
	return out, false
}

// PlayerView is r's status: the membership, then what the game's module
// shows of its holdings (Module.PlayerView fills in v.Holdings, and may
// say what "active" means in its ruleset).
func (t *Tx) PlayerView(r PlayerRecord) (PlayerView, error) {
	p := r.Core()
	v := PlayerView{Game: t.Game, Ruleset: t.Meta.Ruleset, ID: p.ID, Name: p.Name, Member: p.Member, JoinedAt: p.JoinedAt, Period: t.Period.ID, Zone: t.zoneName()}
	var err error
	if v.PeriodName, err = t.periodName(); err != nil {
		return PlayerView{}, err
	}
	if p.Member {
		prev := t.Schedule.Prev(t.Period)
		v.Active = !players.Inactive(p, t.Period.ID, prev.ID)
		d := t.Rules.Durations
		v.Reputable = players.Reputable(p, t.Now, t.Meta.CreatedAt, d.ReputableTenure.Std(), d.ReputableGrace.Std())
	} else {
		left := p.LeftAt
		again := left.Add(t.Rules.Durations.RejoinWait.Std())
		v.LeftAt = &left
		if t.Now.Before(again) {
			v.RejoinPossibleAt = &again
		}
	}
	if m := t.module(); m.PlayerView != nil {
		if err := m.PlayerView(t, r, &v); err != nil {
			return PlayerView{}, fmt.Errorf("the status of %s: %w", p.ID, err)
		}
	}
	return v, nil
}

// view runs a read-only query with the game's META loaded.
func (s *Service) View(ctx context.Context, game string, extra ...store.Key) (*Tx, error) {
	return s.viewOf(ctx, nil, game, extra...)
}

// ViewIn runs a read-only query of an institution's view: refused
// not_in_ruleset, before anything is read when the process knows the
// game's ruleset, or after the one read (RULINGS R3).
func (s *Service) ViewIn(ctx context.Context, v View, game string, extra ...store.Key) (*Tx, error) {
	return s.viewOf(ctx, &v, game, extra...)
}

func (s *Service) viewOf(ctx context.Context, v *View, game string, extra ...store.Key) (*Tx, error) {
	if !ValidGameID(game) {
		return nil, rules.Refuse("invalid_game_id", "%q is not a valid game id.", game)
	}
	if id, ok := s.rulesets.Load(game); ok && v != nil {
		if err := s.allowView(game, id.(string), *v); err != nil {
			return nil, err
		}
	}
	keys := append([]store.Key{MetaKey(game)}, extra...)
	items, err := s.store.GetMany(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("reading game %s: %w", game, err)
	}
	t := &Tx{Svc: s, Ctx: ctx, Now: s.clock.Now(), Game: game, Loaded: map[store.Key]store.Item{}}
	for _, it := range items {
		t.Loaded[it.Key] = it
	}
	if err := t.LoadMeta(); err != nil {
		return nil, err
	}
	if v != nil {
		if err := s.allowView(game, t.Meta.Ruleset, *v); err != nil {
			return nil, err
		}
	}
	if err := checkSpace(ctx, t.Meta); err != nil {
		return nil, err
	}
	return t, nil
}

// Game describes a game.
func (s *Service) Game(ctx context.Context, game string) (GameView, error) {
	t, err := s.View(ctx, game)
	if err != nil {
		return GameView{}, err
	}
	return t.gameView()
}

// Player returns one player's status and inventory.
func (s *Service) Player(ctx context.Context, game, id string) (PlayerView, error) {
	if !ValidIdentity(id) {
		return PlayerView{}, rules.Refuse("invalid_player", "%q is not a platform identity such as discord:1234.", id)
	}
	t, err := s.View(ctx, game, PlayerKey(game, id))
	if err != nil {
		return PlayerView{}, err
	}
	p, err := t.Record(id)
	if err != nil {
		return PlayerView{}, err
	}
	if p == nil {
		return PlayerView{}, rules.Refuse("player_not_found", "%s has never played in game %q.", id, game)
	}
	return t.PlayerView(p)
}

// Players lists the game's current players, page by page (PlayersPage).
func (s *Service) Players(ctx context.Context, game string) ([]PlayerView, error) {
	return AllPages(func(pr PageRequest) ([]PlayerView, string, error) { return s.PlayersPage(ctx, game, pr) })
}

// LogPage is one page of a game's log, oldest first.
type LogPage struct {
	Entries []Entry `json:"entries"`
	Next    string  `json:"next_cursor,omitempty"`
}

// Log reads the game log in time order, a page at a time.
func (s *Service) Log(ctx context.Context, game, cursor string, limit int) (LogPage, error) {
	if _, err := s.View(ctx, game); err != nil {
		return LogPage{}, err
	}
	return s.logPage(ctx, game, cursor, limit)
}

// logPage reads one page of a game known to exist.
func (s *Service) logPage(ctx context.Context, game, cursor string, limit int) (LogPage, error) {
	if limit <= 0 || limit > MaxPageLimit {
		limit = DefaultPageLimit
	}
	page, err := s.store.Query(ctx, store.Query{PK: GamePK(game), Prefix: logPrefix, Index: store.IndexOrder, Limit: limit, Cursor: cursor})
	if err != nil {
		if errors.Is(err, store.ErrBadCursor) {
			return LogPage{}, rules.Refuse("invalid_cursor", "The cursor %q is not one this server gave out.", cursor)
		}
		return LogPage{}, err
	}
	out := LogPage{Entries: make([]Entry, 0, len(page.Items)), Next: page.Next}
	for _, it := range page.Items {
		e, err := DecodeEntry(it.Data)
		if err != nil {
			return LogPage{}, fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if err := s.spilledChanges(ctx, game, e); err != nil {
			return LogPage{}, err
		}
		e.Changes = publicChanges(e.Changes)
		if e.Events == nil {
			// A step that changed state and said nothing of its own (a
			// turn end's step ending at an adoption): no events, not null.
			e.Events = []Event{}
		}
		out.Entries = append(out.Entries, *e)
	}
	return out, nil
}

// SeedView is a period's public seed record: the commitment always, the
// secret only once revealed.
type SeedView struct {
	Period      string     `json:"period"`
	Commitment  string     `json:"commitment"`
	CommittedAt time.Time  `json:"committed_at"`
	Seed        string     `json:"seed,omitempty"`
	RevealedAt  *time.Time `json:"revealed_at,omitempty"`
}

// Seeds lists every period's commitment, and the seeds already revealed,
// page by page (SeedsPage).
func (s *Service) Seeds(ctx context.Context, game string) ([]SeedView, error) {
	return AllPages(func(pr PageRequest) ([]SeedView, string, error) { return s.SeedsPage(ctx, game, pr) })
}

// Audit recomputes every logged draw of a game from the revealed seeds
// (RULINGS N2): what `croupier verify` and the tracker show.
func (s *Service) Audit(ctx context.Context, game string) (fair.Report, error) {
	seeds, err := s.Seeds(ctx, game)
	if err != nil {
		return fair.Report{}, err
	}
	var recs []fair.Record
	cursor := ""
	for {
		// Seeds above checked the game exists: no META read per page.
		page, err := s.logPage(ctx, game, cursor, 500)
		if err != nil {
			return fair.Report{}, err
		}
		for _, e := range page.Entries {
			recs = append(recs, e.Draws...)
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	return VerifyDraws(seeds, recs)
}

// VerifyDraws checks draws against published seeds; shared by Audit and by
// `croupier verify --url`, which reads the same views over HTTP.
func VerifyDraws(seeds []SeedView, recs []fair.Record) (fair.Report, error) {
	revealed := map[string]fair.Seed{}
	commits := map[string]string{}
	for _, sv := range seeds {
		commits[sv.Period] = sv.Commitment
		if sv.Seed != "" {
			seed, err := fair.ParseSeed(sv.Seed)
			if err != nil {
				return fair.Report{}, fmt.Errorf("seed of %s: %w", sv.Period, err)
			}
			revealed[sv.Period] = seed
		}
	}
	return fair.Verify(revealed, commits, recs), nil
}

// Scan walks every page of a query.
func (s *Service) Scan(ctx context.Context, q store.Query, fn func(store.Item) error) error {
	for {
		page, err := s.store.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if err := fn(it); err != nil {
				return err
			}
		}
		if page.Next == "" {
			return nil
		}
		q.Cursor = page.Next
	}
}

// GameListing is a game in the deployment's list of games (the tracker's
// start page): one item per game in the GAMES partition, written by the
// game's creation in the same commit. Games created before the list
// existed are not in it.
type GameListing struct {
	ID        string    `json:"id"`
	Name      string    `json:"name,omitempty"`
	Ruleset   string    `json:"ruleset"`
	CreatedAt time.Time `json:"created_at"`
}

// gamesPK is the partition of the list of games.
const gamesPK = "GAMES"

func listingKey(game string) store.Key { return store.Key{PK: gamesPK, SK: "GAME#" + game} }

// Games returns one page of the deployment's games, by id; pass the
// returned cursor for the next page ("" at the last).
func (s *Service) Games(ctx context.Context, cursor string, limit int) ([]GameListing, string, error) {
	page, err := s.store.Query(ctx, store.Query{PK: gamesPK, Prefix: "GAME#", Limit: limit, Cursor: cursor})
	if err != nil {
		return nil, "", err
	}
	out := make([]GameListing, 0, len(page.Items))
	for _, it := range page.Items {
		var g GameListing
		if err := json.Unmarshal(it.Data, &g); err != nil {
			return nil, "", fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		out = append(out, g)
	}
	return out, page.Next, nil
}
