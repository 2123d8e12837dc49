package turns

// SetVotePage sets how many votes a turn-end step reads, for a test, and
// returns the function that restores it.
func SetVotePage(n int) (restore func()) {
	old := votePage
	votePage = n
	return func() { votePage = old }
}
