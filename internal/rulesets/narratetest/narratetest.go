// Package narratetest supports the tests that every log event reads as a
// sentence in the CLI, on the tracker and in announcements: it finds every
// event type the code emits (Emit and MakeEvent calls, read from the
// source), gives a sample event of each, and checks a text is a sentence,
// never JSON or key=value.
package narratetest

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

// Names are the display names of the sample events' players.
var Names = map[string]string{"discord:1": "Ada", "discord:2": "Bob", "discord:3": "Cy", "slack:U4": "Dee"}

// Name is Names as a narration's name function.
func Name(id string) string { return Names[id] }

// dynamic are the event types of the Emit calls whose type is computed:
// the expression as written in the source, and what it can be.
var dynamic = map[string][]string{
	`"match_" + ev.Kind`:    prefixed("match_", exoptosis.EventKinds),
	`r.Kind + "_cancelled"`: {gildedhall.MatchDuel + "_cancelled", gildedhall.MatchBattle + "_cancelled"},
	// game.Tx.Emit passes its type to MakeEvent; proposal.go's tally
	// emits one of two, the Obelisk's Gathering moves one of two.
	`typ`: {"proposal_adopted", "proposal_failed", "gathering_contributed", "gathering_withdrawn"},
	// The turns module's due moments (due.go).
	`eventPrefix + typ`: {"turns_turn_began", "turns_turn_middle"},
}

// dynamicConsts are the Emit calls whose type is a prefix and one of a
// package's string constants (by name prefix): the turns module logs each
// nomic.Ev* event of its rules as "turns_" + the kind.
var dynamicConsts = map[string]struct{ prefix, pkg, namePrefix string }{
	`eventPrefix + ev.Kind`: {"turns_", "nomic", "Ev"},
}

func prefixed(p string, ks []string) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = p + k
	}
	return out
}

// Emitted lists every event type the non-test Go code under root (the
// module's root) emits, sorted. A call whose type it cannot read is an
// error naming the call, so a new kind of call cannot go unchecked.
func Emitted(root string) ([]string, error) {
	seen := map[string]bool{}
	fset := token.NewFileSet()
	files, err := parseAll(fset, root)
	if err != nil {
		return nil, err
	}
	consts := stringConsts(files)
	for _, f := range files {
		pkg := f.Name.Name
		var bad error
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || bad != nil {
				return bad == nil
			}
			var fn string
			switch x := call.Fun.(type) {
			case *ast.SelectorExpr:
				fn = x.Sel.Name
			case *ast.Ident:
				fn = x.Name
			}
			if fn != "Emit" && fn != "MakeEvent" {
				return true
			}
			if s, ok := constString(consts, pkg, call.Args[0]); ok {
				seen[s] = true
				return true
			}
			src := exprText(fset, call.Args[0])
			if dc, ok := dynamicConsts[src]; ok {
				for name, v := range consts[dc.pkg] {
					if strings.HasPrefix(name, dc.namePrefix) {
						seen[dc.prefix+v] = true
					}
				}
				return true
			}
			ts, ok := dynamic[src]
			if !ok {
				bad = fmt.Errorf("%s: %s(%s, ...) emits a type computed at run time: list what it can be in narratetest's dynamic table", fset.Position(call.Pos()), fn, src)
				return false
			}
			for _, t := range ts {
				seen[t] = true
			}
			return true
		})
		if bad != nil {
			return nil, bad
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	slices.Sort(out)
	return out, nil
}

// parseAll parses the non-test Go files under root.
func parseAll(fset *token.FileSet, root string) ([]*ast.File, error) {
	var files []*ast.File
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	return files, err
}

// stringConsts collects every package-level string constant written as a
// literal, by package name and constant name.
func stringConsts(files []*ast.File) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						if out[f.Name.Name] == nil {
							out[f.Name.Name] = map[string]string{}
						}
						out[f.Name.Name][n.Name] = v
					}
				}
			}
		}
	}
	return out
}

// constString evaluates e as a string constant of package pkg: a literal,
// a constant (of pkg or another package by its name), or a sum of them.
func constString(consts map[string]map[string]string, pkg string, e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.Ident:
		s, ok := consts[pkg][x.Name]
		return s, ok
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			s, ok := consts[id.Name][x.Sel.Name]
			return s, ok
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, ok1 := constString(consts, pkg, x.X)
			b, ok2 := constString(consts, pkg, x.Y)
			return a + b, ok1 && ok2
		}
	}
	return "", false
}

func exprText(fset *token.FileSet, e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.BasicLit:
		return x.Value
	case *ast.SelectorExpr:
		return exprText(fset, x.X) + "." + x.Sel.Name
	case *ast.BinaryExpr:
		return exprText(fset, x.X) + " " + x.Op.String() + " " + exprText(fset, x.Y)
	}
	return fmt.Sprintf("<expression at %s>", fset.Position(e.Pos()))
}

// samples are events as the code writes them, by type; Sample fills in
// the rest.
var samples = map[string]game.Event{
	"game_created":       ev("game_created", "", `{"name":"Gilded Hall","ruleset":"gilded-hall","admins":["discord:1"],"season":"Calm Spring"}`),
	"checkpoint_written": ev("checkpoint_written", "", `{"id":"01KBFZ6Q000000000000000000","at":"2026-12-01T18:00:00.999999999Z","entry":"01KBFZ6PZZ9G3V0000000000","entries":1000,"items":240,"pages":3,"sha256":"5d41402abc4b2a76"}`),
	"seed_committed":     ev("seed_committed", "", `{"period":"2026-W10-I","commitment":"9f2c"}`),
	"seed_revealed":      ev("seed_revealed", "", `{"period":"2026-W10-I","seed":"ab12","commitment":"9f2c"}`),
	"player_joined":      ev("player_joined", "discord:1", `{"name":"Ada"}`),
	"player_left":        ev("player_left", "discord:2", `{"destroyed":{"vertebrae":3,"chips":0,"cards":[],"packs":[]},"withdrawn_trades":["t1"]}`),
	"dice_rolled":        ev("dice_rolled", "discord:1", `{"dice":"2d6","rolls":[5,6],"total":11,"reason":"observe the Obelisk","period":"2026-W10-I"}`),
	"game_bound":         ev("game_bound", "", `{"platform":"discord","space":"g1","channels":{"announcements":"c1"},"previous_game":""}`),
	"ruleset_amended":    ev("ruleset_amended", "", `{"version":2,"patch":[{"op":"replace","path":"/shop/chip/price","value":22,"was":25}],"summary":"chip costs 22 Vertebrae, was 25","reason":"proposal p1 adopted","by":"croupier:scheduler","source":"proposal:p1"}`),
	"game_won":           ev("game_won", "discord:1", `{"chips":25,"threshold":25}`),
	"period_ended":       ev("period_ended", "", `{"ended":"2026-W10-I","started":"2026-W10-II","kind":"phase-2","active":["discord:1"],"inactive":["discord:2","discord:3"],"active_count":1,"inactive_count":2}`),
	"season_changed":     ev("season_changed", "", `{"from":"Calm Spring","to":"Stormy Summer"}`),

	"proposal_submitted":        ev("proposal_submitted", "discord:1", proposal("open", "")),
	"proposal_withdrawn":        ev("proposal_withdrawn", "discord:1", proposal("withdrawn", "")),
	"proposal_adopted":          ev("proposal_adopted", "discord:1", proposal("adopted", `,"result":{"class":"standard","for":3,"against":1,"for_voters":["discord:1"],"against_voters":[]}`)),
	"proposal_failed":           ev("proposal_failed", "discord:1", proposal("failed", `,"result":{"class":"standard","for":1,"against":3}`)),
	"proposal_effect_failed":    ev("proposal_effect_failed", "discord:1", `{"proposal":"p1","kind":"banishment","error":"Cy is not a player in this game, so they cannot be banished"}`),
	"task_performed":            ev("task_performed", "discord:1", `{"task":"mining","name":"Mining","player":"discord:1","effectiveness":{"base":24,"modifiers":[{"source":"experience","amount":0},{"source":"Winter","amount":-8}],"n":16,"value":13},"spent":{"resolve":1},"gained":{"crystals":1},"experience":1}`),
	"obelisk_observed":          ev("obelisk_observed", "discord:1", `{"week":"2026-W49","player":"discord:1","roll":{"base":1,"n":1,"value":1},"moved":1,"distance":9,"summon":{"number":1},"resolve":1}`),
	"grebe_summoned":            ev("grebe_summoned", "discord:1", `{"number":6,"ceased_to_exist":true}`),
	"grebe_befriended":          ev("grebe_befriended", "discord:2", `{"grebe":1,"player":"discord:2"}`),
	"components_destroyed":      ev("components_destroyed", "discord:2", `{"destroyed":{"resolve":2,"herbs":3}}`),
	"components_corrected":      ev("components_corrected", "discord:2", `{"player":"discord:2","revoke":true,"components":{"crystals":2},"changes":[{"player":"discord:2","component":"crystals","amount":-2,"cause":"correction"}],"holding":{"resolve":1},"reason":"Judge's ruling 4","admin":"discord:1"}`),
	"components_granted":        ev("components_granted", "discord:2", `{"changes":[{"player":"discord:2","component":"resolve","amount":1,"cause":"join"}],"grants_seq":3}`),
	"gathering_started":         ev("gathering_started", "discord:1", `{"id":"rituals-1","ritual":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"resolve":1,"herbs":2}},"starter":"discord:1","named":"discord:2"}`),
	"gathering_contributed":     ev("gathering_contributed", "discord:2", `{"gathering":"rituals-1","player":"discord:2","component":"herbs","amount":1,"contributed":{"herbs":1}}`),
	"gathering_withdrawn":       ev("gathering_withdrawn", "discord:2", `{"gathering":"rituals-1","player":"discord:2","component":"herbs","amount":1,"contributed":{}}`),
	"gathering_completed":       ev("gathering_completed", "discord:1", `{"gathering":"rituals-1","ritual":"cut-the-obelisk","name":"Cut the Obelisk","spent":{"resolve":1,"herbs":2},"effects":[{"kind":"add-cuts","text":"the Obelisk gains 1 Cut (now 1)"}]}`),
	"gathering_failed":          ev("gathering_failed", "discord:2", `{"gathering":"rituals-2","ritual_name":"Cut the Obelisk","changes":[{"player":"discord:3","component":"resolve","amount":1,"cause":"refund"}]}`),
	"player_banished":           ev("player_banished", "discord:3", `{"player":"discord:3","since":"2026-03-13T00:00:00Z","duration":"24h0m0s","ends_at":"2026-03-14T00:00:00Z"}`),
	"banishment_ended":          ev("banishment_ended", "discord:3", `{"player":"discord:3"}`),
	"proposal_amendment_failed": ev("proposal_amendment_failed", "discord:1", `{"proposal":"p1","error":"chip is not sold"}`),
	"justice_requested":         ev("justice_requested", "discord:2", `{"id":"r1","author":"discord:2","kind":"statement","text":"Trades are legal.","message":{"platform":"discord","channel":"c1","message":"m1"},"status":"open"}`),
	"ruling_made":               ev("ruling_made", "discord:3", ruling(``)),
	"ruling_overturned":         ev("ruling_overturned", "", ruling(`,"overturned":true,"overturned_by":"confidence"`)),
	"ruling_affirmed":           ev("ruling_affirmed", "", ruling(`,"confidence":{"status":"affirmed","result":{"affirm":3,"overturn":1}}`)),
	"confidence_opened":         ev("confidence_opened", "discord:2", ruling(`,"confidence":{"opened_by":"discord:2","status":"open"}`)),
	"confidence_vote_closed":    ev("confidence_vote_closed", "", ruling(`,"confidence":{"status":"affirmed","result":{"affirm":3,"overturn":1}}`)),
	"judge_removal_assented":    ev("judge_removal_assented", "discord:1", `{"judge":"discord:3","assents":["discord:1"]}`),
	"judge_removed":             ev("judge_removed", "discord:3", `{"judge":"discord:3"}`),
	"judge_resigned":            ev("judge_resigned", "discord:3", `{"judge":"discord:3"}`),
	"judge_candidacy":           ev("judge_candidacy", "discord:3", `{"id":"c1","candidate":"discord:3","week":"2026-W10","message":{"platform":"discord","channel":"c1","message":"m2"}}`),
	"judge_elected":             ev("judge_elected", "discord:3", `{"week":"2026-W10","previous":"discord:2","judge":"discord:3","winner":"c1","changed":true,"standings":[]}`),
	"judge_election_no_winner":  ev("judge_election_no_winner", "", `{"week":"2026-W10","standings":[],"reason":"no candidacy"}`),
	"reactions_pushed":          ev("reactions_pushed", "", `{"message":{"platform":"discord","channel":"c1","message":"m1"},"op":"set","up":["discord:1"],"down":[]}`),

	"purchased":     ev("purchased", "discord:2", `{"item":"chip","name":"1 Chip","quantity":2,"paid":50,"currency":"Vertebrae","chips_bought":2}`),
	"pack_opened":   ev("pack_opened", "discord:2", `{"pack":{"id":"c98487bdd4.1","kind":"legendary-pack"},"name":"Legendary Pack","cards":[{"id":"x.1","name":"King of Spades","holo":true},{"id":"x.2","name":"Jester"}]}`),
	"gifted":        ev("gifted", "discord:1", `{"giver":"discord:1","receiver":"discord:2","cards":[{"id":"x.3","name":"7 of Diamonds"},{"id":"x.4","name":"King of Spades"}],"inactive":false,"small_deck":true,"period":"2026-W10-I"}`),
	"gift_returned": ev("gift_returned", "discord:1", `{"receiver":"discord:2","gift":"g1","cards":[{"id":"x.5","name":"3 of Clubs"}]}`),
	"granted":       ev("granted", "discord:2", `{"player":"discord:2","vertebrae":30,"chips":2,"reason":"carried over from the wiki","new_cards":[{"id":"x.6","name":"Red Joker","holo":true}],"new_packs":[{"id":"p.1","kind":"handy-pack"}]}`),
	"revoked":       ev("revoked", "discord:2", `{"player":"discord:2","revoked":{"vertebrae":5,"chips":1,"cards":[{"id":"x.6","name":"Red Joker","holo":true}],"packs":[]},"reason":"a correction"}`),

	"holdings_imported": ev("holdings_imported", "discord:1", `{"id":"01IMPORT","reason":"carried over from the wiki","rows":[{"player":"discord:2","name":"Bob","vertebrae":30,"chips":2,"cards":[{"id":"x.8","name":"Red Joker","holo":true}]},{"player":"discord:3","name":"Cy","preregistered":true,"packs":[{"id":"p.2","kind":"handy-pack"}]}]}`),
	"import_revoked":    ev("import_revoked", "discord:1", `{"import":"01IMPORT","reason":"wrong table","players":2}`),

	"trade_offered":   ev("trade_offered", "discord:1", trade("open")),
	"trade_executed":  ev("trade_executed", "discord:2", trade("executed")),
	"trade_withdrawn": ev("trade_withdrawn", "discord:1", trade("withdrawn")),
	"trade_expired":   ev("trade_expired", "", trade("expired")),

	"duel_requested":   ev("duel_requested", "discord:1", `{"match":"d1","invitees":["discord:2"]}`),
	"duel_accepted":    ev("duel_accepted", "discord:2", `{"match":"d1"}`),
	"duel_cancelled":   ev("duel_cancelled", "discord:1", `{"match":"d1","reason":"declined"}`),
	"battle_cancelled": ev("battle_cancelled", "", `{"match":"battle-2026-W10-I","reason":"too_few_players","engaged":["discord:1"]}`),
	"match_started":    ev("match_started", "", `{"match":"d1","kind":"duel","participants":["discord:1","discord:2"]}`),
	"match_forfeits":   ev("match_forfeits", "", `{"match":"battle-2026-W10-I","reason":"deck_too_small","count":2,"players":["discord:2","discord:3"]}`),
	"chips_destroyed":  ev("chips_destroyed", "discord:3", `{"match":"d1","chips":4,"reason":"pool"}`),
	"match_settled":    ev("match_settled", "discord:1", `{"match":"battle-2026-W10-I","kind":"battle","winner":"discord:1","end_reason":"last_standing","pool":6,"transfers":[],"reward":{"kind":"vertebrae","vertebrae":12}}`),
	"battle_rewarded":  ev("battle_rewarded", "discord:1", `{"kind":"cards","cards":[{"id":"x.7","name":"Queen of Hearts"}]}`),
	"battle_engaged":   ev("battle_engaged", "discord:2", `{"player":"discord:2","period":"2026-W10-I","battle":"battle-2026-W10-I","starts_at":"2026-03-06T00:00:00Z","deck_size":12}`),
	"battle_withdrawn": ev("battle_withdrawn", "discord:2", `{"match":"battle-2026-W10-I"}`),
	"battle_forming":   ev("battle_forming", "", `{"match":"battle-2026-W10-I","engaged":["discord:1","discord:2"],"engaged_count":7,"starts_at":"2026-03-06T00:00:00Z"}`),
}

func ev(typ, player, data string) game.Event {
	return game.Event{Type: typ, Player: player, Data: json.RawMessage(data)}
}

func proposal(status, more string) string {
	return `{"id":"p1","author":"discord:1","class":"standard","title":"Cheaper Chips","text":"Chips cost 22.","summary":"chip costs 22 Vertebrae, was 25","amendment":[{"op":"replace","path":"/shop/chip/price","value":22}],"status":"` + status + `"` + more + `}`
}

func ruling(more string) string {
	return `{"id":"r1-1","request":"r1","judge":"discord:3","answer":"TRUE","at":"2026-03-05T12:00:00Z","kind":"statement","text":"Trades are legal.","requester":"discord:2"` + more + `}`
}

func trade(status string) string {
	return `{"id":"t1","from":"discord:1","to":"discord:2","give":{"cards":["x.6"]},"take":{"chips":1},"card_names":{"x.6":"Red Joker (holo)"},"status":"` + status + `"}`
}

// Sample is an event of type typ as the code writes it: a recorded sample,
// a match engine event, or (a type this package has no sample of, such as
// a newer module's) one with a player and empty data, which its narration
// must read all the same.
func Sample(typ string) game.Event {
	if e, ok := samples[typ]; ok {
		return e
	}
	if k, ok := strings.CutPrefix(typ, "match_"); ok && slices.Contains(exoptosis.EventKinds, k) {
		return ev(typ, "discord:1", `{"match":"d1","kind":"`+k+`","participant":"discord:1","other":"discord:2","card":"7 of Hearts","cards":["7 of Hearts","King of Spades"],"chips":2,"level":3,"reason":"timeout","at":"2026-03-05T12:00:00Z"}`)
	}
	return ev(typ, "discord:1", `{}`)
}

// OddShapes are data of shapes no narration expects: each must still read
// as a sentence.
var OddShapes = []string{``, `null`, `[1,2]`, `"text"`, `{"id":7,"match":[],"player":{},"cards":"x"}`}

var (
	keyValue = regexp.MustCompile(`\b[a-z_]+=[^\s]`)
	rawIDs   = regexp.MustCompile(`\b(discord|slack):[A-Za-z0-9]+`)
)

// CheckSentence says what is wrong with a text meant to be a sentence about
// named players: empty, JSON, key=value, or an id where a name was known.
// The marks of a sentence glued together by hand (issue 24): a duration as
// Go prints it, a full stop after a sentence already ended (an ellipsis
// aside), a count of one in the plural.
var (
	goDuration = regexp.MustCompile(`\b\d+h\d+m\d+s\b|\b\d+h0m\b`)
	doubled    = regexp.MustCompile(`(^|[^.])\.\.([^.]|$)|[^\s?]\?[.!?]|![.!?]|\.[!?]|[.!?]["”]\.`) // " ?" is a placeholder for what the data lacks
	onePlural  = regexp.MustCompile(`\b1 (Chips|cards|herbs|points|days|hours|minutes|players|votes|changes|rule changes|Cuts)\b|\(s\)`)
)

func CheckSentence(s string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("empty")
	case strings.ContainsAny(s, "{}") || strings.Contains(s, `":`) || strings.Contains(s, "["):
		return fmt.Errorf("JSON in %q", s)
	case keyValue.MatchString(s):
		return fmt.Errorf("key=value in %q", s)
	case goDuration.MatchString(s):
		return fmt.Errorf("a Go duration (%s) in %q", goDuration.FindString(s), s)
	case doubled.MatchString(s):
		return fmt.Errorf("doubled punctuation (%s) in %q", doubled.FindString(s), s)
	case onePlural.MatchString(s):
		return fmt.Errorf("a wrong plural (%s) in %q", onePlural.FindString(s), s)
	}
	for _, m := range rawIDs.FindAllString(s, -1) {
		if Names[m] != "" {
			return fmt.Errorf("the id %s instead of the name %s in %q", m, Names[m], s)
		}
	}
	return nil
}
