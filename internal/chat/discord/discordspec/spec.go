// Package discordspec checks what Croupier sends Discord against Discord's
// published OpenAPI description (discord/discord-api-spec, API v10,
// vendored in testdata with its licence) and against the limits Discord
// documents that the description does not encode (names, lengths, counts,
// nesting, an autocomplete choice's type). Tests only: it holds the
// 1.2 MB description and kin-openapi, which no Lambda may carry.
//
// Spec.Request checks the body of one REST call by its route; Spec.Callback
// checks an interaction response, the body Discord reads as the request of
// POST /interactions/{id}/{token}/callback. A Recorder applies them to every
// exchange of a test: wrap the interactions handler (Recorder.Handler) and
// the loopback Discord's REST routes (Recorder.Server), or the client's
// transport (Recorder.Transport), and every body is checked as it passes.
package discordspec

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed testdata/openapi.json.gz
var specGz []byte

// Spec is Discord's OpenAPI description, loaded and validated.
type Spec struct {
	doc    *openapi3.T
	routes []route
	mu     sync.Mutex
	// checked holds each body's schema verdict by route ("" when valid).
	checked map[[32]byte]string
}

type route struct {
	template string
	segs     []string
	literals int
	item     *openapi3.PathItem
}

var (
	loadOnce sync.Once
	loaded   *Spec
	loadErr  error
)

// Load returns the vendored description (parsed once per process).
func Load() (*Spec, error) {
	loadOnce.Do(func() { loaded, loadErr = parse(specGz) })
	return loaded, loadErr
}

func parse(gz []byte) (*Spec, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("discordspec: %w", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("discordspec: %w", err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("discordspec: parsing Discord's OpenAPI description: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("discordspec: Discord's OpenAPI description is invalid: %w", err)
	}
	s := &Spec{doc: doc, checked: map[[32]byte]string{}}
	for tpl, item := range doc.Paths.Map() {
		r := route{template: tpl, segs: strings.Split(strings.Trim(tpl, "/"), "/"), item: item}
		for _, seg := range r.segs {
			if !strings.HasPrefix(seg, "{") {
				r.literals++
			}
		}
		s.routes = append(s.routes, r)
	}
	return s, nil
}

// Version is the description's info.version ("10").
func (s *Spec) Version() string { return s.doc.Info.Version }

// Route returns the path template that path (relative to the API base, e.g.
// "/channels/1/messages/2") matches: the one with the most literal
// segments ("@original" before "{message_id}").
func (s *Spec) Route(path string) (string, bool) {
	r := s.find(path)
	if r == nil {
		return "", false
	}
	return r.template, true
}

func (s *Spec) find(path string) *route {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var best *route
	for i := range s.routes {
		r := &s.routes[i]
		if len(r.segs) != len(segs) {
			continue
		}
		ok := true
		for j, seg := range r.segs {
			if !strings.HasPrefix(seg, "{") && seg != segs[j] {
				ok = false
				break
			}
		}
		if ok && (best == nil || r.literals > best.literals) {
			best = r
		}
	}
	return best
}

// RelPath strips the API base from a request path: "/api/v10/channels/1"
// and "/api/channels/1" become "/channels/1"; a path without it is
// returned as it is.
func RelPath(p string) string {
	for _, pre := range []string{"/api/v10/", "/api/"} {
		if i := strings.Index(p, pre); i >= 0 {
			return "/" + p[i+len(pre):]
		}
	}
	return p
}

// Request checks the JSON body of a REST call (method, path relative to the
// API base) against the route's request body schema and the limits
// Discord documents for what the route carries (CommandLimits,
// MessageLimits, CallbackLimits). A route or method the description lacks
// is an error; so is a body on a route that takes none.
func (s *Spec) Request(method, path string, body []byte) error {
	v, tpl, err := s.schema(method, path, body)
	if v == nil {
		return err
	}
	errs := []error{err}
	switch {
	case strings.HasSuffix(tpl, "/commands") && method == http.MethodPut:
		errs = append(errs, prefix(method+" "+path, CommandLimits(v, !strings.Contains(tpl, "/guilds/")))...)
	case strings.HasSuffix(tpl, "/callback"):
		errs = append(errs, prefix(method+" "+path, CallbackLimits(v, 0, 0))...)
	case strings.Contains(tpl, "/messages") || strings.HasPrefix(tpl, "/webhooks/"):
		errs = append(errs, prefix(method+" "+path, MessageLimits(obj(v), method == http.MethodPost))...)
	}
	return errors.Join(errs...)
}

// schema checks body against the request body schema of the route path
// matches; it returns the decoded body (nil when there is none or it is
// not JSON) and the route's template.
func (s *Spec) schema(method, path string, body []byte) (any, string, error) {
	r := s.find(path)
	if r == nil {
		return nil, "", fmt.Errorf("%s %s: no such route in Discord's API v10", method, path)
	}
	op := r.item.GetOperation(strings.ToUpper(method))
	if op == nil {
		return nil, r.template, fmt.Errorf("%s %s: route %s has no %s", method, path, r.template, method)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if op.RequestBody != nil && op.RequestBody.Value != nil && op.RequestBody.Value.Required {
			return nil, r.template, fmt.Errorf("%s %s: the route needs a body", method, path)
		}
		return nil, r.template, nil
	}
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil, r.template, fmt.Errorf("%s %s: route %s takes no body", method, path, r.template)
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil, r.template, fmt.Errorf("%s %s: route %s takes no JSON body", method, path, r.template)
	}
	v, err := decode(body)
	if err != nil {
		return nil, r.template, fmt.Errorf("%s %s: %w", method, path, err)
	}
	// JSON Schema 2020-12 validation compiles the schema on every call
	// (tens of milliseconds for these unions), and tests send the same
	// body many times: a body is checked once per route.
	key := sha256.Sum256([]byte(method + " " + r.template + "\n" + string(body)))
	s.mu.Lock()
	msg, seen := s.checked[key]
	s.mu.Unlock()
	if !seen {
		if err := mt.Schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
			msg = brief(err)
		}
		s.mu.Lock()
		s.checked[key] = msg
		s.mu.Unlock()
	}
	if msg != "" {
		return v, r.template, fmt.Errorf("%s %s: not valid against %s's request body schema: %s", method, path, r.template, msg)
	}
	return v, r.template, nil
}

// Callback checks an interaction response (the body answering interaction
// in, both raw JSON) against the request body schema of
// POST /interactions/{interaction.id}/{interaction.token}/callback, the
// response types Discord allows for the interaction's type, and the
// documented limits. An autocomplete answer's choices must have the type
// of the focused option, which the schema (a union of the three kinds)
// cannot say.
func (s *Spec) Callback(in, resp []byte) error {
	typ, focused := interactionShape(in)
	v, _, err := s.schema(http.MethodPost, "/interactions/1/token/callback", resp)
	if v == nil {
		return err
	}
	errs := append([]error{err}, CallbackLimits(v, typ, focused)...)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("the response to an interaction of type %d: %w", typ, err)
	}
	return nil
}

// interactionShape reads an interaction's type and, for autocomplete, the
// type of its focused option.
func interactionShape(in []byte) (typ, focused int) {
	var i struct {
		Type int `json:"type"`
		Data struct {
			Options []opt `json:"options"`
		} `json:"data"`
	}
	if json.Unmarshal(in, &i) != nil {
		return 0, 0
	}
	var walk func([]opt) int
	walk = func(os []opt) int {
		for _, o := range os {
			if o.Focused {
				return o.Type
			}
			if t := walk(o.Options); t != 0 {
				return t
			}
		}
		return 0
	}
	return i.Type, walk(i.Data.Options)
}

type opt struct {
	Type    int   `json:"type"`
	Focused bool  `json:"focused"`
	Options []opt `json:"options"`
}

func decode(body []byte) (any, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("the body is not JSON: %w", err)
	}
	return v, nil
}

// brief shortens kin-openapi's error (a union's alternatives each explain
// themselves at length) to its first lines.
func brief(err error) string {
	s := err.Error()
	lines := strings.Split(s, "\n")
	if len(lines) > 12 {
		lines = append(lines[:12], fmt.Sprintf("… (%d more lines)", len(lines)-12))
	}
	return strings.Join(lines, "\n")
}

func prefix(what string, errs []error) []error {
	for i, e := range errs {
		errs[i] = fmt.Errorf("%s: %w", what, e)
	}
	return errs
}
