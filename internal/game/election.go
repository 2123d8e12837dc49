package game

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/governance"
	"croupier/internal/store"
)

// Judge elections (RULINGS G5). Each candidacy is its own item,
// CANDIDACY#<week>#<candidate>, so candidates do not contend for one item
// and a second candidacy by the same player in a week meets the first. The
// first candidacy of a week creates ELECTION#<week>, due at the week's end:
// the election runs only in weeks with candidacies (none keeps the Judge).
const (
	candidacyPrefix = "CANDIDACY#"
	electionPrefix  = "ELECTION#"
)

func candidacyKey(g, week, player string) store.Key {
	return store.Key{PK: GamePK(g), SK: candidacyPrefix + week + "#" + player}
}
func electionKey(g, week string) store.Key {
	return store.Key{PK: GamePK(g), SK: electionPrefix + week}
}

// Election statuses.
const (
	ElectionOpen = "open"
	ElectionHeld = "held"
)

// ElectionRecord is one week's Judge election.
type ElectionRecord struct {
	Week   string               `json:"week"`
	EndsAt time.Time            `json:"ends_at"`
	Status string               `json:"status"`
	Result *governance.Election `json:"result,omitempty"`
}

func (e *ElectionRecord) due() time.Time {
	if e.Status == ElectionOpen {
		return e.EndsAt
	}
	return time.Time{}
}

// StandForJudge is the payload of a candidacy: the chat message whose 👍
// and 👎 reactions are its votes.
type StandForJudge struct {
	Message MessageRef `json:"message"`
}

// StandForJudge records the acting player's candidacy for Judge in the
// current UTC week (reputable players only, once a week; RULINGS G5, P4).
func (s *Service) StandForJudge(ctx context.Context, req Request, sf StandForJudge) (*Result, error) {
	if err := checkMessage(sf.Message, "candidacy"); err != nil {
		return nil, err
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "judge-candidacy", Body: sf,
		Keys: func(g string) []store.Key {
			// The week as of the clock now; apply reads again if the
			// command's moment falls in another week.
			w := calendar.WeekAt(s.clock.Now()).String()
			return []store.Key{PlayerKey(g, req.Actor), candidacyKey(g, w, req.Actor), electionKey(g, w), messageKey(g, sf.Message)}
		},
		Apply: func(t *Tx) (any, error) {
			week := calendar.WeekAt(t.Now)
			ck, ek := candidacyKey(t.Game, week.String(), req.Actor), electionKey(t.Game, week.String())
			if _, ok := t.Loaded[ck]; !ok {
				if err := t.Load(ck, ek); err != nil {
					return nil, err
				}
			}
			p, err := t.Player(req.Actor)
			if err != nil {
				return nil, err
			}
			var existing []governance.Candidacy
			if it := t.Loaded[ck]; it.Exists() {
				var c governance.Candidacy
				if err := json.Unmarshal(it.Data, &c); err != nil {
					return nil, fmt.Errorf("decoding %s: %w", ck, err)
				}
				existing = append(existing, c)
			}
			cfg, err := t.govConfig()
			if err != nil {
				return nil, err
			}
			cd, err := governance.Stand(existing, t.orderedID(), p, sf.Message, t.Now, cfg)
			if err != nil {
				return nil, err
			}
			if err := t.claimMessage(sf.Message, UseCandidacy, cd.ID, cd.Candidate); err != nil {
				return nil, err
			}
			if err := t.Put(ck, cd, time.Time{}); err != nil {
				return nil, err
			}
			if !t.Loaded[ek].Exists() {
				e := ElectionRecord{Week: week.String(), EndsAt: week.End(), Status: ElectionOpen}
				if err := t.Put(ek, e, e.due()); err != nil {
					return nil, err
				}
			}
			t.Emit("judge_candidacy", cd.Candidate, cd)
			return cd, nil
		},
	})
}

// candidacies reads a week's candidacies, earliest first.
func (s *Service) candidacies(ctx context.Context, game, week string) ([]governance.Candidacy, error) {
	out, err := scanRecords[governance.Candidacy](ctx, s, game, candidacyPrefix+week+"#", nil)
	sortCandidacies(out)
	return out, err
}

// ballots reads the reactions on each candidacy as of at: counted (each
// pushed record sealed first, RULINGS T5) for the election, or as they
// stand for the live view.
func (s *Service) ballots(ctx context.Context, game string, cs []governance.Candidacy, at time.Time, counted bool) ([]governance.Ballot, error) {
	out := make([]governance.Ballot, 0, len(cs))
	if counted {
		msgs := make([]MessageRef, len(cs))
		for i, c := range cs {
			msgs[i] = c.Message
		}
		snaps, err := s.countedReactions(ctx, game, msgs, at)
		if err != nil {
			return nil, err
		}
		for i, c := range cs {
			out = append(out, governance.Ballot{Candidacy: c, Reactions: snaps[i].Votes()})
		}
		return out, nil
	}
	for _, c := range cs {
		snap, err := s.reactionsAt(ctx, game, c.Message, at)
		if err != nil {
			return nil, err
		}
		out = append(out, governance.Ballot{Candidacy: c, Reactions: snap.Votes()})
	}
	return out, nil
}

// holdElectionItem is the "election" due work: the week's election is
// decided by the reactions and players at the week's end (RULINGS G5, T4).
func (s *Service) holdElectionItem(ctx context.Context, game, sk string) ([]string, error) {
	week := strings.TrimPrefix(sk, electionPrefix)
	ek := electionKey(game, week)
	it, err := s.store.Get(ctx, ek)
	if err != nil || !it.Exists() {
		return nil, err
	}
	var rec ElectionRecord
	if err := json.Unmarshal(it.Data, &rec); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", ek, err)
	}
	if rec.Status != ElectionOpen || rec.EndsAt.After(s.clock.Now()) {
		return nil, nil
	}
	cs, err := s.candidacies(ctx, game, week)
	if err != nil {
		return nil, err
	}
	bs, err := s.ballots(ctx, game, cs, rec.EndsAt, true)
	if err != nil {
		return nil, err
	}
	isPlayer, err := s.membersAt(ctx, game, rec.EndsAt)
	if err != nil {
		return nil, err
	}
	done, err := s.runScheduled(ctx, game, "judge-election", "judge-election:"+week, []store.Key{ek, judgeKey(game)}, func(t *Tx) (any, error) {
		var cur ElectionRecord
		// The ballots were read as of rec.EndsAt: the election must still
		// be open, end then, and be over by now (RULINGS T4).
		if err := json.Unmarshal(t.Loaded[ek].Data, &cur); err != nil || cur.Status != ElectionOpen ||
			!cur.EndsAt.Equal(rec.EndsAt) || cur.EndsAt.After(t.Now) {
			return nil, errNothingDue
		}
		t.asOf(cur.EndsAt)
		js, err := t.judgeState()
		if err != nil {
			return nil, err
		}
		e := governance.Elect(calendar.WeekAt(cur.EndsAt.Add(-time.Nanosecond)), js.Judge, bs, isPlayer)
		c := court(js, nil)
		governance.Seat(c, e, t.Now)
		if e.Changed {
			if err := t.Put(judgeKey(t.Game), officeOf(c), time.Time{}); err != nil {
				return nil, err
			}
		}
		cur.Status, cur.Result = ElectionHeld, &e
		if err := t.Put(ek, cur, cur.due()); err != nil {
			return nil, err
		}
		if e.Winner != "" {
			t.Emit("judge_elected", e.Judge, e)
		} else {
			t.Emit("judge_election_no_winner", "", e)
		}
		return cur, nil
	})
	if err != nil || !done {
		return nil, err
	}
	return []string{game + "/" + week}, nil
}

// CandidaciesView is one page of a week's election: a page of its
// candidacies (pages in candidate order, each page earliest first), and
// either its result (held) or Live, the outcome if the week ended now. The
// outcome is the whole election's (winner, Judge, reason), its Standings
// only those of the page's candidacies, so no page grows with the game.
type CandidaciesView struct {
	Week        string                 `json:"week"`
	EndsAt      time.Time              `json:"ends_at"`
	Status      string                 `json:"status"` // "open", "held", or "none" (no candidacy)
	Candidacies []governance.Candidacy `json:"candidacies"`
	Result      *governance.Election   `json:"result,omitempty"`
	Live        *governance.Election   `json:"live,omitempty"`
	// LiveError says why Live is missing (the reaction source failed).
	LiveError  string `json:"live_error,omitempty"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// AllCandidacies reads every page of week's election: its candidacies
// earliest first and its outcome with every standing (for callers that
// show a whole election: the tracker, the CLI).
func AllCandidacies(read func(PageRequest) (CandidaciesView, error)) (CandidaciesView, error) {
	var all CandidaciesView
	pr := PageRequest{Limit: MaxPageLimit}
	for {
		v, err := read(pr)
		if err != nil {
			return all, err
		}
		if pr.Cursor == "" {
			all = v
		} else {
			all.Candidacies = append(all.Candidacies, v.Candidacies...)
			for _, e := range [][2]*governance.Election{{all.Result, v.Result}, {all.Live, v.Live}} {
				if e[0] != nil && e[1] != nil {
					e[0].Standings = append(e[0].Standings, e[1].Standings...)
				}
			}
		}
		if v.NextCursor == "" {
			all.NextCursor = ""
			sortCandidacies(all.Candidacies)
			return all, nil
		}
		pr.Cursor = v.NextCursor
	}
}

func sortCandidacies(cs []governance.Candidacy) {
	order.Stable(cs, func(a, b governance.Candidacy) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// pageStandings keeps e's standings of the candidacies of page.
func pageStandings(e *governance.Election, page []governance.Candidacy) *governance.Election {
	if e == nil {
		return nil
	}
	out := *e
	out.Standings = []governance.Standing{}
	for _, st := range e.Standings {
		if slices.ContainsFunc(page, func(c governance.Candidacy) bool { return c.ID == st.Candidacy }) {
			out.Standings = append(out.Standings, st)
		}
	}
	return &out
}

var weekRe = regexp.MustCompile(`^(\d{4})-W(\d{2})$`)

// Candidacies returns a page of the Judge election of week ("2026-W49"; ""
// for the current UTC week).
func (s *Service) Candidacies(ctx context.Context, game, week string, pr PageRequest) (CandidaciesView, error) {
	if _, err := pr.limit(); err != nil {
		return CandidaciesView{}, err
	}
	var wk calendar.Week
	if week == "" {
		wk = calendar.WeekAt(s.clock.Now())
	} else {
		m := weekRe.FindStringSubmatch(week)
		var err error
		if m != nil {
			var y, n int
			fmt.Sscan(m[1], &y)
			fmt.Sscan(m[2], &n)
			wk, err = calendar.ISOWeek(y, n)
		}
		if m == nil || err != nil {
			return CandidaciesView{}, rules.Refuse("invalid_request", "%q is not an ISO week such as 2026-W49.", week)
		}
	}
	t, err := s.ViewIn(ctx, viewElections, game, electionKey(game, wk.String()), judgeKey(game))
	if err != nil {
		return CandidaciesView{}, err
	}
	v := CandidaciesView{Week: wk.String(), EndsAt: wk.End(), Status: "none"}
	if it := t.Loaded[electionKey(game, wk.String())]; it.Exists() {
		var rec ElectionRecord
		if err := json.Unmarshal(it.Data, &rec); err != nil {
			return CandidaciesView{}, fmt.Errorf("decoding election %s: %w", wk, err)
		}
		v.Status, v.Result = rec.Status, rec.Result
	}
	if v.Candidacies, v.NextCursor, err = PageRecords[governance.Candidacy](ctx, s, game, candidacyPrefix+wk.String()+"#", pr, nil); err != nil {
		return CandidaciesView{}, err
	}
	sortCandidacies(v.Candidacies)
	v.Result = pageStandings(v.Result, v.Candidacies)
	if v.Status == ElectionOpen {
		at := t.Now
		if wk.End().Before(at) {
			at = wk.End()
		}
		// The outcome is decided by every candidacy, not the page's.
		all, err := s.candidacies(ctx, game, wk.String())
		if err != nil {
			return CandidaciesView{}, err
		}
		bs, err := s.ballots(ctx, game, all, at, false)
		if err != nil {
			v.LiveError = err.Error()
			return v, nil
		}
		isPlayer, err := s.membersAt(ctx, game, at)
		if err != nil {
			return CandidaciesView{}, err
		}
		js, err := t.judgeState()
		if err != nil {
			return CandidaciesView{}, err
		}
		e := governance.Elect(wk, js.Judge, bs, isPlayer)
		v.Live = pageStandings(&e, v.Candidacies)
	}
	return v, nil
}
