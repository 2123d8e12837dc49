package tracker

import (
	"encoding/json"
	"net/url"
	"strconv"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/economy"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
)

// The pages' content, each written as its section of the layout. Ids and
// data attributes are the stable hooks docs/tracker.md lists.

func indexContent(d indexData) content {
	return func(p *page) {
		p.raw("\n<h1>Croupier tracker</h1>\n<p>The public record of each game: its players, the full log and an audit of every random draw; and what its ruleset has: a Gilded Hall game's decks, matches move by move, trades, proposals and the Judge's rulings; an Obelisk game's Obelisk, Grebes and Gatherings; a turns game's turns, points, numbered rules and cases.</p>\n")
		if len(d.Games) > 0 {
			p.raw("<h2 id=\"games-h\">Games</h2>\n<table id=\"games\"><thead><tr><th scope=\"col\">Game</th><th scope=\"col\">Ruleset</th><th scope=\"col\">Created</th></tr></thead>\n<tbody>")
			for _, g := range d.Games {
				p.raw(`<tr data-game="`)
				p.text(g.ID)
				p.raw(`"><th scope="row"><a href="`)
				p.text(gameURL(g.ID))
				p.raw(`">`)
				if g.Name != "" {
					p.text(g.Name + " (" + g.ID + ")")
				} else {
					p.text(g.ID)
				}
				p.raw(`</a></th><td data-ruleset="`)
				p.text(g.Ruleset)
				p.raw(`">`)
				p.text(d.Title(g.Ruleset))
				p.raw(`</td><td>`)
				p.when(g.CreatedAt)
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody></table>\n")
			if d.Next != "" {
				p.raw(`<nav class="pager" aria-label="Pages of games"><p><a id="games-next" href="/tracker?after=`)
				p.text(url.QueryEscape(d.Next))
				p.raw(`" rel="next">More games</a></p></nav>`)
			}
		} else if d.After != "" {
			p.raw(`<p id="games-none">No more games.</p>`)
		} else {
			p.raw(`<p id="games-none">No game is listed yet.</p>`)
		}
		p.raw("\n<form method=\"get\" action=\"/tracker\">\n<label for=\"game-id\">Game id</label>\n" +
			"<input id=\"game-id\" name=\"game\" required pattern=\"[a-z0-9][a-z0-9-]{0,62}\" autocomplete=\"off\" spellcheck=\"false\">\n" +
			"<button type=\"submit\">Open the game</button>\n</form>\n")
	}
}

func overviewContent(l *layout, d overviewData) content {
	return func(p *page) {
		g := l.Game
		p.raw("\n<h1>")
		p.text(l.Title)
		p.raw("</h1>\n")
		if g.Ended {
			p.raw(`<p class="banner" id="game-ended">The game ended `)
			p.whenp(g.EndedAt)
			p.raw(".")
			if g.Winner != "" {
				p.raw(` Winner: <strong id="winner">`)
				p.player(l, g.Winner)
				p.raw(`</strong>.`)
			}
			p.raw("</p>")
		}
		p.raw("\n<section aria-labelledby=\"now-h\">\n<h2 id=\"now-h\">Now</h2>\n<dl class=\"facts\">\n<dt>Period</dt><dd id=\"period\" data-period=\"")
		p.text(g.Period.ID)
		p.raw(`">`)
		if g.Period.Name != "" {
			// The ruleset's own name for it (a turns game's turn, which
			// says until when), never the calendar key.
			p.text(g.Period.Name)
		} else {
			p.text(g.Period.ID + " (" + g.Period.Kind + "), from ")
			p.when(g.Period.Start)
		}
		p.raw("</dd>\n<dt>Next phase</dt><dd id=\"next-phase\">at ")
		p.when(g.Period.End)
		p.raw(`<span class="countdown" data-countdown="`)
		p.text(g.Period.End.UTC().Format(time.RFC3339))
		p.raw("\" aria-live=\"off\"></span></dd>\n")
		if d.Shape.Seasons {
			p.raw("<dt>Season</dt><dd id=\"season\">")
			if g.Season != "" {
				p.text(g.Season)
			} else {
				p.raw("—")
			}
			p.raw("</dd>\n")
		}
		if d.HasJudge {
			p.raw("<dt>Judge</dt><dd id=\"judge\">")
			if d.Judge.Judge != "" {
				p.player(l, d.Judge.Judge)
				p.raw(", since ")
				p.when(d.Judge.Since)
			} else {
				p.raw("No Judge")
			}
			p.raw("</dd>\n")
		}
		if o := d.Obelisk; o != nil {
			obeliskFacts(p, l, o, d.OpenGatherings)
		}
		if s := d.Turns; s != nil {
			turnsFacts(p, l, s)
		}
		p.raw("<dt>Winner</dt><dd id=\"winner-value\">")
		if g.Winner != "" {
			p.player(l, g.Winner)
		} else if d.Turns != nil {
			// A turns game goes on in rounds: its winners are the rounds'.
			p.raw("None: each round has its winner")
		} else {
			p.raw("None yet")
		}
		p.raw("</dd>\n<dt>Players</dt><dd id=\"player-count\"><a href=\"")
		p.text(gameURL(g.ID, "players"))
		p.raw(`">`)
		p.num(d.Players)
		p.raw("</a></dd>\n<dt>Created</dt><dd>")
		p.when(g.CreatedAt)
		p.raw("</dd>\n<dt>Admins</dt><dd>")
		p.admins(l, g.Admins)
		p.raw("</dd>\n</dl>\n</section>\n<section aria-labelledby=\"rules-h\">\n<h2 id=\"rules-h\">Ruleset</h2>\n<p id=\"ruleset\" data-ruleset=\"")
		p.text(g.Ruleset)
		p.raw(`" data-version="`)
		p.num(g.RulesetVersion)
		p.raw(`">`)
		p.text(d.Ruleset.Name)
		p.raw(` (<code>`)
		p.text(g.Ruleset)
		p.raw(`</code>), version `)
		p.num(g.RulesetVersion)
		p.raw(`, calendar <code>`)
		p.text(d.Ruleset.Calendar)
		p.raw(`</code>. Adopted proposals and operator corrections amend it; each amendment is in the <a href="`)
		p.text(gameURL(g.ID, "log") + query("kind", "ruleset_amended"))
		p.raw("\">log</a>.</p>\n<table>\n<caption>The game's rule numbers as amended</caption>\n" +
			"<thead><tr><th scope=\"col\">Group</th><th scope=\"col\">Setting</th><th scope=\"col\">Value</th></tr></thead>\n<tbody>\n")
		for _, s := range d.Settings {
			p.el("<tr><td>", s.Group, "</td>")
			p.el(`<th scope="row">`, s.Name, "</th>")
			p.el("<td>", s.Value, "</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n</section>\n")
	}
}

// obeliskFacts are an Obelisk game's facts on its overview: the Obelisk
// and its Grebes, the week's observation and the open Gatherings, each
// linked to the Obelisk's page.
func obeliskFacts(p *page, l *layout, o *obelisk.ObeliskView, open int) {
	link := gameURL(l.Game.ID, "obelisk")
	p.raw("<dt>The Obelisk</dt><dd id=\"obelisk-distance\" data-km=\"")
	p.num(o.Distance)
	p.raw(`"><a href="`)
	p.text(link)
	p.raw(`">`)
	p.num(o.Distance)
	p.raw(" km from the Gates</a>, ")
	p.text(game.Count(o.Cuts, "Cut", "Cuts"))
	p.raw("</dd>\n<dt>Grebes</dt><dd id=\"obelisk-grebes\">")
	if len(o.Grebes) == 0 {
		p.raw("none befriended yet")
	} else {
		p.text(game.Count(len(o.Grebes), "Grebe", "Grebes") + ", " + strconv.Itoa(len(o.Aiding)) + " of them aiding the Obelisk")
	}
	p.raw("</dd>\n<dt>Observation</dt><dd id=\"obelisk-observation\">")
	if o.Observed {
		p.raw("made this week; the next from ")
		p.when(o.NextObservation)
	} else {
		p.raw("not yet made this week")
	}
	p.raw("</dd>\n<dt>Open Gatherings</dt><dd id=\"open-gatherings\" data-count=\"")
	p.num(open)
	p.raw(`"><a href="`)
	p.text(link + "#gatherings-h")
	p.raw(`">`)
	if open == 0 {
		p.raw("none")
	} else {
		p.text(game.Count(open, "Gathering", "Gatherings") + " open")
	}
	p.raw("</a></dd>\n")
}

func yesNo(b bool) markup {
	if b {
		return "yes"
	}
	return "no"
}

func playersContent(l *layout, ps []gildedhall.PlayerView) content {
	return func(p *page) {
		if !playersCaption(p, len(ps), "current players and their inventories") {
			return
		}
		p.raw("</caption>\n" +
			`<thead><tr><th scope="col">Player</th><th scope="col">Vertebrae</th><th scope="col">Chips</th><th scope="col">Cards</th><th scope="col">Packs</th><th scope="col">Active</th><th scope="col">Reputable</th><th scope="col">Joined</th></tr></thead>` +
			"\n<tbody>\n")
		for _, m := range ps {
			inv := m.Inventory
			p.raw(`<tr data-player="`)
			p.text(m.ID)
			p.raw(`"><th scope="row">`)
			p.player(l, m.ID)
			p.raw(`</th><td data-vertebrae="`)
			p.num(inv.Vertebrae)
			p.raw(`">`)
			p.num(inv.Vertebrae)
			p.raw(`</td><td data-chips="`)
			p.num(inv.Chips)
			p.raw(`">`)
			p.num(inv.Chips)
			p.raw(`</td><td data-deck-size="`)
			p.num(m.DeckSize)
			p.raw(`">`)
			p.num(m.DeckSize)
			p.raw(`</td><td>`)
			p.num(len(inv.Packs))
			p.raw(`</td><td>`)
			p.raw(yesNo(m.Active))
			p.raw(`</td><td>`)
			p.raw(yesNo(m.Reputable))
			p.raw(`</td><td>`)
			p.when(m.JoinedAt)
			p.raw("</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n\n")
	}
}

func playerContent(l *layout, pv gildedhall.PlayerView) content {
	return func(p *page) {
		inv := pv.Inventory
		p.raw("\n<h1>")
		p.text(l.Title)
		p.raw("</h1>\n<dl class=\"facts\" id=\"inventory\">\n<dt>Id</dt><dd><code>")
		p.text(pv.ID)
		p.raw("</code></dd>\n<dt>Status</dt><dd>")
		membership(p, pv.PlayerView)
		if pv.Member && pv.Reputable {
			p.raw(", reputable")
		}
		p.raw("</dd>\n<dt>Vertebrae</dt><dd id=\"vertebrae\">")
		p.num(inv.Vertebrae)
		p.raw("</dd>\n<dt>Chips</dt><dd id=\"chips\">")
		p.num(inv.Chips)
		p.raw("</dd>\n<dt>Cards</dt><dd id=\"deck-size\">")
		p.num(pv.DeckSize)
		p.raw("</dd>\n<dt>Gift this period</dt><dd>")
		if pv.CanGift {
			p.raw("not yet given")
		} else {
			p.raw("given (or not a player)")
		}
		p.raw("</dd>\n</dl>\n<p><a href=\"")
		p.text(gameURL(l.Game.ID, "log") + query("player", pv.ID))
		p.raw("\">This player's log entries</a></p>\n<h2 id=\"packs-h\">Unopened packs</h2>\n")
		if len(pv.Packs) > 0 {
			p.raw(`<ul aria-labelledby="packs-h">`)
			for _, pk := range pv.Packs {
				p.raw(`<li data-pack="`)
				p.text(pk.Pack)
				p.raw(`">`)
				p.num(pk.Count)
				p.raw(" × ")
				p.text(pk.Name)
				p.raw("</li>")
			}
			p.raw("</ul>")
		} else {
			p.raw("<p>None.</p>")
		}
		p.raw("\n<h2 id=\"deck-h\">Deck</h2>\n")
		if len(pv.Deck) == 0 {
			p.raw("<p>No cards.</p>\n")
			return
		}
		p.raw("<ul class=\"deck\" aria-labelledby=\"deck-h\">\n")
		for _, e := range pv.Deck {
			if plain := e.Count - e.Holo; plain != 0 {
				p.raw(`<li class="card" data-card="`)
				p.text(e.Card)
				p.raw(`" data-holo="false" data-count="`)
				p.num(plain)
				p.raw(`">`)
				p.card(e.Card, false, `width="120" height="168" loading="lazy"`)
				p.raw(`<span class="count">× `)
				p.num(plain)
				p.raw("</span></li>\n")
			}
			if e.Holo != 0 {
				p.raw(`<li class="card holo" data-card="`)
				p.text(e.Card)
				p.raw(`" data-holo="true" data-count="`)
				p.num(e.Holo)
				p.raw(`">`)
				p.card(e.Card, true, `width="120" height="168" loading="lazy"`)
				p.raw(`<span class="badge">Holographic</span><span class="count">× `)
				p.num(e.Holo)
				p.raw("</span></li>\n")
			}
		}
		p.raw("</ul>\n\n")
	}
}

func matchesContent(l *layout, d matchesData) content {
	return func(p *page) {
		p.raw("\n<h1>Matches</h1>\n")
		if len(d.Engaged) > 0 {
			p.raw(`<section id="engaged" data-battle="`)
			p.text(d.Battle)
			p.raw(`" data-engaged="`)
			p.num(len(d.Engaged))
			p.raw("\"><h2>This phase's battle</h2>\n<p>")
			p.num(len(d.Engaged))
			p.raw(" engaged in ")
			p.text(d.Battle)
			p.raw(", which forms when this phase ends: ")
			p.players(l, d.Engaged)
			p.raw(".</p></section>")
		}
		p.raw("\n<h2 id=\"live-h\">Live</h2>\n")
		if len(d.Live) > 0 {
			matchTable(p, l, d.Live, "matches-live")
		} else {
			p.raw("<p>No match is running or waiting.</p>")
		}
		p.raw("\n<h2 id=\"finished-h\">Finished</h2>\n")
		if len(d.Finished) > 0 {
			matchTable(p, l, d.Finished, "matches-finished")
			writePager(p, d.Pager, "Finished matches")
		} else {
			p.raw("<p>No match has finished yet.</p>")
		}
		p.raw("\n")
	}
}

func matchTable(p *page, l *layout, rows []gildedhall.MatchSummary, id markup) {
	p.raw(`<table id="` + id + `">` + "\n" +
		`<thead><tr><th scope="col">Match</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Players</th><th scope="col">Turn</th><th scope="col">Deadline</th><th scope="col">Pool</th><th scope="col">Winner</th></tr></thead>` +
		"\n<tbody>\n")
	for _, m := range rows {
		p.raw(`<tr data-match="`)
		p.text(m.ID)
		p.raw(`"><th scope="row"><a href="`)
		p.text(gameURL(l.Game.ID, "matches", m.ID))
		p.raw(`">`)
		p.text(m.ID)
		p.raw(`</a></th><td>`)
		p.text(m.Kind)
		p.raw(`</td><td>`)
		p.text(m.Status)
		if m.Phase != "" {
			p.text(" (" + m.Phase + ")")
		}
		p.raw(`</td><td>`)
		if m.Entrants != 0 {
			p.num(m.Entrants)
			p.raw(" entrants")
		} else {
			p.players(l, m.Players)
		}
		p.raw(`</td><td>`)
		if m.Turn != "" {
			p.player(l, m.Turn)
		} else {
			p.raw("—")
		}
		p.raw(`</td><td>`)
		p.whenp(m.Deadline)
		p.raw(`</td><td>`)
		p.num(m.Pool)
		p.raw(`</td><td>`)
		if m.Winner != "" {
			p.player(l, m.Winner)
		} else {
			p.raw("—")
		}
		p.raw("</td></tr>\n")
	}
	p.raw("</tbody>\n</table>")
}

func matchContent(l *layout, d matchData) content {
	return func(p *page) {
		m, r := d.M, d.Replay
		p.raw("\n<h1>")
		p.text(l.Title)
		p.raw("</h1>\n<dl class=\"facts\" id=\"match-facts\">\n<dt>Kind</dt><dd>")
		p.text(m.Kind)
		p.raw("</dd>\n<dt>Status</dt><dd id=\"match-status\" data-status=\"")
		p.text(m.Status)
		p.raw(`">`)
		p.text(m.Status)
		if m.Phase != "" && m.Phase != m.Status {
			p.text(" (" + m.Phase + ")")
		}
		p.raw("</dd>\n<dt>Period</dt><dd>")
		p.text(m.Period)
		p.raw("</dd>\n<dt>Requested</dt><dd>")
		p.when(m.CreatedAt)
		if m.RequestedBy != "" {
			p.raw(" by ")
			p.player(l, m.RequestedBy)
		}
		p.raw("</dd>\n")
		if len(m.WaitingFor) > 0 {
			p.raw("<dt>Waiting for answers from</dt><dd>")
			p.players(l, m.WaitingFor)
			p.raw("</dd>")
		}
		p.raw("\n")
		if m.StartsAt != nil {
			p.raw("<dt>Starts</dt><dd>")
			p.when(*m.StartsAt)
			p.raw("</dd>")
		}
		p.raw("\n<dt>Started</dt><dd>")
		p.whenp(m.StartedAt)
		p.raw("</dd>\n")
		if m.EndedAt != nil {
			p.raw("<dt>Ended</dt><dd>")
			p.when(*m.EndedAt)
			p.raw("</dd>")
		}
		p.raw("\n")
		if m.CancelReason != "" {
			p.raw("<dt>Cancelled</dt><dd>")
			p.text(m.CancelReason)
			if m.CancelledBy != "" {
				p.raw(" (")
				p.player(l, m.CancelledBy)
				p.raw(")")
			}
			p.raw("</dd>")
		}
		p.raw("\n<dt>Turn</dt><dd id=\"turn\">")
		if m.Turn != "" {
			p.player(l, m.Turn)
			if m.TurnStart != nil {
				p.raw(" since ")
				p.when(*m.TurnStart)
			}
		} else {
			p.raw("—")
		}
		p.raw("</dd>\n<dt>Waiting on</dt><dd id=\"movers\">")
		if len(m.Movers) > 0 {
			p.players(l, m.Movers)
		} else {
			p.raw("nobody")
		}
		p.raw("</dd>\n<dt>Deadline</dt><dd id=\"deadline\">")
		p.whenp(m.Deadline)
		if m.Overdue {
			p.raw(" (passed: the scheduler is about to act)")
		}
		p.raw("</dd>\n")
		if pd := m.Pending; pd != nil {
			p.raw("<dt>Pending choice</dt><dd>")
			p.text(pd.Kind)
			p.raw(" by ")
			p.player(l, pd.Owner)
			if pd.Receiver != "" {
				p.raw(" for ")
				p.player(l, pd.Receiver)
			}
			if pd.Card != "" {
				p.text(" (" + pd.Card + ")")
			}
			p.raw(", due ")
			p.when(pd.Deadline)
			p.raw("</dd>")
		}
		p.raw("\n")
		if m.Constraint != "" {
			p.el("<dt>Colour required</dt><dd>", m.Constraint, "</dd>")
		}
		p.raw("\n")
		if m.Entrants != 0 {
			p.raw(`<dt>Entrants</dt><dd id="entrants">`)
			p.num(m.Entrants)
			p.raw(" engaged; ")
			p.num(m.Waiting)
			p.raw(" still to select; the seated are listed below</dd>")
		}
		p.raw("\n<dt>Pool</dt><dd id=\"pool\">")
		p.text(game.Count(m.Pool, "Chip", "Chips"))
		if b := m.Betting; b != nil && b.Level != 0 {
			p.raw(" (level ")
			p.num(b.Level)
			if b.Final {
				p.raw(", final")
			}
			p.raw(")")
		}
		p.raw("</dd>\n<dt>Winner</dt><dd id=\"match-winner\">")
		if m.Winner != "" {
			p.player(l, m.Winner)
		} else {
			p.raw("—")
		}
		if m.EndReason != "" {
			p.text(" (" + m.EndReason + ")")
		}
		p.raw("</dd>\n")
		if len(m.Settlement) > 0 {
			p.raw("<dt>Settlement</dt><dd><ul>")
			for _, s := range m.Settlement {
				p.raw("<li>")
				p.num(s.Chips)
				p.raw(" Chips to ")
				p.player(l, s.To)
				p.text(" (" + s.Reason + ")")
				p.raw("</li>")
			}
			p.raw("</ul></dd>")
		}
		p.raw("\n")
		if rw := m.Reward; rw != nil {
			p.raw("<dt>Battle reward</dt><dd>")
			p.text(rw.Kind)
			if rw.Vertebrae != 0 {
				p.raw(": ")
				p.num(rw.Vertebrae)
				p.raw(" Vertebrae")
			}
			if rw.Chips != 0 {
				p.raw(": ")
				p.text(game.Count(rw.Chips, "Chip", "Chips"))
			}
			for _, c := range rw.Cards {
				p.raw(" ")
				p.text(c.Name)
				if c.Holo {
					p.raw(" (holographic)")
				}
			}
			p.raw("</dd>")
		}
		p.raw("\n</dl>\n<h2 id=\"hands-h\">Participants and hands</h2>\n")
		if len(m.Participants) > 0 {
			p.raw("<table id=\"participants\">\n" +
				`<thead><tr><th scope="col">Participant</th><th scope="col">Status</th><th scope="col">Bet</th><th scope="col">Deck</th><th scope="col">Hand</th></tr></thead>` +
				"\n<tbody>\n")
			for _, pt := range m.Participants {
				p.raw(`<tr data-participant="`)
				p.text(pt.ID)
				p.raw(`"><th scope="row">`)
				p.player(l, pt.ID)
				p.raw(`</th><td>`)
				p.text(pt.Status)
				if pt.Consented {
					p.raw(", consents to end")
				}
				p.raw(`</td><td>`)
				p.num(pt.Bet)
				p.raw(`</td><td>`)
				p.num(pt.DeckSize)
				p.raw(` cards</td><td>`)
				switch {
				case pt.Hidden && pt.Selected:
					p.raw(`<span data-hidden="true">Selected; hidden until the hands are revealed</span>`)
				case pt.Hidden:
					p.raw(`<span data-hidden="true">Not selected yet</span>`)
				default:
					p.raw(`<ul class="hand" data-hand-size="`)
					p.num(pt.HandSize)
					p.raw(`">`)
					for _, c := range pt.Hand {
						p.raw("<li>")
						p.card(c, false, `width="60" height="84" loading="lazy"`)
						p.raw("</li>")
					}
					if len(pt.Hand) == 0 {
						p.raw("<li>empty</li>")
					}
					p.raw("</ul>")
				}
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody>\n</table>")
		} else {
			p.raw("<p>The match has not started.</p>")
		}
		p.raw("\n<h2 id=\"pile-h\">Pile</h2>\n")
		if len(m.Pile) > 0 {
			p.raw(`<p id="pile" data-pile-size="`)
			p.num(len(m.Pile))
			p.raw(`">`)
			p.num(len(m.Pile))
			p.raw(" cards, oldest first: ")
			p.join(m.Pile)
			p.raw(".</p>\n<figure class=\"top\">")
			p.card(m.Top, false, `width="120" height="168"`)
			p.el("<figcaption>Top of the pile: ", m.Top, "</figcaption></figure>")
		} else {
			p.raw(`<p id="pile" data-pile-size="0">Empty.</p>`)
		}
		p.raw("\n<h2 id=\"replay-h\">Replay</h2>\n")
		if len(r.Log) > 0 {
			p.raw("<p>Each move and timeout in order")
			if r.StartedAt != nil {
				p.raw(", from the start at ")
				p.when(*r.StartedAt)
			}
			p.raw(", rebuilt from the log")
			if !r.Consistent {
				p.el(` <strong id="replay-problem">up to a problem: `, r.Problem, "</strong>")
			}
			p.raw(". Link to a step with its number.</p>\n" +
				"<div id=\"replay-controls\" class=\"replay-controls\" hidden></div>\n" +
				"<section id=\"replay-board\" class=\"replay-board\" aria-labelledby=\"replay-board-h\" hidden>\n" +
				"<h3 id=\"replay-board-h\">The match after step <span id=\"board-step\"></span></h3>\n" +
				"<p id=\"board-status\"></p>\n<div id=\"board-hands\" class=\"board-hands\"></div>\n" +
				"<div id=\"board-pile\" class=\"board-pile\"></div>\n</section>\n" +
				`<script type="application/json" id="replay-data">`)
			p.json(d.Board)
			p.raw("</script>\n<ol id=\"replay\" class=\"replay\" aria-labelledby=\"replay-h\">\n")
			for i, e := range r.Log {
				step := i + 1
				p.raw(`<li id="step-`)
				p.num(step)
				p.raw(`" data-step="`)
				p.num(step)
				p.raw(`"`)
				if e.Timeout {
					p.raw(` data-timeout="true"`)
				}
				p.raw(`><a href="#step-`)
				p.num(step)
				p.raw(`" class="step-link">Step `)
				p.num(step)
				p.raw(`</a> `)
				p.when(e.At)
				p.raw(": ")
				p.text(moveText(l, e))
				if e.Move != nil {
					for _, c := range moveCards(e.Move) {
						p.raw(` <img class="move-card" src="`)
						p.text(cardURL(c, false))
						p.raw(`" alt="`)
						p.text(cardAlt(c, false))
						p.raw(`" width="30" height="42" loading="lazy">`)
					}
				}
				p.raw("</li>\n")
			}
			p.raw("</ol>\n\n")
		} else {
			p.raw("<p id=\"replay-empty\">No moves yet.</p>\n")
		}
		if len(r.Decks) > 0 {
			p.raw("<details><summary>Decks at the start (they never change during a match)</summary><ul>")
			for _, dk := range r.Decks {
				p.raw("<li>")
				p.player(l, dk.ID)
				p.raw(": ")
				p.join(dk.Deck)
				p.raw("</li>")
			}
			p.raw("</ul></details>")
		}
		p.raw("\n")
	}
}

// json writes v as JSON for a <script type="application/json"> element:
// json.Marshal escapes <, > and &, so no "</script" can end it early.
func (p *page) json(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only plain data reaches here: a failure is a programming error
		// the page shows as an empty payload rather than half a document.
		b = []byte("null")
	}
	p.b.Write(b)
}

// items writes what one side of a trade gives.
func (p *page) items(it economy.Items) {
	n := 0
	sep := func() {
		if n > 0 {
			p.raw(", ")
		}
		n++
	}
	if it.Vertebrae != 0 {
		sep()
		p.num(it.Vertebrae)
		p.raw(" Vertebrae")
	}
	if it.Chips != 0 {
		sep()
		p.text(game.Count(it.Chips, "Chip", "Chips"))
	}
	if len(it.Cards) > 0 {
		sep()
		p.raw("cards ")
		p.join(it.Cards)
	}
	if len(it.Packs) > 0 {
		sep()
		p.raw("packs ")
		p.join(it.Packs)
	}
	if n == 0 {
		p.raw("nothing")
	}
}

func tradesContent(l *layout, d tradesData) content {
	return func(p *page) {
		p.raw("\n<h1>Trades</h1>\n")
		if len(d.Trades) == 0 {
			p.raw("<p>No trade has been offered yet.</p>\n")
			return
		}
		p.raw("<table id=\"trades\">\n<caption>Trade offers, newest first</caption>\n" +
			`<thead><tr><th scope="col">Trade</th><th scope="col">From</th><th scope="col">Gives</th><th scope="col">To</th><th scope="col">Gives back</th><th scope="col">Status</th><th scope="col">Offered</th><th scope="col">Expires</th><th scope="col">Closed</th></tr></thead>` +
			"\n<tbody>\n")
		for _, t := range d.Trades {
			p.raw(`<tr id="trade-`)
			p.text(t.ID)
			p.raw(`" data-trade="`)
			p.text(t.ID)
			p.raw(`" data-status="`)
			p.text(t.Status)
			p.raw(`"><th scope="row">`)
			p.text(t.ID)
			if t.Note != "" {
				p.raw("<br><small>")
				p.short(120, t.Note)
				p.raw("</small>")
			}
			p.raw("</th><td>")
			p.player(l, t.From)
			p.raw("</td><td>")
			p.items(t.Give)
			p.raw("</td><td>")
			p.player(l, t.To)
			p.raw("</td><td>")
			p.items(t.Take)
			p.raw("</td><td>")
			p.text(t.Status)
			p.raw("</td><td>")
			p.when(t.CreatedAt)
			p.raw("</td><td>")
			p.when(t.ExpiresAt)
			p.raw("</td><td>")
			p.when(t.ClosedAt)
			if t.ClosedBy != "" {
				p.raw(" by ")
				p.player(l, t.ClosedBy)
			}
			p.raw("</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n")
		writePager(p, d.Pager, "Trades")
		p.raw("\n\n")
	}
}

func proposalsContent(l *layout, d proposalsData) content {
	return func(p *page) {
		p.raw("\n<h1>Proposals</h1>\n<h2 id=\"open-h\">Open</h2>\n")
		for _, pr := range d.Open {
			proposal(p, l, pr)
		}
		if len(d.Open) == 0 {
			p.raw("<p>No proposal is open.</p>")
		}
		p.raw("\n<h2 id=\"closed-h\">Decided</h2>\n")
		for _, pr := range d.Closed {
			proposal(p, l, pr)
		}
		if len(d.Closed) == 0 {
			p.raw("<p>No proposal has been decided yet.</p>")
		}
		p.raw("\n")
		writePager(p, d.Pager, "Decided proposals")
		p.raw("\n")
	}
}

// votes writes a tally's counts: "👍 3 for · 👎 1 against".
func (p *page) votes(forN, against int) {
	p.raw(`<span>👍 `)
	p.num(forN)
	p.raw(` for</span> · <span>👎 `)
	p.num(against)
	p.raw(` against</span>`)
}

func proposal(p *page, l *layout, pr game.ProposalView) {
	p.raw(`<article class="proposal" id="proposal-`)
	p.text(pr.ID)
	p.raw(`" data-proposal="`)
	p.text(pr.ID)
	p.raw(`" data-status="`)
	p.text(string(pr.Status))
	p.raw("\">\n<h3>")
	if pr.Title != "" {
		p.text(pr.Title)
	} else {
		p.text("Proposal " + pr.ID)
	}
	p.raw("</h3>\n<dl class=\"facts\">\n<dt>By</dt><dd>")
	p.player(l, pr.Author)
	p.raw(", ")
	p.when(pr.CreatedAt)
	p.raw("</dd>\n<dt>Class</dt><dd>")
	p.text(string(pr.Class))
	p.raw("</dd>\n<dt>Status</dt><dd>")
	p.text(string(pr.Status))
	if !pr.ClosedAt.IsZero() {
		p.raw(" on ")
		p.when(pr.ClosedAt)
	}
	p.raw("</dd>\n<dt>Voting</dt><dd>from ")
	p.when(pr.VotingStart)
	p.raw(" until ")
	p.when(pr.VotingEnd)
	p.raw("</dd>\n")
	if v := pr.Live; v != nil {
		p.raw(`<dt>Votes now</dt><dd class="votes" data-for="`)
		p.num(v.For)
		p.raw(`" data-against="`)
		p.num(v.Against)
		p.raw(`">`)
		p.votes(v.For, v.Against)
		if v.UnclearCount > 0 {
			p.raw(" · ")
			p.num(v.UnclearCount)
			p.raw(" unclear")
		}
		if v.Adopted {
			p.raw(" · would pass")
		} else {
			p.raw(" · would fail")
		}
		p.raw("</dd>")
	}
	p.raw("\n")
	if pr.LiveError != "" {
		p.el("<dt>Votes now</dt><dd>Not available: ", pr.LiveError, "</dd>")
	}
	p.raw("\n")
	if v := pr.Result; v != nil {
		p.raw(`<dt>Result</dt><dd class="votes" data-for="`)
		p.num(v.For)
		p.raw(`" data-against="`)
		p.num(v.Against)
		p.raw(`">`)
		p.votes(v.For, v.Against)
		if v.Adopted {
			p.raw(": adopted")
		} else {
			p.raw(": not adopted")
		}
		if v.Reason != "" {
			p.text(" (" + v.Reason + ")")
		}
		p.raw("</dd>")
	}
	p.raw("\n")
	if pr.RulesetVersion != 0 {
		p.raw("<dt>Ruleset version</dt><dd>")
		p.num(pr.RulesetVersion)
		p.raw("</dd>")
	}
	p.raw("\n")
	if pr.AmendmentError != "" {
		p.el("<dt>Amendment</dt><dd>Not applied: ", pr.AmendmentError, "</dd>")
	}
	p.raw("\n</dl>\n")
	if pr.Text != "" {
		p.raw("<blockquote><p>")
		p.short(1500, pr.Text)
		p.raw("</p></blockquote>")
	}
	p.raw("\n")
	if pr.Summary != "" {
		p.raw(`<p class="amendment">Ruleset change: `)
		p.short(500, pr.Summary)
		p.raw("</p>")
	} else if len(pr.Amendment) > 0 {
		p.raw(`<p class="amendment">It changes the ruleset.</p>`)
	}
	p.raw("\n</article>\n")
}

func judgeContent(l *layout, d judgeData) content {
	return func(p *page) {
		p.raw("\n<h1>The Judge</h1>\n<p id=\"judge\">")
		if d.Judge.Judge != "" {
			p.raw("The Judge is ")
			p.player(l, d.Judge.Judge)
			p.raw(", since ")
			p.when(d.Judge.Since)
			p.raw(".")
		} else {
			p.raw("There is no Judge.")
		}
		if a := d.Judge.RemovalAssents; len(a) > 0 {
			p.raw(" Assenting to their removal: ")
			p.players(l, a)
			p.raw(" (two remove them).")
		}
		p.raw("</p>\n<h2 id=\"queue-h\">Queue</h2>\n")
		if len(d.Queue) > 0 {
			p.raw("<table id=\"queue\">\n<caption>Requests for justice waiting for a ruling, oldest first</caption>\n" +
				`<thead><tr><th scope="col">Request</th><th scope="col">By</th><th scope="col">Kind</th><th scope="col">Text</th><th scope="col">Made</th></tr></thead>` +
				"\n<tbody>\n")
			for _, q := range d.Queue {
				rq := q.Request
				p.raw(`<tr data-request="`)
				p.text(rq.ID)
				p.raw(`"><th scope="row">`)
				p.text(rq.ID)
				p.raw("</th><td>")
				p.player(l, rq.Author)
				p.raw("</td><td>")
				p.text(string(rq.Kind))
				p.raw("</td><td>")
				p.short(500, rq.Text)
				p.raw("</td><td>")
				p.when(rq.CreatedAt)
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody>\n</table>")
		} else {
			p.raw("<p>The queue is empty.</p>")
		}
		p.raw("\n<h2 id=\"rulings-h\">Rulings and votes of confidence</h2>\n")
		if len(d.Rulings) > 0 {
			p.raw("<table id=\"rulings\">\n<caption>Rulings, newest first</caption>\n" +
				`<thead><tr><th scope="col">Ruling</th><th scope="col">Request</th><th scope="col">Answer</th><th scope="col">Judge</th><th scope="col">Made</th><th scope="col">Standing</th><th scope="col">Confidence vote</th></tr></thead>` +
				"\n<tbody>\n")
			for _, r := range d.Rulings {
				p.raw(`<tr id="ruling-`)
				p.text(r.ID)
				p.raw(`" data-ruling="`)
				p.text(r.ID)
				p.raw(`"><th scope="row">`)
				p.text(r.ID)
				p.raw("</th><td>")
				p.text(string(r.Kind))
				p.raw(" by ")
				p.player(l, r.Requester)
				p.raw(": ")
				p.short(300, r.Text)
				p.raw(`</td><td data-answer="`)
				p.text(r.Answer)
				p.raw(`">`)
				p.short(500, r.Answer)
				p.raw("</td><td>")
				p.player(l, r.Judge)
				p.raw("</td><td>")
				p.when(r.At)
				p.raw("</td><td>")
				if r.Overturned {
					p.raw("Overturned ")
					p.when(r.OverturnedAt)
					p.text(" (" + r.OverturnedBy + ")")
					if r.NoBearing {
						p.raw("; no bearing")
					}
				} else {
					p.raw("Stands")
				}
				p.raw("</td><td>")
				if c := r.Confidence; c != nil {
					p.raw(`<span data-confidence="`)
					p.text(c.Status)
					p.raw(`">`)
					p.text(c.Status)
					p.raw(", opened by ")
					p.player(l, c.OpenedBy)
					p.raw(" ")
					p.when(c.OpenedAt)
					p.raw(", ends ")
					p.when(c.EndsAt)
					if res := c.Result; res != nil {
						p.raw(": 👍 ")
						p.num(res.Affirm)
						p.raw(" affirm · 👎 ")
						p.num(res.Overturn)
						p.raw(" overturn")
						if res.Overturned {
							p.raw(", overturned")
						}
					}
					p.raw("</span>")
				} else {
					p.raw("—")
				}
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody>\n</table>\n")
			writePager(p, d.Pager, "Rulings")
		} else {
			p.raw("<p>No ruling has been made yet.</p>")
		}
		p.raw("\n")
		election(p, l, d.Candidacies)
		p.raw("\n")
	}
}

// election is the judge page's section on this week's election.
func election(p *page, l *layout, c game.CandidaciesView) {
	p.raw(`<h2 id="election-h">Election of week `)
	p.text(c.Week)
	p.raw("</h2>\n<p id=\"election\" data-status=\"")
	p.text(c.Status)
	p.raw(`">`)
	switch c.Status {
	case "none":
		p.raw("Nobody stands for Judge this week.")
	case "held":
		p.raw("Held at ")
		p.when(c.EndsAt)
		p.raw(".")
	default:
		p.raw("Held when the week ends, ")
		p.when(c.EndsAt)
		p.raw(".")
	}
	if c.LiveError != "" {
		p.text(" Live standings are not available: " + c.LiveError)
	}
	p.raw("</p>\n")
	if len(c.Candidacies) == 0 {
		return
	}
	st := c.Live
	if c.Result != nil {
		st = c.Result
	}
	p.raw("<table id=\"candidacies\">\n" +
		`<thead><tr><th scope="col">Candidate</th><th scope="col">Standing since</th><th scope="col">👍</th><th scope="col">👎</th><th scope="col">Popular</th></tr></thead>` +
		"\n<tbody>\n")
	for _, cd := range c.Candidacies {
		p.raw(`<tr data-candidacy="`)
		p.text(cd.ID)
		p.raw(`"><th scope="row">`)
		p.player(l, cd.Candidate)
		p.raw("</th><td>")
		p.when(cd.CreatedAt)
		p.raw("</td>")
		found := false
		if st != nil {
			for _, s := range st.Standings {
				if s.Candidacy != cd.ID {
					continue
				}
				found = true
				p.raw("<td>")
				p.num(s.Up)
				p.raw("</td><td>")
				p.num(s.Down)
				p.raw("</td><td>")
				p.raw(yesNo(s.Popular))
				if s.Note != "" {
					p.text(" (" + s.Note + ")")
				}
				p.raw("</td>")
			}
		}
		if !found {
			p.raw("<td>—</td><td>—</td><td>—</td>")
		}
		p.raw("</tr>\n")
	}
	p.raw("</tbody>\n</table>")
	if st != nil {
		p.raw("<p>")
		if st.Judge != "" {
			if c.Result != nil {
				p.raw("Elected")
			} else {
				p.raw("If the week ended now")
			}
			p.raw(": ")
			p.player(l, st.Judge)
			p.raw(".")
		}
		p.raw(" ")
		p.text(st.Reason)
		p.raw("</p>")
	}
}

func logContent(l *layout, d logData) content {
	return func(p *page) {
		logURL := gameURL(l.Game.ID, "log")
		filtered := d.Player != "" || d.Kind != ""
		p.raw("\n<h1>Log</h1>\n<form method=\"get\" action=\"")
		p.text(logURL)
		p.raw("\" class=\"filters\" role=\"search\" aria-label=\"Filter the log\">\n<label for=\"f-player\">Player</label>\n" +
			`<select id="f-player" name="player"><option value="">Everyone</option>`)
		for _, m := range d.FilterPlayers {
			p.raw(`<option value="`)
			p.text(m.ID)
			p.raw(`"`)
			if m.ID == d.Player {
				p.raw(" selected")
			}
			p.raw(">")
			if m.Name != "" {
				p.text(m.Name + " (" + m.ID + ")")
			} else {
				p.text(m.ID)
			}
			p.raw("</option>")
		}
		if d.Player != "" && l.Names[d.Player] == "" {
			p.raw(`<option value="`)
			p.text(d.Player)
			p.raw(`" selected>`)
			p.text(d.Player)
			p.raw("</option>")
		}
		p.raw("</select>\n<label for=\"f-kind\">Kind (command or event)</label>\n<input id=\"f-kind\" name=\"kind\" value=\"")
		p.text(d.Kind)
		p.raw("\" list=\"kinds\" autocomplete=\"off\" spellcheck=\"false\">\n<datalist id=\"kinds\">")
		for _, k := range d.Kinds {
			p.raw(`<option value="`)
			p.text(k)
			p.raw(`"></option>`)
		}
		p.raw("</datalist>\n<button type=\"submit\">Filter</button>\n")
		if filtered {
			p.raw(`<a href="`)
			p.text(logURL)
			p.raw(`">Clear filters</a>`)
		}
		p.raw("\n</form>\n")
		if len(d.Entries) > 0 {
			p.raw("<table id=\"log\">\n<caption>")
			p.num(len(d.Entries))
			p.raw(" entries")
			if d.After != "" {
				p.raw(" (a later page)")
			}
			p.raw(", oldest first")
			if filtered {
				p.raw(", filtered")
			}
			p.raw("</caption>\n" +
				`<thead><tr><th scope="col">When</th><th scope="col">Period</th><th scope="col">Who</th><th scope="col">Command</th><th scope="col">What happened</th><th scope="col">Draws</th></tr></thead>` +
				"\n<tbody>\n")
			for _, e := range d.Entries {
				p.raw(`<tr data-entry="`)
				p.text(e.ID)
				p.raw(`" data-command="`)
				p.text(e.Command)
				p.raw(`"><td>`)
				p.when(e.At)
				p.raw("</td><td>")
				p.text(e.Period)
				p.raw("</td><td>")
				p.who(l, e.Actor)
				p.raw(`</td><th scope="row">`)
				p.text(e.Command)
				p.raw("</th><td>")
				for _, ev := range e.Shown {
					p.raw(`<span class="ev" data-event="`)
					p.text(ev.Type)
					p.raw(`">`)
					p.text(ev.Text)
					p.raw("</span> ")
				}
				if e.More != 0 {
					p.raw(`<span class="ev">and `)
					p.num(e.More)
					p.raw(" more events</span>")
				}
				p.raw("</td><td>")
				if len(e.Draws) > 0 {
					p.num(len(e.Draws))
				}
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody>\n</table>")
		} else {
			p.raw(`<p id="log-empty">No entries`)
			if filtered {
				p.raw(" match these filters")
			}
			p.raw(".</p>")
		}
		p.raw("\n<nav class=\"pager\" aria-label=\"Log pages\"><p>")
		if d.After != "" {
			p.raw(`<a href="`)
			p.text(logURL + query("player", d.Player, "kind", d.Kind))
			p.raw(`" rel="first">First page</a>`)
		}
		p.raw("\n")
		if d.Next != "" {
			p.raw(`<a id="log-next" href="`)
			p.text(logURL + query("player", d.Player, "kind", d.Kind, "after", d.Next))
			p.raw(`" rel="next">Next page</a>`)
		}
		p.raw("</p></nav>\n")
	}
}

func auditContent(l *layout, d auditData) content {
	return func(p *page) {
		auditURL := gameURL(l.Game.ID, "audit")
		rep := d.Report
		p.raw("\n<h1>Randomness audit</h1>\n<p>Every random draw is HMAC-SHA256 of its inputs keyed with the period's secret seed (<code>croupier-draw-v1</code>, specified in the project's <code>docs/randomness.md</code>). Each seed's SHA-256 commitment is published when its period starts; the seed itself only when the period has ended. Anyone can recompute the draws below.</p>\n" +
			"<section aria-labelledby=\"server-h\">\n<h2 id=\"server-h\">The server's check of the whole game</h2>\n<p id=\"server-report\" data-ok=\"")
		p.bool(rep.OK)
		p.raw(`">`)
		p.num(rep.Checked)
		p.raw(" draws checked, ")
		p.num(rep.Pending)
		p.raw(" pending (seed not revealed yet), ")
		p.num(rep.Mismatches)
		p.raw(" not matching")
		if len(rep.BadSeeds) > 0 {
			p.raw("; seeds not matching their commitment: ")
			p.join(rep.BadSeeds)
		}
		p.raw(".</p>\n</section>\n<section aria-labelledby=\"seeds-h\">\n<h2 id=\"seeds-h\">Seeds</h2>\n<table id=\"seeds\">\n" +
			`<thead><tr><th scope="col">Period</th><th scope="col">Commitment (SHA-256 of the seed)</th><th scope="col">Committed</th><th scope="col">Revealed</th><th scope="col">Seed</th></tr></thead>` +
			"\n<tbody>\n")
		for _, s := range d.Seeds {
			p.raw(`<tr data-period="`)
			p.text(s.Period)
			p.raw(`"><th scope="row">`)
			p.text(s.Period)
			p.raw(`</th><td><code class="hex">`)
			p.text(s.Commitment)
			p.raw("</code></td><td>")
			p.when(s.CommittedAt)
			p.raw("</td><td>")
			p.whenp(s.RevealedAt)
			p.raw("</td><td>")
			if s.Seed != "" {
				p.el(`<code class="hex" data-seed>`, s.Seed, "</code>")
			} else {
				p.raw("Secret until the period ends")
			}
			p.raw("</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n</section>\n<section aria-labelledby=\"draws-h\">\n<h2 id=\"draws-h\">Draws</h2>\n" +
			"<p><button type=\"button\" id=\"audit-run\" disabled>Recompute these draws in this browser</button> <span id=\"audit-result\" role=\"status\" aria-live=\"polite\">Needs JavaScript and a secure (HTTPS) page: the button uses the browser's WebCrypto.</span></p>\n")
		if len(d.Draws) > 0 {
			p.raw("<table id=\"draws\">\n<caption>")
			p.num(len(d.Draws))
			p.el(" draws of game <code>", l.Game.ID, "</code>")
			if d.After != "" {
				p.raw(" (a later page)")
			}
			p.raw(", in log order</caption>\n" +
				`<thead><tr><th scope="col">#</th><th scope="col">Period</th><th scope="col">Command</th><th scope="col">Index</th><th scope="col">Purpose</th><th scope="col">n</th><th scope="col">Value</th><th scope="col">Check</th></tr></thead>` +
				"\n<tbody>\n")
			for i, dr := range d.Draws {
				p.raw(`<tr data-draw-index="`)
				p.num(i)
				p.raw(`"><td>`)
				p.num(i)
				p.raw("</td><td>")
				p.text(dr.Period)
				p.raw(`</td><td><code title="`)
				p.text(dr.Command)
				p.raw(`">`)
				p.short(12, dr.Command)
				p.raw("</code></td><td>")
				p.num(dr.Index)
				p.raw("</td><td>")
				p.text(dr.Purpose)
				p.raw("</td><td>")
				p.text(dr.N)
				p.raw("</td><td>")
				p.text(dr.Value)
				p.raw("</td><td class=\"check\"></td></tr>\n")
			}
			p.raw("</tbody>\n</table>")
		} else {
			p.raw(`<p id="no-draws">No draws`)
			if d.After != "" {
				p.raw(" on this page")
			}
			p.raw(".</p>")
		}
		p.raw("\n<nav class=\"pager\" aria-label=\"Draw pages\"><p>")
		if d.After != "" {
			p.raw(`<a href="`)
			p.text(auditURL)
			p.raw(`" rel="first">First page</a>`)
		}
		p.raw("\n")
		if d.Next != "" {
			p.raw(`<a id="audit-next" href="`)
			p.text(auditURL + query("after", d.Next))
			p.raw(`" rel="next">Next page</a>`)
		}
		p.raw("</p></nav>\n</section>\n<script type=\"application/json\" id=\"audit-data\">")
		p.json(d.Payload)
		p.raw("</script>\n")
	}
}

func obeliskContent(l *layout, d obeliskData) content {
	return func(p *page) {
		o := d.O
		p.raw("\n<h1>The Obelisk</h1>\n<dl class=\"facts\" id=\"obelisk\">\n<dt>Distance from the Gates</dt><dd id=\"distance\" data-km=\"")
		p.num(o.Distance)
		p.raw(`">`)
		p.num(o.Distance)
		p.raw(" km</dd>\n<dt>Cuts</dt><dd id=\"cuts\">")
		p.num(o.Cuts)
		p.raw("</dd>\n<dt>Season</dt><dd id=\"season\">")
		p.text(o.Season)
		p.raw("</dd>\n<dt>Observation</dt><dd id=\"observation\">")
		if o.Observed {
			p.raw("made this week by ")
			if o.LastObservation != nil {
				p.player(l, o.LastObservation.Player)
			}
			p.raw("; the next from ")
			p.when(o.NextObservation)
		} else {
			p.raw("not yet made this week: the first player to observe makes it")
		}
		p.raw("</dd>\n</dl>\n<h2 id=\"grebes-h\">Grebes</h2>\n")
		if len(o.Grebes) > 0 {
			p.raw(`<ul id="grebes" aria-labelledby="grebes-h">`)
			for _, g := range o.Grebes {
				p.raw(`<li data-grebe="`)
				p.num(g.Number)
				p.raw(`" data-aids="`)
				p.text(g.Aids)
				p.raw(`">Grebe `)
				p.num(g.Number)
				p.raw(" aids ")
				if g.Aids != "" {
					p.player(l, g.Aids)
				} else {
					p.raw("the Obelisk")
				}
				p.raw("</li>")
			}
			p.raw("</ul>")
		} else {
			p.raw("<p>No Grebe exists.</p>")
		}
		p.raw("\n<h2 id=\"rituals-h\">Ritual types</h2>\n")
		if len(o.RitualTypes) > 0 {
			p.raw(`<ul id="ritual-types" aria-labelledby="rituals-h">`)
			for _, rt := range o.RitualTypes {
				p.raw(`<li data-ritual="`)
				p.text(rt.ID)
				p.raw(`">`)
				p.text(rt.Name + ": costs " + rt.Cost.String())
				p.raw("</li>")
			}
			p.raw("</ul>")
		} else {
			p.raw("<p>None yet: an amendment or an adopted proposal adds them.</p>")
		}
		p.raw("\n<h2 id=\"players-h\">Players</h2>\n<table id=\"obelisk-players\" aria-labelledby=\"players-h\">\n<thead><tr><th scope=\"col\">Player</th>")
		for _, c := range d.Components {
			p.raw(`<th scope="col" title="`)
			p.text(c.Name)
			p.raw(`">`)
			p.text(c.Emoji)
			p.raw("</th>")
		}
		p.raw("<th scope=\"col\">Experience</th><th scope=\"col\">Banishment</th></tr></thead>\n<tbody>\n")
		for _, pl := range d.Players {
			p.raw(`<tr data-player="`)
			p.text(pl.ID)
			p.raw(`"><th scope="row">`)
			p.player(l, pl.ID)
			p.raw("</th>")
			for _, c := range d.Components {
				p.raw(`<td data-component="`)
				p.text(c.ID)
				p.raw(`">`)
				p.num(pl.State.Components.Get(c.ID))
				p.raw("</td>")
			}
			p.el("<td data-experience>", pl.Experience, "</td>")
			if b := pl.State.Banishment; b != nil {
				p.raw(`<td data-banished="true">since `)
				p.when(b.Since)
				p.text(" for " + game.Duration(b.Duration.Std()))
			} else {
				p.raw(`<td data-banished="false">—`)
			}
			p.raw("</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n<h2 id=\"gatherings-h\">Gatherings</h2>\n")
		if len(d.Gatherings) > 0 {
			p.raw("<table id=\"gatherings\" aria-labelledby=\"gatherings-h\">\n" +
				`<thead><tr><th scope="col">Gathering</th><th scope="col">Ritual</th><th scope="col">Starter</th><th scope="col">Cost</th><th scope="col">Contributions</th><th scope="col">Status</th><th scope="col">Ends</th></tr></thead>` +
				"\n<tbody>\n")
			for _, g := range d.Gatherings {
				p.raw(`<tr data-gathering="`)
				p.text(g.ID)
				p.raw(`" data-status="`)
				p.text(g.Status)
				p.raw(`"><th scope="row">`)
				p.text(g.ID)
				p.raw("</th><td>")
				p.text(g.Ritual.Name)
				p.raw("</td><td>")
				p.player(l, g.Starter)
				p.raw("</td><td>")
				p.text(g.Ritual.Cost.String())
				p.raw("</td><td><ul>")
				for _, e := range g.Ledger {
					p.raw(`<li data-entry="`)
					p.text(e.Kind)
					p.raw(`">`)
					p.text(e.Kind + " " + componentAmount(e.Component, e.Amount) + " · ")
					p.player(l, e.Player)
					p.raw("</li>")
				}
				p.raw("</ul></td><td>")
				p.text(g.Status)
				if g.Failing {
					p.raw(" (failing)")
				}
				p.raw("</td><td>")
				p.when(g.Ends)
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody>\n</table>")
		} else {
			p.raw("<p>No Gathering yet.</p>")
		}
		p.raw("\n")
	}
}

func turnsContent(l *layout, d turnsData) content {
	return func(p *page) {
		s := d.Status
		p.raw("\n<h1>Turns, points and rules</h1>\n<p id=\"turn\" data-turn=\"")
		p.text(s.Turn.ID)
		p.raw(`" data-part="`)
		p.text(s.Turn.Part)
		p.raw(`">Round `)
		p.num(s.Round.Number)
		if s.Turn.ID != "" {
			p.text(", turn " + s.Turn.ID)
		}
		p.text(" (" + partText(s.Turn.Part) + ").")
		p.raw("\n")
		if s.Round.Over {
			p.raw("The round is over: ")
			p.player(l, s.Round.Winner)
			p.raw(" won it on ")
			p.when(s.Round.EndedAt)
			p.raw(".")
		} else {
			if n := s.Next; n != nil {
				p.text("Next: " + nextText(n.Kind, n.Turn, n.Case))
				p.raw(" at ")
				p.when(n.At)
				p.el(`, in <span id="countdown">`, s.In, "</span>.")
			}
			p.text(" Proposals are adopted by " + s.Mode + ".")
		}
		p.raw("</p>\n<h2 id=\"points-h\">Points</h2>\n")
		if len(s.Players) > 0 {
			p.raw("<table id=\"points\">\n<caption>Players by points this round</caption>\n" +
				`<thead><tr><th scope="col">Player</th><th scope="col">Points</th><th scope="col">Active</th><th scope="col">Judicial Pool</th></tr></thead>` +
				"\n<tbody>\n")
			for _, ps := range s.Players {
				p.raw(`<tr data-player="`)
				p.text(ps.Player)
				p.raw(`"><th scope="row">`)
				p.player(l, ps.Player)
				p.raw("</th><td>")
				p.num(ps.Points)
				p.raw("</td><td>")
				if ps.Active {
					p.raw("active")
				} else {
					p.raw("inactive")
				}
				p.raw("</td><td>")
				if ps.InPool {
					p.raw("in the pool")
				} else {
					p.raw("—")
				}
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody>\n</table>")
		} else {
			p.raw("<p>Nobody plays yet.</p>")
		}
		p.raw("\n")
		pool(p, s.Pool)
		p.raw("\n<h2 id=\"proposals-h\">Proposals and votes</h2>\n")
		if len(d.Proposals) > 0 {
			p.raw("<table id=\"turns-proposals\">\n<caption>Rule-change proposals in submission order</caption>\n" +
				`<thead><tr><th scope="col">Proposal</th><th scope="col">By</th><th scope="col">Turn</th><th scope="col">Changes</th><th scope="col">Status</th><th scope="col">For</th><th scope="col">Against</th></tr></thead>` +
				"\n<tbody>\n")
			for _, pr := range d.Proposals {
				p.raw(`<tr id="proposal-`)
				p.text(pr.ID)
				p.raw(`" data-status="`)
				p.text(pr.Status)
				p.raw(`"><th scope="row">`)
				p.text(pr.ID)
				p.raw("</th><td>")
				p.player(l, pr.Proposer)
				p.raw("</td><td>")
				p.text(pr.Turn)
				p.raw("</td><td>")
				for _, c := range pr.Changes {
					p.text(c.Op)
					if c.Rule != 0 {
						p.raw(" ")
						p.num(c.Rule)
					}
					if c.Text != "" {
						p.raw(": ")
						p.short(200, c.Text)
					}
					p.raw("<br>")
				}
				p.text(pr.Summary)
				p.raw("</td><td>")
				p.text(pr.Status)
				if pr.Result != nil {
					p.el("<br><small>", pr.Result.Reason, "</small>")
				} else {
					p.raw(", voting until ")
					p.when(pr.VotingEnds)
				}
				p.raw("</td><td>")
				p.join(pr.VotesFor)
				p.raw("</td><td>")
				p.join(pr.VotesAgainst)
				p.raw("</td></tr>\n")
			}
			p.raw("</tbody>\n</table>")
		} else {
			p.raw("<p>No proposal has been submitted yet.</p>")
		}
		p.raw("\n<h2 id=\"rules-h\">The rules</h2>\n<table id=\"rules\">\n<caption>The numbered rules, with their history</caption>\n" +
			`<thead><tr><th scope="col">Rule</th><th scope="col">Text</th><th scope="col">History</th></tr></thead>` +
			"\n<tbody>\n")
		for _, r := range d.Rules {
			p.raw(`<tr id="rule-`)
			p.num(r.Number)
			p.raw(`"`)
			if r.Repealed {
				p.raw(` data-repealed="true"`)
			}
			p.raw(`><th scope="row">`)
			p.num(r.Number)
			p.raw("</th><td>")
			if r.Repealed {
				p.el("<del>", r.Text, "</del>")
			} else {
				p.text(r.Text)
			}
			p.raw("</td><td>")
			for _, h := range r.History {
				p.text(h.Kind + " ")
				p.when(h.At)
				if h.Proposal != "" {
					p.text(" by proposal " + h.Proposal)
				}
				p.raw("<br>")
			}
			p.raw("</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n")
	}
}

// pool writes the Judicial Pool's members by name.
func pool(p *page, names []string) {
	p.raw(`<p id="pool">Judicial Pool: `)
	if len(names) > 0 {
		p.join(names)
	} else {
		p.raw("nobody")
	}
	p.raw(".</p>")
}

func casesContent(l *layout, d casesData) content {
	return func(p *page) {
		p.raw("\n<h1>Cases</h1>\n")
		pool(p, d.Pool)
		p.raw("\n")
		if len(d.Cases) == 0 {
			p.raw("<p>No Request for Judgment has been filed yet.</p>\n")
			return
		}
		p.raw("<table id=\"cases\">\n<caption>Requests for Judgment by number</caption>\n" +
			`<thead><tr><th scope="col">Case</th><th scope="col">Petitioner</th><th scope="col">Statement</th><th scope="col">Judges</th><th scope="col">Deadlines</th><th scope="col">Rulings</th><th scope="col">Appeals</th></tr></thead>` +
			"\n<tbody>\n")
		for _, c := range d.Cases {
			p.raw(`<tr id="case-`)
			p.num(c.Number)
			p.raw(`" data-ruling="`)
			p.text(c.Ruling)
			p.raw(`"><th scope="row">`)
			p.num(c.Number)
			if c.Paradox {
				p.raw("<br><small>paradox</small>")
			}
			p.raw("</th><td>")
			p.player(l, c.Petitioner)
			p.raw("</td><td>")
			p.short(500, c.Statement)
			if len(c.MentionedNames) > 0 {
				p.raw("<br><small>mentions ")
				p.join(c.MentionedNames)
				p.raw("</small>")
			}
			p.raw("</td>\n<td>")
			for _, a := range c.Appointments {
				if a.Administrator {
					p.raw("the administrator")
				} else {
					p.player(l, a.Judge)
				}
				p.raw(", ")
				p.when(a.At)
				if a.Ended != "" {
					p.text(" (" + a.Ended + ")")
				}
				p.raw("<br>")
			}
			p.raw("</td>\n<td>")
			if c.RuleBy != nil {
				p.raw("recuse by ")
				p.whenp(c.RecuseUntil)
				p.raw(", rule by ")
				p.when(*c.RuleBy)
			} else {
				p.raw("—")
			}
			p.raw("</td>\n<td>")
			for _, r := range c.Rulings {
				p.text(r.Value + " ")
				p.when(r.At)
				if r.Reasons != "" {
					p.raw(": ")
					p.short(300, r.Reasons)
				}
				if r.Appeal != "" {
					p.text(" (appeal " + r.Appeal + ")")
				}
				p.raw("<br>")
			}
			p.raw("</td>\n<td>")
			for _, a := range c.Appeals {
				p.text(a.ID + " by ")
				p.player(l, a.By)
				p.text(" for " + a.Value + ", turn " + a.Turn + ": " + a.Status)
				p.raw("<br>")
			}
			p.raw("</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n")
	}
}
