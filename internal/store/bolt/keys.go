package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"time"
)

// Key layout. Every bucket key starts with the partition key in an
// order-preserving escaped form: each 0x00 byte becomes 0x00 0xFF and the
// string ends with 0x00 0x01. Two different PKs therefore never share an
// encoded prefix ("a|b" vs "a", or "a" vs "a\x00b"), and byte order of the
// encoded keys is the byte order of (PK, rest), which is what DynamoDB uses
// for string keys. The last component (SK) is stored raw: nothing follows it.
//
//	items: esc(PK) SK                 -> record
//	due:   dueTime(12) esc(PK) SK     -> empty (points at items)
//	order: esc(PK) esc(Order) SK      -> empty (points at items)

const (
	escByte  = 0x00
	escEsc   = 0xFF // 0x00 inside a string
	escTerm  = 0x01 // end of string
	timeSize = 12   // 8 bytes seconds (sign-flipped), 4 bytes nanoseconds
)

var errBadKey = errors.New("malformed key")

// appendEsc appends s escaped, without the terminator. Escaping is a
// homomorphism on concatenation, so appendEsc(prefix) is a byte prefix of
// appendEsc(s) whenever prefix is a string prefix of s: prefix scans work.
func appendEsc(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		b = append(b, c)
		if c == escByte {
			b = append(b, escEsc)
		}
	}
	return b
}

// appendEscTerm appends s escaped and terminated.
func appendEscTerm(b []byte, s string) []byte {
	return append(appendEsc(b, s), escByte, escTerm)
}

// readEsc decodes one escaped, terminated string from the front of b and
// returns it with the remaining bytes.
func readEsc(b []byte) (string, []byte, error) {
	var out []byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != escByte {
			out = append(out, c)
			continue
		}
		if i+1 >= len(b) {
			return "", nil, errBadKey
		}
		switch b[i+1] {
		case escEsc:
			out = append(out, escByte)
			i++
		case escTerm:
			return string(out), b[i+2:], nil
		default:
			return "", nil, errBadKey
		}
	}
	return "", nil, errBadKey
}

// partitionPrefix is the encoded PK every key of that partition starts with.
func partitionPrefix(pk string) []byte {
	return appendEscTerm(make([]byte, 0, len(pk)+2), pk)
}

// itemKey is the items bucket key of (pk, sk).
func itemKey(pk, sk string) []byte {
	b := appendEscTerm(make([]byte, 0, len(pk)+len(sk)+2), pk)
	return append(b, sk...)
}

// splitItemKey decodes an items bucket key.
func splitItemKey(b []byte) (pk, sk string, err error) {
	pk, rest, err := readEsc(b)
	if err != nil {
		return "", "", err
	}
	return pk, string(rest), nil
}

// appendTime appends t in a fixed-width form whose byte order is time order,
// for every representable time (the sign bit of the seconds is flipped).
func appendTime(b []byte, t time.Time) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(t.Unix())^(1<<63))
	return binary.BigEndian.AppendUint32(b, uint32(t.Nanosecond()))
}

// readTime decodes appendTime's form.
func readTime(b []byte) (time.Time, error) {
	if len(b) < timeSize {
		return time.Time{}, errBadKey
	}
	sec := int64(binary.BigEndian.Uint64(b) ^ (1 << 63))
	nsec := binary.BigEndian.Uint32(b[8:])
	if nsec >= 1e9 {
		return time.Time{}, errBadKey
	}
	return time.Unix(sec, int64(nsec)).UTC(), nil
}

// dueKey is the due bucket key of an item due at t.
func dueKey(t time.Time, pk, sk string) []byte {
	b := appendTime(make([]byte, 0, timeSize+len(pk)+len(sk)+2), t)
	b = appendEscTerm(b, pk)
	return append(b, sk...)
}

// orderKey is the order bucket key of an item with the given Order.
func orderKey(pk, order, sk string) []byte {
	b := appendEscTerm(make([]byte, 0, len(pk)+len(order)+len(sk)+4), pk)
	b = appendEscTerm(b, order)
	return append(b, sk...)
}

// orderToItemKey maps an order bucket key to the items bucket key it points at.
func orderToItemKey(b []byte) ([]byte, error) {
	pk, rest, err := readEsc(b)
	if err != nil {
		return nil, err
	}
	_, sk, err := readEsc(rest)
	if err != nil {
		return nil, err
	}
	return itemKey(pk, string(sk)), nil
}

// prefixEnd returns the smallest key greater than every key starting with p,
// or nil when there is none (p is all 0xFF).
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xFF {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
