package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Transport returns an http.RoundTripper that sends each request through
// base (http.DefaultTransport when nil) and checks the exchange; a
// violation fails t (t.Errorf) with the route, the status and the error.
// Use it as the Transport of any client that talks to a Croupier server.
func (c *Contract) Transport(t testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{c: c, t: t, base: base}
}

type transport struct {
	c    *Contract
	t    testing.TB
	base http.RoundTripper
}

func (tr *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		var err error
		body, err = io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("apitest: reading the request body: %w", err)
		}
	}
	out := r.Clone(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	resp, err := tr.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	respBody, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("apitest: reading the response body: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	ex := Exchange{Request: r, RequestBody: body, Status: resp.StatusCode, Header: resp.Header, Body: respBody}
	if err := tr.c.Check(ex); err != nil {
		tr.t.Errorf("contract: %s: %v", ex, err)
	}
	return resp, nil
}

// Wrap returns h checked by the contract: every exchange served by the
// returned handler is validated, and a violation fails t. It suits
// in-process tests (httptest.NewRecorder) and fuzz targets.
func (c *Contract) Wrap(t testing.TB, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ex, rec := c.Serve(h, r)
		if err := c.Check(ex); err != nil {
			t.Errorf("contract: %s: %v", ex, err)
		}
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// Serve runs h on r in-process and returns the exchange (unchecked) and
// the recorder.
func (c *Contract) Serve(h http.Handler, r *http.Request) (Exchange, *httptest.ResponseRecorder) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body.Close()
	}
	in := r.Clone(r.Context())
	in.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, in)
	return Exchange{Request: r, RequestBody: body, Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}, rec
}

// Client is a test client of a Croupier server whose every exchange is
// checked against the contract.
type Client struct {
	T       testing.TB
	BaseURL string
	HTTP    *http.Client
	// Key and Actor are sent by default (Authorization: Bearer Key and
	// X-Croupier-Actor); a Call can override or omit them.
	Key   string
	Actor string
}

// NewServer serves h on a local test server for the duration of t and
// returns a client of it that checks every exchange against spec (the
// OpenAPI document, e.g. openapi.yaml's bytes).
func NewServer(t testing.TB, spec []byte, h http.Handler) *Client {
	t.Helper()
	c, err := Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return NewClient(t, c, srv.URL)
}

// NewClient returns a checked client of the server at baseURL.
func NewClient(t testing.TB, c *Contract, baseURL string) *Client {
	return &Client{T: t, BaseURL: strings.TrimRight(baseURL, "/"),
		HTTP: &http.Client{Transport: c.Transport(t, nil), CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
}

// Call is one request.
type Call struct {
	Method, Path string
	// Body: nil sends none; []byte and string are sent as they are;
	// anything else is sent as JSON.
	Body any
	// ContentType defaults to application/json when there is a body.
	ContentType string
	// Actor and Key override the client's defaults when non-empty.
	Actor, Key string
	// Idem is sent as the Idempotency-Key header when non-empty.
	Idem string
	// Header adds or replaces headers.
	Header http.Header
	// Omit lists headers not to send (e.g. "Authorization").
	Omit []string
	// Bad marks the request as intentionally malformed (see Bad).
	Bad bool
}

// Response is a read response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends a call. A transport failure fails the test and returns a
// Response with Status 0. Do is safe for concurrent use.
func (c *Client) Do(call Call) *Response {
	c.T.Helper()
	var body io.Reader
	if call.Body != nil {
		switch b := call.Body.(type) {
		case []byte:
			body = bytes.NewReader(b)
		case string:
			body = strings.NewReader(b)
		default:
			j, err := json.Marshal(b)
			if err != nil {
				c.T.Errorf("apitest: encoding the body of %s %s: %v", call.Method, call.Path, err)
				return &Response{}
			}
			body = bytes.NewReader(j)
		}
	}
	req, err := http.NewRequest(call.Method, c.BaseURL+call.Path, body)
	if err != nil {
		c.T.Errorf("apitest: %v", err)
		return &Response{}
	}
	if call.Body != nil {
		ct := call.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	if key := first(call.Key, c.Key); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if actor := first(call.Actor, c.Actor); actor != "" {
		req.Header.Set("X-Croupier-Actor", actor)
	}
	if call.Idem != "" {
		req.Header.Set("Idempotency-Key", call.Idem)
	}
	for k, v := range call.Header {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	for _, k := range call.Omit {
		req.Header.Del(k)
	}
	if call.Bad {
		req = Bad(req)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		c.T.Errorf("apitest: %s %s: %v", call.Method, call.Path, err)
		return &Response{}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.T.Errorf("apitest: reading %s %s: %v", call.Method, call.Path, err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Get is Do of a GET.
func (c *Client) Get(path string) *Response {
	c.T.Helper()
	return c.Do(Call{Method: http.MethodGet, Path: path})
}

// Post is Do of a POST with a JSON body and an idempotency key.
func (c *Client) Post(path, idem string, body any) *Response {
	c.T.Helper()
	return c.Do(Call{Method: http.MethodPost, Path: path, Idem: idem, Body: body})
}

// Decode decodes the body as JSON into v, failing t if it cannot.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decoding %d response %q: %v", r.Status, r.Body, err)
	}
}

// Problem is a decoded problem+json body; Extra holds the extension members.
type Problem struct {
	Type   string
	Title  string
	Status int
	Detail string
	Code   string
	Extra  map[string]any
}

// Problem decodes the body as a problem, failing t if the response is not
// application/problem+json.
func (r *Response) Problem(t testing.TB) Problem {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Fatalf("response %d has Content-Type %q, want application/problem+json; body %s", r.Status, ct, r.Body)
	}
	var m map[string]any
	r.Decode(t, &m)
	p := Problem{Extra: map[string]any{}}
	for k, v := range m {
		s, _ := v.(string)
		switch k {
		case "type":
			p.Type = s
		case "title":
			p.Title = s
		case "detail":
			p.Detail = s
		case "code":
			p.Code = s
		case "status":
			f, _ := v.(float64)
			p.Status = int(f)
		default:
			p.Extra[k] = v
		}
	}
	return p
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
