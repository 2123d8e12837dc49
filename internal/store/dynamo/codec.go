package dynamo

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"croupier/internal/store"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type av = types.AttributeValue

// dueLayout is fixed-width for years 0000-9999, so string order is time order.
const dueLayout = "2006-01-02T15:04:05.000000000Z"

var (
	minDue = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxDue = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

// encodeDue renders t as the time part of DueS. The caller checks the range.
func encodeDue(t time.Time) string { return t.UTC().Format(dueLayout) }

// dueSortKey is DueS: time, then PK, then SK.
func dueSortKey(it store.Item) string { return encodeDue(it.Due) + "#" + it.PK + "#" + it.SK }

// dueUpperBound is the largest DueS of an item due at or before until: every
// DueS of that exact instant continues with '#', and '$' sorts right after it.
func dueUpperBound(until time.Time) string {
	if until.Before(minDue) {
		until = minDue
	}
	if until.After(maxDue) {
		until = maxDue
	}
	return encodeDue(until) + "$"
}

func s(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }
func n(v int64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

func keyAV(k store.Key) map[string]av { return map[string]av{attrPK: s(k.PK), attrSK: s(k.SK)} }

// checkItem reports item fields the table cannot represent.
func checkItem(it store.Item) error {
	if !it.Due.IsZero() && (it.Due.Before(minDue) || it.Due.After(maxDue)) {
		return fmt.Errorf("%w: due time %s of %s is outside years 1-9999", store.ErrInvalid, it.Due, it.Key)
	}
	if !it.Expires.IsZero() && it.Expires.Unix() < 0 {
		return fmt.Errorf("%w: expiry %s of %s is before 1970", store.ErrInvalid, it.Expires, it.Key)
	}
	return nil
}

// encodeItem renders it, at version, as a DynamoDB item. Optional
// attributes are left out when unset so both indexes stay sparse.
func encodeItem(it store.Item, version int64) map[string]av {
	m := map[string]av{attrPK: s(it.PK), attrSK: s(it.SK), attrV: n(version)}
	if it.Data != nil {
		m[attrD] = &types.AttributeValueMemberB{Value: it.Data}
	}
	if it.Order != "" {
		m[attrOrd] = s(it.Order)
	}
	if !it.Due.IsZero() {
		m[attrDueP] = s(duePartition)
		m[attrDueS] = s(dueSortKey(it))
	}
	if !it.Expires.IsZero() {
		sec, ns := it.Expires.Unix(), int64(it.Expires.Nanosecond())
		if ns > 0 {
			sec++ // TTL must not delete before Expires
			m[attrExpN] = n(ns)
		}
		m[attrTTL] = n(sec)
	}
	return m
}

// decodeItem is the inverse of encodeItem.
func decodeItem(m map[string]av) (store.Item, error) {
	var it store.Item
	var err error
	str := func(name string, required bool) string {
		v, ok := m[name]
		if !ok {
			if required && err == nil {
				err = fmt.Errorf("attribute %s missing", name)
			}
			return ""
		}
		sv, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			if err == nil {
				err = fmt.Errorf("attribute %s is %T, want S", name, v)
			}
			return ""
		}
		return sv.Value
	}
	num := func(name string) (int64, bool) {
		v, ok := m[name]
		if !ok {
			return 0, false
		}
		nv, ok := v.(*types.AttributeValueMemberN)
		if !ok {
			if err == nil {
				err = fmt.Errorf("attribute %s is %T, want N", name, v)
			}
			return 0, false
		}
		x, perr := strconv.ParseInt(nv.Value, 10, 64)
		if perr != nil && err == nil {
			err = fmt.Errorf("attribute %s: %w", name, perr)
		}
		return x, true
	}
	it.PK = str(attrPK, true)
	it.SK = str(attrSK, true)
	it.Order = str(attrOrd, false)
	if v, ok := num(attrV); ok {
		it.Version = v
	} else if err == nil {
		err = fmt.Errorf("attribute %s missing", attrV)
	}
	if v, ok := m[attrD]; ok {
		b, ok := v.(*types.AttributeValueMemberB)
		if !ok {
			if err == nil {
				err = fmt.Errorf("attribute %s is %T, want B", attrD, v)
			}
		} else {
			it.Data = b.Value
			if it.Data == nil {
				it.Data = []byte{}
			}
		}
	}
	if ds := str(attrDueS, false); ds != "" {
		if len(ds) < len(dueLayout) {
			if err == nil {
				err = fmt.Errorf("attribute %s %q is too short", attrDueS, ds)
			}
		} else if t, perr := time.Parse(dueLayout, ds[:len(dueLayout)]); perr != nil {
			if err == nil {
				err = fmt.Errorf("attribute %s: %w", attrDueS, perr)
			}
		} else {
			it.Due = t
		}
	}
	if sec, ok := num(attrTTL); ok {
		ns, _ := num(attrExpN)
		if ns > 0 {
			sec--
		}
		it.Expires = time.Unix(sec, ns).UTC()
	}
	if err != nil {
		return store.Item{}, fmt.Errorf("dynamo: malformed item %s/%s: %w", it.PK, it.SK, err)
	}
	return it, nil
}

// encodeCursor turns a LastEvaluatedKey (all S attributes) into an opaque
// string: base64url of the JSON object of its string values.
func encodeCursor(lek map[string]av) (string, error) {
	flat := make(map[string]string, len(lek))
	for k, v := range lek {
		sv, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			return "", fmt.Errorf("dynamo: last evaluated key attribute %s is %T, want S", k, v)
		}
		flat[k] = sv.Value
	}
	b, err := json.Marshal(flat)
	if err != nil {
		return "", fmt.Errorf("dynamo: encode cursor: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// decodeCursor is the inverse of encodeCursor, checked against the query:
// exactly the key attributes (want) of the index walked, the same partition,
// and a sort key (attribute sortAttr) inside the prefix, so a cursor of
// another query is ErrBadCursor rather than DynamoDB's ValidationException.
func decodeCursor(c, pk, sortAttr, prefix string, want ...string) (map[string]av, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, fmt.Errorf("%w: not base64url: %v", store.ErrBadCursor, err)
	}
	var flat map[string]string
	if err := json.Unmarshal(b, &flat); err != nil {
		return nil, fmt.Errorf("%w: %v", store.ErrBadCursor, err)
	}
	if len(flat) != len(want) {
		return nil, fmt.Errorf("%w: wrong attributes for this index", store.ErrBadCursor)
	}
	m := make(map[string]av, len(flat))
	for _, name := range want {
		v, ok := flat[name]
		if !ok || v == "" {
			return nil, fmt.Errorf("%w: attribute %s missing", store.ErrBadCursor, name)
		}
		m[name] = s(v)
	}
	if flat[attrPK] != pk {
		return nil, fmt.Errorf("%w: cursor belongs to partition %q, not %q", store.ErrBadCursor, flat[attrPK], pk)
	}
	if !strings.HasPrefix(flat[sortAttr], prefix) {
		return nil, fmt.Errorf("%w: cursor position %q is outside prefix %q", store.ErrBadCursor, flat[sortAttr], prefix)
	}
	return m, nil
}

// DecodeItem reads an item in the table's attribute layout: what a
// DynamoDB Streams record's NewImage holds (internal/publish decodes the
// announce function's stream records with it).
func DecodeItem(m map[string]types.AttributeValue) (store.Item, error) { return decodeItem(m) }
