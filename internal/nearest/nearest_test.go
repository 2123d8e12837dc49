package nearest

import (
	"slices"
	"testing"
)

func TestNamesNearAMisspelling(t *testing.T) {
	names := []string{"turns-propose", "turns-vote", "pool-enter", "pool-leave", "trade"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"turns-propse", []string{"turns-propose"}},
		{"pool-entr", []string{"pool-enter"}},
		{"pool", []string{"pool-enter", "pool-leave"}},
		{"trdae", []string{"trade"}},
		{"dance", nil},
		{"trade", nil},
	} {
		if got := Names(tc.name, names, 5); !slices.Equal(got, tc.want) {
			t.Errorf("Names(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := Names("pool", names, 1); len(got) != 1 {
		t.Errorf("at most 1: %v", got)
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance(kitten, sitting) = %d", d)
	}
}
