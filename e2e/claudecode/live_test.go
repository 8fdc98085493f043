package claudecode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// live is a claude session kept open by --input-format stream-json: it
// takes user turns on stdin and lives until stdin closes, as an
// interactive session would, so that an asyncRewake hook can wake it.
type live struct {
	p         *project
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	debugFile string

	errb    bytes.Buffer // stderr, read once claude has exited
	mu      sync.Mutex
	out     bytes.Buffer
	results []map[string]any
	changed chan struct{} // closed and replaced on every new result
	done    chan struct{}
}

func (p *project) start(args ...string) *live {
	p.t.Helper()
	l := &live{p: p, debugFile: filepath.Join(p.t.TempDir(), "debug.log"), changed: make(chan struct{}), done: make(chan struct{})}
	argv := append([]string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
		"--debug-file", l.debugFile, "--include-hook-events", "--allowedTools", "Bash,Read,Task,Agent,mcp__st"}, args...)
	l.cmd = exec.Command(p.claudeBin, argv...)
	l.cmd.Dir = p.dir
	l.cmd.Env = p.env()
	l.cmd.Stderr = &l.errb
	var err error
	if l.stdin, err = l.cmd.StdinPipe(); err != nil {
		p.t.Fatal(err)
	}
	stdout, err := l.cmd.StdoutPipe()
	if err != nil {
		p.t.Fatal(err)
	}
	if err := l.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() {
		l.stdin.Close()
		select {
		case <-l.done:
		case <-time.After(runTimeout):
			l.cmd.Process.Kill()
		}
	})
	go func() {
		defer func() { l.cmd.Wait(); close(l.done) }()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			l.mu.Lock()
			l.out.Write(sc.Bytes())
			l.out.WriteByte('\n')
			var ev map[string]any
			if json.Unmarshal(sc.Bytes(), &ev) == nil && ev["type"] == "result" {
				l.results = append(l.results, ev)
				close(l.changed)
				l.changed = make(chan struct{})
			}
			l.mu.Unlock()
		}
	}()
	return l
}

// send writes one user turn.
func (l *live) send(text string) {
	line, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
	if _, err := l.stdin.Write(append(line, '\n')); err != nil {
		l.p.t.Fatalf("writing to claude: %v", err)
	}
}

// result waits for the k-th result event (from 1) and returns it.
func (l *live) result(k int) map[string]any {
	l.p.t.Helper()
	deadline := time.After(runTimeout)
	for {
		l.mu.Lock()
		if len(l.results) >= k {
			r := l.results[k-1]
			l.mu.Unlock()
			return r
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-l.done:
			l.mu.Lock()
			n := len(l.results)
			l.mu.Unlock()
			if n < k {
				l.p.t.Fatalf("claude exited after %d results, want %d; output ends:\n%s", n, k, tail(l.output(), 3000))
			}
		case <-deadline:
			l.p.t.Fatalf("waited %v for result %d; output ends:\n%s", runTimeout, k, tail(l.output(), 3000))
		}
	}
}

func (l *live) output() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.String()
}

// close ends the session (stdin EOF), waits for claude to exit and
// returns the whole run.
func (l *live) close() *run {
	l.p.t.Helper()
	l.stdin.Close()
	select {
	case <-l.done:
	case <-time.After(runTimeout):
		l.cmd.Process.Kill()
		l.p.t.Fatalf("claude did not exit within %v of stdin's EOF", runTimeout)
	}
	dbg, _ := os.ReadFile(l.debugFile)
	r := parseRun(l.output(), l.errb.String(), string(dbg))
	l.p.keep(r)
	return r
}
