package game

import (
	"context"

	"croupier/internal/rules/calendar"
)

// AddBeforePeriodEndHook appends h to the hooks run before a period ends
// (of every ruleset: common), for tests that interleave other work there;
// the returned func removes it.
func AddBeforePeriodEndHook(h func(s *Service, ctx context.Context, game string, ended calendar.Period) error) (remove func()) {
	n := len(beforePeriodEnd)
	beforePeriodEnd = append(beforePeriodEnd[:n:n], beforeHook{institution: InstCommon, run: h})
	return func() { beforePeriodEnd = beforePeriodEnd[:n:n] }
}

// SetBattleInline makes battles of more than n engaged players keep a
// roster (battle_roster.go), so tests of a few dozen players take the path
// of a game of thousands. It returns the function that restores the limit.
func SetBattleInline(n int) (restore func()) {
	old := battleInline
	battleInline = n
	return func() { battleInline = old }
}

// SetRosterPaging makes roster items of size entrants, perCommit of them
// to a commit (battle_roster.go). It returns the function that restores them.
func SetRosterPaging(size, perCommit int) (restore func()) {
	oldSize, oldPer := rosterPageSize, rosterPagesPerCommit
	rosterPageSize, rosterPagesPerCommit = size, perCommit
	return func() { rosterPageSize, rosterPagesPerCommit = oldSize, oldPer }
}
