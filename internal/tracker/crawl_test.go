package tracker_test

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rulesets/gildedhall"
)

var (
	hrefRe = regexp.MustCompile(`\s(?:href|src)="([^"]*)"`)
	idRe   = regexp.MustCompile(`\sid="([^"]*)"`)
)

// TestLinksResolve crawls the tracker from its start page and the game's
// overview: every same-site link, script, stylesheet and image answers 200,
// and every #fragment names an element of its target page.
func TestLinksResolve(t *testing.T) {
	p := play(t)
	seen := map[string]bool{}
	ids := map[string][]string{} // page -> its element ids
	// The game now and at one past moment, whose pages link to each other
	// (every link of a page of the past keeps its moment). The log's links
	// to other moments are checked to answer, not crawled: each is the
	// whole tracker again.
	moment := pastMoment(t, p)
	queue := []string{"/tracker", gamePath(), gamePath() + "?at=" + url.QueryEscape(moment)}
	elsewhen := map[string]bool{}
	type frag struct{ from, page, id string }
	var frags []frag
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if seen[path] {
			continue
		}
		seen[path] = true
		code, body, h := p.get(path)
		if code != 200 {
			t.Errorf("GET %s: %d", path, code)
			continue
		}
		if !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			continue
		}
		for _, m := range idRe.FindAllStringSubmatch(body, -1) {
			ids[path] = append(ids[path], m[1])
		}
		base, _ := url.Parse(path)
		for _, m := range hrefRe.FindAllStringSubmatch(body, -1) {
			ref, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
			if err != nil {
				t.Errorf("%s links to %q: %v", path, m[1], err)
				continue
			}
			if ref.Host != "" {
				t.Errorf("%s links off-site to %s: the tracker is self-contained", path, m[1])
				continue
			}
			u := base.ResolveReference(ref)
			target := u.Path
			if u.RawQuery != "" {
				target += "?" + u.RawQuery
			}
			if at := u.Query().Get("at"); at != "" && at != moment {
				elsewhen[target] = true
				continue
			}
			if ref.Fragment != "" {
				frags = append(frags, frag{path, target, ref.Fragment})
			}
			if !seen[target] {
				queue = append(queue, target)
			}
		}
		if at := base.Query().Get("at"); at != "" {
			keepsMoment(t, at, body)
		}
	}
	for target := range elsewhen {
		if code, body, _ := p.get(target); code != 200 || !strings.Contains(body, `id="as-of"`) {
			t.Errorf("GET %s: %d, want the game at that moment", target, code)
		}
	}
	// Each entry of the log links to the game just after it.
	for _, e := range logEntries(t, p) {
		if to := atMoment(gamePath(), "after:"+e.ID); !elsewhen[to] && "after:"+e.ID != moment {
			t.Errorf("the log has no link to %s, the game just after its entry %s", to, e.ID)
		}
	}
	for _, f := range frags {
		if !slices.Contains(ids[f.page], f.id) {
			t.Errorf("%s links to %s#%s, which has no element with that id", f.from, f.page, f.id)
		}
	}
	// The crawl reached every kind of page, now and at the moment.
	for _, want := range allPages(p) {
		if !seen[want] {
			t.Errorf("the crawl never reached %s", want)
		}
		if want != "/tracker" && !seen[atMoment(want, moment)] {
			t.Errorf("the crawl never reached %s", atMoment(want, moment))
		}
	}
	t.Logf("%d same-site URLs resolved, %d fragments checked, %d other moments answered", len(seen), len(frags), len(elsewhen))
}

// pastMoment is the moment the crawls read the game at besides now: just
// after the duel's last move, when the game has a finished match and a
// trade but no Judge yet, and its first period has not ended.
func pastMoment(t *testing.T, p *played) string {
	t.Helper()
	last := ""
	for _, e := range logEntries(t, p) {
		if strings.HasPrefix(e.Command, "match-") {
			last = e.ID
		}
	}
	if last == "" {
		t.Fatal("the played game has no match moves")
	}
	return "after:" + last
}

// atMoment is path at moment, as the pages' links write it.
func atMoment(path, moment string) string {
	return path + "?" + url.Values{"at": {moment}}.Encode()
}

// TestPagesAreSmallAndWellFormed plays a long game (hundreds of log
// entries, many draws, trades and matches) and checks each page's HTML
// stays under 100 KB, and every page's structure: balanced tags, one h1,
// headings in order, unique ids, alt text on images, scoped table headers,
// the skip link and the main landmark.
func TestPagesAreSmallAndWellFormed(t *testing.T) {
	p := play(t)
	// Bo joins in; a long stretch of the economy: 250 purchases of random
	// cards (each 2 draws), 40 packs opened, 120 trade offers.
	p.must(gildedhall.On(p.svc).Grant(p.ctx, p.req(admin), gildedhall.Grant{Player: ada, Vertebrae: 9000, Reason: "test"}))
	for i := range 250 {
		p.must(gildedhall.On(p.svc).Purchase(p.ctx, p.req(ada), gildedhall.Purchase{Item: "random-card"}))
		if i < 40 {
			res := decode[gildedhall.PurchaseResult](t, p.must(gildedhall.On(p.svc).Purchase(p.ctx, p.req(ada), gildedhall.Purchase{Item: "deck-pack"})))
			p.must(gildedhall.On(p.svc).Open(p.ctx, p.req(ada), gildedhall.OpenPack{Pack: res.Packs[0].ID}))
		}
	}
	for range 120 {
		p.must(trades.On(p.svc).OfferTrade(p.ctx, p.req(ada), trades.OfferTrade{To: bo, Give: items(1), Take: items(1), Note: strings.Repeat("a long note ", 16)}))
	}
	if n := len(logEntries(t, p)); n < 450 {
		t.Fatalf("only %d log entries: not a big game", n)
	}
	pages := append(allPages(p), gamePath("log")+"?player="+ada, gamePath("log")+"?kind=purchase")
	// Follow the log's and the audit's next links to the end.
	shown := map[string]int{}
	for _, first := range []string{gamePath("log"), gamePath("audit")} {
		next := first
		for i := 0; next != ""; i++ {
			if i > 50 {
				t.Fatalf("%s: more than 50 pages", first)
			}
			body := p.page(next)
			shown[first] += strings.Count(body, "<tr data-entry=") + strings.Count(body, "<tr data-draw-index=")
			if next != first {
				pages = append(pages, next)
			}
			m := regexp.MustCompile(`id="(?:log|audit)-next" href="([^"]+)"`).FindStringSubmatch(body)
			next = ""
			if m != nil {
				next = strings.ReplaceAll(m[1], "&amp;", "&")
			}
		}
	}
	// Following the next links shows every entry and every draw once.
	entries, draws := logEntries(t, p), 0
	for _, e := range entries {
		draws += len(e.Draws)
	}
	if shown[gamePath("log")] != len(entries) || shown[gamePath("audit")] != draws {
		t.Errorf("the log pages show %d entries of %d, the audit pages %d draws of %d", shown[gamePath("log")], len(entries), shown[gamePath("audit")], draws)
	}
	for _, path := range pages {
		body := p.page(path)
		if len(body) >= 100_000 {
			t.Errorf("%s is %d bytes, over 100 KB", path, len(body))
		}
		for _, problem := range structure(body) {
			t.Errorf("%s: %s", path, problem)
		}
	}
	t.Logf("%d pages checked, the largest %s", len(pages), largest(p, pages))
}

func items(v int) economy.Items { return economy.Items{Vertebrae: v} }

func largest(p *played, pages []string) string {
	best, size := "", 0
	for _, path := range pages {
		if n := len(p.page(path)); n > size {
			best, size = path, n
		}
	}
	return fmt.Sprintf("%s at %d bytes", best, size)
}

var (
	tagRe     = regexp.MustCompile(`(?s)<(/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>`)
	headingRe = regexp.MustCompile(`<h([1-6])[\s>]`)
	void      = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
		"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}
	// optional end tags the pages never omit are checked like any other.
)

// structure lists what is wrong with a page's markup.
func structure(body string) []string {
	var out []string
	if !strings.HasPrefix(strings.ToLower(body), "<!doctype html>") { // the doctype is case-insensitive; templ writes it lower-case
		out = append(out, "no <!doctype html>")
	}
	// Script contents are not markup (the audit data is JSON).
	scrubbed := regexp.MustCompile(`(?s)(<script[^>]*>).*?(</script>)`).ReplaceAllString(body, "$1$2")
	var stack []string
	for _, m := range tagRe.FindAllStringSubmatch(scrubbed, -1) {
		closing, name, attrs := m[1] == "/", strings.ToLower(m[2]), m[3]
		switch {
		case void[name]:
			if name == "img" && !strings.Contains(attrs, ` alt="`) {
				out = append(out, "an <img> without alt: "+m[0])
			}
		case closing:
			if len(stack) == 0 || stack[len(stack)-1] != name {
				out = append(out, fmt.Sprintf("</%s> closes %v", name, stack))
				return out
			}
			stack = stack[:len(stack)-1]
		default:
			stack = append(stack, name)
		}
		if name == "th" && !closing && strings.Contains(scrubbed, "<table") && !strings.Contains(attrs, `scope="`) {
			out = append(out, "a <th> without scope: "+m[0])
		}
	}
	if len(stack) > 0 {
		out = append(out, fmt.Sprintf("unclosed %v", stack))
	}
	seen := map[string]bool{}
	for _, m := range idRe.FindAllStringSubmatch(body, -1) {
		if seen[m[1]] {
			out = append(out, "duplicate id "+m[1])
		}
		seen[m[1]] = true
	}
	level := 0
	h1 := 0
	for _, m := range headingRe.FindAllStringSubmatch(body, -1) {
		n := int(m[1][0] - '0')
		if n == 1 {
			h1++
		}
		if n > level+1 {
			out = append(out, fmt.Sprintf("heading h%d after h%d", n, level))
		}
		level = n
	}
	if h1 != 1 {
		out = append(out, fmt.Sprintf("%d h1 headings, want 1", h1))
	}
	for _, want := range []string{`<a class="skip" href="#main">`, `<main id="main"`, `<html lang="en">`, "<title>"} {
		if !strings.Contains(body, want) {
			out = append(out, "missing "+want)
		}
	}
	return out
}
