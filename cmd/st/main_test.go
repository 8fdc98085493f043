package main

import (
	"cmp"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/smalltalk-go/st/dashboard"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/mcp"
	"github.com/smalltalk-go/st/mcp/front"
	"github.com/smalltalk-go/st/trace"
	"github.com/smalltalk-go/st/trace/otlp"
)

// noRaceExitSleep stops a binary built with -race from sleeping a second
// at exit (the race runtime's atexit_sleep_ms, which only gives racing
// goroutines time to report): every st a test runs would take a second
// longer, and tests that look at ages or budgets would read the sleep.
const noRaceExitSleep = "atexit_sleep_ms=0"

func TestMain(m *testing.M) {
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", noRaceExitSleep)
	}
	testscript.Main(m, map[string]func(){
		"st": func() {
			os.Exit(run(newTestApp()))
		},
		// The same binary under the name of upstream's symlink.
		"smalltalk": func() {
			os.Exit(run(newTestApp()))
		},
		// The MCP server's front that clients run (`st mcp` runs the
		// same in process), and the SDK server it execs in turn.
		"st-mcp": func() {
			p, _ := newTestMCP()
			os.Exit(front.Main(p))
		},
		"st-mcp-server": func() {
			os.Exit(mcp.Main(newTestMCP()))
		},
		// The trace exporter that `st trace export` and session-end run.
		"st-trace": func() {
			os.Exit(trace.Main(os.Args[1:], os.Stdout, os.Stderr, otlp.Send))
		},
		// The dashboard that `st dashboard` execs.
		"st-dashboard": func() {
			os.Exit(dashboard.Main(dashboard.Process{
				Name: cmp.Or(os.Getenv("_ST_INVOKED_AS"), "st"), Args: os.Args[1:],
				Env: layout.NewEnv(os.LookupEnv, os.Stderr), Stdout: os.Stdout, Stderr: os.Stderr,
			}))
		},
	})
}

// newTestApp is the real app with one test seam: $ST_TEST_NOW (unix ms)
// fixes the clock, so scripts can assert timestamps and ages.
func newTestApp() *app {
	a := newApp(os.Args, os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)
	a.now = testClock()
	a.tuneMCP = func(p *front.Process) {
		test, _ := newTestMCP()
		p.StatusEvery, p.TidyEvery, p.BackstopEvery = test.StatusEvery, test.TidyEvery, test.BackstopEvery
	}
	return a
}

// testClock is time.Now, or the fixed $ST_TEST_NOW (unix ms) when set.
func testClock() func() time.Time {
	v := os.Getenv("ST_TEST_NOW")
	if v == "" {
		return time.Now
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		panic("bad ST_TEST_NOW: " + v)
	}
	return func() time.Time { return time.UnixMilli(ms) }
}

// newTestMCP is st-mcp's and st-mcp-server's process with two test seams:
// ST_TEST_MCP_INTERVALS="status,tidy,backstop" (ms) shortens its timers;
// ST_TEST_MCP_SLOW_CALL=<file> holds each tool call, once it has
// started, for slowCall after creating <file>, and lets the shutdown wait
// for it as long as it takes.
func newTestMCP() (front.Process, func(*mcp.Config)) {
	p := front.OSProcess()
	p.Now = testClock()
	intervals, slow := os.Getenv("ST_TEST_MCP_INTERVALS"), os.Getenv("ST_TEST_MCP_SLOW_CALL")
	if intervals == "" && slow == "" {
		return p, nil
	}
	var ms [3]time.Duration
	if intervals != "" {
		for i, f := range strings.Split(intervals, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || i >= 3 {
				panic("bad ST_TEST_MCP_INTERVALS: " + intervals)
			}
			ms[i] = time.Duration(n) * time.Millisecond
		}
	}
	p.StatusEvery, p.TidyEvery, p.BackstopEvery = ms[0], ms[1], ms[2]
	return p, func(c *mcp.Config) {
		c.StatusEvery, c.TidyEvery, c.BackstopEvery = ms[0], ms[1], ms[2]
		if slow != "" {
			c.CallsGrace = time.Minute
			c.CallStarted = func() {
				_ = os.WriteFile(slow, nil, 0o666)
				time.Sleep(slowCall)
			}
		}
	}
}

// slowCall is how long ST_TEST_MCP_SLOW_CALL holds a tool call: far
// longer than a shutdown takes, so that one that does not wait for the
// call exits in the middle of it.
const slowCall = 300 * time.Millisecond

func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script"))
}

func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                dir,
		RequireUniqueNames: true,
		UpdateScripts:      os.Getenv("ST_UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("ST_ROOT", filepath.Join(env.WorkDir, "store"))
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("ST_CONFIG", filepath.Join(env.WorkDir, "config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, "state"))
			env.Setenv("ST_AGENT", "alice")
			env.Setenv("GORACE", noRaceExitSleep)
			// $PAYLOADS holds what Claude Code really sends, as recorded.
			if p, err := filepath.Abs("../../e2e/claudecode/testdata/payloads"); err == nil {
				env.Setenv("PAYLOADS", p)
			}
			// $STBIN is the st the scripts run, as `st hooks` reports it.
			if p, err := exec.LookPath("st"); err == nil {
				env.Setenv("STBIN", p)
				env.Setenv("STBINDIR", filepath.Dir(p))
			}
			return nil
		},
		Condition: sshCondition,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":   cmdExitcode,
			"countfiles": cmdCountfiles,
			"onefile":    cmdOnefile,
			"age":        cmdAge,
			"codextrust": cmdCodextrust,
			"sshd":       cmdSshd,
			"frozenpeer": cmdFrozenpeer,
		},
	}
}

// exitcode N cmd args... runs cmd and asserts its exit code is N.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		got = exit.ExitCode()
	} else if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// countfiles DIR N asserts DIR holds N entries whose names do not start
// with a dot (a missing DIR holds 0). With -all, dot entries count too.
func cmdCountfiles(ts *testscript.TestScript, neg bool, args []string) {
	all := len(args) > 0 && args[0] == "-all"
	if all {
		args = args[1:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: countfiles [-all] DIR N")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	if err != nil && !os.IsNotExist(err) {
		ts.Fatalf("countfiles: %v", err)
	}
	n := 0
	for _, e := range entries {
		if all || !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	if got := strconv.Itoa(n); (got == args[1]) == neg {
		ts.Fatalf("%s holds %d files, want %s%s", args[0], n, map[bool]string{true: "not ", false: ""}[neg], args[1])
	}
}

// onefile DIR DEST asserts DIR holds exactly one non-dot file and copies
// it to DEST, so scripts can cmp a message whose name is random.
func cmdOnefile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: onefile DIR DEST")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	if len(names) != 1 {
		ts.Fatalf("%s holds %v, want exactly one file", args[0], names)
	}
	data, err := os.ReadFile(filepath.Join(ts.MkAbs(args[0]), names[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o666))
}

// age FILE SECONDS sets FILE's modification time SECONDS into the past
// (negative: the future).
func cmdAge(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: age FILE SECONDS")
	}
	s, err := strconv.ParseFloat(args[1], 64)
	ts.Check(err)
	mt := time.Now().Add(-time.Duration(s * float64(time.Second)))
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), mt, mt))
}
