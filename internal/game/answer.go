package game

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"croupier/internal/words"
)

// How a command's answer reads (Command.Says): the one sentence every edge
// shows for it, the CLI's catalogue verbs, chat's replies and the bridge's,
// as log events read through their component's narration (narrate.go). The
// wire keeps the answer's data; the sentence is made from that data where
// it is shown, with the names the edge knows.

// Answer is a command's answer as its Says reads it: the decoded result
// and a display name for a player id.
type Answer struct {
	// Body is the command's response (Result.Body).
	Body json.RawMessage
	name func(string) string
}

// NewAnswer is the answer body, whose ids read through name (nil: the ids
// themselves, unless the answer names them).
func NewAnswer(body json.RawMessage, name func(string) string) Answer {
	return Answer{Body: body, name: name}
}

// Decode reads the answer into v, a pointer to the command's result type.
func (a Answer) Decode(v any) bool { return json.Unmarshal(a.Body, v) == nil }

// Fields is the answer read as an object of any shape.
func (a Answer) Fields() F {
	m := F{}
	if json.Unmarshal(a.Body, &m) != nil || m == nil {
		return F{}
	}
	return m
}

// Who is player id as people read it: the name the answer gives beside
// it (given), else the edge's name for it, else the id ("someone" for no
// one). An edge's names may cost a read, so the answer's come first.
func (a Answer) Who(id, given string) string {
	if given != "" {
		return given
	}
	return displayName(a.name)(id)
}

// Names is game's display names by id for a sentence (Registry.Says):
// those the command read (known: Result.Names) first, then each other id
// asked for read alone, once; "" for an id that is no current player's.
// It never reads every player: a sentence names a few.
func (s *Service) Names(ctx context.Context, game string, known ...map[string]string) func(string) string {
	names := map[string]string{}
	for _, k := range known {
		maps.Copy(names, k)
	}
	return func(id string) string {
		if n, ok := names[id]; ok {
			return n
		}
		names[id] = ""
		if !ValidIdentity(id) {
			return ""
		}
		it, err := s.store.Get(ctx, PlayerKey(game, id))
		if err != nil || !it.Exists() {
			return ""
		}
		var p struct {
			Name   string `json:"name"`
			Member bool   `json:"member"`
		}
		if json.Unmarshal(it.Data, &p) == nil && p.Member {
			names[id] = p.Name
		}
		return names[id]
	}
}

// Says is how the answer of command name reads. A command whose
// declaration has no Says (a ruleset added without one) reads as its
// summary in the past: never as its data.
func (r *Registry) Says(name string, body json.RawMessage, who func(string) string) string {
	c, ok := r.byName[name]
	if ok && c.Says != nil {
		if s := safeSays(c.Says, NewAnswer(body, who)); s != "" {
			return s
		}
	}
	if t := NewAnswer(body, who).Fields().Str("text"); t != "" {
		return t
	}
	if ok && c.Summary != "" {
		return "Done: " + strings.TrimSuffix(c.Summary, ".") + "."
	}
	return "Done: " + Words(strings.ReplaceAll(name, "-", " ")) + "."
}

func safeSays(f func(Answer) string, a Answer) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	return strings.TrimSpace(f(a))
}

// Duration reads d as people do: "7 days", "48 hours", "1 hour 30
// minutes", "45 seconds", never "168h0m0s" (words.Duration, which the
// pure rules' refusals use too).
func Duration(d time.Duration) string { return words.Duration(d) }

// Amounts reads a map of amounts in the order of keys: "1🌿 and 2💎"
// (symbol gives a key's sign; a key without one reads "2 herbs"), "nothing"
// for none.
func Amounts(m map[string]int, keys []string, symbol func(string) string) string {
	var parts []string
	for _, k := range keys {
		n := m[k]
		if n == 0 {
			continue
		}
		if s := symbol(k); s != "" {
			parts = append(parts, strconv.Itoa(n)+s)
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return AndList(parts)
}

// How the common commands' answers read.

func saysJoin(a Answer) string {
	var v PlayerView
	a.Decode(&v)
	s := fmt.Sprintf("%s joined %s", a.Who(v.ID, v.Name), v.Game)
	if v.PeriodName != "" {
		s += " in " + v.PeriodName
	}
	return s + "."
}

func saysLeave(a Answer) string {
	var v LeaveResult
	a.Decode(&v)
	s := a.Who(v.Player, v.Name) + " left the game"
	if len(v.Lost) > 0 {
		s += ", losing " + AndList(v.Lost)
	}
	if wait := v.RejoinPossibleAt.Sub(v.LeftAt); wait > 0 {
		s += "; they may join again in " + Duration(wait)
	} else {
		s += "; they may join again at once"
	}
	return s + "."
}

func saysRoll(a Answer) string {
	var v RollResult
	a.Decode(&v)
	rolls := make([]string, len(v.Rolls))
	for i, n := range v.Rolls {
		rolls[i] = strconv.Itoa(n)
	}
	s := fmt.Sprintf("Rolled %s: %s = %d", v.Dice, strings.Join(rolls, " + "), v.Total)
	if len(v.Rolls) == 1 {
		s = fmt.Sprintf("Rolled %s: %d", v.Dice, v.Total)
	}
	s += Because(v.Reason)
	if p := v.PeriodLabel(); p != "" {
		s += ", in " + p
	}
	return s + "; the draw is verifiable once the period's seed is revealed."
}

func saysAmend(a Answer) string {
	var v AmendResult
	a.Decode(&v)
	s := fmt.Sprintf("The ruleset is amended to version %d", v.Version)
	if v.Amendment.Summary != "" {
		s += ": " + strings.TrimSuffix(v.Amendment.Summary, ".")
	}
	s += Because(v.Amendment.Reason)
	return s + "."
}

func saysPushed(a Answer) string {
	var v PushedView
	a.Decode(&v)
	s := fmt.Sprintf("The reactions on message %s are recorded: %d 👍 and %d 👎", v.Message.Message, v.UpCount, v.DownCount)
	switch {
	case v.Deleted:
		s += "; the message is deleted, so what it proposes never takes effect"
	case v.Edited:
		s += "; the message is edited, so what it proposes never takes effect"
	}
	return s + "."
}
