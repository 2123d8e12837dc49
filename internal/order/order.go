// Package order sorts slices by a comparison function, with exactly the
// results of slices.SortFunc and slices.SortStableFunc, through package
// sort's one non-generic implementation.
//
// Why: the generic sorts of package slices are compiled once per element
// shape, about 9 KB of code each, and a Lambda links some fifteen shapes;
// they took the Discord, Slack and tracker bootstraps past their 10 MiB
// bound (docs/operations.md, "Bootstraps"). sort.Slice runs the same
// pattern-defeating quicksort, generated from the same template, so an
// unstable sort orders ties as slices.SortFunc does (TestSameAsSlices);
// a stable sort's result is unique.
package order

import "sort"

// Sort sorts s by cmp, as slices.SortFunc does.
func Sort[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// Stable sorts s by cmp keeping equal elements in their order, as
// slices.SortStableFunc does.
func Stable[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}
