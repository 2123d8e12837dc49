// Package reactions is the ReactionSource port: who reacted 👍 and 👎 to a
// chat message, and whether the message was edited or deleted. The seeds
// make reactions the votes (RULINGS G1), and an HTTP-only bot never receives
// them, so the engine reads them at each deadline through this port.
//
// Two adapters implement it:
//
//   - Pushed: reactions and edit/delete events a bridge pushed through the
//     JSON API, stored in the game's partition with the moment of each
//     change, so a tally reads them exactly as they were at its deadline
//     however late it runs (RULINGS T4);
//   - Discord: Discord's REST API read at the deadline (the message, its
//     edited_timestamp, and the users behind each emoji, paged).
package reactions

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"croupier/internal/rules/governance"
)

// MessageRef names a chat message (platform, channel id, message id). It is
// the governance rules' type, so references pass through unchanged.
type MessageRef = governance.MessageRef

// The emoji that are votes.
const (
	Up   = governance.ThumbsUp
	Down = governance.ThumbsDown
)

// Snapshot is what a message looks like at one moment: the platform
// identities (e.g. "discord:80351110224678912") behind its 👍 and 👎
// reactions, sorted and without duplicates, and whether it was edited or
// deleted. A deleted message has no reactions.
type Snapshot struct {
	Up      []string `json:"up"`
	Down    []string `json:"down"`
	Edited  bool     `json:"edited,omitempty"`
	Deleted bool     `json:"deleted,omitempty"`
}

// Votes returns the snapshot's reactions as the governance rules take them.
func (s Snapshot) Votes() governance.Reactions {
	return governance.Reactions{Up: s.Up, Down: s.Down}
}

// Source reads a message's reactions. Implementations must be safe for
// concurrent use. An error means the reactions could not be read (the
// caller retries later); a message that does not exist is not an error but
// a Snapshot with Deleted set.
type Source interface {
	Reactions(ctx context.Context, m MessageRef) (Snapshot, error)
}

// PlatformSource is a Source that reads only one chat platform's messages
// (the Discord reader reads Discord's). Votes on other platforms' messages
// fall back to the reactions a bridge pushed.
type PlatformSource interface {
	Source
	Platform() string
}

// SourceFunc adapts a function to Source.
type SourceFunc func(ctx context.Context, m MessageRef) (Snapshot, error)

// Reactions calls f.
func (f SourceFunc) Reactions(ctx context.Context, m MessageRef) (Snapshot, error) { return f(ctx, m) }

var (
	platformRe = regexp.MustCompile(`^[a-z][a-z0-9-]{0,15}$`)
	idRe       = regexp.MustCompile(`^[A-Za-z0-9._:@-]{1,100}$`)
)

// Check reports what is wrong with a message reference, or nil. Ids may
// not contain '#' (they become part of storage keys) or spaces.
func Check(m MessageRef) error {
	switch {
	case !platformRe.MatchString(m.Platform):
		return fmt.Errorf("platform %q is not a platform name such as \"discord\"", m.Platform)
	case !idRe.MatchString(m.Channel):
		return fmt.Errorf("channel %q is not a channel id (1-100 letters, digits or ._:@-)", m.Channel)
	case !idRe.MatchString(m.Message):
		return fmt.Errorf("message %q is not a message id (1-100 letters, digits or ._:@-)", m.Message)
	}
	return nil
}

// set returns ids sorted, without duplicates or empty strings, never nil.
func set(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
