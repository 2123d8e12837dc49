package apitest_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"croupier/internal/httpapi/apitest"
)

// fake answers every request with a fixed status, content type and body.
func fake(status int, ct, body string, header ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
}

const problem = `{"type":"https://croupier.dev/problems/%s","title":"x","status":%d,"detail":"d","code":"%s"}`

func prob(code string, status int) string { return fmt.Sprintf(problem, code, status, code) }

// contract is Croupier's contract as written, openapi.yaml (the server
// embeds a compressed copy of it).
func contract(t *testing.T) []byte {
	t.Helper()
	doc, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestCheck proves the contract can fail: each case is an exchange a
// Croupier server could get wrong.
func TestCheck(t *testing.T) {
	c, err := apitest.Load(contract(t))
	if err != nil {
		t.Fatal(err)
	}
	authed := func(method, path, body string) *http.Request {
		r, _ := http.NewRequest(method, "http://x"+path, strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer k")
		r.Header.Set("X-Croupier-Actor", "discord:1")
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		return r
	}
	health := `{"status":"ok","version":"v","time":"2026-12-01T12:00:00Z"}`
	cases := []struct {
		name    string
		req     *http.Request
		h       http.Handler
		wantErr string // "" means the exchange is as documented
	}{
		{"documented health", authed("GET", "/healthz", ""), fake(200, "application/json", health), ""},
		{"missing field", authed("GET", "/healthz", ""), fake(200, "application/json", `{"status":"ok","time":"2026-12-01T12:00:00Z"}`), "version"},
		{"extra field", authed("GET", "/healthz", ""), fake(200, "application/json", strings.Replace(health, "}", `,"x":1}`, 1)), "x"},
		{"not a date-time", authed("GET", "/healthz", ""), fake(200, "application/json", strings.Replace(health, "2026-12-01T12:00:00Z", "yesterday", 1)), "time"},
		{"undocumented status", authed("GET", "/healthz", ""), fake(201, "application/json", health), "status is not supported"},
		{"server error", authed("GET", "/v1/games/g", ""), fake(500, "application/problem+json", prob("internal", 500)), "server error"},
		{"wrong content type", authed("GET", "/v1/games/g", ""), fake(404, "application/json", prob("game_not_found", 404)), "Content-Type"},
		{"code of another status", authed("GET", "/v1/games/g", ""), fake(404, "application/problem+json", prob("invalid_json", 404)), "code"},
		{"status member differs", authed("GET", "/v1/games/g", ""), fake(404, "application/problem+json", fmt.Sprintf(problem, "not_found", 400, "not_found")), "status"},
		{"documented not found", authed("GET", "/v1/games/g", ""), fake(404, "application/problem+json", prob("game_not_found", 404)), ""},
		{"unknown path answered 200", authed("GET", "/v2/x", ""), fake(200, "application/json", `{}`), "want 404"},
		{"unknown path answered not_found", authed("GET", "/v2/x", ""), fake(404, "application/problem+json", prob("not_found", 404)), ""},
		{"405 without Allow", authed("DELETE", "/v1/games/g", ""), fake(405, "application/problem+json", prob("method_not_allowed", 405)), "Allow"},
		{"405 with Allow", authed("DELETE", "/v1/games/g", ""), fake(405, "application/problem+json", prob("method_not_allowed", 405), "Allow", "GET"), ""},
		{"503 without Retry-After", authed("GET", "/v1/games/g", ""), fake(503, "application/problem+json", prob("busy", 503)), "Retry-After"},
		{"invalid request not marked", authed("POST", "/v1/games/g/rolls", `{"dice":"many"}`), fake(400, "application/problem+json", prob("invalid_dice", 400)), "request does not match"},
		{"invalid request marked bad", apitest.Bad(authed("POST", "/v1/games/g/rolls", `{"dice":"many"}`)), fake(400, "application/problem+json", prob("invalid_dice", 400)), ""},
		{"bad request accepted", apitest.Bad(authed("POST", "/v1/games/g/rolls", `{"dice":"1d6"}}`)), fake(200, "application/json", `{"dice":"1d6","rolls":[3],"total":3,"period":"p"}`), "accepted"},
		{"missing key not marked", func() *http.Request { r := authed("GET", "/v1/games/g", ""); r.Header.Del("Authorization"); return r }(), fake(401, "application/problem+json", prob("missing_api_key", 401), "WWW-Authenticate", "Bearer"), "request does not match"},
		{"roll with a negative die", authed("POST", "/v1/games/g/rolls", `{"dice":"1d6"}`), fake(200, "application/json", `{"dice":"1d6","rolls":[-3],"total":3,"period":"p"}`), "rolls"},
		{"HEAD is GET", authed("HEAD", "/v1/games/g", ""), fake(200, "application/json", ""), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex, _ := c.Serve(tc.h, tc.req)
			err := c.Check(ex)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Check = %v, want nil", err)
			case tc.wantErr != "" && err == nil:
				t.Errorf("Check = nil, want an error about %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Errorf("Check = %v, want an error about %q", err, tc.wantErr)
			}
		})
	}
}

// recorder is a testing.TB that keeps Errorf calls instead of failing.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestClientReportsViolations: the client's transport fails the test with
// the route, the status and the validation error.
func TestClientReportsViolations(t *testing.T) {
	rec := &recorder{TB: t}
	c := apitest.NewServer(rec, contract(t), fake(200, "application/json", `{"status":"ok"}`))
	r := c.Do(apitest.Call{Method: "GET", Path: "/healthz"})
	if r.Status != 200 || string(r.Body) != `{"status":"ok"}` {
		t.Errorf("the client changed the response: %d %s", r.Status, r.Body)
	}
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "GET /healthz → 200") || !strings.Contains(rec.errs[0], "version") {
		t.Errorf("reported %q, want one error naming GET /healthz → 200 and the missing version", rec.errs)
	}
}
