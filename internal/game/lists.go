package game

import (
	"context"
	"encoding/json"
	"fmt"

	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/governance"
	"croupier/internal/store"
)

// The paged lists (pages.go): one page of each list the API serves, in the
// order of the items' keys, with the cursor of the next page.

// PageRecords reads one page of the records under prefix that keep keeps.
func PageRecords[T any](ctx context.Context, s *Service, game, prefix string, pr PageRequest, keep func(*T) bool) ([]T, string, error) {
	out := []T{}
	next, err := s.pageScan(ctx, store.Query{PK: GamePK(game), Prefix: prefix}, pr, func(it store.Item) (bool, error) {
		var v T
		if err := json.Unmarshal(it.Data, &v); err != nil {
			return false, fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if keep != nil && !keep(&v) {
			return false, nil
		}
		out = append(out, v)
		return true, nil
	})
	return out, next, err
}

// PlayersPage is one page of the game's current players, in id order.
func (s *Service) PlayersPage(ctx context.Context, game string, pr PageRequest) ([]PlayerView, string, error) {
	t, err := s.View(ctx, game)
	if err != nil {
		return nil, "", err
	}
	out := []PlayerView{}
	next, err := s.pageScan(ctx, store.Query{PK: GamePK(game), Prefix: PlayerPrefix}, pr, func(it store.Item) (bool, error) {
		p, err := t.decoded(it)
		if err != nil || !p.Core().Member {
			return false, err
		}
		v, err := t.PlayerView(p)
		if err != nil {
			return false, err
		}
		out = append(out, v)
		return true, nil
	})
	return out, next, err
}

// SeedsPage is one page of the game's seed records (SeedView), by period.
func (s *Service) SeedsPage(ctx context.Context, game string, pr PageRequest) ([]SeedView, string, error) {
	if _, err := s.View(ctx, game); err != nil {
		return nil, "", err
	}
	out := []SeedView{}
	_, next, err := PageRecords(ctx, s, game, seedPrefix, pr, func(r *SeedRecord) bool {
		v := SeedView{Period: r.Period, Commitment: r.Commitment, CommittedAt: r.CommittedAt}
		if r.Revealed() {
			at := r.RevealedAt
			v.Seed, v.RevealedAt = r.Secret, &at
		}
		out = append(out, v)
		return true
	})
	return out, next, err
}

// ProposalsPage is one page of the game's proposals with the status given
// ("" for all), oldest first; open ones carry their Live counts.
func (s *Service) ProposalsPage(ctx context.Context, game, status string, pr PageRequest) ([]ProposalView, string, error) {
	switch governance.Status(status) {
	case "", governance.StatusOpen, governance.StatusAdopted, governance.StatusFailed, governance.StatusWithdrawn:
	default:
		return nil, "", rules.Refuse("invalid_request", "Unknown proposal status %q: use open, adopted, failed or withdrawn.", status)
	}
	t, err := s.ViewIn(ctx, viewProposals, game)
	if err != nil {
		return nil, "", err
	}
	recs, next, err := PageRecords(ctx, s, game, proposalPrefix, pr, func(r *ProposalRecord) bool {
		return status == "" || string(r.Status) == status
	})
	if err != nil {
		return nil, "", err
	}
	out := make([]ProposalView, 0, len(recs))
	var isPlayer func(string) bool
	for _, r := range recs {
		v := ProposalView{ProposalRecord: r}
		if r.Status == governance.StatusOpen {
			if isPlayer == nil {
				if isPlayer, err = s.membersAt(ctx, game, t.Now); err != nil {
					return nil, "", err
				}
			}
			v.setLive(s.live(ctx, t, r, isPlayer))
		}
		out = append(out, v)
	}
	return out, next, nil
}

// JusticeRequestsPage is one page of the game's requests for justice with
// the status given ("" for all), oldest first.
func (s *Service) JusticeRequestsPage(ctx context.Context, game, status string, pr PageRequest) ([]JusticeRecord, string, error) {
	switch status {
	case "", governance.RequestOpen, governance.RequestAnswered:
	default:
		return nil, "", rules.Refuse("invalid_request", "Unknown request status %q: use open or answered.", status)
	}
	t, err := s.ViewIn(ctx, viewJustice, game)
	if err != nil {
		return nil, "", err
	}
	recs, next, err := PageRecords(ctx, s, game, rfjPrefix, pr, func(r *JusticeRecord) bool {
		return status == "" || r.Request.Status == status
	})
	for i := range recs {
		recs[i] = withRulesThen(recs[i], t.Meta.Amendments)
	}
	return recs, next, err
}

// RulingsPage is one page of the rulings made in the game: the rulings of
// a page of requests for justice (oldest request first), in the order made.
func (s *Service) RulingsPage(ctx context.Context, game string, pr PageRequest) ([]RulingView, string, error) {
	if _, err := s.ViewIn(ctx, viewRulings, game); err != nil {
		return nil, "", err
	}
	recs, next, err := PageRecords(ctx, s, game, rfjPrefix, pr, func(r *JusticeRecord) bool { return len(r.Rulings) > 0 })
	if err != nil {
		return nil, "", err
	}
	out := []RulingView{}
	for i := range recs {
		for _, r := range recs[i].Rulings {
			out = append(out, rulingView(&recs[i], r))
		}
	}
	order.Stable(out, func(a, b RulingView) int { return a.At.Compare(b.At) })
	return out, next, nil
}
