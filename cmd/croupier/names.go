package main

import (
	"fmt"
	"strings"

	"croupier/internal/game"
)

// People read names, not ids: the CLI shows players by their display
// names and accepts a display name or a chat mention wherever it takes a
// player, as long as it names one player of the game.

// roster is the game's current players, read once per invocation (best
// effort: without it texts show ids, and a name cannot be resolved).
func (p *player) roster() []game.PlayerView {
	if p.players == nil && p.opts.game != "" {
		ps, _, err := p.c.Players(p.ctx, p.opts.game)
		if err != nil {
			ps = nil
		}
		p.players = &ps
	}
	if p.players == nil {
		return nil
	}
	return *p.players
}

// nameOf returns a player's display name for an id (the id itself for
// someone who is not a current player, or has no name).
func (p *player) nameOf() func(string) string {
	names := map[string]string{}
	for _, v := range p.roster() {
		if v.Name != "" {
			names[v.ID] = v.Name
		}
	}
	return func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return id
	}
}

// resolvePlayer turns what a person typed into a player's identity: an
// identity (discord:1) as it is, a Discord mention (<@1>), or a display
// name (Bob, @Bob, any case) that names exactly one current player.
func (p *player) resolvePlayer(what, arg string) (string, error) {
	s := strings.TrimSpace(arg)
	if s == "" {
		return "", usagef("%s: give a player's name or identity", what)
	}
	if game.ValidIdentity(s) {
		return s, nil
	}
	if id, ok := strings.CutPrefix(s, "<@"); ok && strings.HasSuffix(id, ">") {
		id = strings.TrimPrefix(strings.TrimSuffix(id, ">"), "!")
		if c := "discord:" + id; game.ValidIdentity(c) {
			return c, nil
		}
	}
	n := strings.TrimPrefix(s, "@")
	ps := p.roster()
	var hits []game.PlayerView
	for _, v := range ps {
		if strings.EqualFold(v.Name, n) {
			hits = append(hits, v)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0].ID, nil
	case 0:
		if p.players == nil || len(ps) == 0 {
			return "", usagef("%s: %q is neither a player identity such as discord:1234 nor the name of a player of %s", what, arg, p.opts.game)
		}
		return "", usagef("%s: no player of %s is named %q; its players are %s", what, p.opts.game, arg, rosterList(ps))
	}
	return "", usagef("%s: %d players of %s are named %q (%s); give the identity instead", what, len(hits), p.opts.game, arg, rosterList(hits))
}

// rosterList is "Ada (discord:1), Bob (discord:2)", cut after 20.
func rosterList(ps []game.PlayerView) string {
	ws := make([]string, 0, min(len(ps), 20))
	for i, v := range ps {
		if i == 20 {
			ws = append(ws, fmt.Sprintf("and %d more", len(ps)-20))
			break
		}
		ws = append(ws, who(v.ID, v.Name))
	}
	return strings.Join(ws, ", ")
}
