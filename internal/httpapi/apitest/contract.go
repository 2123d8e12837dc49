// Package apitest checks HTTP exchanges against Croupier's OpenAPI document,
// so that every test that talks to the API also proves the document true.
//
// A Contract validates one exchange (request and response) with kin-openapi.
// Transport and Wrap apply it to every exchange of a test: any response the
// document does not describe (undocumented status, wrong schema, wrong
// content type, a 500) fails the test with the route, the status and the
// validation error. Requests are validated too, unless the test marks them
// intentionally bad with Bad (malformed JSON, missing headers...): for those
// only the response is checked, and it must not be a success.
//
// The package does not import the server: pass it the document bytes
// (openapi.yaml as read from disk, or httpapi.OpenAPI in httpapi's own
// tests), so tests of any package can use it.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Contract is a loaded, validated OpenAPI document with its router.
type Contract struct {
	doc    *openapi3.T
	router routers.Router
}

// Load parses and validates an OpenAPI 3.0 document. The document's servers
// are ignored for routing: the contract matches paths on any host, so the
// same document checks an httptest server, a local server or a recorder.
func Load(spec []byte) (*Contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("apitest: parsing the OpenAPI document: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("apitest: the OpenAPI document is invalid: %w", err)
	}
	routed := *doc
	routed.Servers = nil
	router, err := gorillamux.NewRouter(&routed)
	if err != nil {
		return nil, fmt.Errorf("apitest: routing the OpenAPI document: %w", err)
	}
	return &Contract{doc: doc, router: router}, nil
}

// Doc returns the parsed document.
func (c *Contract) Doc() *openapi3.T { return c.doc }

type markKey struct{}

type mark int

const (
	markBad mark = iota + 1
	markResponseOnly
)

// Bad marks a request as intentionally malformed: the contract then checks
// only its response, which must be a documented error, not a success.
func Bad(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), markKey{}, markBad))
}

// ResponseOnly marks a request of unknown validity (a fuzz input): the
// contract checks only its response, whatever the status.
func ResponseOnly(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), markKey{}, markResponseOnly))
}

// IsBad reports whether r was marked with Bad.
func IsBad(r *http.Request) bool { return markOf(r) == markBad }

func markOf(r *http.Request) mark {
	m, _ := r.Context().Value(markKey{}).(mark)
	return m
}

// Exchange is one request and its response, with both bodies read.
type Exchange struct {
	Request     *http.Request
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte
}

func (e Exchange) String() string {
	return fmt.Sprintf("%s %s → %d", e.Request.Method, e.Request.URL.RequestURI(), e.Status)
}

// Check validates an exchange against the document and returns every
// violation joined (nil when the exchange is as documented). Beyond the
// schemas it enforces what the API promises everywhere: no 5xx other than
// 503, and a problem's status member equal to the HTTP status.
func (c *Contract) Check(ex Exchange) error {
	var errs []error
	if ex.Status >= 500 && ex.Status != http.StatusServiceUnavailable {
		errs = append(errs, fmt.Errorf("server error %d: %s", ex.Status, bytes.TrimSpace(ex.Body)))
	}
	// HEAD is GET without a body (RFC 9110), and net/http serves it so.
	probe := routable(ex.Request)
	if probe.Method == http.MethodHead {
		probe = probe.Clone(probe.Context())
		probe.Method = http.MethodGet
	}
	route, params, rerr := c.router.FindRoute(probe)
	switch {
	case errors.Is(rerr, routers.ErrPathNotFound):
		// Redirects are ServeMux's path cleaning (/a//b → /a/b): not an error
		// and not ours to describe.
		if isRedirect(ex.Status) {
			break
		}
		errs = append(errs, c.checkGeneric(ex, http.StatusNotFound, "NotFound"))
	case errors.Is(rerr, routers.ErrMethodNotAllowed):
		if isRedirect(ex.Status) {
			break
		}
		if ex.Status == http.StatusNotFound {
			// A documented but optional route this server does not have
			// (the dev clock).
			errs = append(errs, c.checkGeneric(ex, http.StatusNotFound, "NotFound"))
			break
		}
		errs = append(errs, c.checkGeneric(ex, http.StatusMethodNotAllowed, "MethodNotAllowed"))
	case rerr != nil:
		errs = append(errs, fmt.Errorf("routing: %w", rerr))
	default:
		errs = append(errs, c.checkRoute(ex, route, params))
	}
	return errors.Join(errs...)
}

// checkRoute validates an exchange on a documented operation.
func (c *Contract) checkRoute(ex Exchange, route *routers.Route, params map[string]string) error {
	var errs []error
	req := ex.Request.Clone(ex.Request.Context())
	req.Body = io.NopCloser(bytes.NewReader(ex.RequestBody))
	reqIn := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			AuthenticationFunc: bearerPresent,
			MultiError:         true,
		},
	}
	switch markOf(ex.Request) {
	case markBad:
		if ex.Status < 300 {
			errs = append(errs, fmt.Errorf("an intentionally bad request was accepted with %d: %s", ex.Status, bytes.TrimSpace(ex.Body)))
		}
	case markResponseOnly:
	default:
		if err := openapi3filter.ValidateRequest(req.Context(), reqIn); err != nil {
			errs = append(errs, fmt.Errorf("the request does not match the document (mark it apitest.Bad if that is intended): %w", err))
		}
	}
	respIn := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: reqIn,
		Status:                 ex.Status,
		Header:                 ex.Header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	respIn.SetBodyBytes(ex.Body)
	if err := openapi3filter.ValidateResponse(req.Context(), respIn); err != nil {
		errs = append(errs, fmt.Errorf("the response does not match the document: %w", err))
	}
	errs = append(errs, checkProblemStatus(ex))
	return errors.Join(errs...)
}

// checkGeneric validates the answer to a request outside the document (an
// unknown path or method) against one of components.responses.
func (c *Contract) checkGeneric(ex Exchange, want int, name string) error {
	if ex.Status != want {
		return fmt.Errorf("a request outside the document was answered %d, want %d", ex.Status, want)
	}
	ref := c.doc.Components.Responses[name]
	if ref == nil {
		return fmt.Errorf("the document has no components.responses.%s", name)
	}
	op := openapi3.NewOperation()
	op.Responses = openapi3.NewResponses(openapi3.WithStatus(want, ref))
	route := &routers.Route{Spec: c.doc, Path: ex.Request.URL.Path, Method: ex.Request.Method, Operation: op}
	respIn := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: ex.Request, Route: route},
		Status:                 ex.Status,
		Header:                 ex.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	respIn.SetBodyBytes(ex.Body)
	if err := openapi3filter.ValidateResponse(context.Background(), respIn); err != nil && ex.Request.Method != http.MethodHead {
		return fmt.Errorf("the response does not match components.responses.%s: %w", name, err)
	}
	return checkProblemStatus(ex)
}

// checkProblemStatus: a problem's status member must be the HTTP status.
func checkProblemStatus(ex Exchange) error {
	if !strings.HasPrefix(ex.Header.Get("Content-Type"), "application/problem+json") || len(ex.Body) == 0 {
		return nil
	}
	var p struct{ Status int }
	if err := json.Unmarshal(ex.Body, &p); err != nil {
		return fmt.Errorf("problem body is not JSON: %w", err)
	}
	if p.Status != ex.Status {
		return fmt.Errorf("problem status member %d differs from the HTTP status %d", p.Status, ex.Status)
	}
	return nil
}

// bearerPresent is the request-side security check: the document says a
// bearer key is needed; whether it is the right key is the server's business.
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	tok, ok := strings.CutPrefix(in.RequestValidationInput.Request.Header.Get("Authorization"), "Bearer ")
	if !ok || strings.TrimSpace(tok) == "" {
		return errors.New("no bearer token")
	}
	return nil
}

// routable returns r with an absolute URL, as the router matches on URL.
func routable(r *http.Request) *http.Request {
	if r.URL.Host != "" {
		return r
	}
	r2 := r.Clone(r.Context())
	u := *r.URL
	u.Scheme, u.Host = "http", "localhost"
	if r.Host != "" {
		u.Host = r.Host
	}
	r2.URL = &u
	return r2
}

func isRedirect(status int) bool { return status >= 300 && status < 400 }
