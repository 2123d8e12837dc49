package discordspec_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"croupier/internal/chat/discord/discordspec"
)

// The checker refuses what Discord refuses: each bad body below breaks one
// rule (of the description or of the documented limits), and its good twin
// passes.
func TestSpecRefusesWhatDiscordRefuses(t *testing.T) {
	s, err := discordspec.Load()
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != "10" {
		t.Errorf("the description is of API version %q, want 10", s.Version())
	}
	cmd := func(extra string) string {
		return `[{"name":"join","type":1,"description":"Join the game"` + extra + `}]`
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = fmt.Sprintf(`{"name":"c%d","type":1,"description":"d"}`, i)
	}
	const put = "/applications/1/commands"
	calls := []struct {
		what, method, path, good, bad, says string
	}{
		{"permissions as a string", "PUT", put, cmd(`,"default_member_permissions":32`), cmd(`,"default_member_permissions":"32"`), "default_member_permissions"},
		{"an upper-case name", "PUT", put, cmd(""), `[{"name":"Join","type":1,"description":"d"}]`, "lower case"},
		{"an empty description", "PUT", put, cmd(""), `[{"name":"join","type":1,"description":""}]`, "description"},
		{"an integer choice as a string", "PUT", put, cmd(`,"options":[{"type":4,"name":"n","description":"n","choices":[{"name":"one","value":1}]}]`),
			cmd(`,"options":[{"type":4,"name":"n","description":"n","choices":[{"name":"one","value":"1"}]}]`), "integer"},
		{"an optional option first", "PUT", put, cmd(`,"options":[{"type":3,"name":"a","description":"a","required":true},{"type":3,"name":"b","description":"b"}]`),
			cmd(`,"options":[{"type":3,"name":"b","description":"b"},{"type":3,"name":"a","description":"a","required":true}]`), "after an optional"},
		{"a group in a subcommand", "PUT", put, cmd(`,"options":[{"type":2,"name":"g","description":"g","options":[{"type":1,"name":"s","description":"s"}]}]`),
			cmd(`,"options":[{"type":1,"name":"s","description":"s","options":[{"type":2,"name":"g","description":"g","options":[{"type":1,"name":"t","description":"t"}]}]}]`), "subcommand"},
		{"101 global commands", "PUT", put, "[" + strings.Join(many[:100], ",") + "]", "[" + strings.Join(many, ",") + "]", "at most 100"},
		{"over 4000 characters", "PUT", put, cmd(""), cmd(`,"options":[` + strings.TrimSuffix(strings.Repeat(`{"type":3,"name":"o","description":"`+strings.Repeat("d", 100)+`","choices":[`+strings.TrimSuffix(strings.Repeat(`{"name":"`+strings.Repeat("n", 100)+`","value":"v"},`, 25), ",")+`]},`, 2), ",") + `]`), "4000"},
		{"a mention in an embed title", "PATCH", "/channels/1/messages/2", `{"embeds":[{"title":"Ada","description":"<@2>"}]}`, `{"embeds":[{"title":"Ada (<@2>)"}]}`, "mention"},
		{"six buttons a row", "PATCH", "/webhooks/1/tok/messages/@original", `{"components":[{"type":1,"components":[` + buttons(5) + `]}]}`, `{"components":[{"type":1,"components":[` + buttons(6) + `]}]}`, "components"},
		{"a duplicate custom_id", "PATCH", "/channels/1/messages/2", `{"components":[{"type":1,"components":[` + buttons(2) + `]}]}`, `{"components":[{"type":1,"components":[{"type":2,"style":1,"label":"a","custom_id":"x"},{"type":2,"style":1,"label":"b","custom_id":"x"}]}]}`, "twice"},
		{"content over 2000", "PATCH", "/channels/1/messages/2", `{"content":"` + strings.Repeat("é", 2000) + `"}`, `{"content":"` + strings.Repeat("é", 2001) + `"}`, "content"},
		{"embeds over 6000", "PATCH", "/channels/1/messages/2", `{"embeds":[` + embeds(1) + `]}`, `{"embeds":[` + embeds(2) + `]}`, "6000"},
	}
	for _, c := range calls {
		if err := s.Request(c.method, c.path, []byte(c.good)); err != nil {
			t.Errorf("%s: the good twin is refused: %v", c.what, err)
		}
		err := s.Request(c.method, c.path, []byte(c.bad))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: refused with %v, want an error saying %q", c.what, err, c.says)
		}
	}

	autocomplete := `{"type":4,"data":{"name":"turns","type":1,"options":[{"type":1,"name":"propose","options":[{"type":4,"name":"rule","value":"2","focused":true}]}]}}`
	responses := []struct{ what, in, good, bad, says string }{
		{"an integer option's choice as a string", autocomplete, `{"type":8,"data":{"choices":[{"name":"210","value":210}]}}`, `{"type":8,"data":{"choices":[{"name":"210","value":"210"}]}}`, "not an integer"},
		{"an update answering a command", `{"type":2}`, `{"type":4,"data":{"content":"hi"}}`, `{"type":7,"data":{"content":"hi"}}`, "does not answer"},
		{"an empty new message", `{"type":2}`, `{"type":5,"data":{"flags":64}}`, `{"type":4,"data":{"content":""}}`, "empty"},
		{"a deferral with content", `{"type":3}`, `{"type":6}`, `{"type":5,"data":{"content":"thinking"}}`, "deferred"},
	}
	for _, c := range responses {
		if err := s.Callback([]byte(c.in), []byte(c.good)); err != nil {
			t.Errorf("%s: the good twin is refused: %v", c.what, err)
		}
		err := s.Callback([]byte(c.in), []byte(c.bad))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: refused with %v, want an error saying %q", c.what, err, c.says)
		}
	}
	if err := s.Request("PATCH", "/channels/1/nothing/2", []byte(`{}`)); err == nil {
		t.Error("a route Discord lacks is accepted")
	}
}

func buttons(n int) string {
	var b []string
	for i := range n {
		b = append(b, fmt.Sprintf(`{"type":2,"style":1,"label":"b%d","custom_id":"id%d"}`, i, i))
	}
	return strings.Join(b, ",")
}

func embeds(n int) string {
	var e []string
	for range n {
		d, _ := json.Marshal(strings.Repeat("x", 3500))
		e = append(e, `{"title":"t","description":`+string(d)+`}`)
	}
	return strings.Join(e, ",")
}
