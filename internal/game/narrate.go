package game

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"croupier/internal/rules/calendar"
	"croupier/internal/words"
)

// The one renderer of log events (Component.Events): the CLI's log, the
// tracker's log page and the announcer all call Sentence or Announcement,
// so an event reads the same everywhere, with display names from the caller
// (a name for the CLI and the tracker, a mention for a chat platform).

// Sentence is how ev reads to a person. A type no component of this
// registry narrates (a module it does not run, or an event since removed)
// still reads as a plain sentence, never as its data.
func (r *Registry) Sentence(ev Event, name func(id string) string) string {
	nm := displayName(name)
	n, ok := r.events[ev.Type]
	if !ok || n.Sentence == nil {
		return unnarrated(ev, nm)
	}
	return safeSentence(n, ev, nm)
}

// Announcement is ev's text for a game's bound channels and whom it
// notifies; ok is false when the event is not announced.
func (r *Registry) Announcement(ev Event, name func(id string) string) (text string, notify []string, ok bool) {
	n, found := r.events[ev.Type]
	if !found || !n.Announce || n.Sentence == nil || (n.Notable != nil && !safeBool(n.Notable, ev)) {
		return "", nil, false
	}
	text = safeSentence(n, ev, displayName(name))
	if n.Notify != nil {
		func() {
			defer func() { _ = recover() }()
			notify = n.Notify(ev)
		}()
	}
	return text, notify, text != ""
}

// safeSentence runs a narration, falling back to the plain sentence if it
// panics on data of a shape it did not expect (a log outlives its code).
func safeSentence(n Narration, ev Event, name func(string) string) (s string) {
	defer func() {
		if recover() != nil || strings.TrimSpace(s) == "" {
			s = unnarrated(ev, name)
		}
	}()
	return n.Sentence(ev, name)
}

func safeBool(f func(Event) bool, ev Event) (b bool) {
	defer func() {
		if recover() != nil {
			b = false
		}
	}()
	return f(ev)
}

// displayName wraps a caller's name function: never nil, "someone" for no
// one, the id itself when the caller knows no name for it.
func displayName(name func(string) string) func(string) string {
	return func(id string) string {
		if id == "" {
			return "someone"
		}
		if name != nil {
			if n := name(id); n != "" {
				return n
			}
		}
		return id
	}
}

// unnarrated is the sentence of an event no narration reads: its type in
// words ("Ada: dice rolled.").
func unnarrated(ev Event, name func(string) string) string {
	what := strings.ReplaceAll(ev.Type, "_", " ")
	if what == "" {
		what = "something happened"
	}
	if ev.Player != "" {
		return name(ev.Player) + ": " + what + "."
	}
	return Capitalize(what) + "."
}

// F is an event's data read as an object of any shape: a narration reads
// the fields it knows and finds zero values for the rest.
type F map[string]any

// Fields decodes ev's data (an empty F if it is not an object).
func Fields(ev Event) F {
	m := F{}
	if json.Unmarshal(ev.Data, &m) != nil || m == nil { // "null" decodes to nil
		return F{}
	}
	return m
}

// Str is the first of keys holding a non-empty string.
func (f F) Str(keys ...string) string {
	for _, k := range keys {
		if s, ok := f[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// Int is key's number (0 if it is not one).
func (f F) Int(key string) int {
	n, _ := f[key].(float64)
	return int(n)
}

// Has reports whether key holds a number.
func (f F) Has(key string) bool {
	_, ok := f[key].(float64)
	return ok
}

// Bool is key's boolean.
func (f F) Bool(key string) bool {
	b, _ := f[key].(bool)
	return b
}

// Obj is key's object (empty if it is not one).
func (f F) Obj(key string) F {
	if m, ok := f[key].(map[string]any); ok {
		return F(m)
	}
	return F{}
}

// Strs is key's list of strings (other elements left out).
func (f F) Strs(key string) []string {
	l, _ := f[key].([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// List is key's list of objects (other elements left out).
func (f F) List(key string) []F {
	l, _ := f[key].([]any)
	out := make([]F, 0, len(l))
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, F(m))
		}
	}
	return out
}

// Len is the length of key's list.
func (f F) Len(key string) int {
	l, _ := f[key].([]any)
	return len(l)
}

// NameList is "Ada, Bob and Cy" ("nobody" for none).
func NameList(name func(string) string, ids []string) string {
	if len(ids) == 0 {
		return "nobody"
	}
	ns := make([]string, len(ids))
	for i, id := range ids {
		ns[i] = name(id)
	}
	return AndList(ns)
}

// AndList joins words as a sentence does: "a", "a and b", "a, b and c".
func AndList(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// Count is "1 card" or "3 cards" (words.Count).
func Count(n int, one, many string) string { return words.Count(n, one, many) }

// Clip shortens s to n characters, marking the cut.
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// EndSentence ends s with a full stop unless it ends a sentence already,
// inside a closing quote too: `asks "Is it fair?"`, `enact "Rule 9."`,
// never "it.." or `"Rule 9.".`.
func EndSentence(s string) string {
	s = strings.TrimRight(s, " ")
	t := strings.TrimRight(s, `"”'’)`)
	if s == "" || strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "?") || strings.HasSuffix(t, "…") {
		return s
	}
	return s + "."
}

// Capitalize upper-cases s's first letter.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// PeriodWords is how a period reads in a sentence: a turns period by its
// turn in the game's zone (calendar.PeriodWords: "the first half of the
// turn beginning Mon 9 Mar 22:00 CDT"), never by its calendar key; a
// phase as "period 2026-W10-I".
func PeriodWords(id string) string {
	if w := calendar.PeriodWords(id); w != id {
		return w
	}
	return "period " + id
}

// Words turns a code ("last_standing") into words ("last standing").
func Words(code string) string { return strings.ReplaceAll(code, "_", " ") }

// Because is " (reason)" or "".
func Because(reason string) string {
	if reason == "" {
		return ""
	}
	return " (" + Clip(reason, 200) + ")"
}

// commonEvents narrate what the common component emits: the game's
// creation and calendar, joining and leaving, dice, bindings, amendments
// and the winner.
func commonEvents() map[string]Narration {
	return map[string]Narration{
		"game_created": {Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			s := "The game was created"
			if n := f.Str("name"); n != "" {
				s += fmt.Sprintf(" as %q", n)
			}
			if r := f.Str("ruleset"); r != "" {
				s += " with the " + r + " ruleset"
			}
			if se := f.Str("season"); se != "" {
				s += "; the season is " + se
			}
			return s + "."
		}},
		// A checkpoint is no news for the players: logged, not announced.
		"checkpoint_written": {Sentence: checkpointNarration},
		"seed_committed": {Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("The seed of %s was committed (sha256 %s).", PeriodWords(Or(f.Str("period"), "?")), Or(f.Str("commitment"), "unknown"))
		}},
		"seed_revealed": {Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("The seed of %s was revealed: %s.", PeriodWords(Or(f.Str("period"), "?")), Or(f.Str("seed"), "unknown"))
		}},
		"player_joined": {Sentence: func(ev Event, name func(string) string) string {
			return name(ev.Player) + " joined the game."
		}},
		"player_left": {Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			s := name(ev.Player) + " left the game"
			if n := f.Len("withdrawn_trades"); n > 0 {
				s += "; " + Count(n, "open trade was", "open trades were") + " withdrawn"
			}
			return s + "."
		}},
		"dice_rolled": {Sentence: func(ev Event, name func(string) string) string {
			var r RollResult
			_ = json.Unmarshal(ev.Data, &r)
			parts := make([]string, len(r.Rolls))
			for i, v := range r.Rolls {
				parts[i] = strconv.Itoa(v)
			}
			s := fmt.Sprintf("%s rolled %s: ", name(ev.Player), Or(r.Dice, "dice"))
			switch len(r.Rolls) {
			case 0:
				s += "no dice, total 0"
			case 1:
				s += parts[0]
			default:
				s += strings.Join(parts, " + ") + " = " + strconv.Itoa(r.Total)
			}
			return s + Because(r.Reason) + "."
		}},
		"game_bound": {Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			s := "The game was bound to a " + Capitalize(Or(f.Str("platform"), "chat")) + " space"
			if p := f.Str("previous_game"); p != "" {
				s += " (it was bound to " + p + " before)"
			}
			return s + "."
		}},
		"ruleset_amended": {Sentence: func(ev Event, name func(string) string) string {
			var a Amendment
			_ = json.Unmarshal(ev.Data, &a)
			s := "The ruleset was amended"
			if a.Version > 0 {
				s += fmt.Sprintf(" to version %d", a.Version)
			}
			if a.By != "" {
				s += " by " + name(a.By)
			}
			s += Because(a.Reason)
			if a.Summary != "" {
				s += ": " + Clip(a.Summary, 300)
			}
			return s + "."
		}},
		"game_won": {Announce: true, Notify: subject, Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			s := "🏆 " + name(ev.Player) + " has won the game"
			if c := f.Int("chips"); c > 0 {
				s += fmt.Sprintf(", holding %s", Count(c, "Chip", "Chips"))
			}
			return s + "!"
		}},
		"period_ended": {Announce: true, Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			ended, started := Or(f.Str("ended"), "?"), f.Str("started")
			s := Capitalize(PeriodWords(ended)) + " ended"
			switch {
			case started != "" && calendar.PeriodWords(started) != started:
				s += "; " + calendar.PeriodWords(started) + " began" // a turns period says its part itself
			case started != "":
				s += "; " + started
				if k := f.Str("kind"); k != "" {
					s += " (" + k + ")"
				}
				s += " began"
			}
			if _, ok := f["active"]; ok {
				s += fmt.Sprintf(". Active (%d): %s. Inactive (%d): %s", listCount(f, "active"), sample(f, "active", name),
					listCount(f, "inactive"), sample(f, "inactive", name))
			}
			return s + "."
		}},
		"season_changed": {Announce: true, Notable: func(ev Event) bool { return Fields(ev).Str("to") != "" }, Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("The season turns: %s begins (%s is over).", Or(f.Str("to"), "a new season"), Or(f.Str("from"), "the last"))
		}},
	}
}

// subject notifies the event's player.
func subject(ev Event) []string {
	if ev.Player == "" {
		return nil
	}
	return []string{ev.Player}
}

// listCount is a sampled list's count: the one recorded beside it
// ("<key>_count"), or (entries written before counts were) its length.
func listCount(f F, key string) int {
	if f.Has(key + "_count") {
		return f.Int(key + "_count")
	}
	return f.Len(key)
}

// sample names a sample of a longer list, saying how many more there are.
func sample(f F, key string, name func(string) string) string {
	ids := f.Strs(key)
	s := NameList(name, ids)
	if more := listCount(f, key) - len(ids); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// Or is s, or alt when s is empty.
func Or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
