package game_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules/governance"
)

func shopPrice(t *testing.T, g *gov, id string) int {
	t.Helper()
	rs, err := g.Svc.Ruleset(g.Ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	it, ok := rs.ShopItem(id)
	if !ok {
		t.Fatalf("no %s in the shop", id)
	}
	return it.Price
}

// wholeShop is the merge patch an older client sent for --price id=price:
// the whole shop as it stands, with one price changed.
func wholeShop(t *testing.T, g *gov, id string, price int) json.RawMessage {
	t.Helper()
	rs, err := g.Svc.Ruleset(g.Ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	shop := slices.Clone(rs.Shop)
	for i := range shop {
		if shop[i].ID == id {
			shop[i].Price = price
		}
	}
	b, _ := json.Marshal(map[string]any{"shop": shop})
	return b
}

func priceOp(id string, price int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`[{"op":"replace","path":"/shop/%s/price","value":%d}]`, id, price))
}

// TestR4_TwoPriceProposalsBothHold is issue 15's acceptance 1: a proposal
// for random-card=2 and one for chip=20, open at the same time, are both
// adopted and both prices hold, whether they take effect at one moment (in
// creation order, either way round) or at different moments (either first),
// and whether the client sent operations or the whole shop.
func TestR4_TwoPriceProposalsBothHold(t *testing.T) {
	type prop struct {
		id     string
		price  int
		urgent bool
	}
	card, chip := prop{"random-card", 2, false}, prop{"chip", 20, false}
	for _, form := range []string{"operations", "whole shop"} {
		for _, c := range []struct {
			name  string
			props []prop
		}{
			{"same moment, card created first", []prop{card, chip}},
			{"same moment, chip created first", []prop{chip, card}},
			{"urgent card adopted first", []prop{{"random-card", 2, true}, chip}},
			{"urgent chip adopted first", []prop{card, {"chip", 20, true}}},
		} {
			t.Run(form+"/"+c.name, func(t *testing.T) {
				g := newGov(t)
				g.Clk.Set(thursday)
				var ids []string
				for i, p := range c.props {
					sp := game.SubmitProposal{Title: p.id, Amendment: priceOp(p.id, p.price)}
					if form == "whole shop" {
						sp.Amendment = wholeShop(t, g, p.id, p.price)
					}
					if p.urgent {
						sp.Class = governance.Urgent
					}
					m := fmt.Sprintf("m%d", i)
					v := g.Propose(pl(10+i), m, sp)
					if len(v.Amendment) == 0 || v.Amendment[0] != '[' {
						t.Fatalf("the proposal records %s, want operations", v.Amendment)
					}
					ids = append(ids, v.ID)
					g.Vote(m, pls(10, 11, 12), nil)
					g.Clk.Advance(time.Minute)
				}
				g.RunDue(nextMonday.Add(time.Hour))
				for _, id := range ids {
					if v := g.Proposal(id); v.Status != governance.StatusAdopted || v.AmendmentError != "" || len(v.BaseMoved) != 0 {
						t.Fatalf("proposal %s: %s, error %q, moved %v; want adopted cleanly", v.Title, v.Status, v.AmendmentError, v.BaseMoved)
					}
				}
				if got := shopPrice(t, g, "random-card"); got != 2 {
					t.Errorf("random-card costs %d, want 2", got)
				}
				if got := shopPrice(t, g, "chip"); got != 20 {
					t.Errorf("chip costs %d, want 20", got)
				}
				if got := shopPrice(t, g, "deck-pack"); got != 18 {
					t.Errorf("deck-pack costs %d, want 18 (untouched)", got)
				}
			})
		}
	}
}

// TestR4_ProposalWhoseBaseMovedAppliesToItsOwnPathOnly: a standard
// proposal for random-card=3 is made when it costs 5; an urgent proposal
// setting random-card=4 and chip=20 is adopted first. The standard one is
// then applied as written to its own path: random-card 3, chip still 20,
// and its record says the base moved.
func TestR4_ProposalWhoseBaseMovedAppliesToItsOwnPathOnly(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	late := g.Propose(pl(10), "late", game.SubmitProposal{Title: "Cards at 3", Amendment: wholeShop(t, g, "random-card", 3)})
	if late.Summary != "Random Card costs 3 Vertebrae, was 5" {
		t.Errorf("summary %q", late.Summary)
	}
	g.Propose(pl(11), "early", game.SubmitProposal{Class: governance.Urgent, Title: "Cards at 4, chips at 20",
		Amendment: json.RawMessage(`[{"op":"replace","path":"/shop/random-card/price","value":4},{"op":"replace","path":"/shop/chip/price","value":20}]`)})
	g.Vote("late", pls(10, 11, 12), nil)
	g.Vote("early", pls(10, 11, 12), nil)
	g.RunDue(thursday.Add(49 * time.Hour)) // the urgent one ends Saturday 15:00
	if shopPrice(t, g, "random-card") != 4 || shopPrice(t, g, "chip") != 20 {
		t.Fatalf("after the urgent proposal: random-card %d, chip %d", shopPrice(t, g, "random-card"), shopPrice(t, g, "chip"))
	}
	g.RunDue(nextMonday)
	if got, chip := shopPrice(t, g, "random-card"), shopPrice(t, g, "chip"); got != 3 || chip != 20 {
		t.Errorf("random-card %d, chip %d; want 3 (as written) and 20 (not restored to 25)", got, chip)
	}
	v := g.Proposal(late.ID)
	if v.Status != governance.StatusAdopted || len(v.BaseMoved) != 1 || !strings.Contains(v.BaseMoved[0], "/shop/random-card/price was 5") {
		t.Errorf("late proposal: %s, moved %q; want adopted, saying the base moved from 5", v.Status, v.BaseMoved)
	}
	amended := g.Events("ruleset_amended")
	var last game.Amendment
	json.Unmarshal(amended[len(amended)-1].Data, &last)
	if last.Summary != "Random Card costs 3 Vertebrae, was 4" {
		t.Errorf("the amendment's summary %q; want the value it actually replaced", last.Summary)
	}
}

// TestR4_AmendmentRefusedAtSubmission: a change naming an unknown path, a
// wrong type or an invalid value is refused when the proposal is made, and
// nothing is recorded.
func TestR4_AmendmentRefusedAtSubmission(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	for i, c := range []struct{ patch, want string }{
		{`[{"op":"replace","path":"/shop/golden-card/price","value":2}]`, "/shop/golden-card does not exist"},
		{`[{"op":"replace","path":"/shop/random-card/price","value":"2"}]`, "want an integer"},
		{`[{"op":"replace","path":"/shop/random-card/price","value":-2}]`, "must be greater than 0"},
		{`[{"op":"replace","path":"/shop/4/price","value":2}]`, "named by their id"},
	} {
		_, err := g.Svc.SubmitProposal(g.Ctx, req(pl(10), fmt.Sprintf("bad%d", i)), game.SubmitProposal{Message: msg(fmt.Sprintf("bad%d", i)), Amendment: json.RawMessage(c.patch)})
		if gametest.RuleCode(err) != "invalid_amendment" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want invalid_amendment saying %q", c.patch, err, c.want)
		}
	}
	if ps, err := g.Svc.Proposals(g.Ctx, "hall", ""); err != nil || len(ps) != 0 {
		t.Errorf("proposals after refusals: %d, %v", len(ps), err)
	}
}

// TestR4_AdminAmendmentIsPathLevel: an operator's merge patch of the whole
// shop is turned into the one price it changes (compared with the shop as
// it is when sent), and the result carries a summary.
func TestR4_AdminAmendmentIsPathLevel(t *testing.T) {
	g := newGov(t)
	g.Must(g.Svc.Amend(g.Ctx, req(admin, "a1"), game.Amend{Patch: priceOp("chip", 20), Reason: "ruling 1"}))
	patch := wholeShop(t, g, "random-card", 2)
	res := gametest.Decode[game.AmendResult](t, g.Must(g.Svc.Amend(g.Ctx, req(admin, "a2"), game.Amend{Patch: patch, Reason: "ruling 2"})))
	if res.Amendment.Summary != "Random Card costs 2 Vertebrae, was 5" {
		t.Errorf("summary %q", res.Amendment.Summary)
	}
	if shopPrice(t, g, "random-card") != 2 || shopPrice(t, g, "chip") != 20 {
		t.Errorf("random-card %d, chip %d; want 2 and 20", shopPrice(t, g, "random-card"), shopPrice(t, g, "chip"))
	}
}

// TestR4_UrgentAgainstLimitIsRulesetData: an adopted proposal amends the
// urgent class's "no more than two votes against" to none, and an urgent
// proposal with one vote against, popular before, now fails.
func TestR4_UrgentAgainstLimitIsRulesetData(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	before := g.Propose(pl(10), "u1", game.SubmitProposal{Class: governance.Urgent, Title: "Before"})
	g.Vote("u1", pls(10, 11), pls(12))
	limit := g.Propose(pl(11), "u2", game.SubmitProposal{Class: governance.Urgent, Title: "No dissent",
		Amendment: json.RawMessage(`[{"op":"replace","path":"/thresholds/governance/urgentMaxAgainst","value":0}]`)})
	if limit.Summary != "the most votes against a popular urgent proposal is 0, was 2" {
		t.Errorf("summary %q", limit.Summary)
	}
	g.Vote("u2", pls(10, 11, 12), nil)
	g.RunDue(thursday.Add(49 * time.Hour))
	if v := g.Proposal(before.ID); v.Status != governance.StatusAdopted {
		t.Fatalf("one against under the limit of 2: %s (%s)", v.Status, v.Result.Reason)
	}
	if v := g.Proposal(limit.ID); v.Status != governance.StatusAdopted || v.RulesetVersion == 0 {
		t.Fatalf("the amending proposal: %s v%d %s", v.Status, v.RulesetVersion, v.AmendmentError)
	}
	after := g.Propose(pl(12), "u3", game.SubmitProposal{Class: governance.Urgent, Title: "After"})
	g.Vote("u3", pls(10, 11), pls(12))
	g.RunDue(thursday.Add(98 * time.Hour))
	v := g.Proposal(after.ID)
	if v.Status != governance.StatusFailed || !strings.Contains(v.Result.Reason, "at most 0 against") {
		t.Errorf("one against under the amended limit of 0: %s (%s); want failed", v.Status, v.Result.Reason)
	}
}
