package fair

import (
	"fmt"
	"testing"
)

// chiSquare999 is the 99.9 % critical value of the chi-square distribution
// with 53 degrees of freedom (54 cards): a fair source exceeds it one time in
// a thousand.
const chiSquare999_53 = 90.573

// TestN2_UniformOver54Cards draws 54,000 cards with a fixed seed, once varying
// the command id (as separate commands do) and once varying the draw index
// within one command (as a pack does). The seed is fixed, so the result is
// deterministic: this test cannot flake, and a biased derivation (say, plain
// modulo of a narrow value, or ignoring an input) would fail it.
func TestN2_UniformOver54Cards(t *testing.T) {
	const cards, draws = 54, 54_000
	seed := testSeed(t, 0x42)
	for _, tc := range []struct {
		name string
		in   func(i int) Input
	}{
		{"distinct commands", func(i int) Input {
			return Input{Game: "gilded-hall", Period: "phase-1", Command: fmt.Sprintf("cmd-%d", i), Index: 0, Purpose: "pack-card", N: cards}
		}},
		{"indices within one command", func(i int) Input {
			return Input{Game: "gilded-hall", Period: "phase-1", Command: "big-pack", Index: i, Purpose: "pack-card", N: cards}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var counts [cards]int
			for i := 0; i < draws; i++ {
				v, err := Draw(seed, tc.in(i))
				if err != nil {
					t.Fatal(err)
				}
				counts[v]++
			}
			expected := float64(draws) / cards
			chi := 0.0
			for card, c := range counts {
				if c == 0 {
					t.Errorf("card %d never drawn", card)
				}
				d := float64(c) - expected
				chi += d * d / expected
			}
			t.Logf("chi-square = %.2f (critical %.2f)", chi, chiSquare999_53)
			if chi >= chiSquare999_53 {
				t.Errorf("chi-square %.2f >= %.2f: draws are not uniform: %v", chi, chiSquare999_53, counts)
			}
		})
	}
}
