// Command croupier is Croupier on one machine: `serve` runs every function's
// routes, the scheduler and the embedded store on one port; `play` is a
// player's command line over the JSON API; `verify` recomputes a game's
// random draws from its revealed seeds.
//
// main only wires the process to run, which takes its arguments, output
// streams and environment explicitly, so tests drive exactly the code path a
// user does.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"croupier/internal/config"
)

// version is set at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

// Exit codes.
const (
	exitOK      = 0
	exitRefused = 1 // the server refused, or something failed
	exitUsage   = 2 // the command line itself is wrong
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	e := &env{ctx: context.Background(), stdout: stdout, stderr: stderr, getenv: os.Getenv}
	return e.run(args)
}

// env is what a command may touch of the process: tests build their own.
type env struct {
	ctx            context.Context
	stdout, stderr io.Writer
	getenv         func(string) string
	// onListen, when set, is told the address serve listens on (tests).
	onListen func(addr string)
	// newKey, when set, replaces the random idempotency key of each play
	// command (tests, for reproducible command ids and draws).
	newKey func() string
}

// usageError is a mistake in the command line: exit 2, with a hint.
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

const mainHelp = `croupier: the game master for chat-played nomic games, on one machine.

Usage:
  croupier <command> [flags] [args]

Commands:
  serve     run the API, the scheduler and the embedded store on one port
  play      act as a player against a running server (croupier play help)
  verify    recompute every random draw of a game from its revealed seeds
  bench     measure each command's latency and AWS-priced cost (make bench)
  discord   register the Discord application's commands (croupier discord register -h)
  version   print the version
  help      this text; "croupier help <command>" for one command

Run "croupier <command> -h" for a command's flags. Environment variables:
  CROUPIER_ADDR, CROUPIER_DATA, CROUPIER_API_KEYS   (serve)
  CROUPIER_URL, CROUPIER_KEY, CROUPIER_GAME, CROUPIER_AS   (play, verify)
`

func (e *env) run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, mainHelp)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "serve":
		err = e.serve(rest)
	case "play":
		err = e.play(rest)
	case "verify":
		err = e.verify(rest)
	case "bench":
		err = e.bench(rest)
	case "discord":
		err = e.discord(rest)
	case "version", "-version", "--version":
		fmt.Fprintln(e.stdout, versionString())
	case "help", "-h", "-help", "--help":
		err = e.help(rest)
	default:
		err = usagef("unknown command %q; the commands are serve, play, verify, bench, version, help", cmd)
	}
	return e.exit(err)
}

// exit reports err and maps it to an exit code.
func (e *env) exit(err error) int {
	var ue *usageError
	var se *silentError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &se):
		return se.code
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "croupier: %s\n", ue.msg)
		return exitUsage
	default:
		fmt.Fprintf(e.stderr, "croupier: %s\n", err)
		return exitRefused
	}
}

// silentError carries an exit code whose explanation was already printed.
type silentError struct{ code int }

func (s *silentError) Error() string { return fmt.Sprintf("exit %d", s.code) }

func (e *env) help(args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stdout, mainHelp)
		return nil
	}
	switch args[0] {
	case "serve", "verify", "bench":
		return e.run2(args[0], "-h")
	case "play":
		return e.play(append([]string{"help"}, args[1:]...))
	}
	return usagef("no help for %q; the commands are serve, play, verify, bench, version", args[0])
}

// run2 runs a subcommand with help output going to stdout (asked-for help
// is the command's output, not an error).
func (e *env) run2(cmd string, args ...string) error {
	e2 := *e
	e2.stderr = e.stdout
	switch cmd {
	case "serve":
		return e2.serve(args)
	case "bench":
		return e2.bench(args)
	default:
		return e2.verify(args)
	}
}

// envOr returns the environment variable name, or def when it is unset.
func (e *env) envOr(name, def string) string {
	if v := strings.TrimSpace(e.getenv(name)); v != "" {
		return v
	}
	return def
}

func versionString() string {
	s := "croupier " + version
	if rev := config.Version(); rev != "dev" {
		s += " (" + rev + ")"
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		s += " " + bi.GoVersion
	}
	return s
}

// newFlagSet returns a flag set whose errors come back to the caller and
// whose usage text starts with synopsis.
func (e *env) newFlagSet(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), synopsis)
		if hasFlags(fs) {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseInterspersed parses flags and positional arguments in any order
// (`roll 2d6 --reason x` and `roll --reason x 2d6` alike); the standard
// flag package stops at the first positional argument.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &silentError{code: exitUsage} // flag already printed the error and usage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// After a "--" terminator everything left is positional.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// listFlag is a repeatable flag that also accepts comma-separated values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}
