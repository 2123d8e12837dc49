package exoptosis

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"croupier/internal/rules"
)

// FuzzApply feeds arbitrary move sequences to a match: any kind (known or
// not), any actor, any card name (real or not), any targets and amounts,
// with timeouts at arbitrary times in between. The engine must never
// panic, every refusal must be a *rules.Error that leaves the match
// unchanged, and the match invariants (see check) must hold throughout.
func FuzzApply(f *testing.F) {
	f.Add([]byte("\x03\x00\x00\x00\x00\x00\x00\x01" + "\x00\x00\x00\x00\x01\x01\x01\x01\x02\x02\x02\x02"))
	f.Add([]byte("\x07\x01\x02\x03\x04\x05\x06\x07" + "\x05\x00\x10\x00\x06\x01\x20\x00\x0c\x02\x30\x00\xff\xff\xff\xff"))
	f.Add(make([]byte, 64))
	f.Fuzz(fuzzApply)
}

// maxFuzzOps bounds the moves one fuzz input makes.
const maxFuzzOps = 300

var fuzzKinds = append(append([]string{}, moveKinds...), MoveForfeit, MoveTerminate, MoveBet, "", "nonsense")

func fuzzApply(t *testing.T, data []byte) {
	{
		rs := gilded(t)
		kinds := fuzzKinds
		if len(data) < 8 {
			return
		}
		seed := binary.LittleEndian.Uint64(data[:8])
		data = data[8:]
		if len(data) > 4*maxFuzzOps { // keep each input fast: the check is quadratic in the log
			data = data[:4*maxFuzzOps]
		}
		r := newRand(seed).r
		src := newRand(seed + 1)
		name := func(b byte) string {
			if i := int(b) % (len(rs.Cards) + 2); i < len(rs.Cards) {
				return rs.Cards[i].Name
			}
			return "14 of Stars"
		}
		var es []Entrant
		total := 0
		for i := range 2 + int(seed%7) {
			e := Entrant{ID: fmt.Sprintf("p%d", i), Chips: r.IntN(4)}
			for range 4 + r.IntN(10) {
				e.Deck = append(e.Deck, rs.Cards[r.IntN(len(rs.Cards))].Name)
			}
			total += e.Chips
			es = append(es, e)
		}
		now := t0
		m, _, err := New(rs, "m", es, now)
		if err != nil {
			return
		}
		actor := func(b byte) string {
			if int(b)%9 == 8 {
				return "stranger"
			}
			return fmt.Sprintf("p%d", int(b)%9)
		}
		for len(data) >= 4 {
			op, a, c, x := data[0], data[1], data[2], data[3]
			data = data[4:]
			prev := hands(m)
			now = now.Add(time.Duration(x) * 7 * time.Minute)
			if op%13 == 12 {
				evs := Timeout(m, rs, now.Add(time.Duration(a)*time.Hour), src)
				check(t, rs, m, prev, evs, total)
				continue
			}
			mv := Move{Kind: kinds[int(op)%len(kinds)], Actor: actor(a), Card: name(c), Amount: int(int8(x))}
			switch {
			case mv.Kind == MoveSelect:
				for i := range 3 + int(x%5) {
					mv.Cards = append(mv.Cards, name(c+byte(i)*byte(x|1)))
				}
			case mv.Kind == MoveTarget || mv.Kind == MoveGiver:
				mv.Target = actor(c)
				mv.Targets = []string{actor(c), actor(x)}[:1+int(op>>4)%2]
			}
			for _, id := range []string{"p0", "p1", mv.Actor} {
				LegalMoves(m, rs, id)
			}
			before, _ := json.Marshal(m)
			evs, err := Apply(m, rs, mv, now, src)
			if err != nil {
				var re *rules.Error
				if !errors.As(err, &re) || re.Code == "" || re.Message == "" {
					t.Fatalf("Apply(%+v) = %T %v; want a *rules.Error", mv, err, err)
				}
				if after, _ := json.Marshal(m); string(after) != string(before) {
					t.Fatalf("refused %+v (%v) changed the match", mv, err)
				}
				continue
			}
			check(t, rs, m, prev, evs, total)
		}
		if m.Phase == PhaseEnded {
			if _, err := Settle(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}
