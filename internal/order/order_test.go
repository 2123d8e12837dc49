package order

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type kv struct{ k, v int }

// Sort and Stable give what slices.SortFunc and slices.SortStableFunc give,
// ties included, on slices of every length up to 400 with many ties (a
// fixed seed: the same slices every run).
func TestSameAsSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cmp := func(x, y kv) int { return x.k - y.k }
	for trial := range 5000 {
		n := trial % 400
		a := make([]kv, n)
		for i := range a {
			a[i] = kv{r.IntN(1 + n/10), i}
		}
		want, got := slices.Clone(a), slices.Clone(a)
		slices.SortFunc(want, cmp)
		Sort(got, cmp)
		if !slices.Equal(want, got) {
			t.Fatalf("Sort of %d elements differs from slices.SortFunc:\n%v\n%v", n, got, want)
		}
		want, got = slices.Clone(a), slices.Clone(a)
		slices.SortStableFunc(want, cmp)
		Stable(got, cmp)
		if !slices.Equal(want, got) {
			t.Fatalf("Stable of %d elements differs from slices.SortStableFunc", n)
		}
	}
}
