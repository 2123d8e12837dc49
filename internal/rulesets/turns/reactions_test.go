package turns_test

import (
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rulesets/turns"
)

// U4's reactions: a proposal submitted with its chat message counts the
// 👍/👎 on that message at the turn's end (a bridge pushes them here), as
// votes of the active players who did not vote by command; both is
// against (G1); a command vote wins over a reaction.
func TestU4_ReactionsOnAProposalsMessageAreVotesAtTheTurnEnd(t *testing.T) {
	e := newEnv(t, boltStore(t), ada, bea, cy, dee)
	m := game.MessageRef{Platform: "discord", Channel: "700", Message: "9001"}
	e.must(ada, "turns-propose", turns.Propose{Op: "enact", Text: "Reactions count.", Message: &m}, nil)
	e.must(bea, "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"}, nil)
	if _, err := e.svc.PushReactions(e.ctx, e.req(admin), game.PushReactions{Message: m, Up: []string{bea, cy, dee, "discord:99"}, Down: []string{bea, dee}}); err != nil {
		t.Fatal(err)
	}
	_, _, end := turnTimes(1)
	e.at(end.Add(time.Minute))
	ps, err := turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil || len(ps) != 1 || ps[0].Result == nil {
		t.Fatalf("%+v %v", ps, err)
	}
	r := ps[0].Result
	// Bea's command vote (for) stands; Cy's 👍 is for; Dee's 👍 and 👎 is
	// against; discord:99 is no player.
	if r.For != 2 || r.Against != 1 || ps[0].Status != "defeated" {
		t.Fatalf("result %+v (status %s), want 2 for (Bea, Cy) and 1 against (Dee)", r, ps[0].Status)
	}
}
