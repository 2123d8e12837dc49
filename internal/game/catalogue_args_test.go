package game

import (
	"context"
	"strings"
	"testing"
)

// An argument's value is read one way on every edge: a whole number in its
// bounds, true or false, one of its choices in any case (as declared), a
// comma-separated list; anything else is refused with what it takes.
func TestArgValueReadsAsAPersonTypes(t *testing.T) {
	vote := Arg{Name: "vote", Type: FieldString, Choices: []Choice{{Value: "for"}, {Value: "against"}}}
	herbs := Arg{Name: "component", Type: FieldString, Choices: []Choice{{Label: "🌿 Herbs", Value: "herbs"}, {Label: "💎 Crystals", Value: "crystals"}}}
	points := Arg{Name: "points", Type: FieldInteger, Min: Bound(1), Max: Bound(2)}
	for _, c := range []struct {
		a    Arg
		in   string
		want any
		err  string
	}{
		{vote, "Against", "against", ""},
		{vote, " for ", "for", ""},
		{vote, "maybe", nil, `vote must be for or against, not "maybe"`},
		{herbs, "🌿", "herbs", ""},
		{herbs, "Herbs", "herbs", ""},
		{herbs, "🌿 herbs", "herbs", ""},
		{herbs, "a", nil, `component must be herbs or crystals, not "a"`},
		{points, "2", 2, ""},
		{points, "3", nil, "points must be from 1 to 2, not 3"},
		{points, "two", nil, `points must be a whole number, not "two"`},
		{Arg{Name: "paradox", Type: FieldBoolean}, "maybe", nil, `paradox must be true or false, not "maybe"`},
		{Arg{Name: "paradox", Type: FieldBoolean}, "TRUE", true, ""},
	} {
		got, err := c.a.Value(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s %q: %v %v, want the error %q", c.a.Name, c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s %q: %v %v, want %v", c.a.Name, c.in, got, err, c.want)
		}
	}
	if got, err := (Arg{Name: "invitees", Type: FieldPlayers}).Value("Ada, <@2>,,Cy"); err != nil || strings.Join(got.([]string), "|") != "Ada|<@2>|Cy" {
		t.Errorf("a list: %v %v", got, err)
	}
}

// A declaration that does not describe its payload is refused when the
// registry is built: every edge could then not give all of it.
func TestDeclarationsDescribeTheirPayload(t *testing.T) {
	type payload struct {
		Player string `json:"player"`
		Count  int    `json:"count,omitempty"`
	}
	run := func(*Service, context.Context, Request, payload) (*Result, error) { return nil, nil }
	player := Arg{Name: "player", Type: FieldPlayer, Required: true, Positional: true, Description: "Whom"}
	count := Arg{Name: "count", Type: FieldInteger, Description: "How many"}
	for _, c := range []struct {
		args []Arg
		err  string
	}{
		{[]Arg{player, count}, ""},
		{[]Arg{player}, `its payload's member "count" is no argument`},
		{[]Arg{player, count, {Name: "extra", Type: FieldString, Description: "x"}}, `argument "extra" is no member of its payload`},
		{[]Arg{{Name: "player", Type: FieldInteger, Required: true, Description: "x"}, count}, `argument "player" is of kind integer, but its member is of kind string`},
		{[]Arg{{Name: "player", Type: FieldPlayer, Description: "x"}, count}, `argument "player" is required by its payload`},
		{[]Arg{count, player}, `positional argument "player" follows a named one`},
		{[]Arg{player, {Name: "count", Type: FieldInteger}}, `argument "count" has no description`},
		{[]Arg{player, {Name: "count", Type: FieldInteger, Description: "x", Choices: []Choice{{Value: "one"}}}}, `choice "one" of "count"`},
	} {
		err := checkArgs(Command{Name: "c", Call: Method(run), Args: c.args})
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%v: %v, want %q", c.args, err, c.err)
		}
	}
}
