package discordspec

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Recorder checks every body a test sends Discord, as it passes, and fails
// the test (t.Errorf) on each one the description or the limits refuse:
// interaction responses through Handler, REST calls through Server (the
// loopback Discord's handler) or Transport (the client's). Counts says
// how many of each kind were checked.
type Recorder struct {
	t    testing.TB
	spec *Spec
	mu   sync.Mutex
	seen map[string]int
	bad  int
}

// NewRecorder loads the description (the test fails if it cannot).
func NewRecorder(t testing.TB) *Recorder {
	t.Helper()
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return &Recorder{t: t, spec: s, seen: map[string]int{}}
}

// Spec is the loaded description.
func (r *Recorder) Spec() *Spec { return r.spec }

// Response checks the response resp to the interaction in (both raw JSON).
func (r *Recorder) Response(in, resp []byte) {
	err := r.spec.Callback(in, resp)
	typ, _ := interactionShape(in)
	v, _ := decode(resp)
	r.note(fmt.Sprintf("response type %d to interaction type %d", typeOf(obj(v)), typ), err, in, resp)
}

// Call checks one REST call's body; path may carry the API base
// ("/api/v10/...").
func (r *Recorder) Call(method, path string, body []byte) {
	rel := RelPath(path)
	err := r.spec.Request(method, rel, body)
	tpl, _ := r.spec.Route(rel)
	r.note(method+" "+tpl, err, nil, body)
}

func (r *Recorder) note(kind string, err error, in, body []byte) {
	r.mu.Lock()
	r.seen[kind]++
	if err != nil {
		r.bad++
	}
	r.mu.Unlock()
	if err != nil {
		r.t.Errorf("%s: %v\nbody: %s\ninteraction: %s", kind, err, clip(body), clip(in))
	}
}

func clip(b []byte) string {
	if len(b) > 3000 {
		return string(b[:3000]) + "…"
	}
	return string(b)
}

// Counts returns how many bodies of each kind were checked ("response
// type 4 to interaction type 2", "PATCH /channels/{channel_id}/messages/{message_id}").
func (r *Recorder) Counts() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.seen))
	for k, v := range r.seen {
		out[k] = v
	}
	return out
}

// Total is how many bodies were checked, and how many failed.
func (r *Recorder) Total() (checked, failed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.seen {
		checked += v
	}
	return checked, r.bad
}

// Summary lists Counts, one kind a line, sorted.
func (r *Recorder) Summary() string {
	c := r.Counts()
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%5d %s\n", c[k], k)
	}
	return b.String()
}

// Handler wraps an interactions endpoint: every 200 answer is checked as
// the response to the interaction it answers.
func (r *Recorder) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		in, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(in))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code == http.StatusOK {
			r.Response(in, rec.Body.Bytes())
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// Server wraps a loopback Discord's REST handler: every request body is
// checked against its route before h answers it.
func (r *Recorder) Server(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		if req.Method != http.MethodGet && req.Method != http.MethodDelete || len(body) > 0 {
			r.Call(req.Method, req.URL.Path, body)
		}
		h.ServeHTTP(w, req)
	})
}

// Transport wraps a client's transport (nil: http.DefaultTransport):
// every request body is checked against its route before it is sent.
func (r *Recorder) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTrip(func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			b, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			body = b
			req.Body = io.NopCloser(bytes.NewReader(b))
		}
		if req.Method != http.MethodGet && req.Method != http.MethodDelete || len(body) > 0 {
			r.Call(req.Method, req.URL.Path, body)
		}
		return next.RoundTrip(req)
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
