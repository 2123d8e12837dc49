package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"croupier/internal/jsondelta"
)

// How verify --state tells where two JSON documents differ (the log's
// replay and what the server shows or the store holds), field by field.

// fieldDiff is one place two documents differ.
type fieldDiff struct {
	// path is the field's place (a list's element named by its id is the
	// segment keyMark+id); field is it as people read it.
	path       []string
	field      string
	shown, log json.RawMessage
	why        string
}

// keyMark starts a path segment that names a list's element by its id
// rather than its index: lists of things with ids (players, cards,
// proposals) are compared element by element whatever their order, so a
// changed score that reorders a ranking is one difference, not many.
const keyMark = "\x00"

// diffFields lists where got differs from want (the log's), with both
// values: each operation that turns want into got is one field.
func diffFields(want, got []byte) []fieldDiff {
	if len(bytes.TrimSpace(want)) == 0 {
		return []fieldDiff{{field: "(the whole document)", shown: compact(got), why: "the log's replay has nothing here"}}
	}
	a, errA := jsondelta.Decode(want)
	b, errB := jsondelta.Decode(got)
	if errA != nil || errB != nil {
		return []fieldDiff{{field: "(the whole document)", shown: compact(got), log: compact(want), why: "one of them is not JSON"}}
	}
	var out []fieldDiff
	a, b = keyLists(nil, a, b, &out)
	want, _ = json.Marshal(a)
	got, _ = json.Marshal(b)
	ops, err := jsondelta.Diff(want, got)
	if err != nil {
		return []fieldDiff{{field: "(the whole document)", shown: compact(got), log: compact(want), why: err.Error()}}
	}
	for _, op := range ops {
		switch {
		case op.Cut > 0 || len(op.Ins) > 0:
			arr, _ := valueAt(want, op.Path)
			var els []json.RawMessage
			_ = json.Unmarshal(arr, &els)
			cut := []json.RawMessage{}
			if op.At >= 0 && op.At+op.Cut <= len(els) {
				cut = els[op.At : op.At+op.Cut]
			}
			ins := op.Ins
			if ins == nil {
				ins = []json.RawMessage{}
			}
			cb, _ := json.Marshal(cut)
			ib, _ := json.Marshal(ins)
			out = append(out, fieldDiff{path: append(slices.Clone(op.Path), strconv.Itoa(op.At)), field: fieldPath(op.Path), log: compact(cb), shown: compact(ib),
				why: fmt.Sprintf("the list from element %d on", op.At)})
		case op.Del:
			old, _ := valueAt(want, op.Path)
			out = append(out, fieldDiff{path: op.Path, field: fieldPath(op.Path), log: compact(old)})
		default:
			fd := fieldDiff{path: op.Path, field: fieldPath(op.Path), shown: compact(op.Value)}
			if old, ok := valueAt(want, op.Path); ok {
				fd.log = compact(old)
			}
			out = append(out, fd)
		}
	}
	return out
}

// keyLists turns each pair of lists whose elements all have ids into
// objects keyed by them (keyMark+id), in both documents alike; a pair
// holding the same elements in another order is a difference of its own.
func keyLists(path []string, a, b any, out *[]fieldDiff) (any, any) {
	switch ta := a.(type) {
	case map[string]any:
		tb, ok := b.(map[string]any)
		if !ok {
			return a, b
		}
		na, nb := make(map[string]any, len(ta)), make(map[string]any, len(tb))
		for k, v := range ta {
			na[k] = v
		}
		for k, v := range tb {
			nb[k] = v
		}
		for k := range ta {
			if _, ok := tb[k]; ok {
				na[k], nb[k] = keyLists(append(slices.Clone(path), k), ta[k], tb[k], out)
			}
		}
		return na, nb
	case []any:
		tb, ok := b.([]any)
		if !ok {
			return a, b
		}
		ia, oka := listIDsOf(ta)
		ib, okb := listIDsOf(tb)
		if !oka || !okb || len(ia)+len(ib) == 0 {
			if len(ta) == len(tb) {
				na, nb := slices.Clone(ta), slices.Clone(tb)
				for i := range ta {
					na[i], nb[i] = keyLists(append(slices.Clone(path), strconv.Itoa(i)), ta[i], tb[i], out)
				}
				return na, nb
			}
			return a, b
		}
		ma, mb := map[string]any{}, map[string]any{}
		for i, id := range ia {
			ma[keyMark+id] = ta[i]
		}
		for i, id := range ib {
			mb[keyMark+id] = tb[i]
		}
		for k := range ma {
			if _, ok := mb[k]; ok {
				ma[k], mb[k] = keyLists(append(slices.Clone(path), k), ma[k], mb[k], out)
			}
		}
		// Another order of equal elements is a difference; of elements
		// that differ, it may follow from them (a ranking by points).
		if !slices.Equal(ia, ib) && sameSet(ia, ib) && equalJSON(ma, mb) {
			la, _ := json.Marshal(ia)
			lb, _ := json.Marshal(ib)
			*out = append(*out, fieldDiff{path: path, field: fieldPath(path), log: la, shown: lb, why: "the same elements in another order"})
		}
		return ma, mb
	}
	return a, b
}

// listIDsOf are the ids of a list's elements, if each is an object with a
// distinct id (its "id", else its "player").
func listIDsOf(l []any) ([]string, bool) {
	ids := make([]string, 0, len(l))
	seen := map[string]bool{}
	for _, el := range l {
		m, ok := el.(map[string]any)
		if !ok {
			return nil, false
		}
		id := ""
		for _, k := range []string{"id", "player"} {
			switch v := m[k].(type) {
			case string:
				id = v
			case json.Number:
				id = v.String()
			}
			if id != "" {
				break
			}
		}
		if id == "" || seen[id] {
			return nil, false
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids, true
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// fieldPath writes a path as people read one: inventory.chips,
// players[discord:2].points (an element by its id), rules[3] (by index).
func fieldPath(p []string) string {
	var b strings.Builder
	for _, s := range p {
		if id, ok := strings.CutPrefix(s, keyMark); ok {
			b.WriteString("[" + id + "]")
			continue
		}
		if _, err := strconv.Atoi(s); err == nil {
			b.WriteString("[" + s + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	if b.Len() == 0 {
		return "(the whole document)"
	}
	return b.String()
}

// valueAt is the value at path in doc.
func valueAt(doc []byte, path []string) (json.RawMessage, bool) {
	cur := json.RawMessage(doc)
	for _, p := range path {
		switch kindOf(cur) {
		case '{':
			var m map[string]json.RawMessage
			if json.Unmarshal(cur, &m) != nil {
				return nil, false
			}
			v, ok := m[p]
			if !ok {
				return nil, false
			}
			cur = v
		case '[':
			var l []json.RawMessage
			i, err := strconv.Atoi(p)
			if err != nil || json.Unmarshal(cur, &l) != nil || i < 0 || i >= len(l) {
				return nil, false
			}
			cur = l[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func kindOf(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func compact(b []byte) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return json.RawMessage(strconv.Quote(string(b)))
	}
	return buf.Bytes()
}
