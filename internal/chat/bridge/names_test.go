package bridge_test

import (
	"strings"
	"testing"

	"croupier/internal/chat/bridge"
)

// TestIssue23_BridgePlayerOptionsTakeEveryFormOfName: a bridged command's
// player option resolves a mention, the platform id, the bare id and the
// display name of the bridge's platform, through the one resolver; a name
// two players share is refused with the candidates and changes nothing.
func TestIssue23_BridgePlayerOptionsTakeEveryFormOfName(t *testing.T) {
	e := newEnv(t)
	n := 0
	cmd := func(user, name string, opts map[string]string) bridge.Reply {
		n++
		return e.command(bridge.Command{ID: "n" + string(rune('a'+n)), Platform: "matrix", Space: "room1", Channel: "general", User: user, Command: name, Options: opts})
	}
	for _, p := range [][2]string{{"ada", "Ada"}, {"grace", "Grace"}, {"cy", "Cy"}, {"cy2", "cy"}} {
		if r := cmd(p[0], "join", map[string]string{"name": p[1]}); r.Refusal {
			t.Fatalf("join %s: %+v", p[1], r)
		}
	}
	for i, form := range []string{"<@grace>", "matrix:grace", "grace", "Grace", "@GRACE"} {
		if r := cmd("admin", "grant", map[string]string{"player": form, "vertebrae": "1", "reason": "names"}); r.Refusal {
			t.Fatalf("grant to %s: %+v", form, r)
		}
		if v := e.player("matrix:grace").Inventory.Vertebrae; v != i+1 {
			t.Fatalf("grant to %s: Grace holds %d Vertebrae, want %d", form, v, i+1)
		}
	}
	r := cmd("ada", "gift", map[string]string{"player": "CY"})
	if !r.Refusal || !strings.Contains(r.Text, `2 players of this game are named "CY": Cy (matrix:cy) or cy (matrix:cy2)`) {
		t.Errorf("a shared name: %+v", r)
	}
	if !e.player("matrix:ada").CanGift {
		t.Error("a refused gift used Ada's gift")
	}
}
