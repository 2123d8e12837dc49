package main

import (
	"errors"
	"fmt"
	"strings"

	"croupier/internal/client"
	"croupier/internal/game"
	"croupier/internal/rules/governance"
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

// lazyNameOf is nameOf, reading the roster only when a name is asked for
// (a sentence whose answer names its players asks for none).
func (p *player) lazyNameOf() func(string) string {
	var name func(string) string
	return func(id string) string {
		if name == nil {
			name = p.nameOf()
		}
		return name(id)
	}
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
// identity (discord:1) as it is; anything else (a mention <@1>, a bare id,
// a display name, @Bob, in any case) the server resolves, where every edge
// resolves names (game.ResolvePlayer, through GET .../players/{player}):
// an unknown or ambiguous name is its refusal, with the candidates.
func (p *player) resolvePlayer(what, arg string) (string, error) {
	s := strings.TrimSpace(arg)
	if s == "" {
		return "", usagef("%s: give a player's name or identity", what)
	}
	if game.ValidIdentity(s) {
		return s, nil
	}
	v, _, err := p.c.Player(p.ctx, p.opts.game, s)
	var prob *client.Problem
	if errors.As(err, &prob) {
		// The server's refusal, saying which argument it is about.
		prob.Detail = what + ": " + prob.Detail
	}
	if err != nil {
		return "", err
	}
	return v.ID, nil
}

// minPrefix is the shortest id prefix accepted: short enough to type,
// long enough that an answer word ("Yes") is not read as an id.
const minPrefix = 4

// pickID turns what a person typed into one of ids (proposal, request or
// ruling ids): the id itself, or an unambiguous prefix of at least
// minPrefix characters, in any case. Without arg it is the only one of
// open (the ones the command can act on), if there is exactly one.
func pickID(what, arg string, ids, open []string) (string, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		switch len(open) {
		case 1:
			return open[0], nil
		case 0:
			return "", usagef("there is no %s to act on; name one", what)
		}
		return "", usagef("%d %ss are open (%s); name one (a prefix such as %s is enough)", len(open), what, strings.Join(open, ", "), shortest(open))
	}
	var hits []string
	for _, id := range ids {
		if strings.EqualFold(id, arg) {
			return id, nil
		}
		if len(arg) >= minPrefix && len(arg) < len(id) && strings.EqualFold(id[:len(arg)], arg) {
			hits = append(hits, id)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return "", usagef("no %s has the id %q%s", what, arg, prefixHint(arg))
	}
	return "", usagef("%q is the start of %d %s ids (%s); give more of it", arg, len(hits), what, strings.Join(hits, ", "))
}

func prefixHint(arg string) string {
	if len(arg) < minPrefix {
		return fmt.Sprintf(" (a prefix needs at least %d characters)", minPrefix)
	}
	return ""
}

// shortest is the shortest prefix of ids[0] that no other id of ids
// starts with (at least minPrefix characters).
func shortest(ids []string) string {
	id := ids[0]
	for n := minPrefix; n < len(id); n++ {
		unique := true
		for _, o := range ids[1:] {
			if len(o) >= n && strings.EqualFold(o[:n], id[:n]) {
				unique = false
				break
			}
		}
		if unique {
			return id[:n]
		}
	}
	return id
}

// proposalID is the proposal arg names (see pickID); without arg, the
// only open proposal (by the actor, when mine).
func (p *player) proposalID(arg string, mine bool) (string, error) {
	all, _, err := p.c.Proposals(p.ctx, p.opts.game, "")
	if err != nil {
		return "", err
	}
	var ids, open []string
	for _, v := range all {
		ids = append(ids, v.ID)
		if v.Status == governance.StatusOpen && (!mine || v.Author == p.opts.as) {
			open = append(open, v.ID)
		}
	}
	return pickID("proposal", arg, ids, open)
}

// openRequests lists the open requests for justice.
func (p *player) openRequests() ([]string, error) {
	rs, _, err := p.c.JusticeRequests(p.ctx, p.opts.game, governance.RequestOpen)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = r.Request.ID
	}
	return ids, nil
}

// rulingID is the ruling arg names; without arg, the only ruling that
// stands.
func (p *player) rulingID(arg string) (string, error) {
	rs, _, err := p.c.Rulings(p.ctx, p.opts.game)
	if err != nil {
		return "", err
	}
	var ids, standing []string
	for _, r := range rs {
		ids = append(ids, r.ID)
		if !r.Overturned {
			standing = append(standing, r.ID)
		}
	}
	return pickID("ruling", arg, ids, standing)
}
