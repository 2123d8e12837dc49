package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	moments "croupier/internal/when"
)

// The views people look at a game with (its status, a player's holdings
// and standing, its rules, a case) read it as of any past moment too
// (issue 25): a command of the table marked Past takes the option at,
// added here once for all of them (add), and the Router runs its handler
// over the service game.Service.Past returns, which answers every query
// as the log says things stood then. The handlers themselves know nothing
// of it: what they read is the past.

// AtOption is the option naming the moment a Past view looks at.
const AtOption = "at"

// atOption is the at option as every Past view declares it: Discord shows
// at most 100 characters of its description, so it gives the kinds by
// example; a refusal says the whole grammar (moments.Grammar, internal/when).
var atOption = Option{Name: AtOption,
	Description: `A past moment: "2026-12-01 18:00", "2 days ago", "yesterday 18:00", RFC 3339, or a log entry's id`,
	Complete:    Completion(suggestMoments.Name), suggest: &suggestMoments}

// withAt is c with the at option when it is a Past view.
func withAt(c Command) Command {
	if c.Past && !slices.ContainsFunc(c.Options, func(o Option) bool { return o.Name == AtOption }) {
		c.Options = append(slices.Clone(c.Options), atOption)
	}
	return c
}

// readMoment reads the at option's text: a log entry's id (the moment
// just after it), before:<id> or after:<id>, or a time as people type it
// (when.Parse, a time without a zone in the game's zone).
func readMoment(text string, now time.Time, zone *time.Location) (game.Moment, error) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "before:") || strings.HasPrefix(text, "after:") {
		return game.ParseMoment(text)
	}
	if len(text) == 26 && !strings.ContainsAny(text, " :-") {
		if m, err := game.ParseMoment("after:" + text); err == nil {
			return m, nil
		}
	}
	t, err := moments.Parse(text, now, zone)
	if err != nil {
		return game.Moment{}, refusef("bad_moment", "Option at: %s, or a log entry's id (the moment after it; before:<id> for the moment before it).", err.Error())
	}
	return game.Moment{At: t.UTC()}, nil
}

// pastView runs cmd's handler over the game as it was at the moment the
// at option names, and heads its reply with that moment in the game's
// zone and words. The reply has no buttons or menus: they act on the game
// now, which the view does not show.
func pastView(ctx context.Context, cmd Command, s *game.Service, inv *Invocation) (*Reply, error) {
	// The game as it is now: its zone, when it began (this read of META
	// also checks the space is still bound to it).
	g, err := s.Game(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	zone := calendar.Location(g.Zone)
	say := func(t time.Time) string { return calendar.When(zone, t) }
	now := s.Clock().Now()
	m, err := readMoment(inv.Opt(AtOption), now, zone)
	if err != nil {
		return nil, err
	}
	if m.Entry == "" {
		// Said in the game's zone, before the engine says it in UTC.
		if m.At.After(now) {
			return nil, refusef("moment_in_future", "%s is in the future (it is now %s): a view shows the game as it was, not as it will be.", say(m.At), say(now))
		}
		if m.At.Before(g.CreatedAt) {
			return nil, refusef("before_game", "%s is before the game %s began (%s): there was no game to show then.", say(m.At), gameName(g), say(g.CreatedAt))
		}
	}
	past, asOf, err := s.Past(ctx, inv.Game, m)
	var re *rules.Error
	if errors.As(err, &re) && re.Code == "entry_not_found" {
		return nil, refusef("entry_not_found", "The log of %s has no entry %s: the at option suggests the latest entries, and the tracker's log gives every entry's id.", gameName(g), m.Entry)
	}
	if err != nil {
		return nil, err
	}
	// The past's META lists the spaces bound then, not now: the binding
	// was checked above, so the view runs unchecked.
	pctx := game.WithBoundCall(ctx, &game.BoundCall{})
	rep, err := cmd.Handler(pctx, past, inv)
	if err != nil {
		return nil, err
	}
	if rep == nil {
		rep = &Reply{}
	}
	head := "As of " + say(asOf.At)
	if then, err := past.Game(pctx, inv.Game); err == nil {
		if w := periodThen(then); w != "" {
			head += " (" + w + ")"
		}
	}
	rep.Text = strings.TrimSpace(head + ".\n" + rep.Text)
	rep.Text = clip(rep.Text, MaxText)
	rep.Buttons, rep.Selects, rep.Shared = nil, nil, nil
	return rep, nil
}

// periodThen is the game's period at the moment as its players name it
// ("turn 1-2, first half", "Calm Spring, period 2026-W49-I"), without
// when it ends (the moment is the point, not what followed).
func periodThen(g game.GameView) string {
	if g.Period.Name != "" {
		name, _, _ := strings.Cut(g.Period.Name, ", until ")
		return name
	}
	if g.Period.ID == "" {
		return ""
	}
	p := "period " + g.Period.ID
	if g.Season != "" {
		p = g.Season + ", " + p
	}
	return p
}

// gameName is the game as a sentence names it.
func gameName(g game.GameView) string {
	if g.Name != "" && g.Name != g.ID {
		return fmt.Sprintf("%s (%s)", g.Name, g.ID)
	}
	return g.ID
}

// suggestMoments suggests moments for the at option as a person types
// (Discord's autocompletion): what they typed, read, so they see which
// moment it is before they send it; else the moments just after the
// game's latest log entries, each said by what it did, newest first.
var suggestMoments = game.Suggest{Name: "past-moments", List: func(ctx context.Context, s *game.Service, q game.SuggestQuery) ([]game.Choice, error) {
	ruleset, err := s.RulesetOf(ctx, q.Game) // cached: a keystroke reads nothing
	if err != nil {
		return nil, err
	}
	zone := s.Zone(ruleset)
	now := s.Clock().Now()
	typed := strings.TrimSpace(q.Partial)
	if typed != "" {
		m, err := readMoment(typed, now, zone)
		if err != nil {
			return nil, nil
		}
		label := typed
		if m.Entry == "" {
			label = clip(typed, 60) + ": " + calendar.When(zone, m.At)
		}
		return []game.Choice{{Label: label, Value: clip(typed, 100)}}, nil
	}
	g, err := s.Game(ctx, q.Game)
	if err != nil {
		return nil, err
	}
	entries, err := latestEntries(ctx, s, q.Game, g.CreatedAt, now)
	if err != nil {
		return nil, err
	}
	name := playerNames(ctx, s, q.Game, nil)
	var out []game.Choice
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		out = append(out, game.Choice{Label: clip("After "+calendar.When(zone, e.At)+": "+s.Sentence(e.Events[0], name), 100), Value: e.ID})
	}
	// Then a few spans, each said as the time it reads as, while the game
	// was already there.
	for _, span := range []string{"1 hour ago", "yesterday", "2 days ago", "1 week ago"} {
		if t, err := moments.Parse(span, now, zone); err == nil && !t.Before(g.CreatedAt) && len(out) < MaxChoices {
			out = append(out, game.Choice{Label: span + ": " + calendar.When(zone, t), Value: span})
		}
	}
	return out, nil
}}

// latestEntries are game's latest log entries that did something (their
// events), oldest first, at most enough for the suggestions (MaxChoices):
// read over a short span back from now first, a longer one only when it
// holds too few, so a busy game's suggestions read its last minutes, not
// its day.
func latestEntries(ctx context.Context, s *game.Service, g string, created, now time.Time) ([]*game.Entry, error) {
	var ring []*game.Entry
	for _, back := range []time.Duration{10 * time.Minute, 2 * time.Hour, momentsLookBack} {
		from := now.Add(-back)
		if from.Before(created) {
			from = created
		}
		ring = ring[:0]
		err := s.LogRange(ctx, g, from, now, func(e *game.Entry) error {
			if len(e.Events) > 0 {
				if len(ring) == MaxChoices {
					ring = append(ring[:0], ring[1:]...)
				}
				ring = append(ring, e)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(ring) >= MaxChoices-4 || !from.After(created) {
			break
		}
	}
	return ring, nil
}

// momentsLookBack bounds the log read for suggestions: the latest day of
// a game's entries is what a person most often asks about, and a busy
// game's whole log is no suggestion list.
const momentsLookBack = 24 * time.Hour
