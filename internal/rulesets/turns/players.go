package turns

// Players in items of their own (issue 22): a TPLAYER# item each, read by
// the commands that touch them (nomic.Roster), and the Judicial Pool as
// the store's ordered index of those items by slot (poolOrder), so that
// no item and no command grows with the players.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/store"
)

// playerItem is a TPLAYER# item: the player's rule state, and the round
// its points belong to. A new round sets everyone back to 0 points (U6)
// without writing anyone: points of an earlier round read as 0.
type playerItem struct {
	nomic.Player
	Round int `json:"round"`
	// Proposed are the player's proposals of the last turn they proposed
	// for: what the limit of proposals a turn counts (U3), without an
	// index of every open proposal read (work.proposed).
	Proposed []propRef `json:"proposed,omitempty"`
}

// roster is where the working state finds its players (nomic.Roster): the
// items read, or read now, and a list not moved out yet. A read error is
// kept (the rules' lookups cannot fail) and returned by save.
type roster struct{ w *work }

func (r roster) Player(id string) *nomic.Player {
	w := r.w
	if id == "" || strings.ContainsRune(id, 0) {
		return nil
	}
	k := playerKey(w.t.Game, id)
	if _, ok := w.t.Loaded[k]; !ok {
		if err := w.t.Load(k); err != nil {
			w.fail(err)
			return nil
		}
	}
	p, err := w.decodePlayer(w.t.Loaded[k])
	if err != nil {
		w.fail(err)
		return nil
	}
	if p == nil { // not moved out of the game item yet (a view of a legacy game)
		for i := range w.g.Players {
			if q := w.g.Players[i]; q.ID == id {
				return &q
			}
		}
	}
	return p
}

func (r roster) PoolMember(slot int) string {
	w := r.w
	page, err := w.t.Svc.Store().Query(w.t.Ctx, store.Query{PK: engine.GamePK(w.t.Game), Index: store.IndexOrder, Prefix: poolOrderOf(slot), Limit: 1})
	if err != nil {
		w.fail(err)
		return ""
	}
	for _, it := range page.Items {
		id := strings.TrimPrefix(it.SK, playerPrefix)
		if _, ok := w.t.Loaded[it.Key]; !ok {
			w.t.Loaded[it.Key] = it
		}
		return id
	}
	for _, p := range w.g.Players {
		if p.InPool && p.Slot == slot {
			return p.ID
		}
	}
	return ""
}

// failed is err, or the failed read of a player that may have caused it
// (a refusal of someone the rules could not read is no refusal).
func (w *work) failed(err error) error {
	if w.err != nil {
		return w.err
	}
	return err
}

// fail keeps the first error of a read the rules made.
func (w *work) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// decodePlayer is the player of a TPLAYER# item (nil if none), as of the
// current round.
func (w *work) decodePlayer(it store.Item) (*nomic.Player, error) {
	if !it.Exists() {
		return nil, nil
	}
	var pi playerItem
	if err := json.Unmarshal(it.Data, &pi); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", it.Key, err)
	}
	w.raw[it.Key] = it.Data
	if pi.Round < w.g.Round.Number {
		pi.Points = 0
	}
	if len(pi.Proposed) > 0 {
		w.proposed[pi.ID] = pi.Proposed
	}
	return &pi.Player, nil
}

// loadPlayers reads, in one request, the player items of ids not read yet
// (with their engine records when members is set: sync's).
func (w *work) loadPlayers(ids []string, members bool) error {
	t := w.t
	var keys []store.Key
	seen := map[store.Key]bool{}
	for _, id := range ids {
		ks := []store.Key{playerKey(t.Game, id)}
		if members {
			ks = append(ks, engine.PlayerKey(t.Game, id))
		}
		for _, k := range ks {
			if _, ok := t.Loaded[k]; !ok && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	return t.Load(keys...)
}

// savePlayers stages the held players whose item changed, each under its
// pool slot's Order while in the pool.
func (w *work) savePlayers() error {
	t := w.t
	for _, p := range w.s.Held() {
		k := playerKey(t.Game, p.ID)
		data, err := json.Marshal(playerItem{Player: *p, Round: w.s.Round.Number, Proposed: w.proposed[p.ID]})
		if err != nil {
			return fmt.Errorf("encoding %s: %w", k, err)
		}
		if old, ok := w.raw[k]; ok && string(old) == string(data) {
			continue
		}
		w.raw[k] = data
		it := store.Item{Key: k, Data: data}
		if p.InPool {
			it.Order = poolOrderOf(p.Slot)
		}
		t.Puts = append(t.Puts, store.Put{Item: it, Expect: t.Loaded[k].Version})
	}
	return nil
}

// changedPlayers is how many held players save would write.
func (w *work) changedPlayers() int {
	n := 0
	for _, p := range w.s.Held() {
		data, err := json.Marshal(playerItem{Player: *p, Round: w.s.Round.Number, Proposed: w.proposed[p.ID]})
		if old, ok := w.raw[playerKey(w.t.Game, p.ID)]; err != nil || !ok || string(old) != string(data) {
			n++
		}
	}
	return n
}

// errMigrate: the game item still holds the list of players of a game
// stored before issue 22; it is moved out first (migrate).
var errMigrate = errors.New("turns: the players are being moved out of the game item")

// movePage is how many players one commit moves out of the game item.
const movePage = 80

// kindMove is the command of a commit moving players out of the game item.
const kindMove = "turns-players-moved"

// Moved is what a commit moving players out of the game item answers.
type Moved struct {
	Moved int `json:"moved"`
	Left  int `json:"left"`
}

// migrate moves the players of a game stored before issue 22 out of its
// game item into items of their own, movePage a commit, each commit a
// compare-and-set on the game item (concurrent runners move each page
// once: the same key, or a list that got shorter). Every command and the
// scheduled work run it first, so a game of any age plays on.
func migrate(s *engine.Service, ctx context.Context, game string) error {
	for range maxEndSteps {
		t, err := s.View(ctx, game, stateKey(game))
		if err != nil {
			return err
		}
		t.Ctx = ctx
		w, err := open(t)
		if err != nil {
			return err
		}
		n := len(w.g.Players) + len(w.g.Open)
		if n == 0 {
			return nil
		}
		_, err = s.Run(ctx, engine.Spec{Req: engine.Request{Game: game, Actor: engine.SchedulerActor, Key: fmt.Sprintf("turns:move-players:%d", n)},
			Command: kindMove, Body: Moved{Left: n},
			Keys:  func(g string) []store.Key { return []store.Key{stateKey(g)} },
			Apply: moveStep})
		if err != nil && !errors.Is(err, errNotDue) {
			return err
		}
	}
	return fmt.Errorf("turns: the players of game %s were not moved in %d commits", game, maxEndSteps)
}

// moveStep moves the next page of the list into player items. The slots
// the first page moves are those open made consistent for the whole list
// (legacyList), kept from then on (Moving).
func moveStep(t *engine.Tx) (any, error) {
	w, err := open(t)
	if err != nil {
		return nil, err
	}
	if len(w.g.Players) == 0 {
		if len(w.g.Open) == 0 {
			return nil, errNotDue
		}
		return w.moveOpen()
	}
	w.g.Moving = true // the slots open made consistent are kept from now on
	page := w.g.Players[:min(movePage, len(w.g.Players))]
	var keys []store.Key
	for _, p := range page {
		keys = append(keys, playerKey(t.Game, p.ID))
	}
	if err := t.Load(keys...); err != nil {
		return nil, err
	}
	for i, p := range page {
		if t.Loaded[keys[i]].Exists() {
			continue // written since (a departure's hook reads the list too)
		}
		data, err := json.Marshal(playerItem{Player: p, Round: w.g.Round.Number})
		if err != nil {
			return nil, err
		}
		it := store.Item{Key: keys[i], Data: data}
		if p.InPool {
			it.Order = poolOrderOf(p.Slot)
		}
		t.Puts = append(t.Puts, store.Put{Item: it})
	}
	w.g.Players = slices.Clone(w.g.Players[len(page):])
	if len(w.g.Players) == 0 {
		w.g.Players, w.g.Moving = nil, false
	}
	return Moved{Moved: len(page), Left: len(w.g.Players)}, w.save()
}

// everyPlayer calls fn for each player of the game (their items, then any
// not moved out of a legacy game item yet), as of the current round: the
// views' walk, in pages of the store's.
func (w *work) everyPlayer(fn func(p nomic.Player)) error {
	t := w.t
	seen := map[string]bool{}
	err := t.Svc.Scan(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Prefix: playerPrefix}, func(it store.Item) error {
		p, err := w.decodePlayer(it)
		if err != nil || p == nil {
			return err
		}
		seen[p.ID] = true
		fn(*p)
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range w.g.Players {
		if !seen[p.ID] {
			fn(p)
		}
	}
	return nil
}

// poolIDs are the Judicial Pool's members in slot order: the ordered
// index (a view's walk, in pages), and the members of a legacy list.
func (w *work) poolIDs() ([]string, error) {
	t := w.t
	bySlot := map[int]string{}
	err := t.Svc.Scan(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Index: store.IndexOrder, Prefix: poolOrder}, func(it store.Item) error {
		p, err := w.decodePlayer(it)
		if err == nil && p != nil && p.InPool {
			bySlot[p.Slot] = p.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, p := range w.g.Players {
		if _, ok := bySlot[p.Slot]; p.InPool && !ok {
			bySlot[p.Slot] = p.ID
		}
	}
	out := make([]string, 0, len(bySlot))
	for slot := range w.g.PoolSize {
		if id, ok := bySlot[slot]; ok {
			out = append(out, id)
		}
	}
	return out, nil
}

// legacyList makes a legacy list's pool slots consistent, as long as none
// of it was moved: a game from before slots has members without them, who
// get them in joining order (as nomic.State does for a list).
func (w *work) legacyList() {
	if len(w.g.Players) == 0 || w.g.Moving {
		return
	}
	ls := &nomic.State{Players: slices.Clone(w.g.Players), PoolSize: w.g.PoolSize}
	ls.PoolMember(0) // makes the slots consistent
	w.g.Players, w.g.PoolSize = ls.Players, ls.PoolSize
}

// openIDs are the open proposals' ids, in submission order: the ordered
// index (a view's walk, in pages; the items read are kept), and those a
// legacy game item lists.
func (w *work) openIDs() ([]string, error) {
	t := w.t
	var ids []string
	err := t.Svc.Scan(t.Ctx, store.Query{PK: engine.GamePK(t.Game), Index: store.IndexOrder, Prefix: openOrder}, func(it store.Item) error {
		if _, ok := t.Loaded[it.Key]; !ok {
			t.Loaded[it.Key] = it
		}
		ids = append(ids, strings.TrimPrefix(it.SK, propPrefix))
		return nil
	})
	for _, r := range w.g.Open {
		if !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
	}
	return ids, err
}

// moveOpen moves the next page of a legacy game item's open proposals
// into the ordered index: each proposal's item rewritten under its
// submission order, with its chat message.
func (w *work) moveOpen() (any, error) {
	t := w.t
	page := w.g.Open[:min(movePage, len(w.g.Open))]
	var keys []store.Key
	for _, r := range page {
		keys = append(keys, propKey(t.Game, r.ID))
	}
	if err := t.Load(keys...); err != nil {
		return nil, err
	}
	for i, r := range page {
		it := t.Loaded[keys[i]]
		if !it.Exists() {
			continue
		}
		var pi propItem
		if err := json.Unmarshal(it.Data, &pi); err != nil {
			return nil, fmt.Errorf("decoding proposal %s: %w", r.ID, err)
		}
		if pi.Status != nomic.ProposalOpen {
			continue
		}
		pi.Message = r.Message
		data, err := json.Marshal(pi)
		if err != nil {
			return nil, err
		}
		t.Puts = append(t.Puts, store.Put{Item: store.Item{Key: keys[i], Data: data, Order: openOrderOf(r.Seq)}, Expect: it.Version})
	}
	w.g.Open = slices.Clone(w.g.Open[len(page):])
	if len(w.g.Open) == 0 {
		w.g.Open = nil
	}
	return Moved{Moved: len(page), Left: len(w.g.Open)}, w.save()
}
