package game

// SetBattleInline makes battles of more than n engaged players keep a
// roster (battle_roster.go), so tests of a few dozen players take the path
// of a game of thousands. It returns the function that restores the limit.
func SetBattleInline(n int) (restore func()) {
	old := battleInline
	battleInline = n
	return func() { battleInline = old }
}
