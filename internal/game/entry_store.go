package game

import (
	"encoding/json"

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
	return json.Marshal(s)
}

// UnmarshalJSON reads an entry, stored (encodeEntry) or whole.
func (e *Entry) UnmarshalJSON(b []byte) error {
	*e = Entry{}
	s := storedEntry{plainEntry: (*plainEntry)(e)}
	if err := json.Unmarshal(b, &s); err != nil {
		return err
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
