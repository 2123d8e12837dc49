package game

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

// A request for justice may name the moment it disputes (issue 25): the
// rules in effect then are what the Judge considers, as seed 003 says of
// its Requests for Judgment. In the Gilded Hall and the Obelisk "the
// rules" are the ruleset as amended (META's amendments), so the request's
// views say how many amendments had applied then and which came since.

// Disputed is the moment a request disputes, as a read of the past names
// it (Moment: an RFC 3339 time, or before:<entry> / after:<entry>), and its
// time. Amendments, for a moment named by an entry, is how many of the
// game's amendments had applied at it (read from the log's replay: several
// may share one time).
type Disputed struct {
	Moment     string    `json:"moment"`
	At         time.Time `json:"at"`
	Amendments *int      `json:"amendments,omitempty"`
}

// DisputedMoment reads the moment a request names: a time, a log entry's
// id (the moment just before it: the action the entry logs met the rules
// before it), or before:<entry> / after:<entry>; "" is none (nil: the
// moment of the request). It is refused as a read of the past would be.
func (s *Service) DisputedMoment(ctx context.Context, game, at string) (*Disputed, error) {
	m, when, past, err := s.DisputedPast(ctx, game, at)
	if err != nil || when.IsZero() {
		return nil, err
	}
	d := &Disputed{Moment: m.String(), At: when}
	if past == nil {
		return d, nil
	}
	vt, err := past.View(ctx, game)
	if err != nil {
		return nil, err
	}
	n := len(vt.Meta.Amendments)
	d.Amendments = &n
	return d, nil
}

// DisputedPast reads the moment a request disputes, as DisputedMoment
// takes it ("": none, a zero time), and its time; for a moment named by a
// log entry, also the game as it was then (read once: the past at an
// entry is the entry's time), for what the request keeps of it.
func (s *Service) DisputedPast(ctx context.Context, game, at string) (Moment, time.Time, *Service, error) {
	at = strings.TrimSpace(at)
	if at == "" {
		return Moment{}, time.Time{}, nil, nil
	}
	if _, err := ulid.ParseStrict(strings.ToUpper(at)); err == nil {
		at = "before:" + at // the action an entry logs met the rules before it
	}
	m, err := ParseMoment(at)
	if err != nil {
		return Moment{}, time.Time{}, nil, err
	}
	if m.Entry == "" {
		when, err := s.MomentAt(ctx, game, m)
		return m, when, nil, err
	}
	past, asOf, err := s.Past(ctx, game, m)
	if err != nil {
		return Moment{}, time.Time{}, nil, err
	}
	return m, asOf.At, past, nil
}

// RulesetThen is the ruleset in effect at a request's disputed moment:
// how many of the game's amendments had applied (its version then, 0 for
// the ruleset as the game was created with it), and those made since.
type RulesetThen struct {
	Moment  string      `json:"moment"`
	At      time.Time   `json:"at"`
	Amended int         `json:"amended"`
	Version int         `json:"version,omitempty"`
	Since   []Amendment `json:"amended_since"`
}

// rulesetThen is the ruleset in effect at d (nil: at the request's
// moment, made) among the game's amendments.
func rulesetThen(d *Disputed, made time.Time, ams []Amendment) *RulesetThen {
	rt := &RulesetThen{Moment: Moment{At: made}.String(), At: made, Since: []Amendment{}}
	n := -1
	if d != nil {
		rt.Moment, rt.At = d.Moment, d.At
		if d.Amendments != nil {
			n = min(*d.Amendments, len(ams))
		}
	}
	if n < 0 {
		n = 0
		for n < len(ams) && !ams[n].At.After(rt.At) {
			n++
		}
	}
	rt.Amended = n
	if n > 0 {
		rt.Version = ams[n-1].Version
	}
	for _, a := range ams[n:] {
		rt.Since = append(rt.Since, Amendment{Version: a.Version, Summary: a.Summary, At: a.At, Source: a.Source, Reason: a.Reason, By: a.By})
	}
	return rt
}

// Words say it in a sentence: "Rules in effect at Tue 1 Dec 18:00 UTC:
// the ruleset as amended 2 times (version 3); amended since: ...".
func (r RulesetThen) Words() string {
	s := "Rules in effect at " + r.At.UTC().Format("Mon 2 Jan 2006 15:04 UTC") + ": "
	switch r.Amended {
	case 0:
		s += "the ruleset as the game was created with it"
	default:
		s += fmt.Sprintf("the ruleset as amended %s (version %d)", Count(r.Amended, "time", "times"), r.Version)
	}
	if len(r.Since) > 0 {
		var what []string
		for _, a := range r.Since {
			what = append(what, Clip(a.Summary, 120))
		}
		s += "; amended since: " + strings.Join(what, "; ")
	}
	return s + "."
}

// withRulesThen is rec with the ruleset in effect at its disputed moment.
func withRulesThen(rec JusticeRecord, ams []Amendment) JusticeRecord {
	rec.RulesInEffect = rulesetThen(rec.Disputed, rec.Request.CreatedAt, ams)
	return rec
}
