package fair

import (
	"bytes"
	"testing"
)

// testSeed is a fixed, distinct seed per tag, made with NewSeed from a
// deterministic reader, as tests are told to do.
func testSeed(t testing.TB, tag byte) Seed {
	t.Helper()
	s, err := NewSeed(bytes.NewReader(bytes.Repeat([]byte{tag}, SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
