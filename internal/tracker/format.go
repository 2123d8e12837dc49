package tracker

import (
	"fmt"
	"strings"

	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
)

// cardURL is the SVG image of a card, holographic or not, as
// internal/cardart serves it.
func cardURL(name string, holo bool) string {
	s := ruleset.CardSlug(name)
	if holo {
		s += "-holo"
	}
	return CardsBase + "/" + s + ".svg"
}

// calendarText says a ruleset's calendar as people do, never its data's
// key (chicago-turns): the turns of seed 003 in US Central time (RULINGS
// T3), or the UTC phases (T1).
func calendarText(kind string) string {
	switch kind {
	case ruleset.CalendarChicagoTurns:
		return "turns in US Central time, from 22:00 on Monday to 22:00 on Saturday"
	case ruleset.CalendarUTCPhases:
		return "phases in UTC, Phase I from Monday and Phase II from Friday"
	}
	return kind
}

// cardAlt is a card image's alternative text: its name, and "holographic"
// when it is.
func cardAlt(name string, holo bool) string {
	if holo {
		return name + ", holographic"
	}
	return name
}

// name is a player's display name (the id when they have none, or are
// no longer a player).
func (l *layout) name(id string) string {
	if n := l.Names[id]; n != "" {
		return n
	}
	return id
}

// member: id is one of the game's current players.
func (l *layout) member(id string) bool {
	_, ok := l.Names[id]
	return ok
}

// pastTense words each move kind for the replay ("Ada played 2 of Hearts").
var pastTense = map[string]string{
	exoptosis.MoveRaise: "raised", exoptosis.MoveBet: "bet", exoptosis.MoveMatch: "matched the bet",
	exoptosis.MoveDecline: "declined the bet", exoptosis.MovePass: "passed", exoptosis.MovePlay: "played",
	exoptosis.MoveAdd: "added", exoptosis.MoveGiver: "asked for a card from", exoptosis.MoveGive: "gave",
	exoptosis.MoveTarget: "chose", exoptosis.MoveForfeit: "forfeited", exoptosis.MoveTerminate: "consented to end the match",
}

// moveText describes one step of a match in words.
func moveText(l *layout, e exoptosis.LogEntry) string {
	name := func(id string) string {
		if n := l.Names[id]; n != "" {
			return n
		}
		return id
	}
	if e.Timeout {
		return "The deadline passed: the match acted for the absent player."
	}
	mv := e.Move
	if mv == nil {
		return "(no move)"
	}
	switch mv.Kind {
	case exoptosis.MoveSelect:
		if len(mv.Cards) == 0 {
			return name(mv.Actor) + " selected a hand (hidden until the hands are revealed)."
		}
		return fmt.Sprintf("%s selected %s.", name(mv.Actor), strings.Join(mv.Cards, ", "))
	}
	verb, ok := pastTense[mv.Kind]
	if !ok {
		verb = mv.Kind
	}
	parts := []string{name(mv.Actor), verb}
	if mv.Card != "" {
		parts = append(parts, mv.Card)
	}
	if len(mv.Cards) > 0 {
		parts = append(parts, strings.Join(mv.Cards, ", "))
	}
	if mv.Amount != 0 {
		parts = append(parts, "to", fmt.Sprint(mv.Amount), "Chips")
	}
	if mv.Target != "" {
		parts = append(parts, "→", name(mv.Target))
	}
	if len(mv.Targets) > 0 {
		names := make([]string, len(mv.Targets))
		for i, id := range mv.Targets {
			names[i] = name(id)
		}
		parts = append(parts, "→", strings.Join(names, ", "))
	}
	return strings.Join(parts, " ") + "."
}
