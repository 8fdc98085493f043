package dashboard

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	hostfleet "github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/layout"
)

// DefaultAddr is where `st dashboard` listens without --addr.
const DefaultAddr = "127.0.0.1:8340"

// Process describes one run of the st-dashboard binary.
type Process struct {
	Name   string   // the name st was invoked as, for messages
	Args   []string // after the program name
	Env    *layout.Env
	Stdout io.Writer
	Stderr io.Writer
	// Signals delivers SIGINT and SIGTERM; the first ends the server
	// (nil: the process's own).
	Signals <-chan os.Signal
	// Ready, when set, receives the URL once the server listens.
	Ready func(url string)
}

// options are st-dashboard's flags, which `st dashboard` passes on.
type options struct {
	addr        string
	open        bool
	allowRemote bool
	from        string
}

func parseOptions(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("dashboard", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.addr, "addr", DefaultAddr, "")
	fs.BoolVar(&o.open, "open", false, "")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "")
	fs.StringVar(&o.from, "from", "", "")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arg: %s", fs.Arg(0))
	}
	return o, nil
}

// Main runs the dashboard until the first SIGINT or SIGTERM and returns
// the exit code: 0 then, 1 when it cannot start.
func Main(p Process) int {
	sig := p.Signals
	if sig == nil {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(ch)
		sig = ch
	}
	fail := func(err error) int {
		fmt.Fprintf(p.Stderr, "%s: %s\n", p.Name, err)
		return 1
	}
	o, err := parseOptions(p.Args)
	if err != nil {
		return fail(err)
	}
	loopback, err := checkAddr(o.addr, o.allowRemote)
	if err != nil {
		return fail(err)
	}
	if o.from != "" {
		if err := layout.CheckAgent(o.from); err != nil {
			return fail(err)
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fail(fmt.Errorf("cannot listen on %s: %w", o.addr, err))
	}
	port := ln.Addr().(*net.TCPAddr).Port
	host, _, _ := net.SplitHostPort(o.addr)
	url := "http://" + net.JoinHostPort(displayHost(host), strconv.Itoa(port)) + "/"
	hookConfig := hooks.LoadConfig(p.Env.ConfigDir())
	cfg := Config{Root: p.Env.Root(), Env: p.Env, From: o.from, MaxMessageBytes: p.Env.MaxMessageBytes(),
		ContextWindow: hookConfig.ContextWindow, Mailbox: hookConfig.Recipient(p.Env.Get("ST_OPERATOR")),
		Host: hostfleet.Local(p.Env.Get("ST_HOST")), SyncStale: hostfleet.ParseStaleAfter(p.Env.Get("ST_SYNC_STALE_S"))}
	cfg.ProblemNotes = problemNoteDirs(p.Env)
	if loopback {
		cfg.Hosts = loopbackHosts(host, port)
	} else {
		fmt.Fprintf(p.Stderr, "%s: warning: serving %s beyond this machine: anyone who can reach it reads every agent's messages and can send as any agent\n", p.Name, ln.Addr())
	}
	s, err := New(cfg)
	if err != nil {
		_ = ln.Close() // closing on the way out: nothing left to report
		return fail(err)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintln(p.Stdout, url)
	if p.Ready != nil {
		p.Ready(url)
	}
	if o.open {
		if err := openBrowser(p.Env, url); err != nil {
			fmt.Fprintf(p.Stderr, "%s: cannot open a browser: %s\n", p.Name, err)
		}
	}
	select {
	case <-sig:
	case err := <-served:
		_ = s.Close() // closing on the way out: nothing left to report
		return fail(err)
	}
	// Streams end when the server closes; then the rest drains quickly.
	_ = s.Close() // closing on the way out: nothing left to report
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fail(err)
	}
	return 0
}

// checkAddr refuses an address that is not loopback unless remote
// access was asked for; loopback reports whether it is.
func checkAddr(addr string, allowRemote bool) (loopback bool, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--addr must be HOST:PORT, got: %s", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return false, fmt.Errorf("--addr must be HOST:PORT, got: %s", addr)
	}
	if isLoopback(host) {
		return true, nil
	}
	if !allowRemote {
		return false, fmt.Errorf("refusing to serve on %s: not a loopback address (pass --allow-remote to let other machines in)", addr)
	}
	return false, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// displayHost is the host to print in the URL.
func displayHost(host string) string {
	if host == "" {
		return "127.0.0.1"
	}
	return host
}

// loopbackHosts are the Host values a browser sends for a loopback
// server on port: the address given and the usual loopback names.
func loopbackHosts(host string, port int) []string {
	p := strconv.Itoa(port)
	hosts := []string{net.JoinHostPort(host, p), "localhost:" + p, "127.0.0.1:" + p, "[::1]:" + p}
	if port == 80 {
		hosts = append(hosts, host, "localhost", "127.0.0.1", "[::1]")
	}
	return hosts
}

// openBrowser opens url with $BROWSER, else the platform's opener.
func openBrowser(env *layout.Env, url string) error {
	name := env.Get("BROWSER")
	if name == "" {
		name = "xdg-open"
		if runtime.GOOS == "darwin" {
			name = "open"
		}
	}
	cmd := exec.Command(name, url)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }() // reaps the browser it started; its exit says nothing
	return nil
}

// problemNoteDirs are where a hook that cannot write leaves its note,
// found as `st` finds them (cmd/st's problemNoteDirs).
func problemNoteDirs(env *layout.Env) []string {
	state := env.Get("XDG_STATE_HOME")
	if state == "" {
		state = filepath.Join(env.Home(), ".local", "state")
	}
	tmp := env.Get("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	return hooks.ProblemNoteDirs(state, tmp, strconv.Itoa(os.Getuid()))
}
