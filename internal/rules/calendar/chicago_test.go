package calendar

import (
	"archive/zip"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded America/Chicago is the Go release's (what time/tzdata would
// embed): when a Go upgrade brings new US time rules, this fails until `go
// generate ./internal/rules/calendar` copies them.
func TestChicagoZoneIsCurrent(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	zipPath := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", "zoneinfo.zip")
	z, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	f, err := z.Open("America/Chicago")
	if err != nil {
		t.Fatalf("%s: %v", zipPath, err)
	}
	want, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if chicagoTZif != string(want) {
		t.Errorf("chicago.tzif (%d bytes) differs from America/Chicago in %s (%d bytes); run go generate ./internal/rules/calendar", len(chicagoTZif), zipPath, len(want))
	}
	if got := Chicago().String(); got != "America/Chicago" {
		t.Errorf("Chicago() is named %q, want America/Chicago", got)
	}
}
