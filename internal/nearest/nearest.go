// Package nearest finds the names nearest a misspelt one, for the answer
// to an unknown command on every edge ("did you mean turns-propose?").
package nearest

import "strings"

// Names are the candidates within two edits of name, or that it starts
// (name of three letters or more), in the candidates' order, at most max.
func Names(name string, candidates []string, max int) []string {
	var out []string
	for _, c := range candidates {
		if c == name {
			continue
		}
		if Distance(name, c) <= 2 || len(name) >= 3 && strings.HasPrefix(c, name) {
			out = append(out, c)
			if len(out) == max {
				break
			}
		}
	}
	return out
}

// Distance is the Levenshtein distance of a and b, in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
