package game

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/store"
)

// A binding ties a chat space (a Discord guild, a Slack team) to one game,
// and names its channels for each purpose. It is stored twice in the same
// commit:
//
//   - under its own partition, PK "BIND#<platform>:<space>" SK "BIND", so a
//     chat request finds its game in one read without knowing any game;
//   - under the game's partition, SK "BIND#<platform>:<space>", so the
//     announcer lists a game's channels with one query.
//
// Binding is an admin command of the game bound to (and of the game the
// space was bound to before, if any), logged in that game's log.
const (
	bindSK     = "BIND"
	bindPrefix = "BIND#"
)

// Channel purposes a binding may name.
const (
	ChannelProposals     = "proposals"
	ChannelActions       = "actions"
	ChannelJudgement     = "judgement"
	ChannelAnnouncements = "announcements"
)

// ChannelPurposes lists every purpose, in display order.
var ChannelPurposes = []string{ChannelProposals, ChannelActions, ChannelJudgement, ChannelAnnouncements}

var (
	platformRe = regexp.MustCompile(`^[a-z][a-z0-9-]{1,15}$`)
	spaceRe    = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
)

func spaceID(platform, space string) string { return platform + ":" + space }

func bindKey(platform, space string) store.Key {
	return store.Key{PK: bindPrefix + spaceID(platform, space), SK: bindSK}
}

func gameBindKey(game, platform, space string) store.Key {
	return store.Key{PK: GamePK(game), SK: bindPrefix + spaceID(platform, space)}
}

// Binding is a chat space's game and channels.
type Binding struct {
	Platform string `json:"platform"`
	Space    string `json:"space"`
	Game     string `json:"game"`
	// Channels maps a purpose (ChannelPurposes) to the platform's channel id.
	Channels map[string]string `json:"channels,omitempty"`
	By       string            `json:"by"`
	At       time.Time         `json:"at"`
	// Replaced marks a game's copy of a binding the space has since moved to
	// another game (kept, so the log and the announcer see the history).
	Replaced bool `json:"replaced,omitempty"`
}

// Bind is the payload of bind: which space of which platform, and the
// channel ids for each purpose (empty: not set).
type Bind struct {
	Platform string            `json:"platform"`
	Space    string            `json:"space"`
	Channels map[string]string `json:"channels,omitempty"`
}

func (b *Bind) check() error {
	if !platformRe.MatchString(b.Platform) {
		return rules.Refuse("invalid_request", "%q is not a chat platform name such as discord or slack.", b.Platform)
	}
	if !spaceRe.MatchString(b.Space) {
		return rules.Refuse("invalid_request", "%q is not a server or team id.", b.Space)
	}
	for purpose, ch := range b.Channels {
		if !slices.Contains(ChannelPurposes, purpose) {
			return rules.Refuse("invalid_request", "%q is not a channel purpose; the purposes are %s.", purpose, strings.Join(ChannelPurposes, ", "))
		}
		if ch == "" {
			delete(b.Channels, purpose)
			continue
		}
		if !spaceRe.MatchString(ch) {
			return rules.Refuse("invalid_request", "%q is not a channel id.", ch)
		}
	}
	return nil
}

// Bind binds a chat space to req.Game (the game's admins only). Binding the
// same space again replaces its channels; moving it from another game needs
// the actor to be an admin of that game too.
func (s *Service) Bind(ctx context.Context, req Request, b Bind) (*Result, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "bind", Body: b,
		Keys: func(g string) []store.Key { return []store.Key{bindKey(b.Platform, b.Space)} },
		Apply: func(t *Tx) (any, error) {
			if err := t.Admin("bind a chat server to the game"); err != nil {
				return nil, err
			}
			k := bindKey(b.Platform, b.Space)
			var prev Binding
			if it := t.Loaded[k]; it.Exists() {
				if err := json.Unmarshal(it.Data, &prev); err != nil {
					return nil, fmt.Errorf("decoding binding %s: %w", k, err)
				}
			}
			space := spaceID(b.Platform, b.Space)
			if prev.Game != "" && prev.Game != t.Game {
				if err := t.adminOfOther(prev.Game, space); err != nil {
					return nil, err
				}
				prev.Replaced = true
				ok := gameBindKey(prev.Game, b.Platform, b.Space)
				if err := t.Load(ok); err != nil {
					return nil, err
				}
				if err := t.Put(ok, prev, time.Time{}); err != nil {
					return nil, err
				}
			}
			// Binding the same game again keeps the channels it does not
			// name: a second /bind to change one channel (or none) must not
			// silence the game's announcements (issue 23). A game taking
			// the server over starts from the channels it names.
			channels := maps.Clone(b.Channels)
			if prev.Game == t.Game && len(prev.Channels) > 0 {
				channels = maps.Clone(prev.Channels)
				maps.Copy(channels, b.Channels)
			}
			nb := Binding{Platform: b.Platform, Space: b.Space, Game: t.Game, Channels: channels, By: t.Entry.Actor, At: t.Now}
			gk := gameBindKey(t.Game, b.Platform, b.Space)
			if _, ok := t.Loaded[gk]; !ok {
				if err := t.Load(gk); err != nil {
					return nil, err
				}
			}
			if !slices.Contains(t.Meta.Spaces, space) {
				t.Meta.Spaces = append(t.Meta.Spaces, space)
				t.metaDirty = true
			}
			if err := t.Put(k, nb, time.Time{}); err != nil {
				return nil, err
			}
			if err := t.Put(gk, nb, time.Time{}); err != nil {
				return nil, err
			}
			t.Emit("game_bound", "", map[string]any{"platform": nb.Platform, "space": nb.Space, "channels": nb.Channels, "previous_game": prev.Game})
			return nb, nil
		},
	})
}

// adminOfOther refuses unless the actor is an admin of game id too, and
// takes space out of that game's META (its version condition also keeps
// the admin check fresh).
func (t *Tx) adminOfOther(id, space string) error {
	mk := MetaKey(id)
	if err := t.Load(mk); err != nil {
		return err
	}
	it := t.Loaded[mk]
	if !it.Exists() {
		return nil // that game is gone: nothing to protect
	}
	var m Meta
	if err := json.Unmarshal(it.Data, &m); err != nil {
		return fmt.Errorf("decoding game %s: %w", id, err)
	}
	if !slices.Contains(m.Admins, t.Entry.Actor) {
		return rules.Refuse("forbidden", "This server is bound to game %q; only an admin of that game can move it to another.", id)
	}
	m.Spaces = slices.DeleteFunc(m.Spaces, func(s string) bool { return s == space })
	return t.Put(mk, m, it.Due)
}

// BindingFor returns the binding of a chat space, and false if it has none.
func (s *Service) BindingFor(ctx context.Context, platform, space string) (Binding, bool, error) {
	if !platformRe.MatchString(platform) || !spaceRe.MatchString(space) {
		return Binding{}, false, nil
	}
	it, err := s.store.Get(ctx, bindKey(platform, space))
	if err != nil {
		return Binding{}, false, fmt.Errorf("reading binding of %s: %w", spaceID(platform, space), err)
	}
	if !it.Exists() {
		return Binding{}, false, nil
	}
	var b Binding
	if err := json.Unmarshal(it.Data, &b); err != nil {
		return Binding{}, false, fmt.Errorf("decoding binding of %s: %w", spaceID(platform, space), err)
	}
	return b, true, nil
}

// Bindings lists the chat spaces currently bound to a game (for
// announcements).
func (s *Service) Bindings(ctx context.Context, game string) ([]Binding, error) {
	if !ValidGameID(game) {
		return nil, rules.Refuse("invalid_game_id", "%q is not a valid game id.", game)
	}
	out := []Binding{}
	err := s.Scan(ctx, store.Query{PK: GamePK(game), Prefix: bindPrefix}, func(it store.Item) error {
		var b Binding
		if err := json.Unmarshal(it.Data, &b); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if !b.Replaced {
			out = append(out, b)
		}
		return nil
	})
	return out, err
}

// SpaceView is what a chat space plays: its binding and the bound game's
// ruleset (what commands the space should offer, RULINGS R3).
type SpaceView struct {
	Binding
	Ruleset string `json:"ruleset"`
	// RulesetTitle names the ruleset in a sentence ("Obelisk").
	RulesetTitle string `json:"ruleset_title"`
}

// Space returns what the chat space of platform is bound to, refusing a
// malformed space and one bound to no game.
func (s *Service) Space(ctx context.Context, platform, space string) (SpaceView, error) {
	if !platformRe.MatchString(platform) || !spaceRe.MatchString(space) {
		return SpaceView{}, rules.Refuse("invalid_space", "%q on %q is not a chat space: a platform such as discord and its server or workspace id.", space, platform)
	}
	b, ok, err := s.BindingFor(ctx, platform, space)
	if err != nil {
		return SpaceView{}, err
	}
	if !ok {
		return SpaceView{}, rules.Refuse("space_not_bound", "The %s server %s is bound to no game: an admin of the game binds it with /bind.", platform, space)
	}
	id, err := s.RulesetOf(ctx, b.Game)
	if err != nil {
		return SpaceView{}, err
	}
	return SpaceView{Binding: b, Ruleset: id, RulesetTitle: s.title(id)}, nil
}
