package gildedhall

// SetBattleInline makes battles of more than n engaged players keep a
// roster (battle_roster.go), so tests of a few dozen players take the path
// of a game of thousands. It returns the function that restores the limit.
// It is for tests only: it changes every service of the process.
func SetBattleInline(n int) (restore func()) {
	old := battleInline
	battleInline = n
	return func() { battleInline = old }
}

// SetRosterPaging makes roster items of size entrants, perCommit of them
// to a commit (battle_roster.go). It returns the function that restores
// them. It is for tests only, like SetBattleInline.
func SetRosterPaging(size, perCommit int) (restore func()) {
	oldSize, oldPer := rosterPageSize, rosterPagesPerCommit
	rosterPageSize, rosterPagesPerCommit = size, perCommit
	return func() { rosterPageSize, rosterPagesPerCommit = oldSize, oldPer }
}
