package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/httpapi"
	"croupier/internal/rulesets"
)

// route is one HttpApi event of a function: "$default" or "METHOD /path".
type route struct {
	fn, dir, key string
	api          string // the ApiId reference
	match        *regexp.Regexp
}

// httpRoutes lists every function's HttpApi events.
func httpRoutes(t *testing.T, doc *yaml.Node) []route {
	var out []route
	for _, e := range entries(get(doc, "Resources")) {
		id, res := e[0].Value, e[1]
		dir, _ := strings.CutPrefix(str(get(res, "Properties", "CodeUri")), "functions/")
		for _, ev := range entries(get(res, "Properties", "Events")) {
			if str(get(ev[1], "Type")) != "HttpApi" {
				continue
			}
			p := get(ev[1], "Properties")
			r := route{fn: id, dir: dir, key: "$default", api: str(get(p, "ApiId"))}
			path, method := str(get(p, "Path")), str(get(p, "Method"))
			if path != "" || method != "" {
				if path == "" || method == "" || method == "ANY" {
					t.Errorf("%s event %s: give both Path and one Method (got %q %q)", id, ev[0].Value, method, path)
					continue
				}
				r.key = strings.ToUpper(method) + " " + path
				r.match = regexp.MustCompile("^" + regexp.MustCompile(`\\\{[^/]+\\\}`).ReplaceAllString(regexp.QuoteMeta(path), `[^/]+`) + "$")
			}
			if got := str(get(p, "PayloadFormatVersion")); got != "2.0" {
				t.Errorf("%s event %s: PayloadFormatVersion %q, want 2.0 (what internal/lambdahttp reads)", id, ev[0].Value, got)
			}
			out = append(out, r)
		}
	}
	return out
}

// checkRoutes checks the HTTP API's routing: one API, one $default
// function, every explicit route one internal/httpapi serves, and every
// sample API event routed to the function whose directory it is in (an
// event for a path another function owns would test the wrong function).
func checkRoutes(t *testing.T, root string, doc *yaml.Node) {
	routes := httpRoutes(t, doc)
	if len(routes) == 0 {
		t.Fatal("no HttpApi events")
	}
	var defaults []string
	for _, r := range routes {
		if r.api != routes[0].api {
			t.Errorf("%s %s is on API %q, %s on %q: one HTTP API serves every route", r.fn, r.key, r.api, routes[0].fn, routes[0].api)
		}
		if r.match == nil {
			defaults = append(defaults, r.fn)
		}
	}
	if len(defaults) != 1 {
		t.Errorf("functions with the $default route: %v, want exactly one", defaults)
	}
	// The API's router answers 401 missing_api_key on a route it serves
	// (no key sent), 404 or 405 on one it does not; it reaches no store.
	api := httpapi.New(rulesets.New(nil, clock.Real{}), httpapi.Config{Keys: credential.Keys{credential.AnyKey("k")}})
	for _, r := range routes {
		if r.match == nil || !servesAPI(t, root, r.dir) {
			continue // chat webhooks (Discord, Slack, bridge) have their own handlers and tests
		}
		method, path, _ := strings.Cut(r.key, " ")
		concrete := regexp.MustCompile(`\{[^/]+\}`).ReplaceAllString(path, "x")
		w := httptest.NewRecorder()
		api.ServeHTTP(w, httptest.NewRequest(method, concrete, nil))
		if w.Code != http.StatusUnauthorized {
			t.Errorf("%s routes %s, which internal/httpapi does not serve (%d %s)", r.fn, r.key, w.Code, strings.TrimSpace(w.Body.String()))
		}
	}
	files, _ := filepath.Glob(filepath.Join(root, "events", "*", "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ev struct {
			Version, RouteKey, RawPath string
			RequestContext             struct {
				DomainName string
				HTTP       struct{ Method string }
			}
		}
		if json.Unmarshal(b, &ev) != nil || ev.Version != "2.0" || ev.RouteKey == "" || strings.Contains(ev.RequestContext.DomainName, ".lambda-url.") {
			continue // not an API Gateway event (a Function URL's has the same shape)
		}
		dir := filepath.Base(filepath.Dir(f))
		name := "events/" + dir + "/" + filepath.Base(f)
		// Where API Gateway would send it: an explicit route first.
		var to *route
		for i, r := range routes {
			if r.match != nil && strings.HasPrefix(r.key, ev.RequestContext.HTTP.Method+" ") && r.match.MatchString(ev.RawPath) {
				to = &routes[i]
			}
		}
		if to == nil {
			for i, r := range routes {
				if r.match == nil {
					to = &routes[i]
				}
			}
		}
		if to == nil {
			t.Errorf("%s: no route would take %s %s", name, ev.RequestContext.HTTP.Method, ev.RawPath)
			continue
		}
		if to.dir != dir {
			t.Errorf("%s: API Gateway would send %s %s to %s (functions/%s), not functions/%s", name, ev.RequestContext.HTTP.Method, ev.RawPath, to.fn, to.dir, dir)
			continue
		}
		if ev.RouteKey != to.key {
			t.Errorf("%s: routeKey %q, but API Gateway would say %q", name, ev.RouteKey, to.key)
		}
	}
}

// servesAPI reports whether functions/<dir> serves the JSON API, i.e. runs
// internal/lambdaapi (or wires internal/httpapi itself); its explicit routes
// must then be ones the API serves.
func servesAPI(t *testing.T, root, dir string) bool {
	b, err := os.ReadFile(filepath.Join(root, "functions", dir, "main.go"))
	if err != nil {
		t.Errorf("functions/%s/main.go: %v", dir, err)
		return false
	}
	return strings.Contains(string(b), `"croupier/internal/lambdaapi"`) || strings.Contains(string(b), `"croupier/internal/httpapi"`)
}
