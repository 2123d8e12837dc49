package governance

import (
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// reactionsGen draws reactions over a small population with repeats, so
// duplicates, both-reactors and non-players all occur.
func reactionsGen(people []string) *rapid.Generator[Reactions] {
	return rapid.Custom(func(t *rapid.T) Reactions {
		return Reactions{
			Up:   rapid.SliceOfN(rapid.SampledFrom(people), 0, 20).Draw(t, "up"),
			Down: rapid.SliceOfN(rapid.SampledFrom(people), 0, 20).Draw(t, "down"),
		}
	})
}

var population = []string{"a", "b", "c", "d", "e", "f", "g", "bot", "visitor", ""}

func isPlayerProp(id string) bool { return id != "bot" && id != "visitor" }

// scramble returns r with each list permuted and some entries repeated.
func scramble(t *rapid.T, r Reactions) Reactions {
	mix := func(label string, l []string) []string {
		out := append([]string{}, l...)
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, max(len(l)-1, 0)), 0, 5).Draw(t, label+"-dups") {
			if len(l) > 0 {
				out = append(out, l[i])
			}
		}
		perm := rapid.Permutation(out).Draw(t, label+"-perm")
		return perm
	}
	return Reactions{Up: mix("up", r.Up), Down: mix("down", r.Down)}
}

func TestG1_TallyInvariantUnderOrderAndDuplicates(t *testing.T) {
	cfg := testConfig(t)
	rapid.Check(t, func(t *rapid.T) {
		r := reactionsGen(population).Draw(t, "reactions")
		s := scramble(t, r)
		class := rapid.SampledFrom([]Class{Standard, Urgent}).Draw(t, "class")
		edited := rapid.Bool().Draw(t, "edited")
		if a, b := Tally(r, isPlayerProp, edited, false, class, cfg), Tally(s, isPlayerProp, edited, false, class, cfg); !reflect.DeepEqual(a, b) {
			t.Fatalf("tally changed under reordering/duplicates:\n%+v\n%+v", a, b)
		}
		if a, b := TallyConfidence(r, isPlayerProp), TallyConfidence(s, isPlayerProp); !reflect.DeepEqual(a, b) {
			t.Fatalf("confidence tally changed under reordering/duplicates:\n%+v\n%+v", a, b)
		}
	})
}

// TestG1G2_TallyMatchesDirectReading checks Tally against a person-by-person
// reading of G1 and G2.
func TestG1G2_TallyMatchesDirectReading(t *testing.T) {
	cfg := testConfig(t)
	rapid.Check(t, func(t *rapid.T) {
		r := reactionsGen(population).Draw(t, "reactions")
		class := rapid.SampledFrom([]Class{Standard, Urgent}).Draw(t, "class")
		edited := rapid.Bool().Draw(t, "edited")
		deleted := rapid.Bool().Draw(t, "deleted")

		var forN, against, affirm, overturn int
		for _, p := range population {
			if p == "" || !isPlayerProp(p) {
				continue
			}
			up, down := contains(r.Up, p), contains(r.Down, p)
			switch {
			case up && down: // unclear: against a proposal, affirming a ruling
				against++
				affirm++
			case up:
				forN++
				affirm++
			case down:
				against++
				overturn++
			}
		}
		popular := forN > against
		if class == Urgent {
			popular = against <= 2
		}
		res := Tally(r, isPlayerProp, edited, deleted, class, cfg)
		if res.For != forN || res.Against != against || res.Popular != popular || res.Adopted != (popular && !edited && !deleted) {
			t.Fatalf("Tally %+v; direct reading: for %d against %d popular %v", res, forN, against, popular)
		}
		cr := TallyConfidence(r, isPlayerProp)
		if cr.Affirm != affirm || cr.Overturn != overturn || cr.Overturned != (overturn > affirm) {
			t.Fatalf("TallyConfidence %+v; direct reading: affirm %d overturn %d", cr, affirm, overturn)
		}
	})
}

func contains(l []string, s string) bool { return slices.Contains(l, s) }
