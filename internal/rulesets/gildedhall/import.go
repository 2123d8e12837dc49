package gildedhall

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// A moderator carries a game over (from a wiki's holdings table) in one
// step: one logged correction that pre-registers the players who have not
// joined and grants everyone their holdings; one revocation of that import
// restores the state before it.

// MaxImportRows bounds one import: every row is a player item written in
// the same commit (DynamoDB's transactions hold 100 items; the log entry,
// the import record and META take three).
const MaxImportRows = 90

// ImportRow is one player's holdings to carry over.
type ImportRow struct {
	Player string `json:"player"`
	// Name is the display name a player who has not joined is registered
	// with (ignored for current players).
	Name      string      `json:"name,omitempty"`
	Vertebrae int         `json:"vertebrae,omitempty"`
	Chips     int         `json:"chips,omitempty"`
	Cards     []CardGrant `json:"cards,omitempty"`
	Packs     []PackGrant `json:"packs,omitempty"`
}

// Import is the payload of import.
type Import struct {
	Rows   []ImportRow `json:"rows"`
	Reason string      `json:"reason"`
}

// Imported is what an import did for one player.
type Imported struct {
	Player string `json:"player"`
	Name   string `json:"name,omitempty"`
	// Preregistered: the import made their membership.
	Preregistered bool           `json:"preregistered,omitempty"`
	Vertebrae     int            `json:"vertebrae,omitempty"`
	Chips         int            `json:"chips,omitempty"`
	Cards         []players.Card `json:"cards,omitempty"`
	Packs         []players.Pack `json:"packs,omitempty"`
}

// ImportResult is the response of import, and its record (IMPORT#<id>),
// which import-revoke reads.
type ImportResult struct {
	ID     string     `json:"id"`
	Rows   []Imported `json:"rows"`
	Reason string     `json:"reason"`
	// Revoked names the revocation's command id once it is revoked.
	Revoked string `json:"revoked,omitempty"`
}

// ImportRef is the payload of import-revoke.
type ImportRef struct {
	Import string `json:"import"`
	Reason string `json:"reason"`
}

const importPrefix = "IMPORT#"

func importKey(g, id string) store.Key { return store.Key{PK: engine.GamePK(g), SK: importPrefix + id} }

func (im Import) check() error {
	if len(im.Rows) == 0 {
		return rules.Refuse("invalid_request", "An import needs at least one row.")
	}
	if len(im.Rows) > MaxImportRows {
		return rules.Refuse("invalid_request", "An import has %d rows; at most %d fit in one correction: split the table.", len(im.Rows), MaxImportRows)
	}
	seen := map[string]bool{}
	for i, r := range im.Rows {
		if !engine.ValidIdentity(r.Player) {
			return rules.Refuse("invalid_request", "Row %d: %q is not a platform identity such as discord:1234.", i+1, r.Player)
		}
		if seen[r.Player] {
			return rules.Refuse("invalid_request", "Row %d: %s is listed twice; give each player one row.", i+1, r.Player)
		}
		seen[r.Player] = true
		if r.Vertebrae < 0 || r.Chips < 0 {
			return rules.Refuse("invalid_request", "Row %d (%s): an import only adds; amounts cannot be negative.", i+1, r.Player)
		}
		for _, c := range r.Cards {
			if c.Count < 0 || c.Count > 100 {
				return rules.Refuse("invalid_request", "Row %d (%s): %q has a count of %d; give 1 to 100 (none means 1).", i+1, r.Player, c.Name, c.Count)
			}
		}
		for _, p := range r.Packs {
			if p.Count < 0 || p.Count > 100 {
				return rules.Refuse("invalid_request", "Row %d (%s): %q has a count of %d; give 1 to 100 (none means 1).", i+1, r.Player, p.Pack, p.Count)
			}
		}
	}
	return engine.NeedReason(im.Reason)
}

func (im Import) keys(g string) []store.Key {
	ks := make([]store.Key, len(im.Rows))
	for i, r := range im.Rows {
		ks[i] = engine.PlayerKey(g, r.Player)
	}
	return ks
}

// Import carries holdings over in one commit (admins only): each row's
// player, registered first if they have not joined, is granted its
// Vertebrae, Chips, cards (by name) and packs. All rows or none.
func (s *Service) Import(ctx context.Context, req engine.Request, im Import) (*engine.Result, error) {
	if err := im.check(); err != nil {
		return nil, err
	}
	return s.run(ctx, spec{
		Req: req, Command: "import", Body: im,
		Keys: func(g string) []store.Key { return im.keys(g) },
		Apply: func(t *tx) (any, error) {
			if err := t.Admin("import holdings"); err != nil {
				return nil, err
			}
			res := ImportResult{ID: t.Entry.CommandID, Reason: im.Reason, Rows: make([]Imported, 0, len(im.Rows))}
			registered := 0
			for i, r := range im.Rows {
				p, err := t.member(r.Player)
				if err != nil {
					return nil, err
				}
				out := Imported{Player: r.Player, Vertebrae: r.Vertebrae, Chips: r.Chips}
				if p == nil {
					rec, err := t.Preregister(r.Player, strings.TrimSpace(r.Name))
					if err != nil {
						return nil, err
					}
					if p, err = asPlayer(rec); err != nil {
						return nil, err
					}
					out.Preregistered = true
					if strings.TrimSpace(p.Name) != "" {
						// A registered name is an item of the name
						// index too, in this commit.
						registered++
					}
					if n := len(im.Rows) + registered + 3; n > store.MaxTxItems {
						return nil, rules.Refuse("invalid_request", "This import registers %d named people who have not joined, each with an item of the name index beside their player item: with its %d rows that is more than one correction holds (%d items); split the table.",
							registered, len(im.Rows), store.MaxTxItems)
					}
				}
				out.Name = p.Name
				for _, c := range r.Cards {
					info, ok := t.Rules.Card(c.Name)
					if !ok {
						return nil, rules.Refuse("unknown_card", "Row %d (%s): there is no card %q in this game's card table.", i+1, r.Player, c.Name)
					}
					for range max(c.Count, 1) {
						out.Cards = append(out.Cards, players.Card{ID: t.newID(), Name: info.Name, Holo: c.Holo})
					}
				}
				for _, pg := range r.Packs {
					if _, ok := t.Rules.Pack(pg.Pack); !ok {
						return nil, rules.Refuse("unknown_pack", "Row %d (%s): there is no pack kind %q in this game's ruleset.", i+1, r.Player, pg.Pack)
					}
					for range max(pg.Count, 1) {
						out.Packs = append(out.Packs, players.Pack{ID: t.newID(), Kind: pg.Pack})
					}
				}
				inv := &p.Inventory
				inv.Vertebrae += out.Vertebrae
				inv.Chips += out.Chips
				inv.Cards = append(inv.Cards, out.Cards...)
				inv.Packs = append(inv.Packs, out.Packs...)
				t.Save(p)
				res.Rows = append(res.Rows, out)
			}
			if err := t.Put(importKey(t.Game, res.ID), res, time.Time{}); err != nil {
				return nil, err
			}
			t.Emit("holdings_imported", t.Entry.Actor, res)
			return res, t.Flush()
		},
	})
}

// RevokeImport undoes an import (admins only): every item it granted is
// taken back and the memberships it made for people who have not joined
// since are ended as if they had never been, all or nothing: a player who
// no longer holds what was imported is named, and nothing changes.
func (s *Service) RevokeImport(ctx context.Context, req engine.Request, ref ImportRef) (*engine.Result, error) {
	ref.Import = strings.TrimSpace(ref.Import)
	if ref.Import == "" || len(ref.Import) > 64 {
		return nil, rules.Refuse("invalid_request", "Name the import to revoke by its id (the import's answer, or the log, shows it).")
	}
	if err := engine.NeedReason(ref.Reason); err != nil {
		return nil, err
	}
	return s.run(ctx, spec{
		Req: req, Command: "import-revoke", Body: ref,
		Keys: func(g string) []store.Key { return []store.Key{importKey(g, ref.Import)} },
		Apply: func(t *tx) (any, error) {
			if err := t.Admin("revoke an import"); err != nil {
				return nil, err
			}
			var rec ImportResult
			it, ok := t.Loaded[importKey(t.Game, ref.Import)]
			if !ok || !it.Exists() {
				return nil, rules.Refuse("no_such_import", "There is no import %q in this game.", ref.Import)
			}
			if err := json.Unmarshal(it.Data, &rec); err != nil {
				return nil, fmt.Errorf("decoding import %s: %w", ref.Import, err)
			}
			if rec.Revoked != "" {
				return nil, rules.Refuse("already_revoked", "Import %s was already revoked (by command %s).", ref.Import, rec.Revoked)
			}
			ids := make([]string, len(rec.Rows))
			for i, r := range rec.Rows {
				ids[i] = r.Player
			}
			if err := t.Preload(ids); err != nil {
				return nil, err
			}
			for _, r := range rec.Rows {
				p, err := t.player(r.Player)
				if err != nil {
					return nil, err
				}
				if p == nil || !p.Member {
					continue // they left: what they held is destroyed already
				}
				items := economy.Items{Vertebrae: r.Vertebrae, Chips: r.Chips}
				for _, c := range r.Cards {
					items.Cards = append(items.Cards, c.ID)
				}
				for _, pk := range r.Packs {
					items.Packs = append(items.Packs, pk.ID)
				}
				if _, err := economy.Take(p.ID, &p.Inventory, items); err != nil {
					return nil, rules.Refuse("import_spent", "%s no longer holds everything the import gave them, so it cannot be revoked as a whole: %s", p.ID, err.Error())
				}
				if r.Preregistered && untouched(p) {
					// They never joined nor did anything: as if they had
					// never been registered (a later join is a first join).
					// The name index item goes with the membership.
					*p = Player{Player: players.Player{ID: p.ID, Name: p.Name, NameIndex: p.NameIndex, NameIndexV: p.NameIndexV}, TradesIndexed: p.TradesIndexed}
				}
				t.Save(p)
			}
			rec.Revoked = t.Entry.CommandID
			if err := t.Put(importKey(t.Game, ref.Import), rec, time.Time{}); err != nil {
				return nil, err
			}
			t.Emit("import_revoked", t.Entry.Actor, map[string]any{"import": rec.ID, "reason": ref.Reason, "players": len(rec.Rows)})
			return rec, nil
		},
	})
}

// untouched: p is still the membership an import made, holding nothing,
// in no trade, match, battle or gift.
func untouched(p *Player) bool {
	inv := p.Inventory
	return p.Preregistered && inv.Vertebrae == 0 && inv.Chips == 0 && len(inv.Cards) == 0 && len(inv.Packs) == 0 &&
		len(p.Trades) == 0 && len(p.Matches) == 0 && p.BattlePeriod == "" && p.GiftPeriod == "" && len(p.Owed) == 0
}
