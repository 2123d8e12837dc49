// Package lambdarun builds Lambda bootstraps and runs them under the Lambda
// Runtime Interface Emulator (aws-lambda-rie, what `sam local invoke` runs
// inside Docker), for the end-to-end tests and the benchmarks.
package lambdarun

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// BuildFlags are the production build flags of every function (Makefile `build`).
var BuildFlags = []string{"-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w"}

// Build compiles ./functions/<name> of the module at root into
// dir/<name>/bootstrap for goos/goarch and returns its path.
func Build(ctx context.Context, root, name, dir, goos, goarch string) (string, error) {
	out := filepath.Join(dir, name, "bootstrap")
	args := append([]string{"build"}, BuildFlags...)
	args = append(args, "-o", out, "./functions/"+name)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s for %s/%s: %v\n%s", name, goos, goarch, err, msg)
	}
	return out, nil
}

// Emulator is one bootstrap running under aws-lambda-rie.
type Emulator struct {
	URL  string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan error
}

// Start runs bootstrap under the emulator at rie on a free loopback port,
// with env added to the environment, and waits until it accepts invocations.
func Start(ctx context.Context, rie, bootstrap string, env []string) (*Emulator, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(rie, "--runtime-interface-emulator-address", addr, bootstrap)
	cmd.Env = append(os.Environ(), env...)
	buf := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = buf, buf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", rie, err)
	}
	e := &Emulator{URL: "http://" + addr + "/2015-03-31/functions/function/invocations", cmd: cmd, out: buf, done: make(chan error, 1)}
	go func() { e.done <- cmd.Wait() }()
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return e, nil
		}
		select {
		case err := <-e.done:
			return nil, fmt.Errorf("the emulator exited before listening (%v):\n%s", err, buf.String())
		case <-ctx.Done():
			e.Stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			e.Stop()
			return nil, fmt.Errorf("the emulator did not listen on %s within 15s:\n%s", addr, buf.String())
		}
	}
}

// Invoke sends one event and returns the function's response payload.
func (e *Emulator) Invoke(ctx context.Context, event []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(event))
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("invoking: %w\n%s", err, e.Output())
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return body, fmt.Errorf("emulator answered %d: %s\n%s", resp.StatusCode, body, e.Output())
	}
	return body, nil
}

// Output is everything the emulator and the function printed so far.
func (e *Emulator) Output() string { return e.out.String() }

var initRe = regexp.MustCompile(`Init Duration: ([0-9.]+) ms`)

// InitDuration is the Init Duration the emulator reported for the first
// invocation (false before it).
func (e *Emulator) InitDuration() (time.Duration, bool) {
	m := initRe.FindStringSubmatch(e.Output())
	if m == nil {
		return 0, false
	}
	ms, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ms * float64(time.Millisecond)), true
}

// Stop ends the emulator and its function.
func (e *Emulator) Stop() {
	if e.cmd.Process != nil {
		_ = e.cmd.Process.Kill()
		select {
		case <-e.done:
		case <-time.After(5 * time.Second):
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
