package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
)

// MaxText is the longest reply text the layer produces (Discord allows 2000
// characters in a message's content; Slack more).
const MaxText = 1900

// timeIn is how the texts of game g give a moment: in the game's own zone
// where it keeps one (a turns game's America/Chicago, RULINGS T3: "Mon 9
// Mar 22:00 CDT", as its commands' answers do), else as utc says it.
func timeIn(ctx context.Context, s *game.Service, g string, utc func(time.Time) string) func(time.Time) string {
	id, err := s.RulesetOf(ctx, g)
	if err != nil {
		return utc
	}
	return zoned(s.Zone(id), utc)
}

// zoned is calendar.When in zone, or utc for UTC.
func zoned(zone *time.Location, utc func(time.Time) string) func(time.Time) string {
	if zone == time.UTC {
		return utc
	}
	return func(t time.Time) string { return calendar.When(zone, t) }
}

// req is the game request of an invocation.
func req(inv *Invocation) game.Request {
	return game.Request{Game: inv.Game, Actor: inv.User, Key: inv.Key}
}

// decoded reads the response of a command as a T, a pointer to the
// result's type, or passes the command's error on, so a handler runs and
// reads a command in one step:
//
//	tr, err := decoded[*trades.Trade](s.AcceptTrade(ctx, req(inv), id))
//
// T is a pointer so that every result type shares one instantiation (Go
// stencils generics by shape, and all pointers have one): with value types
// each was its own copy and its own long name: 11 KB of code and 20 KB of
// read-only data in the Discord function's bootstrap (linux/arm64).
func decoded[T any](res *game.Result, err error) (T, error) {
	var v T
	if err == nil {
		err = decodeInto(res, &v)
	}
	return v, err
}

// decodeInto reads a command's response body into v, a pointer to a nil
// pointer that it fills; a body that leaves it nil ("null") is an error.
func decodeInto(res *game.Result, v any) error {
	if err := json.Unmarshal(res.Body, v); err != nil {
		return fmt.Errorf("decoding the game's response: %w", err)
	}
	if p := reflect.ValueOf(v).Elem(); p.Kind() != reflect.Pointer || p.IsNil() {
		return fmt.Errorf("decoding the game's response: %s is no %s", clip(string(res.Body), 40), p.Type())
	}
	return nil
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// lines joins ls, stopping before MaxText with a count of what was left out.
func lines(ls []string) string {
	var b strings.Builder
	for i, l := range ls {
		if b.Len()+len(l)+40 > MaxText {
			fmt.Fprintf(&b, "… and %d more", len(ls)-i)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return b.String()
}

func cardLabel(c players.Card) string {
	if c.Holo {
		return c.Name + " ✨"
	}
	return c.Name
}

func cardList(cs []players.Card) string {
	if len(cs) == 0 {
		return "no cards"
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = cardLabel(c)
	}
	return strings.Join(names, ", ")
}

func plural(n int, one, many string) string { return game.Count(n, one, many) }

// itemNames maps card and pack ids to readable names from inventories.
func itemNames(invs ...players.Inventory) map[string]string {
	m := map[string]string{}
	for _, inv := range invs {
		for _, c := range inv.Cards {
			m[c.ID] = cardLabel(c)
		}
		for _, p := range inv.Packs {
			m[p.ID] = p.Kind
		}
	}
	return m
}

// describeItems says what one side of a trade holds.
func describeItems(it economy.Items, names map[string]string) string {
	var parts []string
	if it.Vertebrae > 0 {
		parts = append(parts, plural(it.Vertebrae, "Vertebra", "Vertebrae"))
	}
	if it.Chips > 0 {
		parts = append(parts, plural(it.Chips, "Chip", "Chips"))
	}
	if !it.Components.IsZero() {
		parts = append(parts, it.Components.String())
	}
	for _, id := range it.Cards {
		if n, ok := names[id]; ok {
			parts = append(parts, n+" ("+id+")")
		} else {
			parts = append(parts, "card "+id)
		}
	}
	for _, id := range it.Packs {
		if n, ok := names[id]; ok {
			parts = append(parts, n+" pack ("+id+")")
		} else {
			parts = append(parts, "pack "+id)
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// whoIn is how a reply in inv names a player: a member of inv's platform
// by their identity (the platform renders it as their mention, which shows
// their name), anyone else by their display name, and their identity only
// when they have none.
func whoIn(ctx context.Context, s *game.Service, inv *Invocation, id string) string {
	return whoFunc(ctx, s, inv)(id)
}

// whoFunc is whoIn for the several players of one reply (each name read
// once).
func whoFunc(ctx context.Context, s *game.Service, inv *Invocation) func(string) string {
	names := s.Names(ctx, inv.Game)
	return func(id string) string {
		if id == "" || strings.HasPrefix(id, inv.Platform+":") {
			return id
		}
		if n := names(id); n != "" {
			return n
		}
		return id
	}
}

// adminNames is a game's admins as people read them: each a mention or a
// display name (whoIn), and an admin who is no player and not of this
// platform, who has no name here, as "an admin on PLATFORM".
func adminNames(ctx context.Context, s *game.Service, inv *Invocation, ids []string) string {
	names := s.Names(ctx, inv.Game)
	ws := make([]string, 0, len(ids))
	for _, id := range ids {
		switch {
		case strings.HasPrefix(id, inv.Platform+":"):
			ws = append(ws, id)
		case names(id) != "":
			ws = append(ws, names(id))
		default:
			platform, _, _ := strings.Cut(id, ":")
			ws = append(ws, "an admin on "+game.Capitalize(platform))
		}
	}
	if len(ws) == 0 {
		return "none"
	}
	return game.AndList(ws)
}
