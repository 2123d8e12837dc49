// Package jsondelta says how one JSON document became another, in a few
// operations on paths, and applies them back. The engine records one for
// every stored item a commit writes, in the commit's log entry, so the log
// alone rebuilds every item at any entry (issue 25: "the log explains the
// state"). It is its own format, not RFC 6902, because an array edit (a card
// added to an inventory of thousands) must cost what it changed: a splice
// names the run it replaces, where a JSON Patch of a changed array element
// or a JSON Merge Patch would copy the whole array.
package jsondelta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Op is one operation at Path (object member names, and array indices in
// decimal), applied in order:
//   - Set: Path's value becomes Value (a member is created if missing);
//   - Del: the member at Path is removed;
//   - splice (Ins set or Cut > 0): in the array at Path, Cut elements from
//     index At are replaced by Ins.
type Op struct {
	Path  []string          `json:"p,omitempty"`
	Value json.RawMessage   `json:"v,omitempty"`
	Del   bool              `json:"x,omitempty"`
	At    int               `json:"at,omitempty"`
	Cut   int               `json:"cut,omitempty"`
	Ins   []json.RawMessage `json:"ins,omitempty"`
}

// isSplice: an array's lengths differ, so a splice cuts or inserts
// something.
func (o Op) isSplice() bool { return o.Cut > 0 || len(o.Ins) > 0 }

// Diff returns the operations that turn a into b (both JSON documents). A
// nil a (no document yet) gives one Set of the whole of b.
func Diff(a, b []byte) ([]Op, error) {
	if len(bytes.TrimSpace(a)) == 0 {
		return []Op{{Value: json.RawMessage(b)}}, nil
	}
	var ops []Op
	if err := diff(nil, a, b, &ops); err != nil {
		return nil, err
	}
	return ops, nil
}

func kind(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func clone(p []string, more ...string) []string {
	return append(append(make([]string, 0, len(p)+len(more)), p...), more...)
}

func diff(path []string, a, b []byte, ops *[]Op) error {
	if bytes.Equal(a, b) {
		return nil
	}
	switch ka, kb := kind(a), kind(b); {
	case ka == '{' && kb == '{':
		ma, err := object(a)
		if err != nil {
			return err
		}
		mb, err := object(b)
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(ma) {
			if _, ok := mb[k]; !ok {
				*ops = append(*ops, Op{Path: clone(path, k), Del: true})
			}
		}
		for _, k := range sortedKeys(mb) {
			va, ok := ma[k]
			if !ok {
				*ops = append(*ops, Op{Path: clone(path, k), Value: mb[k]})
				continue
			}
			if err := diff(clone(path, k), va, mb[k], ops); err != nil {
				return err
			}
		}
		return nil
	case ka == '[' && kb == '[':
		la, err := array(a)
		if err != nil {
			return err
		}
		lb, err := array(b)
		if err != nil {
			return err
		}
		pre := 0
		for pre < len(la) && pre < len(lb) && bytes.Equal(la[pre], lb[pre]) {
			pre++
		}
		suf := 0
		for suf < len(la)-pre && suf < len(lb)-pre && bytes.Equal(la[len(la)-1-suf], lb[len(lb)-1-suf]) {
			suf++
		}
		if len(la) == len(lb) {
			// The same length: each changed element changed in place (a
			// card's state, a player's score), so say how each changed.
			for i := pre; i < len(la)-suf; i++ {
				if err := diff(clone(path, strconv.Itoa(i)), la[i], lb[i], ops); err != nil {
					return err
				}
			}
			return nil
		}
		*ops = append(*ops, Op{Path: clone(path), At: pre, Cut: len(la) - pre - suf, Ins: lb[pre : len(lb)-suf]})
		return nil
	default:
		*ops = append(*ops, Op{Path: clone(path), Value: json.RawMessage(b)})
		return nil
	}
}

func object(b []byte) (map[string]json.RawMessage, error) {
	if keys, vals, ok := splitObject(b); ok {
		m := make(map[string]json.RawMessage, len(keys))
		for i, k := range keys {
			m[k] = vals[i]
		}
		return m, nil
	}
	var m map[string]json.RawMessage
	return m, json.Unmarshal(b, &m)
}

func array(b []byte) ([]json.RawMessage, error) {
	if l, ok := splitArray(b); ok {
		return l, nil
	}
	var l []json.RawMessage
	return l, json.Unmarshal(b, &l)
}

// Apply returns doc with ops applied. A nil doc is no document: the first
// op must then set the whole of it.
func Apply(doc []byte, ops []Op) ([]byte, error) {
	var v any
	if len(bytes.TrimSpace(doc)) > 0 {
		var err error
		if v, err = decode(doc); err != nil {
			return nil, err
		}
	}
	for i, op := range ops {
		var err error
		if v, err = apply(v, op.Path, op); err != nil {
			return nil, fmt.Errorf("operation %d at %v: %w", i+1, op.Path, err)
		}
	}
	return json.Marshal(v)
}

// Decode reads a document for ApplyTo: a replay decodes an item once,
// applies each of its changes to the value, and encodes it once
// (json.Marshal), where Apply would decode and encode at every change.
func Decode(b []byte) (any, error) { return decode(b) }

// ApplyTo applies ops to v (a Decode'd document, or nil for none), in
// place, and returns the document. On an error v may be partly changed.
func ApplyTo(v any, ops []Op) (any, error) {
	for i, op := range ops {
		var err error
		if v, err = apply(v, op.Path, op); err != nil {
			return nil, fmt.Errorf("operation %d at %v: %w", i+1, op.Path, err)
		}
	}
	return v, nil
}

func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func apply(v any, path []string, op Op) (any, error) {
	if len(path) == 0 {
		switch {
		case op.Del:
			return nil, fmt.Errorf("cannot remove the whole document")
		case op.isSplice():
			l, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("splice of a %T, not an array", v)
			}
			if op.At < 0 || op.Cut < 0 || op.At+op.Cut > len(l) {
				return nil, fmt.Errorf("splice of %d at %d in an array of %d", op.Cut, op.At, len(l))
			}
			out := make([]any, 0, len(l)-op.Cut+len(op.Ins))
			out = append(out, l[:op.At]...)
			for _, raw := range op.Ins {
				e, err := decode(raw)
				if err != nil {
					return nil, err
				}
				out = append(out, e)
			}
			return append(out, l[op.At+op.Cut:]...), nil
		default:
			return decode(op.Value)
		}
	}
	switch c := v.(type) {
	case map[string]any:
		k := path[0]
		if len(path) == 1 && op.Del {
			if _, ok := c[k]; !ok {
				return nil, fmt.Errorf("no member %q to remove", k)
			}
			delete(c, k)
			return c, nil
		}
		child, ok := c[k]
		if !ok && !(len(path) == 1 && !op.isSplice()) {
			return nil, fmt.Errorf("no member %q", k)
		}
		nv, err := apply(child, path[1:], op)
		if err != nil {
			return nil, err
		}
		c[k] = nv
		return c, nil
	case []any:
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(c) {
			return nil, fmt.Errorf("no element %q in an array of %d", path[0], len(c))
		}
		nv, err := apply(c[i], path[1:], op)
		if err != nil {
			return nil, err
		}
		c[i] = nv
		return c, nil
	default:
		return nil, fmt.Errorf("path into a %T", v)
	}
}

// Equal reports whether two JSON documents hold the same value, whatever
// their members' order or spacing.
func Equal(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	va, err1 := decode(a)
	vb, err2 := decode(b)
	if err1 != nil || err2 != nil {
		return false
	}
	ca, _ := json.Marshal(va)
	cb, _ := json.Marshal(vb)
	return bytes.Equal(ca, cb)
}

// Differences names the paths where two documents differ (the first few,
// in member order), for an audit's report.
func Differences(a, b []byte, most int) []string {
	ops, err := Diff(a, b)
	if err != nil {
		return []string{"(unreadable)"}
	}
	var out []string
	seen := map[string]bool{}
	for _, op := range ops {
		p := Path(op.Path)
		if seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
		if len(out) == most {
			break
		}
	}
	return out
}

// Path writes a path as people read one: inventory.chips, players[3].name.
func Path(p []string) string {
	var b bytes.Buffer
	for _, s := range p {
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
		return "(the whole item)"
	}
	return b.String()
}

func sortedKeys(m map[string]json.RawMessage) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	// Insertion sort: members are few, and sort would cost each Lambda
	// another generic instantiation (internal/order).
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}
