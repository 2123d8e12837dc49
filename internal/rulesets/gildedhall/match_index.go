package gildedhall

// The per-player index of live matches (Player.Matches). A departure must
// reach every match the leaver is in, and a chat move without a match id
// must find the mover's running match; both used to read every MATCH# item
// the game ever had, a cost that grows forever. The index keeps each
// player's requested and running matches on their own record, written in
// the commits that already change a match's membership or status:
//
//   - a duel request adds the duel to the requester and every invitee (their
//     items are read for the request anyway; requests are rare);
//   - a battle's setup adds it to its participants (the scheduler's own run:
//     the period-end commit that forms the battle reads no player items and
//     must stay small). A forming battle is found through the player's
//     BattlePeriod instead, whose battle id is known (battleID);
//   - the end or cancellation of a match removes it from every participant
//     (settlement writes the players it pays in the same commit anyway).
//
// Moves that do not end a match write no player item for the index.
//
// Readers check each indexed match's status, so a stale entry costs one
// read and no harm: entries a commit had no room to remove (a battle of
// nearly 100 players) stay until the player leaves, when their index is
// dropped. A missing entry would be harmful (a leaver would not forfeit),
// so additions beyond the room are covered by BattlePeriod, which is only
// cleared when the entry is written.

import (
	"slices"

	"croupier/internal/store"
)

// liveStatus reports whether a match with status s is not over.
func liveStatus(s string) bool {
	return s == MatchRequested || s == MatchForming || s == MatchPlaying
}

// TxReserve is the room a match commit keeps besides the staged items and
// players: the match item itself, the log entry, META (a victory, C7) and a
// period seed opened by a late draw.
const TxReserve = 4

// room is how many more items the commit can stage.
func (t *tx) room() int {
	return store.MaxTxItems - len(t.Puts) - len(t.Checks) - len(t.Dirty) - TxReserve
}

// canSave reports whether saving id's record fits the commit: a record
// already staged costs nothing more.
func (t *tx) canSave(id string) bool {
	return slices.Contains(t.Dirty, id) || t.room() > 0
}

// everyone lists the match's group and its participants, each once.
func (r *MatchRecord) everyone() []string {
	ids := slices.Clone(r.Players)
	if r.Match != nil {
		for _, p := range r.Match.Participants {
			if !slices.Contains(ids, p.ID) {
				ids = append(ids, p.ID)
			}
		}
	}
	return ids
}

// indexMatch adds r to the index of each of ids who is a current player and
// lacks it. A battle's engagement is spent once the battle is indexed, so
// BattlePeriod no longer needs reading. Players who do not fit the commit
// are left out (see the file comment).
func (t *tx) indexMatch(r *MatchRecord, ids []string) error {
	for _, id := range ids {
		p, err := t.member(id)
		if err != nil {
			return err
		}
		if p == nil || slices.Contains(p.Matches, r.ID) || !t.canSave(id) {
			continue
		}
		p.Matches = append(slices.Clone(p.Matches), r.ID)
		if r.Kind == MatchBattle && p.BattlePeriod == r.Period {
			p.BattlePeriod = ""
		}
		t.Save(p)
	}
	return nil
}

// unindexMatch removes a match that is over from the index of everyone in
// it, reading in one request the records the command has not read. A
// battle that never started was never indexed and is skipped without
// reads (the period end cancels a battle of one).
func (t *tx) unindexMatch(r *MatchRecord) error {
	if r.Kind == MatchBattle && r.Match == nil {
		return nil
	}
	return t.dropFromIndexes(r.everyone(), r.ID, func(p *Player) *[]string { return &p.Matches }, t.canSave)
}

// dropFromIndexes removes id from an index held on the records of the
// players ids (their live matches, their open trades), reading in one
// request the records the command has not read, and saves those it
// changed. may, when set, says whether a record can still be written.
func (t *tx) dropFromIndexes(ids []string, id string, index func(*Player) *[]string, may func(string) bool) error {
	if err := t.Preload(ids); err != nil {
		return err
	}
	for _, pid := range ids {
		p, err := t.player(pid)
		if err != nil {
			return err
		}
		if p == nil {
			continue
		}
		list := index(p)
		i := slices.Index(*list, id)
		if i < 0 || (may != nil && !may(pid)) {
			continue
		}
		*list = slices.Delete(slices.Clone(*list), i, i+1)
		t.Save(p)
	}
	return nil
}

// liveMatchIDs are the ids of the matches p may be in that are not over:
// their index, and the battle of the phase they engaged in if it is not
// indexed (forming, or set up without room for their entry). current is
// the period now: its battle does not exist yet.
func liveMatchIDs(p *Player, current string) []string {
	ids := slices.Clone(p.Matches)
	if p.BattlePeriod != "" && p.BattlePeriod != current {
		if b := battleID(p.BattlePeriod); !slices.Contains(ids, b) {
			ids = append(ids, b)
		}
	}
	return ids
}
