package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// Environment variables for the browser tests (`make test` sets them).
const (
	// EnvChromium is the path of a Chromium (or Chrome) binary.
	EnvChromium = "CROUPIER_CHROMIUM"
	// EnvVNU is the path of vnu.jar, the Nu Html Checker.
	EnvVNU = "CROUPIER_VNU"
	// EnvScreenshots is the directory the browser tests save screenshots to.
	EnvScreenshots = "CROUPIER_SCREENSHOTS"
)

// chromiumNames are the names Debian's and other distributions' packages
// give the browser binary, in the order tried.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// ChromiumPath returns the browser binary: $CROUPIER_CHROMIUM when set (it
// must exist), otherwise the first of chromium, chromium-browser,
// google-chrome in PATH. A missing browser fails the test, never skips it,
// so a green run always means the pages ran in a real browser.
func ChromiumPath(t testing.TB) string {
	t.Helper()
	path, err := findChromium()
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return path
}

func findChromium() (string, error) {
	if p := os.Getenv(EnvChromium); p != "" {
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s=%s is not an executable file", EnvChromium, p)
		}
		return p, nil
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("Chromium not found: none of %v is in PATH and %s is unset; the browser tests need it. "+
		"Install Debian's package (apt-get install -y chromium; `make tools` does this as root), or set %s to a Chromium binary",
		chromiumNames, EnvChromium, EnvChromium)
}

// Browser starts a headless Chromium (ChromiumPath) with a fresh profile
// under the test's temporary directory and returns a chromedp context for
// one tab in it. The browser is stopped when the test ends. Every call
// starts a new browser: tests that share one pass the context around.
//
// The browser runs with --no-sandbox: tests run as root in CI (where
// Chromium refuses to start sandboxed) and in containers without the user
// namespaces the sandbox needs, and it only ever loads the test's own
// pages from 127.0.0.1.
func Browser(t testing.TB) context.Context {
	t.Helper()
	exe := ChromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "chromium-profile")),
		chromedp.WindowSize(1280, 900),
		// No network beyond the loopback test server: keep Chromium from
		// calling home (component updates, field trials, DNS prefetch).
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-pings", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first action starts the browser: fail here, with the binary's
	// name, rather than inside the test's first step.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("testenv: starting %s headless: %v", exe, err)
	}
	return ctx
}

// VNU returns the java binary and the path of vnu.jar (the Nu Html Checker,
// npm package vnu-jar): $CROUPIER_VNU when set, otherwise
// .tools/vnu/node_modules/vnu-jar/build/dist/vnu.jar as `make tools`
// installs it. Missing java or jar fails the test with what to install.
func VNU(t testing.TB) (java, jar string) {
	t.Helper()
	jar = os.Getenv(EnvVNU)
	if jar == "" {
		root, err := RepoRoot()
		if err != nil {
			t.Fatalf("testenv: %v", err)
		}
		jar = filepath.Join(root, ".tools", "vnu", "node_modules", "vnu-jar", "build", "dist", "vnu.jar")
	}
	if fi, err := os.Stat(jar); err != nil || fi.IsDir() {
		t.Fatalf("testenv: the Nu Html Checker (vnu.jar) not found at %s; %s, or set %s to a vnu.jar", jar, installHint, EnvVNU)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatalf("testenv: java not found in PATH: the Nu Html Checker needs Java 17+ (e.g. apt-get install -y openjdk-17-jre-headless); %s", installHint)
	}
	return java, jar
}

// ScreenshotDir returns the directory for the browser tests' screenshots,
// created if needed: $CROUPIER_SCREENSHOTS, otherwise build/screenshots in
// the repository root (git-ignored).
func ScreenshotDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(EnvScreenshots)
	if dir == "" {
		root, err := RepoRoot()
		if err != nil {
			t.Fatalf("testenv: %v", err)
		}
		dir = filepath.Join(root, "build", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("testenv: screenshot directory: %v", err)
	}
	return dir
}
