// Package lambdarun runs Croupier's Lambda functions the way AWS does, on
// this machine: each function is built as a `bootstrap`, started under the
// Lambda Runtime Interface Emulator (aws-lambda-rie, what `sam local invoke`
// runs inside Docker) and invoked with event payloads. The end-to-end tests
// (internal/e2e), `make invoke` and the benchmarks share it.
package lambdarun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// InvokePath is the emulator's (and Lambda's) Invoke API path.
const InvokePath = "/2015-03-31/functions/function/invocations"

// BuildFlags are the production build flags of every function (Makefile
// LAMBDA_GOFLAGS): no RPC mode of the Lambda library, no HTTP/2 in
// net/http (nethttpomithttp2: DynamoDB, Lambda's APIs and Discord's are
// spoken over HTTP/1.1; it saves 0.3 MiB of every bootstrap), and no
// inlining in croupier's own packages: inlined copies of their many small
// functions are 0.3-0.45 MiB of every bootstrap, and a command's time is the
// store's round trips, not this code (BenchmarkEngineCommand and the nomic
// benchmarks cost the same CPU without it; docs/operations.md "Bootstraps"),
// nor in the AWS SDK's, whose calls wait on the network (0.1 MiB more).
var BuildFlags = []string{"-tags", "lambda.norpc,nethttpomithttp2", "-trimpath", "-gcflags=croupier/...=-l", "-gcflags=github.com/aws/...=-l", "-gcflags=github.com/a-h/...=-l", "-gcflags=text/...=-l", "-gcflags=html/...=-l", "-gcflags=regexp/...=-l", "-gcflags=math/big=-l", "-gcflags=crypto/x509=-l", "-gcflags=mime/...=-l", "-gcflags=net/textproto=-l", "-ldflags", "-s -w"}

// Build compiles ./functions/<name> of the repository at root for the host
// into dir/<name>/bootstrap, with the flags the Lambda build uses, and
// returns the binary's path.
func Build(ctx context.Context, root, name, dir string) (string, error) {
	return BuildFor(ctx, root, name, dir, runtime.GOOS, runtime.GOARCH)
}

// BuildFor is Build for another platform (linux/arm64 is what AWS runs).
func BuildFor(ctx context.Context, root, name, dir, goos, goarch string) (string, error) {
	out := filepath.Join(dir, name, "bootstrap")
	args := append(append([]string{"build"}, BuildFlags...), "-o", out, "./functions/"+name)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./functions/%s for %s/%s: %v\n%s", name, goos, goarch, err, b)
	}
	return out, nil
}

// Function is a bootstrap running under the emulator.
type Function struct {
	// Addr is the emulator's host:port.
	Addr string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
	err  error // the process's exit, valid once done is closed
}

// Start runs bootstrap under the emulator rie on a free loopback port.
// env is the function's environment (TABLE_NAME...), added to a minimal
// base so nothing of the caller's environment leaks into the function.
func Start(rie, bootstrap string, env []string) (*Function, error) {
	// The emulator runs in the bootstrap's directory: resolve paths first.
	var err error
	if rie, err = filepath.Abs(rie); err != nil {
		return nil, err
	}
	if bootstrap, err = filepath.Abs(bootstrap); err != nil {
		return nil, err
	}
	var lastErr error
	// A port free when asked may be taken before the emulator binds it.
	for range 3 {
		f, err := start(rie, bootstrap, env)
		if err == nil {
			return f, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

func start(rie, bootstrap string, env []string) (*Function, error) {
	// Two ports: the Invoke API we call, and the Runtime API the bootstrap
	// polls (127.0.0.1:9001 by default, which two emulators cannot share).
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	runtimeAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(rie, "--runtime-interface-emulator-address", addr, "--runtime-api-address", runtimeAddr, bootstrap)
	cmd.Dir = filepath.Dir(bootstrap)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
		"AWS_LAMBDA_FUNCTION_TIMEOUT=60",
		"AWS_LAMBDA_FUNCTION_NAME=" + filepath.Base(filepath.Dir(bootstrap)),
		// What Lambda sets for every function (its region and the execution
		// role's credentials; internal/awsenv reads them): dummies here,
		// since the functions under test talk to DynamoDB Local only.
		"AWS_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=emulator",
		"AWS_SECRET_ACCESS_KEY=emulator",
		"AWS_SESSION_TOKEN=emulator",
	}, env...)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	// Own process group, so Stop also ends the bootstrap the emulator
	// started; Pdeathsig, so the emulator dies with a killed test binary.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("lambdarun: start %s: %w", rie, err)
	}
	f := &Function{Addr: addr, cmd: cmd, out: out, done: make(chan struct{})}
	go func() { f.err = cmd.Wait(); close(f.done) }()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-f.done:
			return nil, fmt.Errorf("lambdarun: the emulator exited during start-up (%v); its output:\n%s", f.err, out.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return f, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.Stop()
	return nil, fmt.Errorf("lambdarun: the emulator did not listen on %s within 15s; its output:\n%s", addr, out.String())
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("lambdarun: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Invoke sends payload as one invocation and returns the function's result
// (for a function error, the emulator's {"errorMessage", "errorType"} JSON).
func (f *Function) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+f.Addr+InvokePath, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("lambdarun: invoke: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("lambdarun: read the invocation result: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return body, fmt.Errorf("lambdarun: the emulator answered %s: %s", resp.Status, body)
	}
	return body, nil
}

// Output returns what the emulator and the function wrote so far (the
// function's JSON logs included).
func (f *Function) Output() string { return f.out.String() }

// Stop kills the emulator and the bootstrap and waits for them.
func (f *Function) Stop() {
	select {
	case <-f.done:
		return
	default:
	}
	_ = syscall.Kill(-f.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-f.done:
	case <-time.After(10 * time.Second):
	}
}

// initRe reads the emulator's report of the init phase (process start to the
// runtime's first /next), which is what Lambda bills as Init Duration. The
// emulator's REPORT line also has an "Init Duration", but it times only the
// hand-over to its asynchronous init and reads ~0.02 ms.
var initRe = regexp.MustCompile(`INIT REPORT\(durationMs: ([0-9.]+)\)`)

// InitDuration is the duration of the function's first init phase as the
// emulator reported it (false before it has).
func (f *Function) InitDuration() (time.Duration, bool) {
	m := initRe.FindStringSubmatch(f.Output())
	if m == nil {
		return 0, false
	}
	ms, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ms * float64(time.Millisecond)), true
}

// Env formats an environment entry.
func Env(k, v string) string { return k + "=" + v }

// syncBuffer collects a child's output, bounded, for error messages.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

const maxOutput = 1 << 20

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxOutput - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// ModuleRoot returns the directory holding go.mod, walking up from the
// working directory: functions are built from the module's source.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working directory or any parent: run this inside the croupier repository")
		}
		dir = parent
	}
}
