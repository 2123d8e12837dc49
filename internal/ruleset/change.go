package ruleset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/words"
)

// A change to ruleset data names the values it changes (RULINGS R4): a list
// of operations in the shape of RFC 6902 JSON Patch (replace, add, remove),
// each on one path of the ruleset document as GET ruleset shows it. Lists
// whose items have a key are addressed by that key, never by position: a
// shop item or a pack by its id, a card by its name, so
// /shop/random-card/price is the Random Card's price wherever it sits in the
// list. Lists without a key (battleRewards, seeds, a card's types) are
// addressed by index, or replaced whole.
//
// Because each operation touches its own path only, two adopted changes to
// different values both hold whatever the order of adoption, and a change
// whose base moved (the value it replaces changed since it was made) is
// applied as written to its own path, never by restoring other values.

// Operation names.
const (
	OpReplace = "replace" // set the value at path (a field absent because it is zero may be set)
	OpAdd     = "add"     // add a keyed item (/shop/new-id) or append to an unkeyed list (/battleRewards/-)
	OpRemove  = "remove"  // remove a keyed item, a list element or an optional field
)

// Op is one operation of a Change.
type Op struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
	// Was is the value at Path when the change was prepared (its base);
	// absent for add and for a field that was not set. RFC 6902 ignores
	// members it does not define, so a Change is still a JSON Patch in shape.
	Was json.RawMessage `json:"was,omitempty"`
}

// Change is a list of operations applied in order, all or nothing.
type Change []Op

// keyOf names the member that keys the items of a list of t, "" for lists
// addressed by index.
var keyOf = map[reflect.Type]string{
	reflect.TypeFor[ShopItem]():   "id",
	reflect.TypeFor[Pack]():       "id",
	reflect.TypeFor[Card]():       "name",
	reflect.TypeFor[RitualType](): "id", // /obelisk/ritualTypes/<id>
}

// Prepare reads a change to r and checks it against r: either a JSON array
// of operations or, for clients that send one, an RFC 7396 merge patch,
// which is turned into operations by comparing it with r (so a merge patch
// carrying the whole shop becomes the one price it changes). Every
// operation's path must exist in the ruleset document, its value must have
// the field's type, and the ruleset it produces must be valid; otherwise an
// *InvalidError says which operation is wrong and why. The change returned
// records each operation's base (Was) and is what Apply applies later.
func Prepare(r *Ruleset, patch []byte) (Change, error) {
	if r == nil {
		return nil, errors.New("change: no ruleset to change")
	}
	name := fmt.Sprintf("%s v%d with this change", r.ID, r.Version)
	refuse := func(field, format string, args ...any) error {
		return &InvalidError{File: name, Problems: []Problem{{Field: field, Message: fmt.Sprintf(format, args...)}}}
	}
	v, err := decodeJSON(patch)
	if err != nil {
		return nil, refuse("", "the change is not valid JSON: %s", describeJSONError(patch, err))
	}
	doc, err := document(r)
	if err != nil {
		return nil, err
	}
	var ops Change
	switch v := v.(type) {
	case []any:
		if ops, err = decodeOps(v); err != nil {
			return nil, refuse("", "%v", err)
		}
	case map[string]any:
		for _, k := range []string{"id", "version"} {
			if _, ok := v[k]; ok {
				return nil, refuse(k, "a change cannot set the ruleset %s; each adopted change increments the version", k)
			}
		}
		if ops, err = mergeOps(doc, reflect.TypeFor[Ruleset](), v, ""); err != nil {
			return nil, refuse("", "%v", err)
		}
	default:
		return nil, refuse("", "a change is a JSON array of operations such as [{\"op\":\"replace\",\"path\":\"/shop/random-card/price\",\"value\":4}] (or a merge patch object), got %s", jsonKind(v))
	}
	if len(ops) == 0 {
		return nil, refuse("", "the change changes nothing: every value it names already holds")
	}
	out, next, _, err := apply(r, ops)
	if err != nil {
		return nil, err
	}
	// Operations that each replace a value by itself change nothing
	// either: refused like an empty merge patch, not adopted as a version.
	after, err := document(next)
	if err != nil {
		return nil, err
	}
	after["version"] = doc["version"]
	if reflect.DeepEqual(doc, after) {
		return nil, refuse("", "the change changes nothing: %s", Summary(r, out))
	}
	return out, nil
}

// Apply applies a prepared change to r: each operation to its own path, in
// order, as written, whatever the path holds now (RULINGS R4). The ruleset
// returned has the next version and is validated. applied is c with each
// Was set to the value actually replaced; moved says, for each operation
// whose base moved since Prepare, what it replaced instead. A path that no
// longer exists (an earlier change removed its item) or a result that is
// invalid refuses the whole change with an *InvalidError, and r is never
// modified.
func Apply(r *Ruleset, c Change) (rs *Ruleset, applied Change, moved []string, err error) {
	if r == nil {
		return nil, nil, nil, errors.New("change: no ruleset to change")
	}
	applied, rs, moved, err = apply(r, c)
	return rs, applied, moved, err
}

func apply(r *Ruleset, c Change) (Change, *Ruleset, []string, error) {
	name := fmt.Sprintf("%s v%d with this change", r.ID, r.Version)
	doc, err := document(r)
	if err != nil {
		return nil, nil, nil, err
	}
	out := make(Change, len(c))
	var moved []string
	for i, op := range c {
		at := fmt.Sprintf("operation %d (%s %s)", i+1, op.Op, op.Path)
		segs, err := checkOp(op)
		if err != nil {
			return nil, nil, nil, &InvalidError{File: name, Problems: []Problem{{Field: at, Message: err.Error()}}}
		}
		var value any
		if op.Op != OpRemove {
			if value, err = decodeJSON(op.Value); err != nil {
				return nil, nil, nil, &InvalidError{File: name, Problems: []Problem{{Field: at, Message: "the value is not valid JSON: " + describeJSONError(op.Value, err)}}}
			}
		}
		e := &edit{op: op.Op, value: value}
		d, err := e.at(doc, reflect.TypeFor[Ruleset](), segs, "")
		if err != nil {
			return nil, nil, nil, &InvalidError{File: name, Problems: []Problem{{Field: at, Message: err.Error()}}}
		}
		doc = d.(map[string]any)
		out[i] = Op{Op: op.Op, Path: op.Path, Value: op.Value}
		if e.had {
			if out[i].Was, err = json.Marshal(e.old); err != nil {
				return nil, nil, nil, err
			}
		}
		if len(op.Was) > 0 && op.Op != OpAdd && !sameJSON(op.Was, out[i].Was) {
			was := "not set"
			if len(out[i].Was) > 0 {
				was = string(out[i].Was)
			}
			moved = append(moved, fmt.Sprintf("%s was %s when the change was made and %s when it was applied", op.Path, op.Was, was))
		}
	}
	doc["version"] = json.Number(strconv.Itoa(r.Version + 1))
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, nil, err
	}
	rs, err := Parse(name, b)
	if err != nil {
		return nil, nil, nil, err
	}
	return out, rs, moved, nil
}

// document is r's JSON form, decoded generically with exact numbers.
func document(r *Ruleset) (map[string]any, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("change %s: %w", r.ID, err)
	}
	v, err := decodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("change %s: %w", r.ID, err)
	}
	return v.(map[string]any), nil
}

func decodeJSON(b []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

func sameJSON(a, b json.RawMessage) bool {
	x, errA := decodeJSON(a)
	y, errB := decodeJSON(b)
	if errA != nil || errB != nil {
		return bytes.Equal(a, b)
	}
	return equalJSON(x, y)
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// decodeOps reads a JSON array of operations, strictly: op and path are
// required, value goes with replace and add only, and nothing else but was.
func decodeOps(arr []any) (Change, error) {
	out := make(Change, 0, len(arr))
	for i, e := range arr {
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("operation %d: want an object such as {\"op\":\"replace\",\"path\":\"/shop/random-card/price\",\"value\":4}, got %s", i+1, jsonKind(e))
		}
		var op Op
		for _, k := range slices.Sorted(mapKeys(obj)) {
			v := obj[k]
			switch k {
			case "op", "path":
				s, ok := v.(string)
				if !ok {
					return nil, fmt.Errorf("operation %d: %s must be a string, got %s", i+1, k, jsonKind(v))
				}
				if k == "op" {
					op.Op = s
				} else {
					op.Path = s
				}
			case "value", "was":
				b, err := json.Marshal(v)
				if err != nil {
					return nil, err
				}
				if k == "value" {
					op.Value = b
				} else {
					op.Was = b
				}
			default:
				return nil, fmt.Errorf("operation %d: unknown member %q (an operation has op, path and value)", i+1, k)
			}
		}
		if _, err := checkOp(op); err != nil {
			return nil, fmt.Errorf("operation %d (%s %s): %v", i+1, op.Op, op.Path, err)
		}
		out = append(out, op)
	}
	return out, nil
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkOp checks an operation's form and returns its path's segments.
func checkOp(op Op) ([]string, error) {
	switch op.Op {
	case OpReplace, OpAdd:
		if len(op.Value) == 0 {
			return nil, fmt.Errorf("%s needs a value", op.Op)
		}
	case OpRemove:
		if len(op.Value) > 0 {
			return nil, errors.New("remove takes no value")
		}
	default:
		return nil, fmt.Errorf("%q is not an operation (want %q, %q or %q)", op.Op, OpReplace, OpAdd, OpRemove)
	}
	if !strings.HasPrefix(op.Path, "/") || op.Path == "/" {
		return nil, fmt.Errorf("path %q must be a JSON pointer to a value, e.g. /shop/random-card/price", op.Path)
	}
	segs := strings.Split(op.Path[1:], "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	if segs[0] == "id" || segs[0] == "version" {
		return nil, fmt.Errorf("a change cannot set the ruleset %s; each adopted change increments the version", segs[0])
	}
	return segs, nil
}

// edit is one operation being applied; old and had report what its path
// held before.
type edit struct {
	op    string
	value any
	old   any
	had   bool
}

// at applies the edit to node (of Go type t) at the path segs below it; at
// is the path walked so far, for errors. It returns the new node.
func (e *edit) at(node any, t reflect.Type, segs []string, at string) (any, error) {
	seg, last := segs[0], len(segs) == 1
	here := at + "/" + seg
	switch {
	case t.Kind() == reflect.Struct && t != durationType:
		obj, _ := node.(map[string]any)
		if obj == nil {
			obj = map[string]any{}
		}
		ft, ok := fieldOf(t, seg)
		if !ok {
			return nil, fmt.Errorf("%s is not a field of the ruleset (known at %s: %s)", here, orRoot(at), strings.Join(fieldNames(t), ", "))
		}
		child, exists := obj[seg]
		if !last {
			if !exists && ft.Kind() != reflect.Struct && ft.Kind() != reflect.Slice { // an absent list is empty: an item can be added to it
				return nil, fmt.Errorf("%s is not set, so it has no %s", here, "/"+strings.Join(segs[1:], "/"))
			}
			nc, err := e.at(child, ft, segs[1:], here)
			if err != nil {
				return nil, err
			}
			obj[seg] = nc
			return obj, nil
		}
		switch e.op {
		case OpRemove:
			if !exists {
				return nil, fmt.Errorf("%s is not set, so there is nothing to remove", here)
			}
			e.old, e.had = child, true
			delete(obj, seg)
		default:
			if p := checkShape(e.value, ft, here); p != nil {
				return nil, p
			}
			e.old, e.had = child, exists
			obj[seg] = e.value
		}
		return obj, nil
	case t.Kind() == reflect.Slice:
		arr, _ := node.([]any)
		key := keyOf[t.Elem()]
		i, err := index(arr, key, seg, here, e.op == OpAdd && last)
		if err != nil {
			return nil, err
		}
		if !last {
			if i < 0 || i >= len(arr) {
				return nil, fmt.Errorf("%s does not exist", here)
			}
			if key != "" && segs[1] == key {
				return nil, fmt.Errorf("%s/%s names the item; to rename it, remove it and add another", here, key)
			}
			nc, err := e.at(arr[i], t.Elem(), segs[1:], here)
			if err != nil {
				return nil, err
			}
			arr = slices.Clone(arr)
			arr[i] = nc
			return arr, nil
		}
		switch e.op {
		case OpRemove:
			e.old, e.had = arr[i], true
			return slices.Delete(slices.Clone(arr), i, i+1), nil
		case OpReplace:
			if p := checkShape(e.value, t.Elem(), here); p != nil {
				return nil, p
			}
			if key != "" {
				if k, _ := e.value.(map[string]any)[key].(string); k != seg {
					return nil, fmt.Errorf("the new item's %s must stay %q; to rename it, remove it and add another", key, seg)
				}
			}
			e.old, e.had = arr[i], true
			arr = slices.Clone(arr)
			arr[i] = e.value
			return arr, nil
		default: // add
			if p := checkShape(e.value, t.Elem(), here); p != nil {
				return nil, p
			}
			if key != "" {
				if k, _ := e.value.(map[string]any)[key].(string); k != seg {
					return nil, fmt.Errorf("the added item's %s must be %q, as its path says", key, seg)
				}
			}
			return slices.Insert(slices.Clone(arr), i, e.value), nil
		}
	}
	return nil, fmt.Errorf("%s is a single value; it has no %s", orRoot(at), "/"+strings.Join(segs, "/"))
}

// index finds seg in a list: by key for keyed lists, else a decimal index
// ("-" is the end, for add). adding allows a new key or the end of the list
// (the returned index is where the item goes).
func index(arr []any, key, seg, here string, adding bool) (int, error) {
	if key != "" {
		for i, e := range arr {
			if k, _ := e.(map[string]any)[key].(string); k == seg {
				if adding {
					return 0, fmt.Errorf("%s already exists; replace it or its fields instead", here)
				}
				return i, nil
			}
		}
		if adding {
			return len(arr), nil
		}
		var keys []string
		for _, e := range arr {
			if k, ok := e.(map[string]any)[key].(string); ok {
				keys = append(keys, k)
			}
		}
		if _, err := strconv.Atoi(seg); err == nil {
			return 0, fmt.Errorf("%s: items of this list are named by their %s, not their position (%s)", here, key, joinList(keys))
		}
		return 0, fmt.Errorf("%s does not exist; the list has %s", here, joinList(keys))
	}
	if adding && seg == "-" {
		return len(arr), nil
	}
	i, err := strconv.Atoi(seg)
	if err != nil || i < 0 || i > len(arr) || (i == len(arr) && !adding) || (seg != "0" && strings.HasPrefix(seg, "0")) {
		return 0, fmt.Errorf("%s: this list has %d items, addressed 0 to %d", here, len(arr), len(arr)-1)
	}
	return i, nil
}

func orRoot(at string) string {
	if at == "" {
		return "the ruleset"
	}
	return at
}

func fieldOf(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n == name && n != "" {
			if f.Type.Kind() == reflect.Pointer { // an optional section is edited as the struct it points to
				return f.Type.Elem(), true
			}
			return f.Type, true
		}
	}
	return nil, false
}

func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if n, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); n != "" && n != "id" && n != "version" {
			out = append(out, n)
		}
	}
	return out
}

// mergeOps turns an RFC 7396 merge patch over node (of type t) into
// operations: members merge recursively, null removes, and a list is
// compared with the list it replaces, item by item for keyed lists, so only
// what differs becomes an operation.
func mergeOps(node any, t reflect.Type, patch map[string]any, at string) (Change, error) {
	obj, _ := node.(map[string]any)
	var ops Change
	for _, k := range slices.Sorted(mapKeys(patch)) {
		v := patch[k]
		here := at + "/" + escape(k)
		ft, ok := fieldOf(t, k)
		if !ok {
			return nil, fmt.Errorf("%s is not a field of the ruleset (known at %s: %s)", here, orRoot(at), strings.Join(fieldNames(t), ", "))
		}
		cur, exists := obj[k]
		switch v := v.(type) {
		case nil:
			if exists {
				ops = append(ops, Op{Op: OpRemove, Path: here})
			}
		case map[string]any:
			if ft.Kind() == reflect.Struct && ft != durationType {
				sub, err := mergeOps(cur, ft, v, here)
				if err != nil {
					return nil, err
				}
				ops = append(ops, sub...)
				continue
			}
			ops = append(ops, replaceOp(here, v))
		default:
			if exists {
				ops = append(ops, diffOps(cur, v, ft, here)...)
			} else {
				ops = append(ops, replaceOp(here, v))
			}
		}
	}
	return ops, nil
}

// diffOps are the operations that turn cur (of type t) into next, which
// replaces it whole.
func diffOps(cur, next any, t reflect.Type, at string) Change {
	if equalJSON(cur, next) {
		return nil
	}
	co, ok1 := cur.(map[string]any)
	no, ok2 := next.(map[string]any)
	if ok1 && ok2 && t.Kind() == reflect.Struct && t != durationType {
		var ops Change
		for _, k := range slices.Sorted(mapKeys(co)) {
			if _, ok := no[k]; !ok {
				ops = append(ops, Op{Op: OpRemove, Path: at + "/" + escape(k)})
			}
		}
		for _, k := range slices.Sorted(mapKeys(no)) {
			ft, ok := fieldOf(t, k)
			c, had := co[k]
			if !ok || !had {
				ops = append(ops, replaceOp(at+"/"+escape(k), no[k]))
				continue
			}
			ops = append(ops, diffOps(c, no[k], ft, at+"/"+escape(k))...)
		}
		return ops
	}
	ca, ok1 := cur.([]any)
	na, ok2 := next.([]any)
	key := ""
	if t.Kind() == reflect.Slice {
		key = keyOf[t.Elem()]
	}
	if !ok1 || !ok2 || key == "" || !keyed(ca, key) || !keyed(na, key) {
		return Change{replaceOp(at, next)}
	}
	byKey := map[string]any{}
	for _, e := range na {
		byKey[e.(map[string]any)[key].(string)] = e
	}
	var ops Change
	for _, e := range ca {
		k := e.(map[string]any)[key].(string)
		if n, ok := byKey[k]; ok {
			ops = append(ops, diffOps(e, n, t.Elem(), at+"/"+escape(k))...)
		} else {
			ops = append(ops, Op{Op: OpRemove, Path: at + "/" + escape(k)})
		}
	}
	for _, e := range na {
		k := e.(map[string]any)[key].(string)
		if !slices.ContainsFunc(ca, func(c any) bool { return c.(map[string]any)[key] == k }) {
			b, _ := json.Marshal(e)
			ops = append(ops, Op{Op: OpAdd, Path: at + "/" + escape(k), Value: b})
		}
	}
	return ops
}

// keyed reports whether every item of arr is an object with a distinct
// string key.
func keyed(arr []any, key string) bool {
	seen := map[string]bool{}
	for _, e := range arr {
		o, ok := e.(map[string]any)
		if !ok {
			return false
		}
		k, ok := o[key].(string)
		if !ok || seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

func replaceOp(path string, v any) Op {
	b, _ := json.Marshal(v)
	return Op{Op: OpReplace, Path: path, Value: b}
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Summary says in words what a change does to r (the ruleset it was
// prepared or applied against), with old and new values, e.g. "Random Card
// costs 2 Vertebrae, was 5; urgent proposals may have at most 1 vote
// against, was 2".
func Summary(r *Ruleset, c Change) string {
	parts := make([]string, 0, len(c))
	for _, op := range c {
		parts = append(parts, describe(r, op))
	}
	return strings.Join(parts, "; ")
}

// labels name the ruleset's single values for people.
var labels = map[string]string{
	"/chances/holoGranted":                       "the holographic chance of a granted card (%)",
	"/chances/holoPack":                          "the holographic chance of a pack's card (%)",
	"/chances/holoCroupierCard":                  "the holographic chance of the Croupier's Random Card (%)",
	"/thresholds/battleMinCards":                 "the cards needed to engage in battle",
	"/thresholds/handMinCards":                   "the fewest cards in a hand",
	"/thresholds/winChips":                       "the Chips that win",
	"/thresholds/joinEnergy":                     "the ⚡ gained on joining",
	"/thresholds/governance/urgentMaxAgainst":    "the most votes against a popular urgent proposal",
	"/thresholds/governance/judgeRemovalAssents": "the players' assents that remove the Judge",
	"/durations/urgentVoting":                    "an urgent proposal's voting period",
	"/durations/confidenceWindow":                "the time to open a vote of confidence after a ruling",
	"/durations/confidenceVote":                  "a vote of confidence's length",
	"/durations/judgeOverturn":                   "the time a Judge may overturn their own ruling",
	"/durations/tradeWindow":                     "the time to consent to a trade",
	"/durations/rejoinWait":                      "the wait before rejoining",
	"/durations/turnTimeout":                     "the Exoptosis turn timeout",
	"/durations/reputableTenure":                 "the membership that makes a player reputable",
	"/durations/reputableGrace":                  "the time after the game's start in which joining makes a player reputable",
}

func describe(r *Ruleset, op Op) string {
	if !strings.HasPrefix(op.Path, "/") {
		return op.Op + " " + op.Path
	}
	segs := strings.Split(op.Path[1:], "/")
	if len(segs) == 3 && segs[0] == "shop" && segs[2] == "price" && op.Op == OpReplace {
		if it, ok := r.ShopItem(segs[1]); ok {
			s := fmt.Sprintf("%s costs %s %s", it.Name, raw(op.Value), currencyName(it.Currency))
			if len(op.Was) > 0 {
				s += ", was " + raw(op.Was)
			}
			return s
		}
	}
	what := labels[op.Path]
	if what == "" {
		what = pathWords(r, segs)
	}
	if len(segs) == 2 && (segs[0] == "shop" || segs[0] == "packs" || segs[0] == "cards") && op.Op != OpReplace {
		// A whole keyed item: its name says it.
		var item struct {
			Name string `json:"name"`
		}
		if op.Op == OpAdd && json.Unmarshal(op.Value, &item) == nil && item.Name != "" {
			what = map[string]string{"shop": "shop item", "packs": "pack", "cards": "card"}[segs[0]] + " " + item.Name
		}
		return op.Op + "s " + what
	}
	if segs[0] == "battleRewards" && len(segs) == 2 && op.Op == OpAdd {
		return "adds a battle reward: " + raw(op.Value)
	}
	var named struct {
		Name string `json:"name"`
	}
	if op.Op == OpAdd && json.Unmarshal(op.Value, &named) == nil && named.Name != "" {
		// A whole named thing reads by its name, not as its JSON (its
		// value is in the log).
		if len(segs) == 3 && segs[0] == "obelisk" && segs[1] == "ritualTypes" {
			return "adds the ritual type " + named.Name
		}
		return "adds " + what + " (" + named.Name + ")"
	}
	switch op.Op {
	case OpAdd:
		return "adds " + what + ": " + raw(op.Value)
	case OpRemove:
		if len(op.Was) > 0 {
			return "removes " + what + " (was " + raw(op.Was) + ")"
		}
		return "removes " + what
	}
	s := what + " is " + raw(op.Value)
	if len(op.Was) > 0 {
		s += ", was " + raw(op.Was)
	} else {
		s += ", was not set"
	}
	return s
}

// pathWords reads a path for people: a keyed item by its name ("Random
// Card's count"), other segments as written.
func pathWords(r *Ruleset, segs []string) string {
	if len(segs) >= 2 {
		name := ""
		switch segs[0] {
		case "shop":
			if it, ok := r.ShopItem(segs[1]); ok {
				name = it.Name
			}
		case "packs":
			if p, ok := r.Pack(segs[1]); ok {
				name = p.Name
			}
		case "cards":
			name = segs[1]
		}
		if name != "" {
			if len(segs) == 2 {
				return map[string]string{"shop": "shop item", "packs": "pack", "cards": "card"}[segs[0]] + " " + name
			}
			return name + "'s " + strings.Join(segs[2:], ".")
		}
	}
	return strings.Join(segs, ".")
}

// raw shows a JSON value compactly; strings without quotes, durations in
// days or hours.
func raw(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		if d, err := time.ParseDuration(s); err == nil {
			return words.Duration(d)
		}
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, v) == nil {
		return b.String()
	}
	return string(v)
}

func currencyName(c string) string {
	switch c {
	case CurrencyVertebrae:
		return "Vertebrae"
	case CurrencyChips:
		return "Chips"
	}
	return c
}
