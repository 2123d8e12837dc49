package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"croupier/internal/client"
	"croupier/internal/game"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// `croupier play import FILE`: a moderator carries a game over from a
// wiki's holdings table in one logged correction (gildedhall.Import), and
// `import-revoke` undoes it as a whole.

const importHelp = `FILE is CSV with a header row, or JSON. CSV columns (any order, any case):
player (an identity such as discord:5, or a current player's name or
mention), name (the display name of someone who has not joined yet),
vertebrae, chips, cards and packs; cards and packs list items separated by
";", e.g. "2 7 of Hearts; holo Red Joker" and "handy-pack; 2 deck-pack".
JSON is a list of rows (or {"rows": [...]}) with the same keys, cards and
packs as lists of such strings.

People who are not players yet are registered with their name (their own
join later takes the membership over, holdings and all). Everything is one
log entry; --dry-run lists every change and changes nothing (it needs no
--reason: nothing is logged).`

func importCommands() map[string]playCmd {
	return map[string]playCmd{
		"import": {
			synopsis: "import FILE --reason R | import FILE --dry-run   (admins: players and holdings from a CSV or JSON table, in one correction)\n\n" + importHelp,
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				reason := fs.String("reason", "", "why (required), shown in the log")
				dry := fs.Bool("dry-run", false, "list every change the import would make, and change nothing")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 1, "the file, e.g. import holdings.csv --reason \"carried over from the wiki\""); err != nil {
						return err
					}
					// A dry run changes nothing, so it logs nothing and needs no reason.
					if strings.TrimSpace(*reason) == "" && !*dry {
						return usagef("say why with --reason: every correction is logged with its reason (a --dry-run needs none)")
					}
					im, err := p.readImport(pos[0])
					if err != nil {
						return err
					}
					im.Reason = *reason
					if *dry {
						return p.out(jsonReply(im), func() string {
							return p.importPlan(im) + "\nDry run: nothing was changed. Run it without --dry-run to apply it."
						})
					}
					raw, rep, err := p.c.Command(p.ctx, p.idem(), p.opts.game, "import", im)
					if err != nil {
						return err
					}
					var res gildedhall.ImportResult
					if err := json.Unmarshal(raw, &res); err != nil {
						return fmt.Errorf("reading the import's answer: %w", err)
					}
					return p.out(rep, func() string { return importedText(p.opts.game, res, p.nameOf()) })
				}
			},
		},
		"import-revoke": {
			synopsis: "import-revoke IMPORT --reason R   (admins: undo an import as a whole, restoring the holdings before it)",
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				reason := fs.String("reason", "", "why (required), shown in the log")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 1, "the import's id (the import printed it)"); err != nil {
						return err
					}
					if strings.TrimSpace(*reason) == "" {
						return usagef("say why with --reason: every correction is logged with its reason")
					}
					raw, rep, err := p.c.Command(p.ctx, p.idem(), p.opts.game, "import-revoke", gildedhall.ImportRef{Import: pos[0], Reason: *reason})
					if err != nil {
						return err
					}
					var res gildedhall.ImportResult
					if err := json.Unmarshal(raw, &res); err != nil {
						return fmt.Errorf("reading the answer: %w", err)
					}
					return p.out(rep, func() string {
						return fmt.Sprintf("Revoked import %s: the %s it changed hold what they held before it; those it registered who have not joined are no longer players.",
							res.ID, plural(len(res.Rows), "player", "players"))
					})
				}
			},
		},
	}
}

// importRow is a row as a table writes it.
type importRow struct {
	Player    string   `json:"player"`
	Name      string   `json:"name"`
	Vertebrae int      `json:"vertebrae"`
	Chips     int      `json:"chips"`
	Cards     []string `json:"cards"`
	Packs     []string `json:"packs"`
}

// readImport reads FILE (CSV or JSON, by its extension or its first
// character) into the import's payload, items spelled as the game's card
// table and packs spell them, players resolved (names and mentions of
// current players; identities as they are).
func (p *player) readImport(path string) (gildedhall.Import, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return gildedhall.Import{}, usagef("import: %v", err)
	}
	var rows []importRow
	trimmed := bytes.TrimSpace(data)
	if strings.EqualFold(filepath.Ext(path), ".json") || (len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{')) {
		rows, err = jsonRows(trimmed)
	} else {
		rows, err = csvRows(data)
	}
	if err != nil {
		return gildedhall.Import{}, usagef("import %s: %v", path, err)
	}
	if len(rows) == 0 {
		return gildedhall.Import{}, usagef("import %s: the table has no rows", path)
	}
	if len(rows) > gildedhall.MaxImportRows {
		return gildedhall.Import{}, usagef("import %s: %d rows; at most %d fit in one correction: split the table", path, len(rows), gildedhall.MaxImportRows)
	}
	rs, _, err := p.c.Ruleset(p.ctx, p.opts.game)
	if err != nil {
		return gildedhall.Import{}, err
	}
	im := gildedhall.Import{Rows: make([]gildedhall.ImportRow, 0, len(rows))}
	seen := map[string]int{}
	for i, r := range rows {
		at := fmt.Sprintf("row %d", i+1)
		id := strings.TrimSpace(r.Player)
		if !game.ValidIdentity(id) {
			if id, err = p.resolvePlayer("import "+at, r.Player); err != nil {
				return gildedhall.Import{}, err
			}
		}
		if j, dup := seen[id]; dup {
			return gildedhall.Import{}, usagef("import %s: %s is %s's player again; give each player one row", at, id, fmt.Sprintf("row %d", j))
		}
		seen[id] = i + 1
		if r.Vertebrae < 0 || r.Chips < 0 {
			return gildedhall.Import{}, usagef("import %s (%s): an import only adds; amounts cannot be negative (revoke takes)", at, id)
		}
		row := gildedhall.ImportRow{Player: id, Name: strings.TrimSpace(r.Name), Vertebrae: r.Vertebrae, Chips: r.Chips}
		if row.Cards, row.Packs, err = itemGrants(&rs, at, r.Cards, r.Packs, false); err != nil {
			return gildedhall.Import{}, err
		}
		im.Rows = append(im.Rows, row)
	}
	return im, nil
}

func jsonRows(data []byte) ([]importRow, error) {
	var rows []importRow
	if len(data) > 0 && data[0] == '{' {
		var doc struct {
			Rows []importRow `json:"rows"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("not the JSON of an import: %v", err)
		}
		return doc.Rows, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("not the JSON of an import: %v", err)
	}
	return rows, nil
}

func csvRows(data []byte) ([]importRow, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("no header row: %v", err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		switch h {
		case "player", "name", "vertebrae", "chips", "cards", "packs":
			col[h] = i
		default:
			return nil, fmt.Errorf("unknown column %q: the columns are player, name, vertebrae, chips, cards and packs", header[i])
		}
	}
	if _, ok := col["player"]; !ok {
		return nil, fmt.Errorf("no player column")
	}
	var rows []importRow
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		cell := func(k string) string {
			if i, ok := col[k]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if strings.Join(rec, "") == "" {
			continue
		}
		row := importRow{Player: cell("player"), Name: cell("name"), Cards: splitList(cell("cards")), Packs: splitList(cell("packs"))}
		for _, n := range []struct {
			k string
			v *int
		}{{"vertebrae", &row.Vertebrae}, {"chips", &row.Chips}} {
			if s := cell(n.k); s != "" {
				if *n.v, err = strconv.Atoi(s); err != nil {
					return nil, fmt.Errorf("line %d: %s %q is not a whole number", line, n.k, s)
				}
			}
		}
		rows = append(rows, row)
	}
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ";") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// itemGrants reads "[N] [holo] NAME" cards and "[N] KIND" packs as the
// game's card table and packs spell them (what labels them in errors);
// holo makes every card holographic.
func itemGrants(rs *ruleset.Ruleset, what string, cards, packs []string, holo bool) ([]gildedhall.CardGrant, []gildedhall.PackGrant, error) {
	var cs []gildedhall.CardGrant
	var ps []gildedhall.PackGrant
	for _, c := range cards {
		t, err := parseTerm(c, "card")
		if err != nil || t.currency != "" {
			return nil, nil, usagef("%s: card %q is not \"[N] [holo] NAME\", e.g. \"2 holo 7 of Hearts\"", what, c)
		}
		name, ok := canonicalCard(rs, t.ref)
		if !ok {
			return nil, nil, usagef("%s: there is no card %q in %s's card table (e.g. \"7 of Hearts\", \"King of Spades\", \"Red Joker\")", what, t.ref, rs.ID)
		}
		cs = append(cs, gildedhall.CardGrant{Name: name, Holo: holo || t.holo, Count: max(t.n, 1)})
	}
	for _, pk := range packs {
		t, err := parseTerm(pk, "pack")
		if err != nil || t.currency != "" {
			return nil, nil, usagef("%s: pack %q is not \"[N] KIND\", e.g. \"2 handy-pack\"", what, pk)
		}
		kind, ok := canonicalPack(rs, t.ref)
		if !ok {
			return nil, nil, usagef("%s: %s has no pack kind %q; it has %s", what, rs.ID, t.ref, packKinds(rs))
		}
		ps = append(ps, gildedhall.PackGrant{Pack: kind, Count: max(t.n, 1)})
	}
	return cs, ps, nil
}

// importPlan lists every change an import makes, one line a player.
func (p *player) importPlan(im gildedhall.Import) string {
	name := p.nameOf()
	member := map[string]bool{}
	for _, v := range p.roster() {
		member[v.ID] = true
	}
	var b strings.Builder
	reason := ""
	if im.Reason != "" {
		reason = fmt.Sprintf(", reason %q", im.Reason)
	}
	fmt.Fprintf(&b, "Importing into %s (%s%s), in one log entry:", p.opts.game, plural(len(im.Rows), "player", "players"), reason)
	pre := 0
	for _, r := range im.Rows {
		who := who(r.Player, name(r.Player))
		if !member[r.Player] {
			pre++
			who = fmt.Sprintf("%s: not a player yet, registered as %q", r.Player, r.Name)
			if r.Name == "" {
				who = r.Player + ": not a player yet, registered without a name"
			}
		}
		fmt.Fprintf(&b, "\n  %s: %s", who, grantsText(r))
	}
	if pre > 0 {
		fmt.Fprintf(&b, "\n%s registered; their own join takes the membership over.", plural(pre, "person is", "people are"))
	}
	return b.String()
}

// grantsText is one row's additions: "+30 Vertebrae, +2 Chips, 2 × 7 of
// Hearts, holo Red Joker, 1 handy-pack".
func grantsText(r gildedhall.ImportRow) string {
	var parts []string
	if r.Vertebrae > 0 {
		parts = append(parts, fmt.Sprintf("+%d Vertebrae", r.Vertebrae))
	}
	if r.Chips > 0 {
		parts = append(parts, fmt.Sprintf("+%s", plural(r.Chips, "Chip", "Chips")))
	}
	for _, c := range r.Cards {
		s := c.Name
		if c.Holo {
			s = "holo " + s
		}
		if c.Count > 1 {
			s = fmt.Sprintf("%d × %s", c.Count, s)
		}
		parts = append(parts, s)
	}
	for _, pk := range r.Packs {
		parts = append(parts, fmt.Sprintf("%d %s", pk.Count, pk.Pack))
	}
	if len(parts) == 0 {
		return "nothing to add"
	}
	return strings.Join(parts, ", ")
}

// importedText is an import's answer.
func importedText(g string, res gildedhall.ImportResult, name func(string) string) string {
	pre := 0
	for _, r := range res.Rows {
		if r.Preregistered {
			pre++
		}
	}
	s := fmt.Sprintf("Imported the holdings of %s into %s in one correction (%s registered before joining); import %s%s.",
		plural(len(res.Rows), "player", "players"), g, plural(pre, "person", "people"), res.ID, because(res.Reason))
	return s + fmt.Sprintf("\nUndo it as a whole with: croupier play import-revoke %s --reason WHY", res.ID)
}

// jsonReply is v as the body --json prints.
func jsonReply(v any) client.Reply {
	b, _ := json.Marshal(v) // our own types: cannot fail
	return client.Reply{Body: b}
}
