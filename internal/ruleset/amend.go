package ruleset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Amend returns a new ruleset: r with a recorded amendment applied. An
// amendment recorded as a Change (a JSON array of operations, RULINGS R4)
// is applied with Apply. One recorded as an RFC 7396 JSON merge patch (a
// JSON object: amendments made before changes were path-level, and tests)
// is applied to r's JSON form, decoded as strictly as a data file and
// re-validated; for example
// {"shop":[...]} replaces the whole shop list (merge patches replace arrays
// whole), {"durations":{"turnTimeout":"12h"}} changes one duration and
// {"thresholds":{"joinEnergy":null}} removes a field.
//
// Version is incremented unless the patch sets it; the id cannot change. A
// patch that is not a JSON object, or whose result is invalid, is refused
// with the reason (an *InvalidError for invalid results), and r is never
// modified.
func Amend(r *Ruleset, mergePatch []byte) (*Ruleset, error) {
	if r == nil {
		return nil, errors.New("amend: no ruleset to amend")
	}
	name := fmt.Sprintf("%s v%d amended", r.ID, r.Version)
	refuse := func(field, format string, args ...any) error {
		return &InvalidError{File: name, Problems: []Problem{{Field: field, Message: fmt.Sprintf(format, args...)}}}
	}

	if t := bytes.TrimSpace(mergePatch); len(t) > 0 && t[0] == '[' {
		v, err := decodeJSON(t)
		if err != nil {
			return nil, refuse("", "the change is not valid JSON: %s", describeJSONError(t, err))
		}
		c, err := decodeOps(v.([]any))
		if err != nil {
			return nil, refuse("", "%v", err)
		}
		rs, _, _, err := Apply(r, c)
		return rs, err
	}
	var patch any
	dec := json.NewDecoder(bytes.NewReader(mergePatch))
	dec.UseNumber()
	if err := dec.Decode(&patch); err != nil {
		return nil, refuse("", "the patch is not valid JSON: %s", describeJSONError(mergePatch, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, refuse("", "the patch has data after its JSON object")
	}
	p, ok := patch.(map[string]any)
	if !ok {
		return nil, refuse("", "the patch must be a JSON object (a merge patch of the ruleset), got %s", jsonKind(patch))
	}
	if id, ok := p["id"]; ok && id != r.ID {
		return nil, refuse("id", "an amendment cannot change the ruleset id (%q)", r.ID)
	}

	current, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("amend %s: %w", r.ID, err)
	}
	var doc any
	dec = json.NewDecoder(bytes.NewReader(current))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("amend %s: %w", r.ID, err)
	}
	merged := mergePatchApply(doc, p).(map[string]any)
	if _, set := p["version"]; !set {
		merged["version"] = json.Number(fmt.Sprint(r.Version + 1))
	}
	out, err := json.Marshal(merged)
	if err != nil {
		return nil, fmt.Errorf("amend %s: %w", r.ID, err)
	}
	return Parse(name, out)
}

// mergePatchApply is RFC 7396 section 2: objects merge recursively, null
// removes a member, anything else replaces the target.
func mergePatchApply(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergePatchApply(t[k], v)
	}
	return t
}
