package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets"
)

const commandsPrefix = "/v1/games/{game}/commands/"

// TestOpenAPICommandsMatchTheCatalogue: every command of the catalogue an
// edge may call is documented on the one route shape, with a request schema
// whose properties are its payload type's JSON fields, of the same types,
// and no others (the route decodes strictly); the body is required unless
// the payload is optional; the success status is 201 for a command that
// creates a record and 200 otherwise. No other command is documented there.
func TestOpenAPICommandsMatchTheCatalogue(t *testing.T) {
	c, err := apitest.Load(httpapi.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	paths := c.Doc().Paths.Map()
	callable := map[string]bool{}
	for _, cmd := range rulesets.Registry().Catalogue() {
		path := commandsPrefix + cmd.Name
		item := paths[path]
		if cmd.Call == nil {
			if item != nil {
				t.Errorf("%s is documented, but %s is no command an edge calls by name", path, cmd.Name)
			}
			continue
		}
		callable[cmd.Name] = true
		if item == nil || item.Post == nil {
			t.Errorf("the document lacks POST %s", path)
			continue
		}
		op := item.Post
		if op.RequestBody == nil || op.RequestBody.Value == nil {
			t.Errorf("POST %s documents no request body", path)
			continue
		}
		rb := op.RequestBody.Value
		if rb.Required == cmd.Call.Optional {
			t.Errorf("POST %s: the body is documented required=%v, but the payload is optional=%v", path, rb.Required, cmd.Call.Optional)
		}
		mt := rb.Content.Get("application/json")
		if mt == nil || mt.Schema == nil {
			t.Errorf("POST %s documents no application/json schema", path)
			continue
		}
		for _, err := range matchSchema(cmd.Call.PayloadType(), mt.Schema.Value, "body") {
			t.Errorf("POST %s: %v", path, err)
		}
		want, other := http.StatusOK, http.StatusCreated
		if cmd.Call.Creates {
			want, other = other, want
		}
		if op.Responses.Status(want) == nil || op.Responses.Status(other) != nil {
			t.Errorf("POST %s: the success is documented as %v, want %d", path, successes(op), want)
		}
	}
	for p := range paths {
		if name, ok := strings.CutPrefix(p, commandsPrefix); ok && !callable[name] {
			t.Errorf("%s is documented, but the catalogue has no command %q an edge may call", p, name)
		}
	}
	if len(callable) < 40 {
		t.Fatalf("only %d callable commands in the catalogue", len(callable))
	}
}

func successes(op *openapi3.Operation) []string {
	var out []string
	for code := range op.Responses.Map() {
		if strings.HasPrefix(code, "2") {
			out = append(out, code)
		}
	}
	slices.Sort(out)
	return out
}

var (
	rawJSON  = reflect.TypeFor[json.RawMessage]()
	timeType = reflect.TypeFor[time.Time]()
)

// matchSchema compares a Go type, as encoding/json reads it, with a schema.
func matchSchema(typ reflect.Type, s *openapi3.Schema, at string) []error {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if s == nil {
		return []error{fmt.Errorf("%s: no schema", at)}
	}
	// A schema that only wraps another (allOf: [$ref], for a description).
	for s.Type.IsEmpty() && len(s.AllOf) == 1 && len(s.Properties) == 0 {
		s = s.AllOf[0].Value
	}
	if typ == rawJSON {
		return nil // any JSON; the service checks it (e.g. a ruleset change)
	}
	want := ""
	switch {
	case typ == timeType, typ.Kind() == reflect.String:
		want = "string"
	case typ.Kind() == reflect.Bool:
		want = "boolean"
	case typ.Kind() >= reflect.Int && typ.Kind() <= reflect.Uint64:
		want = "integer"
	case typ.Kind() == reflect.Float32, typ.Kind() == reflect.Float64:
		want = "number"
	case typ.Kind() == reflect.Slice, typ.Kind() == reflect.Array:
		want = "array"
	case typ.Kind() == reflect.Map, typ.Kind() == reflect.Struct:
		want = "object"
	default:
		return []error{fmt.Errorf("%s: Go type %s has no JSON schema type", at, typ)}
	}
	if !s.Type.Is(want) {
		return []error{fmt.Errorf("%s: Go %s is JSON %s, the schema says %v", at, typ, want, s.Type.Slice())}
	}
	switch want {
	case "array":
		if s.Items == nil {
			return []error{fmt.Errorf("%s: an array schema without items", at)}
		}
		return matchSchema(typ.Elem(), s.Items.Value, at+"[]")
	case "object":
		if typ.Kind() == reflect.Map {
			if s.AdditionalProperties.Schema == nil {
				return []error{fmt.Errorf("%s: Go %s is a map, the schema has no additionalProperties schema", at, typ)}
			}
			return matchSchema(typ.Elem(), s.AdditionalProperties.Schema.Value, at+"{}")
		}
		if typ == timeType {
			return nil
		}
		var errs []error
		if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
			errs = append(errs, fmt.Errorf("%s: the schema allows unknown members, the route refuses them (additionalProperties: false)", at))
		}
		fields := jsonFields(typ)
		for name, ft := range fields {
			ps := s.Properties[name]
			if ps == nil {
				errs = append(errs, fmt.Errorf("%s: the payload's field %q is not in the schema", at, name))
				continue
			}
			errs = append(errs, matchSchema(ft, ps.Value, at+"."+name)...)
		}
		for name := range s.Properties {
			if _, ok := fields[name]; !ok {
				errs = append(errs, fmt.Errorf("%s: the schema's property %q is no field of %s", at, name, typ))
			}
		}
		for _, name := range s.Required {
			if _, ok := fields[name]; !ok {
				errs = append(errs, fmt.Errorf("%s: the schema requires %q, no field of %s", at, name, typ))
			}
		}
		return errs
	}
	return nil
}

// jsonFields are the members encoding/json reads into a struct type, with
// their types (embedded structs' fields promoted, as encoding/json does).
func jsonFields(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for n, t := range jsonFields(ft) {
					if _, taken := out[n]; !taken {
						out[n] = t
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// TestListCommands: GET /v1/games/{game}/commands answers, as documented,
// the commands of the game's ruleset an edge may call, each with its
// payload's fields as the route decodes them; another ruleset's commands
// and the scheduler's are not among them.
func TestListCommands(t *testing.T) {
	e := withGame(t)
	e.mustStatus(e.Post("/v1/games", "create-ob", game.CreateGame{ID: "ob", Ruleset: "obelisk"}), http.StatusCreated)
	list := func(g string) map[string]game.CommandInfo {
		var v game.CommandList
		e.mustStatus(e.Get("/v1/games/"+g+"/commands"), http.StatusOK).Decode(t, &v)
		out := map[string]game.CommandInfo{}
		for _, c := range v.Commands {
			out[c.Name] = c
		}
		return out
	}
	hall, ob := list(gameID), list("ob")
	for name, c := range hall {
		if c.Summary == "" {
			t.Errorf("%s has no summary (game.Command.Summary: what an edge without text of its own shows)", name)
		}
	}
	accept, ok := hall["trade-accept"]
	if !ok || fieldsWords(accept.Fields) != "[{trade string false}]" || accept.Creates || accept.Admin {
		t.Errorf("trade-accept is listed as %+v", accept)
	}
	if g := hall["grant"]; !g.Admin || len(g.Fields) == 0 {
		t.Errorf("grant is listed as %+v", g)
	}
	if j := hall["join"]; !j.Optional || fieldsWords(j.Fields) != "[{name string false}]" {
		t.Errorf("join is listed as %+v", j)
	}
	if p := hall["proposal-submit"]; !p.Creates {
		t.Errorf("proposal-submit is listed as %+v", p)
	}
	for _, name := range []string{"period-end", "trade-expire", "create", "bind"} {
		if _, ok := hall[name]; ok {
			t.Errorf("%s is listed", name)
		}
	}
	if _, ok := ob["purchase"]; ok || len(ob) == 0 {
		t.Errorf("the obelisk game lists %v", ob)
	}
	if _, ok := ob["trade-offer"]; !ok {
		t.Errorf("the obelisk game lacks trade-offer: %v", ob)
	}
	if p := e.mustStatus(e.Get("/v1/games/nope/commands"), http.StatusNotFound).Problem(t); p.Code != "game_not_found" {
		t.Errorf("an unknown game: %+v", p)
	}
}

// fieldsWords is each field's name, kind and whether it is required.
func fieldsWords(fs []game.Field) string {
	var ws []string
	for _, f := range fs {
		ws = append(ws, fmt.Sprintf("{%s %s %v}", f.Name, f.Type, f.Required))
	}
	return "[" + strings.Join(ws, " ") + "]"
}
