package game

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/store"
)

// Who acted in an ended period (RULINGS P3) is part of the period end's
// record. The period-end log entry holds the counts and a sample of each
// list; when the lists are longer than the sample, they are written whole
// in ACTIVITY#<period>#<n> items in the same commit, each well under the
// item limit, so the entry stays small however many players the game has
// (8,000 players once made a 409 KB entry that could never be written).
const (
	activityPrefix = "ACTIVITY#"
	// ActivitySample is how many names of each list the period-end entry
	// and its announcement carry.
	ActivitySample = 50
	// activityPageBytes bounds the names one activity item holds: no item
	// of a game passes 100 KB, whatever its size (issue 22; 10,000 players
	// made one 170 KB item at 200 KB a page). 10,000 players' lists are 5
	// items of the period end's commit.
	activityPageBytes = 64 * 1024
)

func activityKey(g, period string, page int) store.Key {
	return store.Key{PK: GamePK(g), SK: fmt.Sprintf("%s%s#%04d", activityPrefix, period, page)}
}

// ActivityRecord is one ACTIVITY# item: a slice of an ended period's lists.
type ActivityRecord struct {
	Period   string   `json:"period"`
	Page     int      `json:"page"`
	Active   []string `json:"active"`
	Inactive []string `json:"inactive"`
}

func Sample(ids []string) []string {
	if len(ids) > ActivitySample {
		return ids[:ActivitySample]
	}
	return ids
}

// recordActivity fills res with who acted in ended and, when the lists are
// longer than the sample, stages the activity items holding them whole.
func (t *Tx) recordActivity(ended calendar.Period, members []PlayerRecord, res *PeriodEnded) error {
	active, inactive := activity(members, ended)
	res.ActiveCount, res.InactiveCount = len(active), len(inactive)
	res.Active, res.Inactive = Sample(active), Sample(inactive)
	if len(active) <= ActivitySample && len(inactive) <= ActivitySample {
		return nil
	}
	rec := ActivityRecord{Period: ended.ID, Active: []string{}, Inactive: []string{}}
	size := 0
	flush := func() error {
		res.ActivityPages++
		rec.Page = res.ActivityPages
		if err := t.Put(activityKey(t.Game, ended.ID, rec.Page), rec, time.Time{}); err != nil {
			return err
		}
		rec, size = ActivityRecord{Period: ended.ID, Active: []string{}, Inactive: []string{}}, 0
		return nil
	}
	for _, l := range []struct {
		ids    []string
		active bool
	}{{active, true}, {inactive, false}} {
		for _, id := range l.ids {
			if size+len(id)+3 > activityPageBytes {
				if err := flush(); err != nil {
					return err
				}
			}
			if l.active {
				rec.Active = append(rec.Active, id)
			} else {
				rec.Inactive = append(rec.Inactive, id)
			}
			size += len(id) + 3
		}
	}
	if size > 0 {
		return flush()
	}
	return nil
}

// ActivityEntry is one player of an ended period's activity list.
type ActivityEntry struct {
	Player string `json:"player"`
	// Active: the player performed an action in the period (RULINGS P2);
	// otherwise they are inactive in the next one (P3).
	Active bool `json:"active"`
}

// ActivityPage is one page of who acted in an ended period.
type ActivityPage struct {
	Period        string          `json:"period"`
	ActiveCount   int             `json:"active_count"`
	InactiveCount int             `json:"inactive_count"`
	Players       []ActivityEntry `json:"players"`
	NextCursor    string          `json:"next_cursor,omitempty"`
}

// Activity lists who acted in an ended period, the active first, a page
// at a time: from the period-end entry when its lists are whole, else from
// the period's activity items. A cursor is "<item>.<offset>".
func (s *Service) Activity(ctx context.Context, game, period string, pr PageRequest) (ActivityPage, error) {
	limit, err := pr.limit()
	if err != nil {
		return ActivityPage{}, err
	}
	if period == "" || len(period) > 100 || strings.ContainsAny(period, "#/ \t\n") {
		return ActivityPage{}, rules.Refuse("invalid_request", "%q is not a period id.", period)
	}
	idem := LogKey(game, CommandID(SchedulerActor, "period-end:"+period))
	t, err := s.View(ctx, game, idem)
	if err != nil {
		return ActivityPage{}, err
	}
	it := t.Loaded[idem]
	if !it.Exists() {
		return ActivityPage{}, rules.Refuse("period_not_ended", "Period %q of game %q has not ended (or is not a period of this game).", period, game)
	}
	var res PeriodEnded
	e, err := DecodeEntry(it.Data)
	if err != nil {
		return ActivityPage{}, fmt.Errorf("decoding %s: %w", idem, err)
	}
	if err := json.Unmarshal(e.Response, &res); err != nil {
		return ActivityPage{}, fmt.Errorf("decoding the response of %s: %w", idem, err)
	}
	out := ActivityPage{Period: period, ActiveCount: res.ActiveCount, InactiveCount: res.InactiveCount, Players: []ActivityEntry{}}
	if res.ActivityPages == 0 && res.ActiveCount == 0 && res.InactiveCount == 0 {
		// An entry written before the counts existed holds the whole lists.
		out.ActiveCount, out.InactiveCount = len(res.Active), len(res.Inactive)
	}
	page, off := 0, 0
	if pr.Cursor != "" {
		a, b, ok := strings.Cut(pr.Cursor, ".")
		page, err = strconv.Atoi(a)
		if ok && err == nil {
			off, err = strconv.Atoi(b)
		}
		if !ok || err != nil || page < 0 || off < 0 || page > res.ActivityPages {
			return ActivityPage{}, badCursor(pr.Cursor)
		}
	}
	for len(out.Players) < limit {
		var rec ActivityRecord
		if res.ActivityPages == 0 {
			rec = ActivityRecord{Active: res.Active, Inactive: res.Inactive}
		} else {
			if page == 0 {
				page = 1
			}
			if page > res.ActivityPages {
				break
			}
			ai, err := s.store.Get(ctx, activityKey(game, period, page))
			if err != nil {
				return ActivityPage{}, err
			}
			if !ai.Exists() {
				return ActivityPage{}, fmt.Errorf("activity page %d of %s is missing", page, period)
			}
			if err := json.Unmarshal(ai.Data, &rec); err != nil {
				return ActivityPage{}, fmt.Errorf("decoding %s: %w", ai.Key, err)
			}
		}
		all := make([]ActivityEntry, 0, len(rec.Active)+len(rec.Inactive))
		for _, id := range rec.Active {
			all = append(all, ActivityEntry{Player: id, Active: true})
		}
		for _, id := range rec.Inactive {
			all = append(all, ActivityEntry{Player: id})
		}
		if off > len(all) {
			return ActivityPage{}, badCursor(pr.Cursor)
		}
		n := min(limit-len(out.Players), len(all)-off)
		out.Players = append(out.Players, all[off:off+n]...)
		off += n
		if off < len(all) {
			out.NextCursor = fmt.Sprintf("%d.%d", page, off)
			break
		}
		if res.ActivityPages == 0 || page == res.ActivityPages {
			break
		}
		page, off = page+1, 0
		if len(out.Players) == limit {
			out.NextCursor = fmt.Sprintf("%d.0", page)
		}
	}
	return out, nil
}
