package game

import (
	"context"

	"croupier/internal/rules/calendar"
)

// AddBeforePeriodEndHook appends h to the hooks run before a period ends
// (of every ruleset: common), for tests that interleave other work there;
// the returned func removes it.
func AddBeforePeriodEndHook(h func(s *Service, ctx context.Context, game string, ended calendar.Period) error) (remove func()) {
	n := len(testBeforePeriodEnd)
	testBeforePeriodEnd = append(testBeforePeriodEnd[:n:n], BeforeHook{Run: h})
	return func() { testBeforePeriodEnd = testBeforePeriodEnd[:n:n] }
}
