package reactions

// A pushed record is stored as a head item and pages, so that no item grows
// with the number of people who reacted (issue 22: a record of every
// reactor passed 100 KB at about 3,500 of them). The head holds the
// message, the sealed moment, the newest changes and the versions of the
// pages; each page holds an older run of changes. Changes are cut into
// runs greedily from the oldest, so appending a change rewrites at most the
// head and one new page, and a push stays a bounded commit.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"croupier/internal/store"
)

// PageBytes bounds the changes one item holds (encoded), well under
// DynamoDB's 400 KB and the game's 100 KB per item.
const PageBytes = 64 << 10

// MaxChangeBytes bounds one pushed change (encoded), so that it fits a page.
const MaxChangeBytes = 32 << 10

// MaxBytes bounds a record's whole history: beyond it the oldest half is
// folded into a snapshot, as past MaxChanges. What is left is at least the
// snapshot of everyone who still reacts, which may span many pages.
const MaxBytes = 4 * PageBytes

// Head is a stored record's head item, decoded.
type Head struct {
	Key     store.Key
	Version int64
	head
	pages [][]byte // the pages' data as read (Record), to write only what changed
}

type head struct {
	Message   MessageRef `json:"message"`
	Changes   []Change   `json:"changes"`
	CountedAt time.Time  `json:"counted_at,omitzero"`
	// Pages are the versions of the page items written so far; the first
	// Used of them hold the changes before the head's, oldest first. A page
	// past Used is left from a longer history (before a fold) and is
	// rewritten under its version when the history grows again.
	Pages []int64 `json:"pages,omitempty"`
	Used  int     `json:"used,omitempty"`
}

type page struct {
	Changes []Change `json:"changes"`
}

// PageKey is the key of a record's i-th page (0-based). Message ids hold no
// "#", so a page key is never another message's head.
func PageKey(k store.Key, i int) store.Key {
	return store.Key{PK: k.PK, SK: fmt.Sprintf("%s#p%04d", k.SK, i+1)}
}

// DecodeHead decodes the head item it of the record of m at k (missing: an
// empty record, to be created).
func DecodeHead(k store.Key, m MessageRef, it store.Item) (Head, error) {
	h := Head{Key: k, Version: it.Version, head: head{Message: m}}
	if it.Exists() {
		if err := json.Unmarshal(it.Data, &h.head); err != nil {
			return Head{}, fmt.Errorf("decoding %s: %w", k, err)
		}
	}
	if h.Used > len(h.Pages) {
		return Head{}, fmt.Errorf("decoding %s: %d pages used of %d written", k, h.Used, len(h.Pages))
	}
	return h, nil
}

// PageKeys are the pages to read for the whole record.
func (h Head) PageKeys() []store.Key {
	out := make([]store.Key, h.Used)
	for i := range out {
		out[i] = PageKey(h.Key, i)
	}
	return out
}

// Record assembles the record from its pages as read (in PageKeys' order).
// A page at another version than the head says was written after the head
// was read: that is a conflict (store.ErrConflict), to read again.
func (h *Head) Record(pages []store.Item) (Record, error) {
	if len(pages) != h.Used {
		return Record{}, fmt.Errorf("internal: %d pages of %s read, %d used", len(pages), h.Key, h.Used)
	}
	rec := Record{Message: h.Message, CountedAt: h.CountedAt, Changes: []Change{}}
	h.pages = make([][]byte, len(pages))
	for i, it := range pages {
		if it.Version != h.Pages[i] {
			return Record{}, fmt.Errorf("page %s is at version %d, its head says %d: %w", it.Key, it.Version, h.Pages[i], store.ErrConflict)
		}
		var p page
		if err := json.Unmarshal(it.Data, &p); err != nil {
			return Record{}, fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		h.pages[i] = it.Data
		rec.Changes = append(rec.Changes, p.Changes...)
	}
	rec.Changes = append(rec.Changes, h.Changes...)
	return rec, nil
}

// Puts are the writes that store rec over what h read: the head under its
// version, and each page whose changes differ from what was read (an
// append writes none, or the one page the head's changes moved to).
func (h Head) Puts(rec Record) ([]store.Put, error) {
	runs, err := cut(rec.Changes)
	if err != nil {
		return nil, err
	}
	next := head{Message: rec.Message, CountedAt: rec.CountedAt, Pages: append([]int64(nil), h.Pages...), Used: len(runs) - 1}
	next.Changes = runs[len(runs)-1]
	var puts []store.Put
	for i, run := range runs[:len(runs)-1] {
		data, err := json.Marshal(page{Changes: run})
		if err != nil {
			return nil, err
		}
		if i < len(h.pages) && bytes.Equal(h.pages[i], data) {
			continue
		}
		k := PageKey(h.Key, i)
		if i == len(next.Pages) {
			next.Pages = append(next.Pages, 0)
		}
		puts = append(puts, store.Put{Item: store.Item{Key: k, Data: data}, Expect: next.Pages[i]})
		next.Pages[i]++
	}
	data, err := json.Marshal(next)
	if err != nil {
		return nil, err
	}
	return append(puts, store.Put{Item: store.Item{Key: h.Key, Data: data}, Expect: h.Version}), nil
}

// cut splits changes into runs of at most PageBytes each, greedily from the
// oldest; the last run (the head's) may be empty.
func cut(changes []Change) ([][]Change, error) {
	runs := [][]Change{{}}
	size := 0
	for _, c := range changes {
		data, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		n := len(data) + 1
		if n > PageBytes {
			return nil, fmt.Errorf("internal: a change of %d bytes does not fit a page of %d", n, PageBytes)
		}
		if size+n > PageBytes {
			runs, size = append(runs, []Change{}), 0
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], c)
		size += n
	}
	return runs, nil
}
