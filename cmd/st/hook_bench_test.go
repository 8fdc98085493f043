package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The hot-path hooks run on every tool call: their cost is measured as
// whole processes, against starting /bin/true, with an empty event log
// and with a 200,000-line one (the append must not read the log). Run:
//
//	go test ./cmd/st -run '^$' -bench Hook -benchtime 300x
//
// Each benchmark reports the median wall time of one run (median-ms).

// builtSt returns the st binary built by buildST; a failed build skips b.
func builtSt(b *testing.B) string {
	bin, err := buildST()
	if err != nil {
		b.Skipf("cannot build st: %v", err)
	}
	return bin
}

// benchExec runs argv with stdin per iteration and reports the median.
func benchExec(b *testing.B, env []string, stdin []byte, argv ...string) {
	var times []time.Duration
	for b.Loop() {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(stdin)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		times = append(times, time.Since(start))
		if err != nil {
			b.Fatalf("%v: %v\n%s", argv, err, out)
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

// hookStore makes a store with agent alice and, when lines > 0, a
// session log of that many lines.
func hookStore(b *testing.B, lines int) []string {
	root := b.TempDir()
	for _, d := range []string{"alice/inbox", "alice/archive", "alice/events"} {
		os.MkdirAll(filepath.Join(root, d), 0o777)
	}
	if lines > 0 {
		line := `{"ts":"2026-07-21T10:00:00.000Z","event":"PostToolUse","session":"s1","tool":"Bash","command":"go test ./...","input":"d7e5989af12b","bytes":32,"tool_ms":1200,"hook_us":140}` + "\n"
		os.WriteFile(filepath.Join(root, "alice/events/s1.jsonl"), []byte(strings.Repeat(line, lines)), 0o666)
	}
	return []string{"ST_ROOT=" + root, "ST_AGENT=alice", "HOME=" + root, "ST_CONFIG=" + filepath.Join(root, "config"), "PATH=" + os.Getenv("PATH")}
}

var (
	benchPre  = []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/etc/hostname"},"tool_use_id":"t1"}`)
	benchPost = []byte(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"ok","stderr":""},"duration_ms":1200}`)
)

func BenchmarkHookBinTrue(b *testing.B) {
	benchExec(b, nil, nil, "/bin/true")
}

func BenchmarkHookPreToolUse(b *testing.B) {
	benchExec(b, hookStore(b, 0), benchPre, builtSt(b), "hook", "pre-tool-use")
}

func BenchmarkHookPostToolUse(b *testing.B) {
	benchExec(b, hookStore(b, 0), benchPost, builtSt(b), "hook", "post-tool-use")
}

func BenchmarkHookPreToolUse200kLog(b *testing.B) {
	benchExec(b, hookStore(b, 200_000), benchPre, builtSt(b), "hook", "pre-tool-use")
}

func BenchmarkHookPostToolUse200kLog(b *testing.B) {
	benchExec(b, hookStore(b, 200_000), benchPost, builtSt(b), "hook", "post-tool-use")
}
