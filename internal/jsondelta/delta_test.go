package jsondelta

import (
	"encoding/json"
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// value draws a JSON value of bounded depth: what items hold (objects of
// members, arrays of records, numbers past float64's precision, strings).
func value(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		k := rapid.IntRange(0, 5).Draw(t, "kind")
		if depth <= 0 && k >= 4 {
			k = 0
		}
		switch k {
		case 0:
			return json.Number(fmt.Sprint(rapid.Int64().Draw(t, "n")))
		case 1:
			return rapid.StringMatching(`[a-z<&é"\\\\ ]{0,6}`).Draw(t, "s")
		case 2:
			return rapid.Bool().Draw(t, "b")
		case 3:
			return nil
		case 4:
			return rapid.SliceOfN(value(depth-1), 0, 6).Draw(t, "a")
		default:
			m := map[string]any{}
			for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "chips", "cards", "0", "x y", `q"\\`}), 0, 5, rapid.ID[string]).Draw(t, "keys") {
				m[k] = value(depth-1).Draw(t, k)
			}
			return m
		}
	})
}

// mutate changes v a little, as a command changes an item: a member set,
// removed or added, an element inserted, removed or changed.
func mutate(t *rapid.T, v any, depth int) any {
	switch c := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range c {
			switch rapid.IntRange(0, 5).Draw(t, "m") {
			case 0:
				continue
			case 1:
				out[k] = mutate(t, e, depth-1)
			default:
				out[k] = e
			}
		}
		if rapid.Bool().Draw(t, "add") {
			out[rapid.SampledFrom([]string{"new", "a", "z"}).Draw(t, "k")] = value(1).Draw(t, "v")
		}
		return out
	case []any:
		out := append([]any{}, c...)
		switch rapid.IntRange(0, 3).Draw(t, "a") {
		case 0:
			i := rapid.IntRange(0, len(out)).Draw(t, "i")
			out = append(out[:i], append([]any{value(1).Draw(t, "e")}, out[i:]...)...)
		case 1:
			if len(out) > 0 {
				i := rapid.IntRange(0, len(out)-1).Draw(t, "i")
				out = append(out[:i], out[i+1:]...)
			}
		case 2:
			if len(out) > 0 {
				i := rapid.IntRange(0, len(out)-1).Draw(t, "i")
				out[i] = mutate(t, out[i], depth-1)
			}
		}
		return out
	default:
		if rapid.Bool().Draw(t, "same") {
			return v
		}
		return value(1).Draw(t, "new")
	}
}

// What a diff says, applied to the first document, is the second, and it
// survives being stored (encoded and decoded) on the way.
func TestApplyingADiffGivesTheSecondDocument(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := value(3).Draw(t, "a")
		b := mutate(t, a, 3)
		if rapid.IntRange(0, 9).Draw(t, "unrelated") == 0 {
			b = value(3).Draw(t, "b")
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		ops, err := Diff(ja, jb)
		if err != nil {
			t.Fatal(err)
		}
		stored, _ := json.Marshal(ops)
		var back []Op
		if err := json.Unmarshal(stored, &back); err != nil {
			t.Fatal(err)
		}
		got, err := Apply(ja, back)
		if err != nil {
			t.Fatalf("apply %s to %s: %v", stored, ja, err)
		}
		if !Equal(got, jb) {
			t.Fatalf("%s + %s = %s, want %s", ja, stored, got, jb)
		}
		if Equal(ja, jb) != (len(ops) == 0) {
			t.Fatalf("equal documents give no operations: %s %s: %s", ja, jb, stored)
		}
	})
}

// An element added to a long array costs the element, not the array: a
// card bought into an inventory of a thousand.
func TestAnAddedElementCostsTheElement(t *testing.T) {
	var cards []map[string]any
	for i := range 1000 {
		cards = append(cards, map[string]any{"id": fmt.Sprintf("c%04d", i), "name": "Queen of Diamonds"})
	}
	a, _ := json.Marshal(map[string]any{"chips": 3, "cards": cards})
	cards = append(cards[:500], append([]map[string]any{{"id": "new", "name": "Ace of Spades"}}, cards[500:]...)...)
	b, _ := json.Marshal(map[string]any{"chips": 2, "cards": cards})
	ops, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := json.Marshal(ops)
	if len(stored) > 120 {
		t.Fatalf("the diff is %d bytes (%s), want the new card and the chips only", len(stored), stored)
	}
	if got, _ := Apply(a, ops); !Equal(got, b) {
		t.Fatal("the diff does not rebuild the second inventory")
	}
}

func TestNumbersKeepTheirDigits(t *testing.T) {
	a := []byte(`{"n":1}`)
	b := []byte(`{"n":9007199254740993,"t":"2026-12-02T05:00:00.123456789Z"}`)
	ops, _ := Diff(a, b)
	got, err := Apply(a, ops)
	if err != nil || string(got) != string(b) {
		t.Fatalf("got %s, %v; want %s", got, err, b)
	}
}

func TestPathsAsPeopleReadThem(t *testing.T) {
	if got := Path([]string{"inventory", "cards", "3", "name"}); got != "inventory.cards[3].name" {
		t.Fatal(got)
	}
	d := Differences([]byte(`{"chips":3,"name":"Ada"}`), []byte(`{"chips":5,"name":"Ada"}`), 5)
	if len(d) != 1 || d[0] != "chips" {
		t.Fatal(d)
	}
}

// BenchmarkDiffOfABoughtCard is what recording a purchase's change costs
// the commit: an inventory of 1,000 cards, one added, the Chips paid.
func BenchmarkDiffOfABoughtCard(b *testing.B) {
	var cards []map[string]any
	for i := range 1000 {
		cards = append(cards, map[string]any{"id": fmt.Sprintf("c%04d", i), "code": "QD", "got": "2026-12-01T18:00:00Z"})
	}
	a, _ := json.Marshal(map[string]any{"id": "discord:1", "name": "Ada", "chips": 3, "cards": cards})
	cards = append(cards, map[string]any{"id": "new", "code": "AS", "got": "2026-12-02T18:00:00Z"})
	c, _ := json.Marshal(map[string]any{"id": "discord:1", "name": "Ada", "chips": 2, "cards": cards})
	b.SetBytes(int64(len(a)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Diff(a, c); err != nil {
			b.Fatal(err)
		}
	}
}
