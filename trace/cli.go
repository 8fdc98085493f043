package trace

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// args are what st passes: the store, whose sessions, which.
type args struct {
	root, agent, session, transcript, claudeDir string
	since                                       time.Duration
	quiet, again                                bool
}

func parse(argv []string, stderr io.Writer) (args, error) {
	var a args
	if len(argv) == 0 || argv[0] != "export" {
		return a, fmt.Errorf("usage: st-trace export --root DIR [--agent ID] [--session ID [--transcript FILE]] [--since DUR]")
	}
	fs := flag.NewFlagSet("st-trace export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&a.root, "root", "", "the store")
	fs.StringVar(&a.agent, "agent", "", "whose sessions (default: every agent's)")
	fs.StringVar(&a.session, "session", "", "one session, by id")
	fs.StringVar(&a.transcript, "transcript", "", "the client's transcript of --session")
	fs.StringVar(&a.claudeDir, "claude-dir", "", "where Claude Code keeps transcripts")
	fs.DurationVar(&a.since, "since", 0, "also the sessions ended this long ago or later")
	fs.BoolVar(&a.quiet, "quiet", false, "print nothing on success (the session-end hook)")
	fs.BoolVar(&a.again, "again", false, "send --session even if it was sent before (a session still running)")
	if err := fs.Parse(argv[1:]); err != nil {
		return a, err
	}
	switch {
	case a.root == "":
		return a, fmt.Errorf("--root is required")
	case a.session != "" && a.agent == "":
		return a, fmt.Errorf("--session needs --agent")
	}
	return a, nil
}

// Main is st-trace: `export` with the store and the sessions st names,
// sending with send; it returns the exit code.
func Main(argv []string, stdout, stderr io.Writer, send func(context.Context, []Trace) error) int {
	a, err := parse(argv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "st trace:", err)
		return 2
	}
	t, err := fsutil.Open(a.root)
	if err != nil {
		fmt.Fprintln(stderr, "st trace:", err)
		return 1
	}
	defer func() { _ = t.Close() }() // read-only handle on the store's root
	// A person's export waits its turn a while; the hooks' never wait
	// long: the running export takes their traces.
	wait := 10 * time.Second
	if a.quiet {
		wait = 100 * time.Millisecond
	}
	e := Export{Tree: t, ClaudeDir: a.claudeDir, Now: time.Now, Send: send, LockWait: wait}
	if a.agent != "" {
		e.Agents = []string{a.agent}
	} else {
		e.Agents = agents.IDs(t)
	}
	if a.session != "" {
		e.Sessions = []Ref{{Agent: a.agent, Session: a.session, Transcript: a.transcript, Again: a.again}}
	}
	if a.since > 0 {
		e.Since = time.Now().Add(-a.since)
	}
	res, err := e.Run(context.Background())
	if err != nil {
		fmt.Fprintln(stderr, "st trace:", err)
		return 1
	}
	if !a.quiet {
		fmt.Fprintf(stdout, "sent %d trace(s)", res.Sent)
		if res.Skipped > 0 {
			fmt.Fprintf(stdout, ", %d already sent or empty", res.Skipped)
		}
		if res.Parked > 0 {
			fmt.Fprintf(stdout, ", %d refused as too large (parked: see traces/export.log)", res.Parked)
		}
		if res.Deferred > 0 {
			fmt.Fprintf(stdout, ", %d left for the export already running", res.Deferred)
		}
		fmt.Fprintln(stdout)
	}
	return 0
}
