package game

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"croupier/internal/fair"
)

// A log entry is stored with its draws' period and command id left out
// when they are the entry's own, as they nearly always are: a tenth of a
// purchase's entry, which keeps it within one write unit (1 KB). Decoding
// an entry (Entry.UnmarshalJSON) puts them back, so every reader, and the
// API, sees whole draw records; entries stored whole read the same.

// storedDraw is a fair.Record as an entry stores it.
type storedDraw struct {
	Game    string `json:"game"`
	Period  string `json:"period,omitempty"`
	Command string `json:"command,omitempty"`
	Index   int    `json:"index"`
	Purpose string `json:"purpose"`
	N       int    `json:"n"`
	Value   int    `json:"value"`
}

// plainEntry is Entry without its methods (the default encoding).
type plainEntry Entry

type storedEntry struct {
	*plainEntry
	Draws []storedDraw `json:"draws,omitempty"`
	// Z is the entry deflated (deflateEntry); nothing else is then set.
	Z []byte `json:"z,omitempty"`
}

// encodeEntry is the stored form of e.
func encodeEntry(e *Entry) ([]byte, error) {
	s := storedEntry{plainEntry: (*plainEntry)(e)}
	for _, d := range e.Draws {
		sd := storedDraw{Game: d.Game, Period: d.Period, Command: d.Command, Index: d.Index, Purpose: d.Purpose, N: d.N, Value: d.Value}
		if sd.Period == e.Period {
			sd.Period = ""
		}
		if sd.Command == e.CommandID {
			sd.Command = ""
		}
		s.Draws = append(s.Draws, sd)
	}
	b, err := json.Marshal(s)
	if err != nil || len(b) <= deflateAbove {
		return b, err
	}
	return deflateEntry(b)
}

// An entry over deflateAbove bytes (a move that drew cards and resolved an
// effect, a grant of many cards, a commit's changes: issue 25) is stored
// deflated when that is smaller: a zero byte, then the raw DEFLATE stream
// (the table's D attribute is binary), a quarter smaller than the base64
// of the {"z": ...} form issue 16 kept, which is still read. Every reader
// of a stored entry decodes it with DecodeEntry (LogEntry), and a move's
// entry stays within one write unit (issue 16). Smaller entries stay
// plain, readable in the table as they are.
const deflateAbove = 900

// deflatedMark starts a stored entry that is a raw DEFLATE stream: no
// JSON text starts with it.
const deflatedMark = 0

// deflated is the stored form of a deflated entry.
type deflated struct {
	Z []byte `json:"z"`
}

var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestCompression)
	return w
}}

func deflateEntry(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if 1+buf.Len() >= len(b) {
		return b, nil
	}
	return append([]byte{deflatedMark}, buf.Bytes()...), nil
}

// storedPlain is a stored entry's (or a spilled change's, or a
// checkpoint page's) JSON: inflated when it was stored deflated.
func storedPlain(b []byte) ([]byte, error) {
	if len(b) > 0 && b[0] == deflatedMark {
		return inflateEntry(b[1:])
	}
	return b, nil
}

// DecodeEntry reads a stored log entry (encodeEntry's form: plain,
// deflated, or issue 16's {"z": ...}).
func DecodeEntry(data []byte) (*Entry, error) {
	e := new(Entry)
	plain, err := storedPlain(data)
	if err != nil {
		return nil, err
	}
	// Only issue 16's {"z": ...} form inflates inside decode.
	return e, e.decode(plain, len(data) == 0 || data[0] != deflatedMark)
}

// inflaters are kept: a new one allocates its 40 KB window each time,
// and a log read inflates an entry at a time.
var inflaters sync.Pool

func inflateEntry(z []byte) ([]byte, error) {
	src := bytes.NewReader(z)
	r, ok := inflaters.Get().(io.ReadCloser)
	if ok {
		if err := r.(flate.Resetter).Reset(src, nil); err != nil {
			return nil, err
		}
	} else {
		r = flate.NewReader(src)
	}
	defer inflaters.Put(r)
	b, err := io.ReadAll(io.LimitReader(r, maxInflated+1))
	if err != nil {
		return nil, fmt.Errorf("inflating a log entry: %w", err)
	}
	if len(b) > maxInflated {
		return nil, fmt.Errorf("a deflated log entry inflates beyond %d bytes", maxInflated)
	}
	return b, nil
}

// maxInflated bounds an inflated entry: a DynamoDB item is at most 400 KB,
// and an entry's JSON compresses at most a few times over.
const maxInflated = 16 << 20

// UnmarshalJSON reads an entry, stored (encodeEntry) or whole.
func (e *Entry) UnmarshalJSON(b []byte) error { return e.decode(b, true) }

// decode reads an entry; a deflated one only if mayInflate (once: what
// it inflates to is a plain entry).
func (e *Entry) decode(b []byte, mayInflate bool) error {
	*e = Entry{}
	s := storedEntry{plainEntry: (*plainEntry)(e)}
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s.Z != nil {
		if !mayInflate {
			return fmt.Errorf("a deflated log entry inflates to another deflated one")
		}
		plain, err := inflateEntry(s.Z)
		if err != nil {
			return err
		}
		return e.decode(plain, false)
	}
	e.Draws = nil
	for _, d := range s.Draws {
		r := fair.Record{Input: fair.Input{Game: d.Game, Period: d.Period, Command: d.Command, Index: d.Index, Purpose: d.Purpose, N: d.N}, Value: d.Value}
		if r.Period == "" {
			r.Period = e.Period
		}
		if r.Command == "" {
			r.Command = e.CommandID
		}
		e.Draws = append(e.Draws, r)
	}
	return nil
}
