package bolt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"croupier/internal/store"
)

// A record is the stored value of one item: a small binary header followed by
// Data verbatim, so a payload costs its own size plus a few bytes (JSON would
// base64 it). Layout:
//
//	format byte (1) | flags byte | uvarint Version
//	| Due (12, if flagDue) | Expires (12, if flagExpires)
//	| uvarint len + Order (if flagOrder) | Data...
const recordFormat = 1

const (
	flagDue = 1 << iota
	flagExpires
	flagOrder
	flagAll = flagDue | flagExpires | flagOrder
)

var errBadRecord = errors.New("bolt: corrupt record")

// encodeRecord serialises it (its Key is not stored: it is the bucket key).
func encodeRecord(it store.Item) []byte {
	var flags byte
	n := 2 + binary.MaxVarintLen64 + len(it.Data)
	if !it.Due.IsZero() {
		flags |= flagDue
		n += timeSize
	}
	if !it.Expires.IsZero() {
		flags |= flagExpires
		n += timeSize
	}
	if it.Order != "" {
		flags |= flagOrder
		n += binary.MaxVarintLen64 + len(it.Order)
	}
	b := make([]byte, 0, n)
	b = append(b, recordFormat, flags)
	b = binary.AppendUvarint(b, uint64(it.Version))
	if flags&flagDue != 0 {
		b = appendTime(b, it.Due)
	}
	if flags&flagExpires != 0 {
		b = appendTime(b, it.Expires)
	}
	if flags&flagOrder != 0 {
		b = binary.AppendUvarint(b, uint64(len(it.Order)))
		b = append(b, it.Order...)
	}
	return append(b, it.Data...)
}

// decodeRecord parses a record into an Item for key k. Data is copied, so the
// result outlives the bolt transaction that read b.
func decodeRecord(k store.Key, b []byte) (store.Item, error) {
	it := store.Item{Key: k}
	fail := func(what string) (store.Item, error) {
		return store.Item{}, fmt.Errorf("%w %s: %s", errBadRecord, k, what)
	}
	if len(b) < 2 || b[0] != recordFormat {
		return fail("unknown format")
	}
	flags := b[1]
	if flags&^flagAll != 0 {
		return fail("unknown flags")
	}
	b = b[2:]
	v, n := binary.Uvarint(b)
	if n <= 0 || v == 0 || v > 1<<62 {
		return fail("bad version")
	}
	it.Version = int64(v)
	b = b[n:]
	readT := func(dst *time.Time) error {
		t, err := readTime(b)
		if err != nil {
			return err
		}
		*dst, b = t, b[timeSize:]
		return nil
	}
	if flags&flagDue != 0 {
		if err := readT(&it.Due); err != nil {
			return fail("bad due time")
		}
	}
	if flags&flagExpires != 0 {
		if err := readT(&it.Expires); err != nil {
			return fail("bad expiry time")
		}
	}
	if flags&flagOrder != 0 {
		l, n := binary.Uvarint(b)
		if n <= 0 || l == 0 || l > uint64(len(b)-n) {
			return fail("bad order")
		}
		it.Order = string(b[n : n+int(l)])
		b = b[n+int(l):]
	}
	if len(b) > 0 {
		it.Data = append([]byte(nil), b...)
	}
	return it, nil
}

// recordVersion is the version stored in a raw record (0 for nil: absent).
func recordVersion(k store.Key, b []byte) (int64, error) {
	if b == nil {
		return 0, nil
	}
	if len(b) < 3 || b[0] != recordFormat {
		return 0, fmt.Errorf("%w %s: unknown format", errBadRecord, k)
	}
	v, n := binary.Uvarint(b[2:])
	if n <= 0 || v == 0 || v > 1<<62 {
		return 0, fmt.Errorf("%w %s: bad version", errBadRecord, k)
	}
	return int64(v), nil
}
