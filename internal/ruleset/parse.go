package ruleset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Problem is one thing wrong with a ruleset: the field, as a JSON path such
// as `cards[12].value`, and what is wrong with it.
type Problem struct {
	Field   string
	Message string
}

func (p Problem) Error() string {
	if p.Field == "" {
		return p.Message
	}
	return p.Field + ": " + p.Message
}

// InvalidError reports why a ruleset was refused. File names the data file
// (or the amendment) it came from; Problems lists every problem found.
type InvalidError struct {
	File     string
	Problems []Problem
}

func (e *InvalidError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return fmt.Sprintf("ruleset %s is invalid: %s", e.File, strings.Join(msgs, "; "))
}

// Has reports whether some problem concerns field (exactly) and its message
// contains substr. Tests and callers use it to react to a specific problem.
func (e *InvalidError) Has(field, substr string) bool {
	for _, p := range e.Problems {
		if p.Field == field && strings.Contains(p.Message, substr) {
			return true
		}
	}
	return false
}

// Parse decodes and validates one ruleset file; name is used in errors only.
// Decoding is strict: unknown fields, wrong JSON types, null values, bad
// durations and trailing data are refused with the path of the offending
// field, before Validate checks the values.
func Parse(name string, data []byte) (*Ruleset, error) {
	fail := func(field, format string, args ...any) error {
		return &InvalidError{File: name, Problems: []Problem{{Field: field, Message: fmt.Sprintf(format, args...)}}}
	}

	// Pass 1: generic decode, for syntax errors with a position and a
	// schema check that names the field (encoding/json's own messages do
	// not say where an unknown field or a bad duration is).
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, fail("", "not valid JSON: %s", describeJSONError(data, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail("", "unexpected data after the JSON object at %s", position(data, dec.InputOffset()))
	}
	if p := checkShape(generic, reflect.TypeFor[Ruleset](), ""); p != nil {
		return nil, &InvalidError{File: name, Problems: []Problem{*p}}
	}

	// Pass 2: the typed decode. DisallowUnknownFields is a backstop; pass 1
	// has already refused anything it would.
	var r Ruleset
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fail("", "%s", describeJSONError(data, err))
	}
	if err := r.Validate(); err != nil {
		var inv *InvalidError
		if errors.As(err, &inv) {
			inv.File = name
		}
		return nil, err
	}
	return &r, nil
}

var durationType = reflect.TypeFor[Duration]()

// checkShape walks a generically decoded JSON value alongside the Go type it
// must fit and returns the first mismatch, with its path. Field names must
// match the json tags exactly (encoding/json would accept any case).
func checkShape(v any, t reflect.Type, at string) *Problem {
	bad := func(format string, args ...any) *Problem {
		return &Problem{Field: at, Message: fmt.Sprintf(format, args...)}
	}
	if v == nil {
		return bad("must not be null (leave the field out instead)")
	}
	if t.Kind() == reflect.Pointer { // an optional section (Ruleset.Obelisk) has the shape of what it points to
		t = t.Elem()
	}
	if t == durationType {
		s, ok := v.(string)
		if !ok {
			return bad("want a duration string such as \"24h\", got %s", jsonKind(v))
		}
		if _, err := time.ParseDuration(s); err != nil {
			return bad("%q is not a duration (write hours, e.g. \"168h\" for 7 days)", s)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return bad("want an object, got %s", jsonKind(v))
		}
		fields := map[string]reflect.Type{}
		var known []string
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			fields[name] = f.Type
			known = append(known, name)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				return &Problem{Field: join(at, k), Message: fmt.Sprintf("unknown field (known here: %s)", strings.Join(known, ", "))}
			}
			if p := checkShape(obj[k], ft, join(at, k)); p != nil {
				return p
			}
		}
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			return bad("want an array, got %s", jsonKind(v))
		}
		for i, e := range arr {
			if p := checkShape(e, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); p != nil {
				return p
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return bad("want a string, got %s", jsonKind(v))
		}
	case reflect.Int:
		n, ok := v.(json.Number)
		if !ok {
			return bad("want an integer, got %s", jsonKind(v))
		}
		if _, err := n.Int64(); err != nil {
			return bad("want an integer, got %s", n)
		}
	}
	return nil
}

func join(at, field string) string {
	if at == "" {
		return field
	}
	return at + "." + field
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return "the number " + v.String()
	case bool:
		return fmt.Sprintf("%t", v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// describeJSONError adds a line:column position to encoding/json errors.
func describeJSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s at %s", syn.Error(), position(data, syn.Offset))
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Sprintf("%s at %s", typ.Error(), position(data, typ.Offset))
	}
	if errors.Is(err, io.EOF) {
		return "the file is empty"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "the JSON ends early (unclosed object, array or string)"
	}
	return err.Error()
}

// position turns a byte offset into "line L, column C" (1-based).
func position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int64(len(before)-bytes.LastIndexByte(before, '\n')) - 1
	if col < 1 {
		col = 1
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}
