package tracker

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/narratetest"
)

// The log page reads as sentences: every event type any component
// narrates (and every type the code emits) shows as its component's
// sentence with display names, never JSON or key=value.
func TestLogPageReadsAsSentences(t *testing.T) {
	reg := rulesets.Registry()
	emitted, err := narratetest.Emitted("../..")
	if err != nil {
		t.Fatal(err)
	}
	types := append(reg.EventTypes(), emitted...)
	l := &layout{Game: &game.GameView{ID: "hall"}, Names: narratetest.Names, Section: "log"}
	say := func(ev game.Event) string { return reg.Sentence(ev, l.name) }
	var rows []logRow
	for _, typ := range types {
		row, _ := newLogRow(game.Entry{ID: typ, Command: "c", Actor: "discord:1", Events: []game.Event{narratetest.Sample(typ)}}, say)
		rows = append(rows, row)
	}
	var b strings.Builder
	if err := document(l, logContent(l, logData{Entries: rows})).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{}
	for _, m := range regexp.MustCompile(`<span class="ev" data-event="([^"]+)">([^<]*)</span>`).FindAllStringSubmatch(b.String(), -1) {
		shown[m[1]] = html.UnescapeString(m[2])
	}
	for _, typ := range types {
		s, ok := shown[typ]
		if !ok {
			t.Errorf("%s: not on the log page", typ)
			continue
		}
		if err := narratetest.CheckSentence(s); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
		if want := reg.Sentence(narratetest.Sample(typ), narratetest.Name); s != want {
			t.Errorf("%s: the page says %q, the component's sentence (the CLI's) is %q", typ, s, want)
		}
	}
}
