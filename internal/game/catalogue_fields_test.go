package game

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCallFields: a payload's fields are its JSON members as encoding/json
// reads them (embedded structs flattened, "-" and unexported left out), of
// the kind an edge asks for, required unless omitempty/omitzero or a
// pointer.
func TestCallFields(t *testing.T) {
	type Inner struct {
		Note string `json:"note,omitempty"`
	}
	type payload struct {
		Inner
		Player  string             `json:"player"`
		Count   int                `json:"count,omitempty"`
		Holo    bool               `json:"holo"`
		Cards   []string           `json:"cards,omitempty"`
		At      time.Time          `json:"at,omitzero"`
		Patch   json.RawMessage    `json:"patch"`
		Extra   map[string]int     `json:"extra,omitempty"`
		Maybe   *int               `json:"maybe"`
		Skipped string             `json:"-"`
		hidden  string             // an unexported field is no member
		Untaged string             // its Go name
		Nested  struct{ A, B int } `json:"nested"`
	}
	run := func(*Service, context.Context, Request, payload) (*Result, error) { return nil, nil }
	var got string
	for _, f := range Method(run).Fields() {
		got += fmt.Sprintf("{%s %s %v} ", f.Name, f.Type, f.Required)
	}
	got = "[" + strings.TrimSpace(got) + "]"
	want := "[{note string false} {player string true} {count integer false} {holo boolean true} {cards strings false} {at string false} {patch json true} {extra json false} {maybe integer false} {Untaged string true} {nested json true}]"
	if got != want {
		t.Errorf("fields\n got %s\nwant %s", got, want)
	}
	if f := Bare(func(*Service, context.Context, Request) (*Result, error) { return nil, nil }).Fields(); len(f) != 0 {
		t.Errorf("a bare command's fields: %v", f)
	}
}
