package announce

import (
	"context"
	"strings"

	"croupier/internal/game"
)

// Line is one announcement line rendered from one log event.
type Line struct {
	Text string
	// Ping lists the identities this line should notify (a your-turn
	// notice pings its player); every other mention renders as a name only.
	Ping []string
}

// Narrator reads log events as sentences: the components' narrations
// (game.Component.Events), through a *game.Service or a *game.Registry.
// The announcer has no texts of its own: the CLI, the tracker and the
// channels say the same thing.
type Narrator interface {
	Announcement(ev game.Event, name func(id string) string) (text string, notify []string, ok bool)
}

// Render returns the lines an entry announces on a platform ("discord",
// "slack"), in event order, with that platform's mentions for its players.
// Events their narration does not announce are returned in skipped, for
// the log.
func Render(n Narrator, platform string, e *game.Entry) (lines []Line, skipped []string) {
	return RenderNamed(n, platform, e, nil)
}

// RenderNamed is Render with the game's display names (names: "" for an
// id without one): a player of another platform, who has no mention here,
// reads as their name rather than their identity.
func RenderNamed(n Narrator, platform string, e *game.Entry, names func(id string) string) (lines []Line, skipped []string) {
	if e == nil || n == nil {
		return nil, nil
	}
	name := func(id string) string { return WhoNamed(platform, id, names) }
	for _, ev := range e.Events {
		text, notify, ok := n.Announcement(ev, name)
		if !ok {
			skipped = append(skipped, ev.Type)
			continue
		}
		lines = append(lines, Line{Text: text, Ping: notify})
	}
	return lines, skipped
}

// Who renders an identity for a platform's chat: a mention of the
// platform's own members (shown by the platform as the member's name), the
// bare id otherwise.
func Who(platform, id string) string { return WhoNamed(platform, id, nil) }

// WhoNamed is Who, naming someone who has no mention on the platform by
// their display name (names; nil or "": the bare id).
func WhoNamed(platform, id string, names func(string) string) string {
	if id == "" {
		return "someone"
	}
	if rest, ok := strings.CutPrefix(id, platform+":"); ok && rest != "" {
		switch platform {
		case "discord", "slack":
			return "<@" + rest + ">"
		}
	}
	if names != nil {
		if n := names(id); n != "" {
			return n
		}
	}
	return "`" + id + "`"
}

// Namer gives a game's display names by id (the game service's Names).
type Namer interface {
	Names(ctx context.Context, game string, known ...map[string]string) func(string) string
}
