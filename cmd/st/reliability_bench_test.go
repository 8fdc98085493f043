package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchApp runs one in-process invocation against root and fails the
// benchmark on a non-zero exit.
func benchRun(b *testing.B, root string, args ...string) {
	var out, errb bytes.Buffer
	env := map[string]string{"ST_ROOT": root, "ST_AGENT": "alice", "HOME": filepath.Dir(root)}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	a := newApp(append([]string{"st"}, args...), strings.NewReader(""), &out, &errb, lookup)
	if code := run(a); code != 0 {
		b.Fatalf("st %v: exit %d: %s", args, code, errb.String())
	}
}

// BenchmarkInProcessStatus is `st status` minus process start-up:
// argument scan, kong, agent resolution and the status read.
func BenchmarkInProcessStatus(b *testing.B) {
	root := filepath.Join(b.TempDir(), "store")
	benchRun(b, root, "status", "--set", "busy")
	b.ReportAllocs()
	for b.Loop() {
		benchRun(b, root, "status")
	}
}

// BenchmarkInProcessSend is `st message send bob -m x` minus start-up.
func BenchmarkInProcessSend(b *testing.B) {
	root := filepath.Join(b.TempDir(), "store")
	b.ReportAllocs()
	for b.Loop() {
		benchRun(b, root, "message", "send", "bob", "-m", "x")
	}
	entries, _ := os.ReadDir(filepath.Join(root, "bob", "inbox"))
	if len(entries) != b.N {
		b.Fatalf("%d messages for %d sends", len(entries), b.N)
	}
}

// BenchmarkInProcessContextRead is `st context read --full`.
func BenchmarkInProcessContextRead(b *testing.B) {
	root := filepath.Join(b.TempDir(), "store")
	benchRun(b, root, "context", "append", "--decision", "d", "--why", "w")
	b.ReportAllocs()
	for b.Loop() {
		benchRun(b, root, "context", "read", "--full")
	}
}
