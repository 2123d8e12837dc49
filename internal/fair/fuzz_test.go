package fair

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func validField(s string) bool { return s != "" && !strings.Contains(s, "\x00") && utf8.ValidString(s) }

// FuzzDraw: valid inputs always give a result in [0, n), the same one twice,
// the same one through a Drawer; invalid inputs give an error; nothing panics.
func FuzzDraw(f *testing.F) {
	f.Add([]byte{0}, "gilded-hall", "phase-1", "cmd-1", 0, "pack-card", 54)
	f.Add([]byte{1, 2, 3}, "g", "p", "c", 3, "x", 1)
	f.Add([]byte{}, "g\x00", "p", "c", 0, "x", 2)
	f.Add([]byte{9}, "g", "p", "c", -1, "x", 0)
	f.Add([]byte{0xff}, "Gilded ♠", "p", "\xff", 1<<40, "stress", int(^uint(0)>>1))
	f.Fuzz(func(t *testing.T, seedBytes []byte, game, period, command string, index int, purpose string, n int) {
		var seed Seed
		copy(seed[:], seedBytes)
		in := Input{Game: game, Period: period, Command: command, Index: index, Purpose: purpose, N: n}
		valid := validField(game) && validField(period) && validField(command) && validField(purpose) && index >= 0 && n >= 1
		v, err := Draw(seed, in)
		if !valid {
			if err == nil {
				t.Fatalf("invalid input %+v accepted (value %d)", in, v)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid input %+v rejected: %v", in, err)
		}
		if v < 0 || v >= n {
			t.Fatalf("Draw(%+v) = %d, outside [0, %d)", in, v, n)
		}
		if again, _ := Draw(seed, in); again != v {
			t.Fatalf("not deterministic: %d then %d", v, again)
		}
		rep := Verify(map[string]Seed{period: seed}, map[string]string{period: seed.Commitment()}, []Record{{Input: in, Value: v}})
		if !rep.OK() || rep.Checked != 1 {
			t.Fatalf("Verify of a correct record: %+v", rep)
		}
	})
}

// FuzzParseSeed: ParseSeed never panics, accepts exactly 64 hex characters,
// and what it accepts round-trips through Hex.
func FuzzParseSeed(f *testing.F) {
	f.Add(strings.Repeat("00", 32))
	f.Add(strings.Repeat("aB", 32))
	f.Add("xyz")
	f.Add(strings.Repeat("0", 63) + "g")
	f.Fuzz(func(t *testing.T, s string) {
		seed, err := ParseSeed(s)
		isHex := len(s) == 64 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
		if isHex != (err == nil) {
			t.Fatalf("ParseSeed(%q) err = %v, want success %v", s, err, isHex)
		}
		if err == nil && seed.Hex() != strings.ToLower(s) {
			t.Fatalf("round trip: %q -> %q", s, seed.Hex())
		}
		if err != nil && seed != (Seed{}) {
			t.Fatalf("failed parse returned non-zero seed")
		}
	})
}

func BenchmarkDraw(b *testing.B) {
	seed := testSeed(b, 1)
	in := Input{Game: "gilded-hall", Period: "phase-1", Command: "01HZX3K9ABCDEF", Index: 0, Purpose: "pack-card", N: 54}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		in.Index = i
		if _, err := Draw(seed, in); err != nil {
			b.Fatal(err)
		}
	}
}
