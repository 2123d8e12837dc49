package governance

import (
	"testing"
	"time"

	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
)

var electionWeek = calendar.WeekAt(monday)

func ballot(id, who string, at time.Time, r Reactions) Ballot {
	return Ballot{Candidacy: Candidacy{ID: id, Candidate: who, Message: msg, CreatedAt: at, Week: calendar.WeekAt(at).String()}, Reactions: r}
}

func TestG5_OnlyReputablePlayersStandOncePerWeek(t *testing.T) {
	cfg := testConfig(t)
	now := monday.Add(day)
	newcomer := &players.Player{ID: "bo", Member: true, JoinedAt: now.Add(-day)}
	if _, err := Stand(nil, "c1", newcomer, msg, now, cfg); code(err) != "not_reputable" {
		t.Errorf("newcomer: %v; want not_reputable", err)
	}
	if _, err := Stand(nil, "c1", &players.Player{ID: "gone", JoinedAt: gameStart}, msg, now, cfg); code(err) != "not_a_player" {
		t.Errorf("non-player: %v; want not_a_player", err)
	}
	c, err := Stand(nil, "c1", veteran("ada"), msg, now, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.Week != "2026-W49" || c.Candidate != "ada" {
		t.Errorf("candidacy %+v", c)
	}
	if _, err := Stand([]Candidacy{c}, "c2", veteran("ada"), msg, now.Add(h), cfg); code(err) != "already_candidate" {
		t.Errorf("second candidacy in a week: %v; want already_candidate", err)
	}
	if _, err := Stand([]Candidacy{c}, "c2", veteran("ada"), msg, now.Add(7*day), cfg); err != nil {
		t.Errorf("candidacy the next week: %v", err)
	}
	if _, err := Stand([]Candidacy{c}, "c1", veteran("bo"), msg, now, cfg); code(err) != "duplicate_id" {
		t.Errorf("duplicate id: %v", err)
	}
}

func TestG5_PopularCandidacyWithMostUpWins(t *testing.T) {
	notPlayers := func(id string) bool { return id != "bot" && id != "gone" }
	for _, c := range []struct {
		name    string
		ballots []Ballot
		judge   string
		changed bool
	}{
		{"no candidacies keep the Judge", nil, "jo", false},
		{"most 👍 among popular wins",
			[]Ballot{
				ballot("c1", "ada", monday.Add(h), Reactions{Up: ids("u", 2)}),
				ballot("c2", "bo", monday.Add(2*h), Reactions{Up: ids("u", 3), Down: ids("d", 1)}),
			}, "bo", true},
		{"more 👍 but not popular loses",
			[]Ballot{
				ballot("c1", "ada", monday.Add(h), Reactions{Up: ids("u", 5), Down: ids("d", 5)}),
				ballot("c2", "bo", monday.Add(2*h), Reactions{Up: ids("u", 1)}),
			}, "bo", true},
		{"tie goes to the earliest candidacy",
			[]Ballot{
				ballot("c2", "bo", monday.Add(3*h), Reactions{Up: ids("u", 3)}),
				ballot("c1", "ada", monday.Add(h), Reactions{Up: ids("u", 3), Down: ids("d", 2)}),
			}, "ada", true},
		{"no popular candidacy keeps the Judge",
			[]Ballot{ballot("c1", "ada", monday.Add(h), Reactions{Up: ids("u", 2), Down: ids("d", 2)})}, "jo", false},
		{"both reactions count against (G1)",
			[]Ballot{ballot("c1", "ada", monday.Add(h), Reactions{Up: []string{"a", "b", "c"}, Down: []string{"b", "c"}})}, "jo", false},
		{"only players' reactions count",
			[]Ballot{ballot("c1", "ada", monday.Add(h), Reactions{Up: []string{"a", "bot"}, Down: []string{"b"}})}, "jo", false},
		{"a candidate who left cannot win",
			[]Ballot{
				ballot("c1", "gone", monday.Add(h), Reactions{Up: ids("u", 4)}),
				ballot("c2", "bo", monday.Add(2*h), Reactions{Up: ids("u", 1)}),
			}, "bo", true},
		{"candidacies of other weeks are ignored",
			[]Ballot{ballot("c1", "ada", monday.Add(-h), Reactions{Up: ids("u", 4)})}, "jo", false},
		{"the Judge re-elected: no change",
			[]Ballot{ballot("c1", "jo", monday.Add(h), Reactions{Up: ids("u", 4)})}, "jo", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := Elect(electionWeek, "jo", c.ballots, notPlayers)
			if e.Judge != c.judge || e.Changed != c.changed {
				t.Errorf("judge %q changed %v; want %q %v (%s, %+v)", e.Judge, e.Changed, c.judge, c.changed, e.Reason, e.Standings)
			}
			court := &Court{Judge: "jo", Since: gameStart, RemovalAssents: []string{"ada"}}
			Seat(court, e, electionWeek.End())
			if court.Judge != c.judge {
				t.Errorf("seated %q; want %q", court.Judge, c.judge)
			}
			if c.changed && (!court.Since.Equal(electionWeek.End()) || court.RemovalAssents != nil) {
				t.Errorf("new Judge's court: %+v; want since the week's end with no removal assents", court)
			}
		})
	}
}

func TestG5_NoJudgeStaysNoJudge(t *testing.T) {
	e := Elect(electionWeek, "", nil, everyone)
	if e.Judge != "" || e.Changed {
		t.Errorf("election without candidacies and no Judge: %+v", e)
	}
}
