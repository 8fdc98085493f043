// Command hookfaults counts the page faults of every hook in
// hooks/payloads, against an empty static Go program, for one or more st
// binaries: the median over -n interleaved runs of each process's minor
// and major faults (getrusage), the store put back before every run so
// that no run reads what an earlier one appended. On this VM a page
// fault costs about 20 µs and is most of a short process's start, and a
// fault count does not move with the machine's load as a time does.
//
// The store is scripts/bench's (a status, now.md with five decisions, a
// message) plus a busy session's log for every session the payloads
// name: 40 turns of a prompt, two to eight tool calls and a Stop, each
// tool call recording the context fill, about 100 KB, past the 64 KiB
// tail the hooks read. Run from the repository's root:
//
//	CGO_ENABLED=0 go build -o /tmp/b/ ./cmd/st ./scripts/emptygo && cp /tmp/b/st /tmp/b/emptygo /tmp/new/
//	go run ./scripts/hookfaults -n 21 -empty /tmp/new/emptygo /tmp/old/st /tmp/new/st
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("n", 21, "runs of each binary per hook")
	empty := flag.String("empty", "", "the empty static Go program (scripts/emptygo), built as st is")
	flag.Parse()
	bins := flag.Args()
	if *empty == "" || len(bins) == 0 {
		fmt.Fprintln(os.Stderr, "usage: hookfaults [-n runs] -empty EMPTYGO ST...")
		os.Exit(2)
	}
	work, err := os.MkdirTemp("", "hookfaults")
	check(err)
	defer func() { _ = os.RemoveAll(work) }() // a temporary folder: nothing to do if it stays
	payloads, err := filepath.Glob("hooks/payloads/*.json")
	check(err)
	template := filepath.Join(work, "template")
	check(makeStore(template, bins[0], payloads))
	live := filepath.Join(work, "live")
	env := append(os.Environ(), "ST_ROOT="+live+"/store", "HOME="+live+"/home", "ST_AGENT=alice")
	for _, p := range payloads {
		name := strings.TrimPrefix(strings.TrimSuffix(filepath.Base(p), ".json"), "claude-")
		faults := make([][]int64, len(bins)+1)
		for range *runs {
			for i, bin := range append([]string{*empty}, bins...) {
				check(os.RemoveAll(live))
				check(exec.Command("cp", "-a", template, live).Run())
				args := []string{"hook", name}
				if i == 0 {
					args = nil
				}
				faults[i] = append(faults[i], count(bin, args, p, env))
			}
		}
		fmt.Printf("%-22s emptygo %d", name, median(faults[0]))
		for i, bin := range bins {
			fmt.Printf("  %s %d (%.2fx)", bin, median(faults[i+1]), float64(median(faults[i+1]))/float64(median(faults[0])))
		}
		fmt.Println()
	}
}

// count runs bin with stdin from payload and returns its page faults.
func count(bin string, args []string, payload string, env []string) int64 {
	in, err := os.Open(payload)
	check(err)
	defer func() { _ = in.Close() }() // read-only
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Env = in, env
	_ = cmd.Run() // a hook's exit code is its answer; the faults count either way
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return ru.Minflt + ru.Majflt
}

func median(xs []int64) int64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// makeStore builds the store every run starts from at dir.
func makeStore(dir, st string, payloads []string) error {
	env := append(os.Environ(), "ST_ROOT="+dir+"/store", "HOME="+dir+"/home", "ST_AGENT=alice")
	steps := [][]string{{"status", "--set", "busy"}, {"context", "write"}}
	for i := 1; i <= 5; i++ {
		steps = append(steps, []string{"context", "append", "--decision", fmt.Sprint("d", i), "--why", fmt.Sprint("w", i)})
	}
	steps = append(steps, []string{"message", "send", "alice", "-m", "hello"})
	for _, s := range steps {
		cmd := exec.Command(st, s...)
		cmd.Env, cmd.Stdin = env, strings.NewReader("working on the benchmark\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("st %s: %v: %s", strings.Join(s, " "), err, out)
		}
	}
	sessions := map[string]bool{}
	for _, p := range payloads {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var v struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal(data, &v) == nil && v.SessionID != "" {
			sessions[v.SessionID] = true
		}
	}
	logs := filepath.Join(dir, "store/alice/events")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return err
	}
	for s := range sessions {
		if err := os.WriteFile(filepath.Join(logs, s+".jsonl"), busyLog(s), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// busyLog is 40 turns of session s as st's hooks log them.
func busyLog(s string) []byte {
	rnd := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2026, 12, 4, 8, 0, 0, 0, time.UTC)
	var b strings.Builder
	line := func(fields map[string]any) {
		at = at.Add(1500 * time.Millisecond)
		fields["ts"], fields["session"] = at.Format("2006-01-02T15:04:05.000Z"), s
		data, _ := json.Marshal(fields)
		b.Write(append(data, '\n'))
	}
	line(map[string]any{"event": "SessionStart", "type": "startup", "cwd": "/home/user/proj", "host": "vm", "hook_us": 2100})
	fill := 20000
	for range 40 {
		line(map[string]any{"event": "UserPromptSubmit", "bytes": 120, "cwd": "/home/user/proj", "host": "vm", "hook_us": 3100})
		for range 2 + rnd.IntN(7) {
			fill += 500 + rnd.IntN(2500)
			tool := []string{"Bash", "Read", "Edit", "Grep"}[rnd.IntN(4)]
			call := map[string]any{"tool": tool, "input": fmt.Sprintf("%012x", rnd.Uint64()>>16), "hook_us": 1900}
			if tool == "Bash" {
				call["command"] = "go test ./..."
			} else {
				call["path"] = fmt.Sprintf("/home/user/proj/pkg/file%d.go", rnd.IntN(30))
			}
			pre := map[string]any{"event": "PreToolUse"}
			post := map[string]any{"event": "PostToolUse", "bytes": 100 + rnd.IntN(20000), "tool_ms": 5 + rnd.IntN(900),
				"ctx_tokens": fill, "model": "claude-opus-4"}
			for k, v := range call {
				pre[k], post[k] = v, v
			}
			line(pre)
			line(post)
		}
		line(map[string]any{"event": "Stop", "ctx_tokens": fill, "model": "claude-opus-4", "hook_us": 2500})
	}
	return []byte(b.String())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "hookfaults:", err)
		os.Exit(1)
	}
}
