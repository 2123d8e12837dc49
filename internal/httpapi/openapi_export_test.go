package httpapi

import (
	"bytes"
	_ "embed"
	"testing"
)

// OpenAPI is the contract's source, openapi.yaml, for the tests (the
// package itself embeds only its compressed copy).
//
//go:embed openapi.yaml
var OpenAPI []byte

// The compressed copy the server embeds and serves is openapi.yaml as it
// is now; if not, `go generate ./internal/httpapi`
// regenerates it.
func TestOpenAPICompressedIsCurrent(t *testing.T) {
	doc, err := openAPIDocument()
	if err != nil {
		t.Fatalf("openapi.yaml.gz: %v", err)
	}
	if !bytes.Equal(doc, OpenAPI) {
		t.Fatalf("openapi.yaml.gz (%d bytes decompressed) is not openapi.yaml (%d bytes): run go generate ./internal/httpapi", len(doc), len(OpenAPI))
	}
}
