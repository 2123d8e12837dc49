package jsondelta

import (
	"bytes"
	"encoding/json"
)

// The diff splits documents that json.Marshal wrote into their members
// and elements without decoding them: a commit's items are diffed on
// every command, and encoding/json's validating decoder into
// json.RawMessage made a 56 KB inventory cost milliseconds. The scanner
// trusts its input to be valid JSON (the store's items are the engine's
// own encodings) and says !ok on anything it does not expect, and the
// caller then falls back to encoding/json.

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just after the value starting at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				j, ok := skipString(b, i)
				if !ok {
					return i, false
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	default:
		for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' && b[i] != '\t' && b[i] != '\r' {
			i++
		}
		return i, true
	}
}

func skipString(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b), false
		}
		j += k
		// A quote after an odd run of backslashes is escaped.
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, true
		}
		j++
	}
}

// splitObject returns an object's member names and raw values, in order.
func splitObject(b []byte) (keys []string, vals []json.RawMessage, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, nil, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil, nil, true
	}
	for i < len(b) {
		end, ok := skipString(b, i)
		if !ok || b[i] != '"' {
			return nil, nil, false
		}
		raw := b[i+1 : end-1]
		key := string(raw)
		for _, c := range raw {
			if c == '\\' {
				if json.Unmarshal(b[i:end], &key) != nil {
					return nil, nil, false
				}
				break
			}
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, nil, false
		}
		i = skipSpace(b, i+1)
		vend, ok := skipValue(b, i)
		if !ok {
			return nil, nil, false
		}
		keys, vals = append(keys, key), append(vals, json.RawMessage(b[i:vend]))
		i = skipSpace(b, vend)
		if i >= len(b) {
			return nil, nil, false
		}
		if b[i] == '}' {
			return keys, vals, true
		}
		if b[i] != ',' {
			return nil, nil, false
		}
		i = skipSpace(b, i+1)
	}
	return nil, nil, false
}

// splitArray returns an array's raw elements.
func splitArray(b []byte) (elems []json.RawMessage, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return []json.RawMessage{}, true
	}
	for i < len(b) {
		end, ok := skipValue(b, i)
		if !ok {
			return nil, false
		}
		elems = append(elems, json.RawMessage(b[i:end]))
		i = skipSpace(b, end)
		if i >= len(b) {
			return nil, false
		}
		if b[i] == ']' {
			return elems, true
		}
		if b[i] != ',' {
			return nil, false
		}
		i = skipSpace(b, i+1)
	}
	return nil, false
}
