package benchmark

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// SurfacePast marks the rows of MeasurePast: reads of the past through
// the HTTP API, priced by the store calls they make.
const SurfacePast = "past"

// The past-read benchmark's game (issue 25, acceptance 6): a Gilded Hall
// game of PastPlayers players and PastEntries log entries.
const (
	PastPlayers = 1000
	PastEntries = 100_000
	// PastSamples is how many random moments are read.
	PastSamples = 50
	// pastWorkers run the commands that build the game at once (the
	// store serialises what must be: bolt's commits, a player's versions).
	pastWorkers = 8
	// pastBatch commands are run at one moment of the game's clock, which
	// then moves on: the entries span pastSpan, through period ends and
	// the checkpoint timer, as a game's do.
	pastBatch = 100
	pastSpan  = 21 * 24 * time.Hour
)

// PastGame is a game BuildPast built.
type PastGame struct {
	ID                            string
	Players, Entries, Checkpoints int
	// Pages and PageBytes are the latest checkpoint's: how many, and
	// their stored size.
	Pages, PageBytes int
	// End is the game's clock when built; Built how long building took.
	End   time.Time
	Built time.Duration
	ids   []string
	opts  []game.Option
}

// BuildPast builds a Gilded Hall game of players players and about
// entries log entries on st, through the engine: joins, then Vertebrae
// grants, a random card now and then, and dice rolls, each a command with
// its commit and log entry, run pastWorkers at a time at each moment of a
// manual clock, the scheduler run between moments so that period ends and
// checkpoints happen as they would. (On bolt, SetNoSync makes it a
// minute's work, not several: commits stay atomic, unflushed.)
func BuildPast(ctx context.Context, st store.Store, players, entries int, opts ...game.Option) (PastGame, error) {
	clk := clock.NewManual(Start)
	svc := rulesets.New(st, clk, opts...)
	hall := gildedhall.On(svc)
	id := fmt.Sprintf("past-%d-%d", players, entries)
	if b, ok := st.(interface{ SetNoSync(bool) }); ok {
		b.SetNoSync(true)
		defer b.SetNoSync(false)
	}
	req := func(actor, key string) game.Request { return game.Request{Game: id, Actor: actor, Key: key} }
	t0 := time.Now()
	if _, err := svc.Create(ctx, req(admin, "create"), game.CreateGame{ID: id}); err != nil {
		return PastGame{}, err
	}
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("discord:%d", 100000+i)
	}
	// run does the game's command k: the first players join, then grants
	// and rolls.
	run := func(k int) error {
		if k < players {
			_, err := svc.Join(ctx, req(ids[k], "join"), game.JoinGame{Name: fmt.Sprintf("Player %d", k)})
			return err
		}
		p := ids[(k*7919)%players]
		key := fmt.Sprint("c", k)
		switch {
		case k%4 == 0:
			_, err := svc.Roll(ctx, req(p, key), game.RollDice{Dice: "2d6", Reason: "bench"})
			return err
		case k%20 == 1:
			_, err := hall.Grant(ctx, req(admin, key), gildedhall.Grant{Player: p, RandomCards: 1, Reason: "bench"})
			return err
		default:
			_, err := hall.Grant(ctx, req(admin, key), gildedhall.Grant{Player: p, Vertebrae: 1, Reason: "bench"})
			return err
		}
	}
	step := pastSpan / time.Duration(max(1, entries/pastBatch))
	for k, next := 0, 0; k < entries; k = next {
		// Every join comes in a batch before any grant to the player.
		next = min(k+pastBatch, entries)
		if k < players {
			next = min(next, players)
		}
		jobs := make(chan int)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var first error
		for range pastWorkers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range jobs {
					if err := run(j); err != nil {
						mu.Lock()
						first = cmp.Or(first, fmt.Errorf("command %d: %w", j, err))
						mu.Unlock()
					}
				}
			}()
		}
		for j := k; j < next; j++ {
			jobs <- j
		}
		close(jobs)
		wg.Wait()
		if first != nil {
			return PastGame{}, first
		}
		clk.Advance(step)
		if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
			return PastGame{}, fmt.Errorf("scheduled work: %v %v", err, rep.Failed)
		}
	}
	built := PastGame{ID: id, Players: players, Built: time.Since(t0), End: clk.Now(), ids: ids, opts: opts}
	if err := svc.LogRange(ctx, id, Start.Add(-time.Hour), built.End, func(e *game.Entry) error {
		built.Entries++
		if e.Command == "checkpoint" {
			built.Checkpoints++
		}
		return nil
	}); err != nil {
		return built, err
	}
	q := store.Query{PK: game.GamePK(id), Prefix: "CKPT#", Index: store.IndexOrder, Desc: true, Limit: 1}
	page, err := st.Query(ctx, q)
	if err != nil || len(page.Items) == 0 {
		return built, err
	}
	q = store.Query{PK: game.GamePK(id), Prefix: page.Items[0].SK + "#p"}
	for {
		p, err := st.Query(ctx, q)
		if err != nil {
			return built, err
		}
		for _, it := range p.Items {
			built.Pages++
			built.PageBytes += len(it.Data)
		}
		if p.Next == "" {
			return built, nil
		}
		q.Cursor = p.Next
	}
}

// MeasurePast reads a player's status in g, on st, at samples random
// moments (a fixed seed) through the HTTP API (GET /v1/games/{game}/me
// ?at=<moment>, over loopback, as the other rows): one row, with the
// requests and units each read costs (store.Usage). A moment before the
// player joined is answered with a refusal, read alike.
func MeasurePast(ctx context.Context, backend string, st store.Store, g PastGame, samples int) ([]Row, error) {
	clk := clock.NewManual(g.End)
	svc := rulesets.New(st, clk, g.opts...)
	m := &meter{cost: map[string]chan store.Cost{}, next: httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(benchKey)}, ManualClock: clk})}
	srv := httptest.NewServer(m)
	defer srv.Close()
	rec := newRecorder()
	what := fmt.Sprintf("GET /me?at=<a random past moment> (%d players, %d entries)", g.Players, g.Entries)
	rng := rand.New(rand.NewPCG(25, 6))
	span := g.End.Sub(Start)
	for i := range samples {
		at := Start.Add(time.Duration(rng.Int64N(int64(span))))
		p := g.ids[rng.IntN(g.Players)]
		req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/v1/games/"+g.ID+"/me?at="+url.QueryEscape(at.Format(time.RFC3339Nano)), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+benchKey)
		req.Header.Set(httpapi.HeaderActor, p)
		req.Header.Set(seqHeader, strconv.Itoa(i))
		t := time.Now()
		resp, err := srv.Client().Do(req)
		if err != nil {
			return nil, err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		elapsed := time.Since(t)
		cost := m.take(strconv.Itoa(i))
		answered := resp.StatusCode == http.StatusOK && bytes.Contains(body, []byte(`"as_of"`))
		notYet := resp.StatusCode == http.StatusNotFound && (bytes.Contains(body, []byte(`"player_not_found"`)) || bytes.Contains(body, []byte(`"not_a_player"`)))
		if !answered && !notYet {
			return nil, fmt.Errorf("%s's status at %s: %d %.300s", p, at, resp.StatusCode, body)
		}
		rec.add(what, elapsed, cost)
	}
	return rec.rows(backend, SurfacePast), nil
}

// Loader writes items as they are (dynamo.Store.Load).
type Loader interface {
	Load(ctx context.Context, items []store.Item) error
}

// CopyPast copies g's partition from one store to another, its items and
// versions as the engine wrote them, pastWorkers loads at a time: the
// game built once (on bolt, fast) is measured on DynamoDB too.
func CopyPast(ctx context.Context, from store.Store, to Loader, g PastGame) error {
	q := store.Query{PK: game.GamePK(g.ID), Limit: 1000}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	sem := make(chan struct{}, pastWorkers)
	for {
		page, err := from.Query(ctx, q)
		if err != nil {
			return err
		}
		for i := 0; i < len(page.Items); i += 100 {
			chunk := page.Items[i:min(i+100, len(page.Items))]
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				if err := to.Load(ctx, chunk); err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
			}()
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	wg.Wait()
	return first
}
