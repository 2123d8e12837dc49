package tracker

// content writes a page's main element's content.
type content func(p *page)

// navEntry is a game nav link: the section it shows and, for sections
// only some rulesets have, the view that must exist (RULINGS R3).
type navEntry struct {
	section, label string
	optional       bool
}

var nav = []navEntry{
	{"", "Overview", false},
	{"players", "Players", false},
	{"obelisk", "Obelisk", true},
	{"matches", "Matches", true},
	{"trades", "Trades", true},
	{"proposals", "Proposals", true},
	{"judge", "Judge", true},
	{"turns", "Turns", true},
	{"cases", "Cases", true},
	{"log", "Log", false},
	{"audit", "Audit", false},
}

// writeLayout writes the whole document around body: the head, the header
// with the game's nav, the main landmark and the footer.
func writeLayout(p *page, l *layout, body content) {
	p.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	p.text(l.Title)
	if g := l.Game; g != nil {
		p.raw(" · ")
		p.text(g.ID)
	}
	p.raw(" · Croupier tracker</title>\n<link rel=\"stylesheet\" href=\"/tracker/static/tracker.css\">\n")
	for _, s := range l.Scripts {
		p.raw(`<script src="/tracker/static/`)
		p.text(s)
		p.raw("\" defer></script>\n")
	}
	p.raw("</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to content</a>\n<header>\n" +
		`<p class="brand"><a href="/tracker">Croupier tracker</a>`)
	if g := l.Game; g != nil {
		p.raw(` · <a href="`)
		p.text(gameURL(g.ID))
		p.raw(`">`)
		if g.Name != "" {
			p.text(g.Name)
		} else {
			p.text(g.ID)
		}
		p.raw(`</a>`)
	}
	p.raw("</p>\n")
	if g := l.Game; g != nil {
		p.raw("<nav aria-label=\"Game\">\n<ul>\n")
		for _, e := range nav {
			if !e.optional || l.Shows[e.section] {
				current := e.section
				if current == "" {
					current = "overview"
				}
				p.raw(`<li><a href="`)
				if e.section == "" {
					p.text(gameURL(g.ID))
				} else {
					p.text(gameURL(g.ID, e.section))
				}
				p.raw(`"`)
				if l.Section == current {
					p.raw(` aria-current="page"`)
				}
				p.raw(`>`)
				p.text(e.label)
				p.raw(`</a></li>`)
			}
			p.raw("\n")
		}
		p.raw("</ul>\n</nav>")
	}
	p.raw("\n</header>\n<main id=\"main\" tabindex=\"-1\">\n")
	body(p)
	zone := markup("Times are UTC.")
	if p.zone != nil {
		zone = "Times are the game's own, US Central time (CST or CDT)."
	}
	p.raw("\n</main>\n<footer><p>Read-only and public: every page is read from the game engine's state when you load it. " + zone + "</p></footer>\n</body>\n</html>\n")
}

// writePager writes the Newer/Older links of a paged list, when it has
// more than one page.
func writePager(p *page, pg pager, label string) {
	if pg.Pages <= 1 {
		return
	}
	p.raw(`<nav class="pager" aria-label="`)
	p.text(label)
	p.raw(` pages"><p>Rows `)
	p.num(pg.From)
	p.raw("–")
	p.num(pg.To)
	p.raw(" of ")
	p.num(pg.Total)
	p.raw(".\n")
	if n := pg.Prev(); n != 0 {
		p.raw(`<a href="?page=`)
		p.num(n)
		p.raw(`" rel="prev">Newer</a>`)
	}
	p.raw("\n")
	if n := pg.Next(); n != 0 {
		p.raw(`<a href="?page=`)
		p.num(n)
		p.raw(`" rel="next">Older</a>`)
	}
	p.raw("</p></nav>")
}

// message is the body of the error and not-found pages.
func message(h1 markup, id markup, msg string, after markup) content {
	return func(p *page) {
		p.raw("\n<h1>")
		p.raw(h1)
		p.raw("</h1>\n<p")
		p.raw(id)
		p.raw(">")
		p.text(msg)
		p.raw("</p>\n")
		p.raw(after)
	}
}
