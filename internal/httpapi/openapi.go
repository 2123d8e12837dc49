package httpapi

import (
	"compress/gzip"
	_ "embed"
	"io"
	"strings"
)

// The contract (openapi.yaml) is embedded gzip-compressed: it is 320 KB of
// YAML, a third of a MiB in every Lambda that serves the API, and 42 KB
// compressed (issue 16: bootstraps at most 10 MiB). It is read only on
// GET /openapi.yaml, so it is decompressed there, not at start.
// TestOpenAPICompressedIsCurrent fails when openapi.yaml.gz is stale.
//
//go:generate gzip -9nkf openapi.yaml
//go:embed openapi.yaml.gz
var openAPIGzip string

// openAPIDocument is openapi.yaml, decompressed.
func openAPIDocument() ([]byte, error) {
	zr, err := gzip.NewReader(strings.NewReader(openAPIGzip))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
