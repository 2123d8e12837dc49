package bolt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"croupier/internal/store"
)

// FuzzDecodeCursor feeds arbitrary strings to the cursor decoder: it must
// never panic, must reject with ErrBadCursor, and must only accept keys
// inside the query's range.
func FuzzDecodeCursor(f *testing.F) {
	prefix := append(partitionPrefix("GAME#1"), "LOG#"...)
	f.Add(encodeCursor(store.IndexMain, append(bytes.Clone(prefix), "0001"...)))
	f.Add(encodeCursor(store.IndexOrder, prefix))
	f.Add("")
	f.Add("AQA")
	f.Add("!!")
	f.Fuzz(func(t *testing.T, s string) {
		for _, ix := range []store.Index{store.IndexMain, store.IndexOrder} {
			key, err := decodeCursor(s, ix, prefix)
			if err != nil {
				if !errors.Is(err, store.ErrBadCursor) {
					t.Fatalf("decode %q: error %v is not ErrBadCursor", s, err)
				}
				continue
			}
			if !bytes.HasPrefix(key, prefix) {
				t.Fatalf("decode %q accepted key %q outside the range", s, key)
			}
			if again, err := decodeCursor(encodeCursor(ix, key), ix, prefix); err != nil || !bytes.Equal(again, key) {
				t.Fatalf("re-encoding %q: %q, %v", key, again, err)
			}
		}
	})
}

// FuzzDecodeRecord feeds arbitrary bytes to the record decoder (the file may
// be damaged) and round-trips valid items through the encoder.
func FuzzDecodeRecord(f *testing.F) {
	k := store.Key{PK: "P", SK: "S"}
	f.Add(encodeRecord(store.Item{Key: k, Version: 3, Data: []byte("x"), Due: time.Unix(5, 6), Order: "o", Expires: time.Unix(7, 0)}), int64(1), "o", []byte("d"), int64(-5))
	f.Add([]byte{recordFormat, 0xFF}, int64(1<<40), "", []byte{}, int64(0))
	f.Fuzz(func(t *testing.T, raw []byte, version int64, order string, data []byte, due int64) {
		if it, err := decodeRecord(k, raw); err == nil && it.Version < 1 {
			t.Fatalf("decoded version %d", it.Version)
		} else if err == nil {
			if v, err := recordVersion(k, raw); err != nil || v != it.Version {
				t.Fatalf("recordVersion %d, %v; decodeRecord says %d", v, err, it.Version)
			}
		}
		if version < 1 || version > 1<<62 {
			return
		}
		in := store.Item{Key: k, Version: version, Data: data, Order: order}
		if due != 0 {
			in.Due = time.Unix(due, due%1e9).UTC()
		}
		out, err := decodeRecord(k, encodeRecord(in))
		if err != nil {
			t.Fatalf("round trip of %+v: %v", in, err)
		}
		if out.Version != in.Version || !bytes.Equal(out.Data, in.Data) || out.Order != in.Order || !out.Due.Equal(in.Due) || !out.Expires.IsZero() {
			t.Fatalf("round trip: %+v became %+v", in, out)
		}
	})
}

// FuzzKeyEscape checks the escaped key form: it decodes back, and its byte
// order is the order of (PK, SK) pairs, so partitions never interleave.
func FuzzKeyEscape(f *testing.F) {
	f.Add("a", "b|c", "a|b", "c")
	f.Add("a\x00", "", "a", "\x00\x01")
	f.Fuzz(func(t *testing.T, pk1, sk1, pk2, sk2 string) {
		k1, k2 := itemKey(pk1, sk1), itemKey(pk2, sk2)
		gotPK, gotSK, err := splitItemKey(k1)
		if err != nil || gotPK != pk1 || gotSK != sk1 {
			t.Fatalf("split(%q) = %q, %q, %v", k1, gotPK, gotSK, err)
		}
		want := strings.Compare(pk1, pk2)
		if want == 0 {
			want = strings.Compare(sk1, sk2)
		}
		if got := bytes.Compare(k1, k2); got != want {
			t.Fatalf("order of (%q,%q) vs (%q,%q): keys compare %d, want %d", pk1, sk1, pk2, sk2, got, want)
		}
		if pk1 != pk2 && bytes.HasPrefix(k1, partitionPrefix(pk2)) {
			t.Fatalf("key of partition %q lies inside partition %q", pk1, pk2)
		}
	})
}
