package fair

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
)

func TestNewSeed(t *testing.T) {
	want := bytes.Repeat([]byte{0xab}, SeedSize)
	s, err := NewSeed(bytes.NewReader(want))
	if err != nil || !bytes.Equal(s[:], want) {
		t.Fatalf("NewSeed = %x, %v; want %x", s, err, want)
	}
	if _, err := NewSeed(bytes.NewReader(make([]byte, SeedSize-1))); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short reader: err = %v, want io.ErrUnexpectedEOF", err)
	}
	if _, err := NewSeed(nil); err == nil {
		t.Error("nil reader: no error")
	}
}

func TestParseSeed(t *testing.T) {
	good := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	s, err := ParseSeed(good)
	if err != nil || s[0] != 0 || s[31] != 0x1f || s.Hex() != good {
		t.Fatalf("ParseSeed(%q) = %x, %v", good, s, err)
	}
	if s2, err := ParseSeed(strings.ToUpper(good)); err != nil || s2 != s {
		t.Errorf("upper case: %x, %v", s2, err)
	}
	for _, tc := range []struct{ in, wantErr string }{
		{"", "got 0 characters"},
		{good[:62], "got 62 characters"},
		{good + "00", "got 66 characters"},
		{good[:63] + "g", `byte 'g' at position 63`},
		{" " + good[1:], `byte ' ' at position 0`},
		{"0x" + good[2:], `byte 'x' at position 1`},
	} {
		_, err := ParseSeed(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseSeed(%q) err = %v, want mention of %q", tc.in, err, tc.wantErr)
		}
	}
}

// The seed is a secret until its period ends: accidental formatting or
// logging must not print it.
func TestSeedRedacted(t *testing.T) {
	s := testSeed(t, 0x5a)
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("x", "seed", s)
	for _, out := range []string{fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s", s, s, s, s), logged.String()} {
		if strings.Contains(out, s.Hex()) || strings.Contains(out, "5a5a5a") || strings.Contains(out, "90 90 90") {
			t.Errorf("seed leaked in %q", out)
		}
	}
}

func TestN2_CommitmentIsSHA256OfSeed(t *testing.T) {
	for _, tag := range []byte{0, 1, 0xff} {
		s := testSeed(t, tag)
		sum := sha256.Sum256(bytes.Repeat([]byte{tag}, SeedSize))
		if got, want := s.Commitment(), hex.EncodeToString(sum[:]); got != want {
			t.Errorf("seed %x: Commitment = %s, want %s", tag, got, want)
		}
	}
	// Independent known value: SHA-256 of 32 zero bytes.
	if got := (Seed{}).Commitment(); got != "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925" {
		t.Errorf("zero seed commitment = %s", got)
	}
}

func TestN2_EveryInputChangesTheDraw(t *testing.T) {
	seed := testSeed(t, 1)
	// n = 2^62 makes an accidental equal result a 1 in 2^62 event.
	base := Input{Game: "gilded", Period: "hall", Command: "c", Index: 0, Purpose: "pack-card", N: 1 << 62}
	want, err := Draw(seed, base)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Draw(seed, base); again != want {
		t.Fatalf("Draw is not deterministic: %d then %d", want, again)
	}
	other := seed
	other[31] ^= 1
	for name, tc := range map[string]struct {
		seed Seed
		in   Input
	}{
		"seed":    {other, base},
		"game":    {seed, with(base, func(i *Input) { i.Game = "gilder" })},
		"period":  {seed, with(base, func(i *Input) { i.Period = "hallway" })},
		"command": {seed, with(base, func(i *Input) { i.Command = "d" })},
		"index":   {seed, with(base, func(i *Input) { i.Index = 1 })},
		"purpose": {seed, with(base, func(i *Input) { i.Purpose = "holographic" })},
		"n":       {seed, with(base, func(i *Input) { i.N = 1<<62 + 1 })},
		// Field boundaries are part of the message: moving a character
		// from one field to the next must change the draw.
		"boundary": {seed, with(base, func(i *Input) { i.Game, i.Period = "gildedh", "all" })},
	} {
		got, err := Draw(tc.seed, tc.in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if got == want {
			t.Errorf("changing %s did not change the draw (%d)", name, got)
		}
	}
}

func with(in Input, f func(*Input)) Input { f(&in); return in }

func TestDrawRejectsInvalidInput(t *testing.T) {
	seed := testSeed(t, 2)
	ok := Input{Game: "g", Period: "p", Command: "c", Index: 0, Purpose: "x", N: 2}
	for _, tc := range []struct {
		in      Input
		wantErr string
	}{
		{with(ok, func(i *Input) { i.N = 0 }), "n must be >= 1"},
		{with(ok, func(i *Input) { i.N = -5 }), "n must be >= 1"},
		{with(ok, func(i *Input) { i.Index = -1 }), "index must be >= 0"},
		{with(ok, func(i *Input) { i.Game = "a\x00b" }), "game must not contain a NUL"},
		{with(ok, func(i *Input) { i.Period = "\x00" }), "period must not contain a NUL"},
		{with(ok, func(i *Input) { i.Command = "c\x00" }), "command must not contain a NUL"},
		{with(ok, func(i *Input) { i.Purpose = "\x00x" }), "purpose must not contain a NUL"},
		{with(ok, func(i *Input) { i.Purpose = "" }), "purpose must not be empty"},
		{with(ok, func(i *Input) { i.Game = "" }), "game must not be empty"},
		{with(ok, func(i *Input) { i.Command = "\xff" }), "command must be valid UTF-8"},
	} {
		if _, err := Draw(seed, tc.in); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Draw(%+v) err = %v, want %q", tc.in, err, tc.wantErr)
		}
	}
	if v, err := Draw(seed, with(ok, func(i *Input) { i.N = 1 })); v != 0 || err != nil {
		t.Errorf("n=1: %d, %v; want 0, nil", v, err)
	}
}

func TestN2_DrawerCountsAndRecords(t *testing.T) {
	seed := testSeed(t, 3)
	d, err := NewDrawer(seed, "gilded-hall", "phase-1", "cmd-7")
	if err != nil {
		t.Fatal(err)
	}
	var src Source = d
	got := []int{src.Intn("pack-card", 54), src.Intn("pack-card", 54)}
	holo := Chance(src, "holographic", 5)
	recs := d.Records()
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for i, r := range recs {
		if r.Index != i || r.Game != "gilded-hall" || r.Period != "phase-1" || r.Command != "cmd-7" {
			t.Errorf("record %d = %+v", i, r)
		}
		if want, _ := Draw(seed, r.Input); want != r.Value {
			t.Errorf("record %d value %d, Draw gives %d", i, r.Value, want)
		}
	}
	if recs[0].Value != got[0] || recs[1].Value != got[1] || recs[2].N != 100 || recs[2].Purpose != "holographic" {
		t.Errorf("records %+v do not match returned draws %v", recs, got)
	}
	if holo != (recs[2].Value < 5) {
		t.Errorf("Chance = %v with draw %d of 100 at 5%%", holo, recs[2].Value)
	}
	recs[0].Value = -1
	if d.Records()[0].Value == -1 {
		t.Error("Records returned the Drawer's own slice")
	}
}

func TestChanceBounds(t *testing.T) {
	d, _ := NewDrawer(testSeed(t, 4), "g", "p", "c")
	for i := 0; i < 200; i++ {
		if Chance(d, "never", 0) {
			t.Fatal("0% happened")
		}
		if !Chance(d, "always", 100) {
			t.Fatal("100% did not happen")
		}
	}
	if n := len(d.Records()); n != 400 {
		t.Errorf("Chance made %d draws for 400 calls; it must always draw once", n)
	}
}

func TestNewDrawerRejectsBadFields(t *testing.T) {
	for _, f := range [][3]string{{"", "p", "c"}, {"g", "p\x00", "c"}, {"g", "p", ""}, {"g", "p", "\xc3"}} {
		if _, err := NewDrawer(Seed{}, f[0], f[1], f[2]); err == nil {
			t.Errorf("NewDrawer(%q) accepted", f)
		}
	}
}

func TestDrawerIntnPanicsOnProgrammerError(t *testing.T) {
	for _, tc := range []struct {
		purpose string
		n       int
	}{{"x", 0}, {"x", -1}, {"a\x00", 3}, {"", 3}} {
		func() {
			d, _ := NewDrawer(Seed{}, "g", "p", "c")
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "programmer error") {
					t.Errorf("Intn(%q, %d): recovered %v, want programmer error panic", tc.purpose, tc.n, r)
				}
				if len(d.Records()) != 0 {
					t.Errorf("failed draw was recorded")
				}
			}()
			d.Intn(tc.purpose, tc.n)
		}()
	}
}

func TestRecordJSON(t *testing.T) {
	r := Record{Input: Input{Game: "g ♠", Period: "p", Command: "c", Index: 2, Purpose: "pack-card", N: 54}, Value: 17}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"game":"g ♠","period":"p","command":"c","index":2,"purpose":"pack-card","n":54,"value":17}`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil || back != r {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}
