package lambdahttp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/httpapi"
	"croupier/internal/lambdahttp"
	"croupier/internal/rulesets"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// echo answers with what the handler saw of the request.
type seen struct {
	Method, Path, EscapedPath, RawQuery, Host, RemoteAddr, RequestURI, RequestID string
	Body                                                                         []byte // JSON carries it as base64, so any bytes survive
	Query                                                                        map[string][]string
	Header                                                                       map[string][]string
	Cookies                                                                      []string
	ContentLength                                                                int64
}

func echo(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s := seen{Method: r.Method, Path: r.URL.Path, EscapedPath: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery,
		Host: r.Host, RemoteAddr: r.RemoteAddr, RequestURI: r.RequestURI, RequestID: lambdahttp.RequestID(r.Context()),
		Body: b, Query: r.URL.Query(), Header: r.Header, ContentLength: r.ContentLength}
	for _, c := range r.Cookies() {
		s.Cookies = append(s.Cookies, c.Name+"="+c.Value)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s)
}

func event(method, rawPath, rawQuery, body string, b64 bool) events.APIGatewayV2HTTPRequest {
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: rawPath, RawQueryString: rawQuery,
		Headers: map[string]string{"host": "api.example.test", "x-croupier-actor": "discord:1", "accept": "application/json,text/plain"},
		Body:    body, IsBase64Encoded: b64,
	}
	ev.RequestContext.RequestID = "req-123"
	ev.RequestContext.DomainName = "api.example.test"
	ev.RequestContext.HTTP.Method = method
	ev.RequestContext.HTTP.Path = rawPath
	ev.RequestContext.HTTP.Protocol = "HTTP/1.1"
	ev.RequestContext.HTTP.SourceIP = "203.0.113.9"
	return ev
}

func TestRequestConversion(t *testing.T) {
	h := lambdahttp.New(http.HandlerFunc(echo), quiet)
	cases := []struct {
		name  string
		ev    events.APIGatewayV2HTTPRequest
		check func(t *testing.T, s seen)
	}{
		{"plain GET with repeated and escaped query keys",
			event("GET", "/v1/games/hall/log", "limit=5&cursor=a%2Bb&tag=x&tag=y", "", false),
			func(t *testing.T, s seen) {
				eq(t, "method", s.Method, "GET")
				eq(t, "path", s.Path, "/v1/games/hall/log")
				eq(t, "raw query", s.RawQuery, "limit=5&cursor=a%2Bb&tag=x&tag=y")
				eq(t, "cursor", strings.Join(s.Query["cursor"], "|"), "a+b")
				eq(t, "tag", strings.Join(s.Query["tag"], "|"), "x|y")
				eq(t, "request uri", s.RequestURI, "/v1/games/hall/log?limit=5&cursor=a%2Bb&tag=x&tag=y")
				eq(t, "host", s.Host, "api.example.test")
				eq(t, "remote", s.RemoteAddr, "203.0.113.9:0")
				eq(t, "request id", s.RequestID, "req-123")
				eq(t, "actor header", strings.Join(s.Header["X-Croupier-Actor"], "|"), "discord:1")
				eq(t, "comma-joined header kept", strings.Join(s.Header["Accept"], "|"), "application/json,text/plain")
				if _, ok := s.Header["Host"]; ok {
					t.Errorf("Host stayed in the header map: %v", s.Header)
				}
			}},
		{"percent-escaped path keeps its escapes",
			event("GET", "/v1/games/hall/players/discord%3A1", "", "", false),
			func(t *testing.T, s seen) {
				eq(t, "path", s.Path, "/v1/games/hall/players/discord:1")
				eq(t, "escaped path", s.EscapedPath, "/v1/games/hall/players/discord%3A1")
			}},
		{"plain JSON body",
			event("POST", "/v1/games", "", `{"id":"hall"}`, false),
			func(t *testing.T, s seen) {
				eq(t, "body", string(s.Body), `{"id":"hall"}`)
				if s.ContentLength != 13 {
					t.Errorf("content length = %d, want 13", s.ContentLength)
				}
			}},
		{"base64 body is decoded byte for byte",
			event("POST", "/upload", "", base64.StdEncoding.EncodeToString([]byte("\x00\xffbinary\n")), true),
			func(t *testing.T, s seen) { eq(t, "body", string(s.Body), "\x00\xffbinary\n") }},
		{"cookies become one Cookie header",
			func() events.APIGatewayV2HTTPRequest {
				ev := event("GET", "/healthz", "", "", false)
				ev.Cookies = []string{"a=1", "b=two"}
				return ev
			}(),
			func(t *testing.T, s seen) { eq(t, "cookies", strings.Join(s.Cookies, "|"), "a=1|b=two") }},
		{"empty rawPath falls back to requestContext.http.path",
			func() events.APIGatewayV2HTTPRequest {
				ev := event("GET", "", "", "", false)
				ev.RequestContext.HTTP.Path = "/healthz"
				return ev
			}(),
			func(t *testing.T, s seen) { eq(t, "path", s.Path, "/healthz") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := h(context.Background(), c.ev)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 200 || resp.IsBase64Encoded {
				t.Fatalf("status %d base64 %v body %s", resp.StatusCode, resp.IsBase64Encoded, resp.Body)
			}
			var s seen
			if err := json.Unmarshal([]byte(resp.Body), &s); err != nil {
				t.Fatalf("decode %q: %v", resp.Body, err)
			}
			c.check(t, s)
		})
	}
}

func TestUnreadableEventsAreProblems(t *testing.T) {
	h := lambdahttp.New(http.HandlerFunc(echo), quiet)
	cases := []struct {
		name string
		ev   events.APIGatewayV2HTTPRequest
		want string
	}{
		{"bad base64", event("POST", "/v1/games", "", "%%%not base64", true), "base64"},
		{"no method (not a 2.0 event)", event("", "/healthz", "", "", false), "method"},
		{"relative path", event("GET", "healthz", "", "", false), "does not start with /"},
		{"bad method token", event("GE T", "/healthz", "", "", false), "cannot be built"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := h(context.Background(), c.ev)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 400 || resp.Headers["Content-Type"] != "application/problem+json" {
				t.Fatalf("got %d %v, want 400 problem+json", resp.StatusCode, resp.Headers)
			}
			var p struct{ Code, Detail string }
			if err := json.Unmarshal([]byte(resp.Body), &p); err != nil {
				t.Fatal(err)
			}
			if p.Code != "invalid_request" || !strings.Contains(p.Detail, c.want) {
				t.Errorf("problem %+v, want code invalid_request and detail mentioning %q", p, c.want)
			}
		})
	}
}

func TestResponseConversion(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	cases := []struct {
		name    string
		handler http.HandlerFunc
		status  int
		b64     bool
		body    []byte
		headers map[string]string
		cookies []string
	}{
		{"JSON passes as text",
			func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(201)
				_, _ = io.WriteString(w, `{"ok":true}`)
			}, 201, false, []byte(`{"ok":true}`), map[string]string{"Content-Type": "application/json"}, nil},
		{"problem+json passes as text",
			func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(422)
				_, _ = io.WriteString(w, `{"code":"x"}`)
			}, 422, false, []byte(`{"code":"x"}`), nil, nil},
		{"binary is base64",
			func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "image/png")
				_, _ = w.Write(png)
			}, 200, true, png, nil, nil},
		{"gzip-encoded text is base64",
			func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Header().Set("Content-Encoding", "gzip")
				_, _ = w.Write([]byte{0x1f, 0x8b, 0x08})
			}, 200, true, []byte{0x1f, 0x8b, 0x08}, nil, nil},
		{"invalid UTF-8 labelled text is base64",
			func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write([]byte{0xff, 0xfe})
			}, 200, true, []byte{0xff, 0xfe}, nil, nil},
		{"no Content-Type is sniffed",
			func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "hello") },
			200, false, []byte("hello"), map[string]string{"Content-Type": "text/plain; charset=utf-8"}, nil},
		{"multi-value headers comma-joined, Set-Cookie to cookies",
			func(w http.ResponseWriter, r *http.Request) {
				w.Header().Add("Vary", "Accept")
				w.Header().Add("Vary", "Authorization")
				http.SetCookie(w, &http.Cookie{Name: "a", Value: "1"})
				http.SetCookie(w, &http.Cookie{Name: "b", Value: "2"})
				w.WriteHeader(204)
			}, 204, false, nil, map[string]string{"Vary": "Accept,Authorization"}, []string{"a=1", "b=2"}},
		{"second WriteHeader ignored",
			func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(409)
				w.WriteHeader(200)
			}, 409, false, nil, nil, nil},
		{"panic becomes a 500 problem",
			func(w http.ResponseWriter, r *http.Request) { panic("boom") },
			500, false, nil, map[string]string{"Content-Type": "application/problem+json"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := lambdahttp.New(c.handler, quiet)(context.Background(), event("GET", "/", "", "", false))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.status || resp.IsBase64Encoded != c.b64 {
				t.Fatalf("status %d base64 %v, want %d %v (body %q)", resp.StatusCode, resp.IsBase64Encoded, c.status, c.b64, resp.Body)
			}
			body := []byte(resp.Body)
			if resp.IsBase64Encoded {
				if body, err = base64.StdEncoding.DecodeString(resp.Body); err != nil {
					t.Fatal(err)
				}
			}
			if c.body != nil && !bytes.Equal(body, c.body) {
				t.Errorf("body %q, want %q", body, c.body)
			}
			for k, v := range c.headers {
				eq(t, "header "+k, resp.Headers[k], v)
			}
			eq(t, "cookies", strings.Join(resp.Cookies, "|"), strings.Join(c.cookies, "|"))
			if _, ok := resp.Headers["Set-Cookie"]; ok {
				t.Errorf("Set-Cookie left in headers: %v", resp.Headers)
			}
		})
	}
}

// TestBodyLimitHoldsThroughAdapter sends bodies around the API's 64 KiB limit
// through the adapter to the real API handler: the adapter must not bypass
// the handler's http.MaxBytesReader, also for a base64 body.
func TestBodyLimitHoldsThroughAdapter(t *testing.T) {
	api := httpapi.New(rulesets.New(nil, clock.Real{}), httpapi.Config{Keys: credential.Keys{credential.AnyKey("k")}, Logger: quiet})
	h := lambdahttp.New(api, quiet)
	pad := func(n int) string {
		// A JSON object of exactly n bytes with an unknown field: small
		// enough bodies fail on the field, too large ones on the size.
		return `{"x":"` + strings.Repeat("a", n-8) + `"}`
	}
	cases := []struct {
		name     string
		body     string
		b64      bool
		wantCode string
	}{
		{"at the limit", pad(httpapi.MaxBodyBytes), false, "invalid_json"},
		{"one byte over", pad(httpapi.MaxBodyBytes + 1), false, "body_too_large"},
		{"base64, one byte over", base64.StdEncoding.EncodeToString([]byte(pad(httpapi.MaxBodyBytes + 1))), true, "body_too_large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := event("POST", "/v1/games", "", c.body, c.b64)
			ev.Headers["authorization"] = "Bearer k"
			ev.Headers["content-type"] = "application/json"
			resp, err := h(context.Background(), ev)
			if err != nil {
				t.Fatal(err)
			}
			var p struct{ Code string }
			_ = json.Unmarshal([]byte(resp.Body), &p)
			if p.Code != c.wantCode {
				t.Errorf("status %d code %q, want %q (body %.200s)", resp.StatusCode, p.Code, c.wantCode, resp.Body)
			}
		})
	}
}

func eq(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}
