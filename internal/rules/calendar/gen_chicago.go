//go:build ignore

// gen_chicago copies America/Chicago out of the Go release's zone database
// ($GOROOT/lib/time/zoneinfo.zip, the one time/tzdata embeds) into
// chicago.tzif: `go generate ./internal/rules/calendar`.
package main

import (
	"archive/zip"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		log.Fatal(err)
	}
	z, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		log.Fatal(err)
	}
	defer z.Close()
	f, err := z.Open("America/Chicago")
	if err != nil {
		log.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("chicago.tzif", b, 0o644); err != nil {
		log.Fatal(err)
	}
}
