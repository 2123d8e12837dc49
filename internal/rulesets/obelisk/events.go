package obelisk

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	engine "croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
)

// How the Obelisk's events read (engine.Component.Events). Each decodes
// what it can of the data and says something plain whatever it finds: the
// log outlives the code that wrote it.

// decode reads ev's data into a T, leaving what does not fit zero.
func decode[T any](ev engine.Event) T {
	var v T
	_ = json.Unmarshal(ev.Data, &v)
	return v
}

// who names ev's player, "someone" if it has none.
func who(ev engine.Event, name func(string) string) string {
	if ev.Player == "" {
		return "someone"
	}
	return name(ev.Player)
}

var obeliskEvents = map[string]engine.Narration{
	"task_performed": {Sentence: func(ev engine.Event, name func(string) string) string {
		r := decode[rob.TaskResult](ev)
		if r.Name == "" {
			return who(ev, name) + " performed a task."
		}
		return fmt.Sprintf("%s performed %s.", who(ev, name), r.Summary())
	}},
	"obelisk_observed": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
		o := decode[rob.Observation](ev)
		if o.Roll.N == 0 {
			return who(ev, name) + " observed the Obelisk."
		}
		return observationText(o, who(ev, name))
	}},
	"grebe_summoned": {Announce: true, Sentence: func(ev engine.Event, _ func(string) string) string {
		s := decode[rob.Summon](ev)
		if s.CeasedToExist {
			return fmt.Sprintf("Grebe %d was summoned to aid the Obelisk and ceased to exist at once: the most Grebes aid it already.", s.Number)
		}
		return fmt.Sprintf("Grebe %d was summoned and now aids the Obelisk.", s.Number)
	}},
	"grebe_befriended": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
		d := decode[struct {
			Grebe int `json:"grebe"`
		}](ev)
		return fmt.Sprintf("Grebe %d was befriended by %s and aids them from now on.", d.Grebe, who(ev, name))
	}},
	"components_granted": {Sentence: func(ev engine.Event, name func(string) string) string {
		d := decode[struct {
			Changes []rob.Delta `json:"changes"`
		}](ev)
		var got ruleset.Components
		for _, c := range d.Changes {
			if _, ok := ruleset.Component(c.Component); ok {
				got.Add(c.Component, c.Amount)
			}
		}
		return fmt.Sprintf("%s gained %s on becoming a player.", who(ev, name), got)
	}},
	"components_corrected": {Sentence: func(ev engine.Event, name func(string) string) string {
		d := decode[Corrected](ev)
		admin := "An admin"
		if d.Admin != "" {
			admin = name(d.Admin)
		}
		what := "components"
		if !d.Components.IsZero() {
			what = d.Components.String()
		}
		if d.Revoke {
			return fmt.Sprintf("%s revoked %s from %s%s.", admin, what, who(ev, name), engine.Because(d.Reason))
		}
		return fmt.Sprintf("%s granted %s %s%s.", admin, who(ev, name), what, engine.Because(d.Reason))
	}},
	"components_destroyed": {Sentence: func(ev engine.Event, name func(string) string) string {
		d := decode[struct {
			Destroyed ruleset.Components `json:"destroyed"`
		}](ev)
		if d.Destroyed.IsZero() {
			return fmt.Sprintf("%s ceased to be a player, holding nothing.", who(ev, name))
		}
		return fmt.Sprintf("%s ceased to be a player; what they held (%s) was destroyed.", who(ev, name), d.Destroyed)
	}},
}

var ritualEvents = map[string]engine.Narration{
	"gathering_started": {Sentence: func(ev engine.Event, name func(string) string) string {
		g := decode[rob.Gathering](ev)
		s := fmt.Sprintf("%s started a Gathering of %s (cost %s)", who(ev, name), orWord(g.Ritual.Name, "a ritual"), g.Ritual.Cost)
		if g.Named != "" {
			s += ", naming " + name(g.Named)
		}
		return s + "; it fails at the end of the phase unless completed."
	}},
	"gathering_contributed": {Sentence: func(ev engine.Event, name func(string) string) string {
		m := decode[rob.Moved](ev)
		return fmt.Sprintf("%s contributed %s to a Gathering (%s contributed so far).", who(ev, name), componentWord(m.Component, m.Amount), m.Contributed)
	}},
	"gathering_withdrawn": {Sentence: func(ev engine.Event, name func(string) string) string {
		m := decode[rob.Moved](ev)
		return fmt.Sprintf("%s withdrew %s from a Gathering (%s contributed now).", who(ev, name), componentWord(m.Component, m.Amount), m.Contributed)
	}},
	"gathering_completed": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
		c := decode[rob.Completed](ev)
		var effects []string
		for _, e := range c.Effects {
			if e.Text != "" {
				effects = append(effects, e.Text)
			}
		}
		s := fmt.Sprintf("%s completed a Gathering of %s, spending %s", who(ev, name), orWord(c.Name, orWord(c.Ritual, "a ritual")), c.Spent)
		if len(effects) > 0 {
			s += ": " + strings.Join(effects, "; ")
		}
		return s + "."
	}},
	"gathering_failed": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
		d := decode[struct {
			Name    string      `json:"ritual_name"`
			Changes []rob.Delta `json:"changes"`
		}](ev)
		var back []string
		for _, c := range d.Changes {
			back = append(back, name(c.Player)+" "+componentWord(c.Component, c.Amount))
		}
		s := fmt.Sprintf("The Gathering of %s started by %s was not completed by the end of its phase and failed", orWord(d.Name, "a ritual"), who(ev, name))
		if len(back) > 0 {
			s += "; refunded: " + strings.Join(back, ", ")
		}
		return s + "."
	}},
}

var banishmentEvents = map[string]engine.Narration{
	"player_banished": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
		b := decode[rob.Banished](ev)
		return fmt.Sprintf("%s is banished for %s (by an adopted proposal); they may end it from %s.", who(ev, name), durationWords(b.Duration),
			b.EndsAt.UTC().Format("Mon 2 Jan 15:04 MST"))
	}},
	"banishment_ended": {Announce: true, Sentence: func(ev engine.Event, name func(string) string) string {
		return who(ev, name) + " ended their banishment."
	}},
}

// durationWords is a duration of the log's data ("168h0m0s") in words
// ("7 days").
func durationWords(s string) string {
	if d, err := time.ParseDuration(s); err == nil {
		return engine.Duration(d)
	}
	return orWord(s, "a while")
}

func orWord(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// componentWord says n of component id, e.g. "1💎".
func componentWord(id string, n int) string {
	if c, ok := ruleset.Component(id); ok {
		return fmt.Sprintf("%d%s", n, c.Emoji)
	}
	return fmt.Sprintf("%d %s", n, orWord(id, "components"))
}
