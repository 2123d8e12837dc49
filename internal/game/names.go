package game

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"croupier/internal/rules"
	"croupier/internal/store"
)

// Names: every edge takes a player argument as a person writes it, a
// mention (<@id>, <@!id>, Slack's <@U123|name>), a platform identity
// (discord:3), a bare id of the writer's own platform (3, U123), or a
// display name (case-insensitive), and ResolvePlayer, the one resolver,
// turns it into the identity the rules use. The commands that name a player
// call it (a gift's receiver, a trade's other party, a duel's invitees, a
// banishment, a Gathering's named player, a Request for Judgment's
// mentions, an admin's grant), so the API, the CLI, chat and the bridge all
// read names alike.
//
// Display names are found in the name index: a NAME#<name>#<id> item per
// member of a game created since the index (Meta.NamesIndexed), written and
// deleted by that member's own commits (join, leave, an import's
// registration: Tx.indexName, at every flush of a player record). One item
// per member and name, so nothing grows in one item and two joins never
// write the same item; a name is one prefix query. A game created before the
// index finds a name by reading its players, page by page.

const namePrefix = "NAME#"

// MaxCandidates bounds the players a refusal of a name lists.
const MaxCandidates = 10

// nameEntry is a NAME# item.
type nameEntry struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// NormalName is how display names compare: case-insensitive, with runs of
// spaces as one space.
func NormalName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// escapeName keeps '#' (the key's separator) and every byte that sorts
// before it out of a name in a key, so the items of one name are exactly
// those under its prefix and come before any longer name's.
func escapeName(n string) string {
	var b strings.Builder
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c <= '#' || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func namesPrefix(g, norm string) string { return namePrefix + escapeName(norm) }

// NameKey is the name index item of id under display name name.
func NameKey(g, name, id string) store.Key { return nameKey(g, NormalName(name), id) }

func nameKey(g, norm, id string) store.Key {
	return store.Key{PK: GamePK(g), SK: namesPrefix(g, norm) + "#" + id}
}

// indexName stages the change of p's name index item that p's membership
// and display name now call for: none while they are unchanged, else the
// deletion of the old item (at the version p records) and the new one.
func (t *Tx) indexName(p *Player) error {
	want := ""
	if t.Meta != nil && t.Meta.NamesIndexed && p.Member {
		want = strings.TrimSpace(p.Name)
	}
	if want == p.NameIndex {
		return nil
	}
	expect := int64(0)
	if p.NameIndex != "" {
		old := nameKey(t.Game, NormalName(p.NameIndex), p.ID)
		if want != "" && NormalName(want) == NormalName(p.NameIndex) {
			expect = p.NameIndexV // the same item, its name's case changed
		} else {
			t.Deletes = append(t.Deletes, store.Check{Key: old, Version: p.NameIndexV})
		}
	}
	p.NameIndex, p.NameIndexV = "", 0
	if want == "" {
		return nil
	}
	data, err := json.Marshal(nameEntry{ID: p.ID, Name: want})
	if err != nil {
		return err
	}
	k := nameKey(t.Game, NormalName(want), p.ID)
	if it, ok := t.Loaded[k]; ok && expect == 0 {
		// Read with the command (a join reads its name's item): an item
		// left over by a record written without it is taken over.
		expect = it.Version
	}
	t.Puts = append(t.Puts, store.Put{Item: store.Item{Key: k, Data: data}, Expect: expect})
	p.NameIndex, p.NameIndexV = want, expect+1
	return nil
}

// mentionRe is a chat mention: Discord's <@id> and <@!id>, Slack's <@U123>
// and <@U123|name>.
var mentionRe = regexp.MustCompile(`^<@!?([A-Za-z0-9._-]{1,64})(\|[^>]*)?>$`)

// platformOf is the platform of an identity ("discord:3" -> "discord").
func platformOf(identity string) string {
	p, _, _ := strings.Cut(identity, ":")
	return p
}

// ResolvePlayer returns the identity of the player text names in req's
// game, as req's actor wrote it: a mention or a bare id (of the actor's own
// platform), a platform identity, or the display name of one current
// member. A mention and an identity are read without reading anything; a
// name or a bare id reads the name index. A name no member has, or that
// several have, is refused (unknown_player, ambiguous_player) with the
// candidates by display name, at most MaxCandidates of them. An empty text
// is returned as it is, for the command's own check. Whether the player is
// a member is the command's own check too.
func (s *Service) ResolvePlayer(ctx context.Context, req Request, text string) (string, error) {
	text = strings.TrimSpace(text)
	platform := platformOf(req.Actor)
	if m := mentionRe.FindStringSubmatch(text); m != nil && platform != "" {
		return platform + ":" + m[1], nil
	}
	if text == "" || ValidIdentity(text) {
		return text, nil
	}
	// "@Bob", as chat users type a name.
	if n := strings.TrimPrefix(text, "@"); n != "" {
		text = n
	}
	t, err := s.View(ctx, req.Game)
	if err != nil {
		return "", err
	}
	named, err := s.named(ctx, t, NormalName(text), false)
	if err != nil {
		return "", err
	}
	switch {
	case len(named) == 1:
		return named[0].ID, nil
	case len(named) > 1:
		return "", rules.Refuse("ambiguous_player", "%d players of this game are named %q: %s. Name one by mention or id.",
			len(named), text, candidates(named, true)).With("candidates", ids(named))
	}
	if id := platform + ":" + text; platform != "" && ValidIdentity(id) {
		// A bare id of the writer's own platform (Discord's 3, Slack's
		// U123), if that person has played here.
		if it, err := s.store.Get(ctx, PlayerKey(req.Game, id)); err != nil {
			return "", err
		} else if it.Exists() {
			return id, nil
		}
	}
	near, err := s.named(ctx, t, NormalName(text), true)
	if err != nil {
		return "", err
	}
	if len(near) == 0 {
		return "", rules.Refuse("unknown_player", "No player of this game is named %q or has that id; name a player by mention, id or display name.", text)
	}
	return "", rules.Refuse("unknown_player", "No player of this game is named %q. Did you mean %s?", text, candidates(near, false)).
		With("candidates", ids(near))
}

// ResolvePlayers resolves each of texts (ResolvePlayer).
func (s *Service) ResolvePlayers(ctx context.Context, req Request, texts []string) ([]string, error) {
	out := make([]string, len(texts))
	for i, text := range texts {
		id, err := s.ResolvePlayer(ctx, req, text)
		if err != nil {
			return nil, err
		}
		out[i] = id
	}
	return out, nil
}

// resolveParams resolves the string members keys of the JSON object params
// (a proposal kind's players), leaving every other member as it is.
func (s *Service) resolveParams(ctx context.Context, req Request, params json.RawMessage, keys []string) (json.RawMessage, error) {
	if len(keys) == 0 || len(params) == 0 {
		return params, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(params, &m); err != nil {
		return params, nil // the kind's Check says what is wrong
	}
	changed := false
	for _, k := range keys {
		var text string
		if json.Unmarshal(m[k], &text) != nil || text == "" {
			continue
		}
		id, err := s.ResolvePlayer(ctx, req, text)
		if err != nil {
			return nil, err
		}
		if id != text {
			if m[k], err = json.Marshal(id); err != nil {
				return nil, err
			}
			changed = true
		}
	}
	if !changed {
		return params, nil
	}
	return json.Marshal(m)
}

// named returns the current members named norm, or, with prefix, those
// whose name starts with it: at most 100 of them, from the name index, or
// from the players of a game created before it.
func (s *Service) named(ctx context.Context, t *Tx, norm string, prefix bool) ([]nameEntry, error) {
	const most = 100
	var out []nameEntry
	keep := func(e nameEntry) bool {
		n := NormalName(e.Name)
		if n == norm || prefix && strings.HasPrefix(n, norm) {
			out = append(out, e)
		}
		return len(out) < most
	}
	if t.Meta.NamesIndexed {
		p := namesPrefix(t.Game, norm)
		if !prefix {
			p += "#"
		}
		q := store.Query{PK: GamePK(t.Game), Prefix: p, Limit: most}
		page, err := s.store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			var e nameEntry
			if err := json.Unmarshal(it.Data, &e); err != nil {
				return nil, fmt.Errorf("decoding %s: %w", it.Key, err)
			}
			if !keep(e) {
				break
			}
		}
		return out, nil
	}
	// A game from before the index: its players, page by page.
	errEnough := fmt.Errorf("enough")
	err := s.Scan(ctx, store.Query{PK: GamePK(t.Game), Prefix: PlayerPrefix}, func(it store.Item) error {
		var p Player
		if err := json.Unmarshal(it.Data, &p); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		if p.Member && strings.TrimSpace(p.Name) != "" && !keep(nameEntry{ID: p.ID, Name: p.Name}) {
			return errEnough
		}
		return nil
	})
	if err != nil && err != errEnough {
		return nil, err
	}
	return out, nil
}

// candidates lists es by display name, at most MaxCandidates, with their
// ids where names alone cannot tell them apart.
func candidates(es []nameEntry, withIDs bool) string {
	var ns []string
	for i, e := range es {
		if i == MaxCandidates {
			return strings.Join(ns, ", ") + fmt.Sprintf(" and %d more", len(es)-MaxCandidates)
		}
		n := e.Name
		if withIDs {
			n += " (" + e.ID + ")"
		}
		ns = append(ns, n)
	}
	if len(ns) == 1 {
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " or " + ns[len(ns)-1]
}

func ids(es []nameEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
