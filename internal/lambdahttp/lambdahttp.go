// Package lambdahttp runs an http.Handler behind API Gateway HTTP APIs
// (payload format 2.0): it turns an events.APIGatewayV2HTTPRequest into an
// *http.Request, records what the handler writes, and returns it as an
// events.APIGatewayV2HTTPResponse. The same handler then serves the local
// server and the Lambda, so there is one code path to test.
//
// The adapter does not cap bodies itself: the handler reads the body through
// http.MaxBytesReader as it would behind net/http, so its limit (and its error)
// hold unchanged. API Gateway already caps payloads at 10 MB and Lambda at
// 6 MB, so buffering the decoded body costs no more than the event itself.
package lambdahttp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

type ctxKey struct{}

// RequestID returns the API Gateway request id the adapter put into ctx
// ("" outside a request). Loggers use it to tie lines to one request.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// WithRequestID returns ctx carrying the API Gateway request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// Handler is the Lambda handler signature lambda.Start accepts for HTTP APIs.
type Handler func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// New returns a Lambda handler serving h. log receives one line per request
// (method, path, status, duration, request id); nil means slog.Default().
// It never returns an error: a request the adapter cannot convert is answered
// with a 400 problem, and a handler panic with a 500 problem, so API Gateway
// never shows its generic "Internal Server Error".
func New(h http.Handler, log *slog.Logger) Handler {
	if log == nil {
		log = slog.Default()
	}
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		start := time.Now()
		ctx = WithRequestID(ctx, ev.RequestContext.RequestID)
		resp := serve(ctx, h, ev, log)
		log.InfoContext(ctx, "request",
			"method", ev.RequestContext.HTTP.Method,
			"path", ev.RawPath,
			"status", resp.StatusCode,
			"duration_ms", time.Since(start).Milliseconds(),
			"source_ip", ev.RequestContext.HTTP.SourceIP)
		return resp, nil
	}
}

func serve(ctx context.Context, h http.Handler, ev events.APIGatewayV2HTTPRequest, log *slog.Logger) (resp events.APIGatewayV2HTTPResponse) {
	r, err := NewRequest(ctx, ev)
	if err != nil {
		return problem(http.StatusBadRequest, "invalid_request", "The request could not be read: "+err.Error()+".")
	}
	w := NewRecorder()
	defer func() {
		if v := recover(); v != nil {
			log.ErrorContext(ctx, "panic serving request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v))
			resp = problem(http.StatusInternalServerError, "internal", "The server hit an unexpected error.")
		}
	}()
	h.ServeHTTP(w, r)
	return w.Response()
}

// NewRequest converts an HTTP API (payload 2.0) event into a server-side
// request as net/http would build it: the raw path and query string are kept
// byte for byte (so percent-escapes and repeated keys survive), headers keep
// API Gateway's comma-joined values, cookies become one Cookie header, and a
// base64 body is decoded.
func NewRequest(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	method := ev.RequestContext.HTTP.Method
	if method == "" {
		return nil, fmt.Errorf("the event has no requestContext.http.method; is it an HTTP API payload format 2.0 event?")
	}
	path := ev.RawPath
	if path == "" {
		path = ev.RequestContext.HTTP.Path
	}
	if path == "" {
		path = "/"
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("the request path %q does not start with /", path)
	}
	uri := path
	if ev.RawQueryString != "" {
		uri += "?" + ev.RawQueryString
	}
	u, err := url.ParseRequestURI(uri)
	if err != nil {
		return nil, fmt.Errorf("the request path and query %q are not a valid URI: %v", uri, err)
	}
	var body []byte
	if ev.IsBase64Encoded {
		if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
			return nil, fmt.Errorf("the body is marked base64 but does not decode: %v", err)
		}
	} else {
		body = []byte(ev.Body)
	}
	r, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("the request cannot be built: %v", err)
	}
	// Server-side fields, as net/http sets them for an incoming request.
	r.URL = u
	r.RequestURI = uri
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	if p := ev.RequestContext.HTTP.Protocol; p != "" {
		if major, minor, ok := http.ParseHTTPVersion(p); ok {
			r.Proto, r.ProtoMajor, r.ProtoMinor = p, major, minor
		}
	}
	r.ContentLength = int64(len(body))
	for k, v := range ev.Headers {
		r.Header.Add(k, v)
	}
	if len(ev.Cookies) > 0 {
		r.Header.Set("Cookie", strings.Join(ev.Cookies, "; "))
	}
	r.Host = r.Header.Get("Host")
	if r.Host == "" {
		r.Host = ev.RequestContext.DomainName
	}
	r.Header.Del("Host") // net/http moves Host out of the header map
	if ip := ev.RequestContext.HTTP.SourceIP; ip != "" {
		r.RemoteAddr = ip + ":0"
	}
	return r, nil
}

// Recorder is the http.ResponseWriter the adapter hands to the handler.
type Recorder struct {
	header      http.Header
	status      int
	wroteHeader bool
	body        bytes.Buffer
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder { return &Recorder{header: http.Header{}} }

// Header implements http.ResponseWriter.
func (w *Recorder) Header() http.Header { return w.header }

// WriteHeader implements http.ResponseWriter; only the first call counts.
func (w *Recorder) WriteHeader(status int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader, w.status = true, status
}

// Write implements http.ResponseWriter.
func (w *Recorder) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.body.Write(p)
}

// Response converts what was written into the API Gateway response: header
// values comma-joined (payload 2.0 has no multi-value headers), Set-Cookie
// moved to Cookies, and the body base64-encoded unless it is text.
func (w *Recorder) Response() events.APIGatewayV2HTTPResponse {
	status := w.status
	if !w.wroteHeader {
		status = http.StatusOK
	}
	body := w.body.Bytes()
	if w.header.Get("Content-Type") == "" && len(body) > 0 {
		w.header.Set("Content-Type", http.DetectContentType(body))
	}
	resp := events.APIGatewayV2HTTPResponse{StatusCode: status, Headers: map[string]string{}}
	for k, vs := range w.header {
		if k == "Set-Cookie" {
			resp.Cookies = append(resp.Cookies, vs...)
			continue
		}
		resp.Headers[k] = strings.Join(vs, ",")
	}
	if len(body) == 0 || isText(w.header) && utf8.Valid(body) {
		resp.Body = string(body)
	} else {
		resp.Body = base64.StdEncoding.EncodeToString(body)
		resp.IsBase64Encoded = true
	}
	return resp
}

// isText reports whether a body with these headers passes through API
// Gateway as a string unchanged: an unencoded text-like media type.
func isText(h http.Header) bool {
	if ce := h.Get("Content-Encoding"); ce != "" && ce != "identity" {
		return false
	}
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return false
	}
	switch {
	case strings.HasPrefix(mt, "text/"),
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"), strings.HasSuffix(mt, "+yaml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/yaml", "application/x-yaml",
		"application/javascript", "application/x-www-form-urlencoded", "image/svg+xml":
		return true
	}
	return false
}

// problem is an RFC 9457 problem response for requests that never reached
// the handler, shaped like the API's own problems.
func problem(status int, code, detail string) events.APIGatewayV2HTTPResponse {
	b, _ := json.Marshal(map[string]any{
		"type": "https://croupier.dev/problems/" + code, "title": http.StatusText(status),
		"status": status, "detail": detail, "code": code,
	})
	return events.APIGatewayV2HTTPResponse{
		StatusCode: status,
		Headers: map[string]string{
			"Content-Type":   "application/problem+json",
			"Content-Length": strconv.Itoa(len(b)),
			"Cache-Control":  "no-store",
		},
		Body: string(b),
	}
}
