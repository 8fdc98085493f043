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

	"github.com/smalltalk-go/st/reserve"
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

// reservedStore is hookStore with 1,000 active reservations (10 agents x
// 100) of a repository, and an Edit payload of a path one of them holds.
func reservedStore(b *testing.B) (env []string, payload []byte, dirs []string) {
	env = hookStore(b, 0)
	root := strings.TrimPrefix(env[0], "ST_ROOT=")
	repo := filepath.Join(b.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o777); err != nil {
		b.Fatal(err)
	}
	repo, _ = filepath.EvalSymlinks(repo)
	if err := reserve.Populate(root, repo, 10, 100, false); err != nil {
		b.Fatal(err)
	}
	payload = []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/","tool_name":"Edit","tool_input":{"file_path":"` +
		repo + `/pkg7/sub40/x.go","old_string":"a","new_string":"b"},"tool_use_id":"t1"}`)
	dirs, _ = filepath.Glob(filepath.Join(root, "agent*", reserve.Folder))
	return env, payload, dirs
}

// BenchmarkHookPreToolUse1000Reservations is an edit refused under one of
// 1,000 reservations: compare BenchmarkHookReadFloor1000Reservations.
func BenchmarkHookPreToolUse1000Reservations(b *testing.B) {
	env, payload, _ := reservedStore(b)
	var times []time.Duration
	bin := builtSt(b)
	for b.Loop() {
		cmd := exec.Command(bin, "hook", "pre-tool-use")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
		start := time.Now()
		out, err := cmd.Output()
		times = append(times, time.Since(start))
		if err != nil || !bytes.Contains(out, []byte(`"permissionDecision":"deny"`)) {
			b.Fatalf("%v: %s", err, out)
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

// BenchmarkHookReadFloor1000Reservations is scripts/readfloor reading the
// same reservation files: the floor of the hook above.
func BenchmarkHookReadFloor1000Reservations(b *testing.B) {
	_, _, dirs := reservedStore(b)
	dir := b.TempDir()
	build := exec.Command("go", "build", "-o", dir, "../../scripts/readfloor")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build readfloor: %v\n%s", err, out)
	}
	benchExec(b, nil, nil, append([]string{filepath.Join(dir, "readfloor")}, dirs...)...)
}
