package players

import (
	"errors"
	"testing"
	"time"

	"croupier/internal/rules"
)

var (
	t0   = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	week = 7 * 24 * time.Hour
)

func TestP1_RejoinRefusedWithinSevenDaysWithDate(t *testing.T) {
	p, err := Join(nil, "discord:1", "Ada", t0, "2026-W49-I", week, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	left := t0.Add(24 * time.Hour)
	if err := Leave(p, left); err != nil {
		t.Fatal(err)
	}
	if p.Member || !p.LeftAt.Equal(left) {
		t.Fatalf("leaving must end the membership at the moment of leaving: %+v", p)
	}

	_, err = Join(p, "discord:1", "", left.Add(3*24*time.Hour), "2026-W49-II", week, time.UTC)
	var re *rules.Error
	if !errors.As(err, &re) || re.Code != "rejoin_too_soon" {
		t.Fatalf("rejoin after 3 days: got %v, want rejoin_too_soon", err)
	}
	if got, want := re.Fields["possible_at"], left.Add(week); got != want {
		t.Fatalf("possible_at = %v, want %v", got, want)
	}

	again, err := Join(p, "discord:1", "", left.Add(week), "2026-W50-II", week, time.UTC)
	if err != nil {
		t.Fatalf("rejoin exactly 7 days after leaving: %v", err)
	}
	if again.Name != "Ada" || !again.JoinedAt.Equal(left.Add(week)) || !again.LeftAt.IsZero() {
		t.Fatalf("rejoin must start a new stint: %+v", again)
	}
}

func TestP1_JoinTwiceRefused(t *testing.T) {
	p, _ := Join(nil, "discord:1", "Ada", t0, "2026-W49-I", week, time.UTC)
	if _, err := Join(p, "discord:1", "Ada", t0.Add(time.Hour), "2026-W49-I", week, time.UTC); !errors.Is(err, &rules.Error{Code: "already_a_player"}) {
		t.Fatalf("got %v", err)
	}
	if err := Leave(&Player{ID: "x"}, t0); !errors.Is(err, &rules.Error{Code: "not_a_player"}) {
		t.Fatalf("leave by non-player: got %v", err)
	}
}

func TestP3_ActiveInJoinPhaseInactiveAfterIdlePhase(t *testing.T) {
	p, _ := Join(nil, "discord:1", "Ada", t0, "W49-I", week, time.UTC)
	if Inactive(p, "W49-I", "W48-II") {
		t.Fatal("everyone is active in the phase they join")
	}
	if Inactive(p, "W49-II", "W49-I") {
		t.Fatal("joining is an action: active in the next phase")
	}
	if !Inactive(p, "W50-I", "W49-II") {
		t.Fatal("no action in W49-II: inactive in W50-I")
	}
	RecordAction(p, "W50-I")
	if !Inactive(p, "W50-I", "W49-II") {
		t.Fatal("an action in the current phase does not undo inactivity in it")
	}
	if Inactive(p, "W50-II", "W50-I") {
		t.Fatal("acted in W50-I: active in W50-II")
	}
	RecordAction(p, "W50-I")
	RecordAction(p, "W50-II")
	RecordAction(p, "W51-I")
	if len(p.ActionPeriods) != 2 || p.ActionPeriods[0] != "W50-II" {
		t.Fatalf("keeps the last two distinct periods: %v", p.ActionPeriods)
	}
}

func TestP4_Reputable(t *testing.T) {
	start := t0
	tenure, grace := week, 3*24*time.Hour
	early, _ := Join(nil, "a", "", start.Add(2*24*time.Hour), "p", week, time.UTC)
	late, _ := Join(nil, "b", "", start.Add(4*24*time.Hour), "p", week, time.UTC)
	now := start.Add(5 * 24 * time.Hour)
	if !Reputable(early, now, start, tenure, grace) {
		t.Fatal("joined within 3 days of the start: reputable")
	}
	if Reputable(late, now, start, tenure, grace) {
		t.Fatal("joined 4 days after the start, 1 day ago: not reputable")
	}
	if !Reputable(late, late.JoinedAt.Add(week), start, tenure, grace) {
		t.Fatal("a player continuously for the previous 7 days is reputable")
	}
	if Reputable(late, late.JoinedAt.Add(week-time.Second), start, tenure, grace) {
		t.Fatal("one second short of 7 days is not")
	}
	Leave(early, now)
	if Reputable(early, now.Add(week), start, tenure, grace) {
		t.Fatal("a non-player is never reputable")
	}
}
