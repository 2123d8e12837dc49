package game

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"croupier/internal/rules"
)

// The kinds of a payload field (Field.Type), as an edge asks a person for
// them.
const (
	FieldString  = "string"
	FieldInteger = "integer"
	FieldBoolean = "boolean"
	// FieldStrings is a list of strings.
	FieldStrings = "strings"
	// FieldJSON is any other JSON value (an object, a list of objects),
	// given as JSON text.
	FieldJSON = "json"
)

// Field is one member of a command's payload: what an edge that has no
// hand-written form for the command (the CLI, chat) asks for.
type Field struct {
	// Name is its JSON name.
	Name string `json:"name"`
	// Type is one of the Field* kinds.
	Type string `json:"type"`
	// Required: the payload must give it (its JSON tag has no omitempty
	// or omitzero).
	Required bool `json:"required"`
	// What its declaration says (Command.Args): what it is, whether it is
	// given by position, the only values it takes, its bounds, and the
	// name of the source that suggests values.
	Description string   `json:"description,omitempty"`
	Positional  bool     `json:"positional,omitempty"`
	Choices     []Choice `json:"choices,omitempty"`
	Min         *int     `json:"min,omitempty"`
	Max         *int     `json:"max,omitempty"`
	Suggest     string   `json:"suggest,omitempty"`
}

// Arg is the argument f describes, as an edge reads it back from the
// API's command list.
func (f Field) Arg() Arg {
	a := Arg{Name: f.Name, Type: f.Type, Required: f.Required, Description: f.Description, Positional: f.Positional, Choices: f.Choices, Min: f.Min, Max: f.Max}
	if a.Description == "" {
		a.Description = f.Name
	}
	return a
}

// field is the Field an edge is told of a.
func (a Arg) field() Field {
	f := Field{Name: a.Name, Type: a.Type, Required: a.Required, Description: a.Description, Positional: a.Positional, Choices: a.Choices, Min: a.Min, Max: a.Max}
	if a.Suggest != nil {
		f.Suggest = a.Suggest.Name
	}
	if f.Description == f.Name {
		f.Description = "" // undeclared: nothing more than its name
	}
	return f
}

// Fields are the members of the command's payload, in their order in the
// payload type, read from its JSON tags as encoding/json reads them
// (embedded structs flattened, "-" and unexported fields left out).
func (c *Call) Fields() []Field { return fieldsOf(c.PayloadType()) }

var timeType = reflect.TypeFor[time.Time]()

func fieldsOf(t reflect.Type) []Field {
	out := []Field{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" || !f.IsExported() && !f.Anonymous {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && !hasTag && ft.Kind() == reflect.Struct {
			out = append(out, fieldsOf(ft)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		out = append(out, Field{Name: name, Type: fieldType(ft), Required: !omit && f.Type.Kind() != reflect.Pointer})
	}
	return out
}

func fieldType(t reflect.Type) string {
	switch {
	case t == timeType || t.Kind() == reflect.String:
		return FieldString
	case t.Kind() == reflect.Bool:
		return FieldBoolean
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return FieldInteger
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return FieldStrings
	}
	return FieldJSON
}

// CommandInfo describes one command an edge may call in a game, for an
// edge that runs commands it has no hand-written code for.
type CommandInfo struct {
	Name    string `json:"name"`
	Summary string `json:"summary,omitempty"`
	// Help says more than the summary (help NAME).
	Help string `json:"help,omitempty"`
	// Chat is its slash command's path in chat ("turns propose").
	Chat string `json:"chat"`
	// Private: its answer is for the caller alone.
	Private bool `json:"private,omitempty"`
	// Admin: only the game's admins may run it.
	Admin bool `json:"admin"`
	// Platform: a chat platform's or the bridge's report, not a player's
	// command.
	Platform bool `json:"platform"`
	// Optional: the payload may be omitted.
	Optional bool `json:"optional"`
	// Creates: it creates the record its result describes (201 Created).
	Creates bool    `json:"creates"`
	Fields  []Field `json:"fields"`
}

// CommandList is the answer of GET /v1/games/{game}/commands.
type CommandList struct {
	Game     string        `json:"game"`
	Ruleset  string        `json:"ruleset"`
	Commands []CommandInfo `json:"commands"`
}

// Info describes c for an edge (c.Call must be set).
func (c Command) Info() CommandInfo {
	info := CommandInfo{Name: c.Name, Summary: c.Summary, Help: c.Help, Chat: c.ChatName(), Private: c.Private, Admin: c.Admin, Platform: c.Platform,
		Optional: c.Call.Optional, Creates: c.Call.Creates, Fields: []Field{}}
	for _, a := range c.Arguments() {
		info.Fields = append(info.Fields, a.field())
	}
	return info
}

// Commands lists the commands of game's ruleset an edge may call by name
// (POST /v1/games/{game}/commands/{name}), in catalogue order.
func (s *Service) Commands(ctx context.Context, game string) (CommandList, error) {
	if !ValidGameID(game) {
		return CommandList{}, rules.Refuse("invalid_game_id", "%q is not a valid game id.", game)
	}
	id, err := s.RulesetOf(ctx, game)
	if err != nil {
		return CommandList{}, err
	}
	out := CommandList{Game: game, Ruleset: id, Commands: []CommandInfo{}}
	for _, name := range s.CallableIn(id) {
		c, _ := s.CommandNamed(name)
		out.Commands = append(out.Commands, c.Info())
	}
	return out, nil
}

// PayloadOf decodes a command's payload from raw JSON (strictly: a member
// the payload lacks is an error), or returns the zero payload for an empty
// raw when the payload is optional.
func (c *Call) PayloadOf(raw []byte) (any, error) {
	p := c.Payload()
	if len(raw) == 0 && c.Optional {
		return p, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, err
	}
	return p, nil
}
