package tracker_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets/turns"
)

// Issue 14: a turns game's tracker pages: the turn and its countdown, the
// points table, the pool, the proposals with their votes, the rules with
// their history; the cases with Judges, deadlines, rulings and appeals;
// and the audit page recomputes the Judge draws.
func TestTurnsPages(t *testing.T) {
	p := newGame(t)
	const g = turnsID
	call := p.turns(t)
	body := p.page("/tracker/games/" + g + "/turns")
	contains(t, "turns page", body, `data-turn="1-1"`, `data-part="interim"`, `id="countdown"`, "Round 1, the interim after turn 1-1.",
		"Ada", "Bo", "Cy", `id="proposal-P1" data-status="adopted"`, "Ada, Bo, Cy", `id="rule-210"`, "Rule 210, amended.", "by proposal P1",
		"Proposals are adopted by unanimity")
	if !strings.Contains(body, `>Turns</a>`) || !strings.Contains(body, `>Cases</a>`) {
		t.Errorf("the nav lacks the turns sections")
	}
	body = p.page("/tracker/games/" + g + "/cases")
	contains(t, "cases page", body, `id="case-5301"`, "Is rule 210 fair?", "recuse by", "rule by")
	// Issue 25: the rules in effect at the disputed moment (by default the
	// request's), with a link to the rules as they read then.
	contains(t, "cases page", body, `<small class="rules-then">Rules in effect at `, "(since then: rule 210 amended).", `href="/tracker/games/`+g+`/turns?at=`)
	if !strings.Contains(body, "Bo") {
		t.Errorf("the case's Judge is not named: %.1000s", body)
	}
	body = p.page("/tracker/games/" + g + "/audit")
	contains(t, "audit page", body, "turns.judge")

	// Issue 24 point 8: the overview is the turns game's own, its times in
	// the game's zone and its period by its turn.
	body = p.page("/tracker/games/" + g)
	contains(t, "turns overview", body, `id="round" data-round="1" data-over="no"`, "Round 1</a>, the interim after turn 1-1",
		// Bo, the pool's one member, left it when drawn as Judge (U8).
		`<dd id="turns-next">the Judge of case 5301 must have ruled, <time datetime="2026-12-07T12:00:00Z">Mon 7 Dec 2026 06:00 CST</time>`,
		`<dd id="pool-size" data-count="0">0 players</dd>`, `id="open-cases" data-count="1"`, "1 case</a>",
		">the interim after turn 1-1, until Mon 7 Dec 22:00 CST</dd>", "None: each round has its winner")
	for _, foreign := range []string{`id="judge"`, `id="season"`, "-interim (", "interim)", "Holographic", " UTC"} {
		if strings.Contains(body, foreign) {
			t.Errorf("the turns overview shows %q", foreign)
		}
	}
	// A round won by a paradox shows its winner, there and in the game
	// resource (which says the game goes on).
	winByParadox(t, call)
	body = p.page("/tracker/games/" + g)
	contains(t, "overview of a won round", body, `data-over="yes"`, `won by <strong id="round-winner">`, "Cy (discord:4)</a></strong> with a paradox ruled TRUE (case 5302)")
	gv, err := p.svc.Game(p.ctx, g)
	if err != nil || gv.Ended || gv.Round == nil || !gv.Round.Over || gv.Round.WinnerName != "Cy" || gv.Round.Case != 5302 {
		t.Fatalf("the game resource after a paradox won the round: %+v %v", gv.Round, err)
	}
	contains(t, "past rounds of a won round", body, `<h2 id="rounds-h">Past rounds</h2>`,
		`<tr id="round-1" data-won-by="paradox"><th scope="row">Round 1</th><td><a href="/tracker/games/nomic/players/discord:4">Cy (discord:4)</a></td><td>by a paradox ruled TRUE (case 5302)</td><td><time datetime="`)

	// Round 2 begins: round 1 stays in the record (its own item), and
	// once round 2 is won too, both are listed, newest first; a winner
	// who left is still named.
	call(admin, "round-start", nil)
	body = p.page("/tracker/games/" + g)
	contains(t, "overview of round 2", body, `id="round" data-round="2" data-over="no"`, `<tr id="round-1" data-won-by="paradox">`, "Cy (discord:4)</a></td><td>by a paradox ruled TRUE (case 5302)")
	if strings.Contains(body, `id="round-2"`) {
		t.Errorf("round 2, in play, is listed as won")
	}
	winByParadox(t, call)
	p.must(p.svc.Leave(p.ctx, game.Request{Game: g, Actor: cy, Key: p.key()}))
	body = p.page("/tracker/games/" + g)
	r2 := strings.Index(body, `<tr id="round-2" data-won-by="paradox"><th scope="row">Round 2</th><td>Cy</td><td>by a paradox ruled TRUE (case 5303)</td>`)
	r1 := strings.Index(body, `<tr id="round-1" data-won-by="paradox"><th scope="row">Round 1</th><td>Cy</td><td>by a paradox ruled TRUE (case 5302)</td>`)
	if r2 < 0 || r1 < r2 {
		t.Errorf("the past rounds are not round 2 then round 1, won by Cy who left (%d, %d): %s", r2, r1, section(body, "rounds-h"))
	}
	// A page of them reads only the rounds it shows.
	rs, total, err := turns.PastRounds(p.ctx, p.svc, g, 1, 1)
	if err != nil || total != 2 || len(rs) != 1 || rs[0].Number != 1 || rs[0].WinnerName != "Cy" || rs[0].WonBy != "paradox" || rs[0].WinCase != 5302 || !rs[0].Recorded {
		t.Errorf("the second page of one round: %+v of %d, %v", rs, total, err)
	}
}

// section is body's part from the heading with id on, for a failure's
// message.
func section(body, id string) string {
	if i := strings.Index(body, `id="`+id+`"`); i >= 0 {
		return body[i:min(len(body), i+1500)]
	}
	return body
}

// turnsID is the turns game the tracker's tests play (played.turns).
const turnsID = "nomic"

// turns plays a turns game's first turn: Bo enters the pool, Ada's
// proposal is adopted by all three, Ada requests judgment (Bo is drawn),
// and turn 1-1 ends. It returns a caller of the game's commands.
func (p *played) turns(t *testing.T) func(actor, name string, payload any) *game.Result {
	const g = turnsID
	p.must(p.svc.Create(p.ctx, game.Request{Actor: admin, Key: "create-nomic"}, game.CreateGame{ID: g, Name: "Nomic", Ruleset: turns.ID}))
	req := func(actor string) game.Request { return game.Request{Game: g, Actor: actor, Key: p.key()} }
	call := func(actor, name string, payload any) *game.Result {
		t.Helper()
		c, _ := p.svc.CommandNamed(name)
		v := c.Call.Payload()
		if payload != nil {
			b, _ := json.Marshal(payload)
			if err := json.Unmarshal(b, v); err != nil {
				t.Fatal(err)
			}
		}
		return p.must(c.Call.Run(p.ctx, p.svc, req(actor), v))
	}
	for id, name := range map[string]string{ada: "Ada", bo: "Bo", cy: "Cy"} {
		p.must(p.svc.Join(p.ctx, req(id), game.JoinGame{Name: name}))
	}
	call(bo, "pool-enter", nil)
	call(ada, "turns-propose", turns.Propose{Op: "amend", Rule: 210, Text: "Rule 210, amended."})
	for _, v := range []string{ada, bo, cy} {
		call(v, "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"})
	}
	call(ada, "judgment-request", turns.Judgment{Statement: "Is rule 210 fair?"})
	// Turn 1-1 ends (Sat 5 Dec 22:00 CST), and the seed of the draw's
	// period is revealed.
	end := time.Date(2026, 12, 5, 22, 0, 0, 0, calendar.Chicago())
	p.runDue(end.Add(time.Hour))

	return call
}

// winByParadox: Cy's paradox is ruled TRUE (by the administrator when
// nobody is in the pool, U7), which wins Cy the round.
func winByParadox(t *testing.T, call func(actor, name string, payload any) *game.Result) {
	t.Helper()
	var c turns.CaseView
	b := call(cy, "judgment-request", turns.Judgment{Statement: "This statement is false.", Paradox: true}).Body
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("the paradox's case: %s %v", b, err)
	}
	judge := c.Judge
	if judge == "" { // nobody in the pool: the administrator judges (U7)
		judge = admin
	}
	call(judge, "judge-rule", turns.Ruling{Case: c.Number, Ruling: "TRUE"})
}
