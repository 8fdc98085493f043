package fsutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func TestAppendLineRepairsTail(t *testing.T) {
	tests := []struct {
		name, before, want string
	}{
		{"missing file", "", "new\n"},
		{"clean tail", "a\nb\n", "a\nb\nnew\n"},
		{"torn last line", "a\nb\npartial", "a\nb\nnew\n"},
		{"only a torn line", "partial", "new\n"},
		{"NUL tail after a crash", "a\n\x00\x00\x00\x00", "a\nnew\n"},
		{"torn line longer than a chunk", "a\n" + strings.Repeat("x", 3*tailChunk+7), "a\nnew\n"},
		{"newline right at a chunk edge", strings.Repeat("y", tailChunk-1) + "\n" + strings.Repeat("x", tailChunk), strings.Repeat("y", tailChunk-1) + "\nnew\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.before != "" {
				if err := os.WriteFile(filepath.Join(dir, "log"), []byte(tt.before), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			tr, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			if err := tr.AppendLine(context.Background(), "log", []byte("new\n")); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "log"))
			if string(got) != tt.want {
				t.Errorf("file = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAppendLineRefuses(t *testing.T) {
	dir := t.TempDir()
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for _, rec := range []string{"", "no newline", "two\nlines\n", "\n\n"} {
		if err := tr.AppendLine(context.Background(), "log", []byte(rec)); !errors.Is(err, ErrBadLine) {
			t.Errorf("AppendLine(%q) = %v, want ErrBadLine", rec, err)
		}
	}
	os.WriteFile(filepath.Join(dir, "target"), []byte("keep"), 0o666)
	os.Symlink("target", filepath.Join(dir, "link"))
	if err := tr.AppendLine(context.Background(), "link", []byte("x\n")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("AppendLine(symlink) = %v, want ErrNotRegular", err)
	}
	syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o666)
	if err := tr.AppendLine(context.Background(), "fifo", []byte("x\n")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("AppendLine(fifo) = %v, want ErrNotRegular", err)
	}
	if err := tr.AppendLine(context.Background(), "../escape", []byte("x\n")); err == nil {
		t.Errorf("AppendLine(../escape) succeeded")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "target")); string(got) != "keep" {
		t.Errorf("symlink target changed to %q", got)
	}
}

// checkLines asserts data holds exactly the want distinct complete lines.
func checkLines(t *testing.T, data []byte, want map[string]bool) {
	t.Helper()
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Errorf("log does not end in a newline")
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		if !want[l] {
			t.Errorf("unexpected or torn line %q", l)
		}
		if seen[l] {
			t.Errorf("duplicate line %q", l)
		}
		seen[l] = true
	}
	if len(seen) != len(want) {
		t.Errorf("%d distinct lines, want %d", len(seen), len(want))
	}
}

func record(w, i int) string {
	return fmt.Sprintf("writer=%d i=%d pad=%s", w, i, strings.Repeat("z", 300+(w*7+i)%200))
}

func TestAppendLineConcurrentGoroutines(t *testing.T) {
	dir := t.TempDir()
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	const writers, each = 16, 100
	want := map[string]bool{}
	var wg sync.WaitGroup
	for w := range writers {
		for i := range each {
			want[record(w, i)] = true
		}
		wg.Go(func() {
			for i := range each {
				if err := tr.AppendLine(context.Background(), "log", []byte(record(w, i)+"\n")); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	data, _ := os.ReadFile(filepath.Join(dir, "log"))
	checkLines(t, data, want)
}

// TestAppendLineHelper is the child process of the multi-process test.
func TestAppendLineHelper(t *testing.T) {
	dir := os.Getenv("ST_APPEND_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	w, _ := strconv.Atoi(os.Getenv("ST_APPEND_HELPER_W"))
	n, _ := strconv.Atoi(os.Getenv("ST_APPEND_HELPER_N"))
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for i := range n {
		if err := tr.AppendLine(context.Background(), "log", []byte(record(w, i)+"\n")); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAppendLineConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	const procs, each = 8, 100
	want := map[string]bool{}
	cmds := make([]*exec.Cmd, procs)
	for w := range procs {
		for i := range each {
			want[record(w, i)] = true
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestAppendLineHelper$")
		cmd.Env = append(os.Environ(), "ST_APPEND_HELPER_DIR="+dir,
			"ST_APPEND_HELPER_W="+strconv.Itoa(w), "ST_APPEND_HELPER_N="+strconv.Itoa(each))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[w] = cmd
		t.Cleanup(func() {
			if t.Failed() {
				t.Log(out.String())
			}
		})
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("helper: %v", err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "log"))
	checkLines(t, data, want)
}

func TestReadTailAndRange(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("0123456789"), 0o666)
	tr, _ := Open(dir)
	defer tr.Close()
	tests := []struct {
		n    int64
		want string
	}{{3, "789"}, {10, "0123456789"}, {100, "0123456789"}, {0, ""}}
	for _, tt := range tests {
		got, fi, err := tr.ReadTail("f", tt.n)
		if err != nil || string(got) != tt.want || fi.Size() != 10 {
			t.Errorf("ReadTail(%d) = %q, %v", tt.n, got, err)
		}
	}
	ranges := []struct {
		off, limit int64
		want       string
	}{{0, 100, "0123456789"}, {4, 3, "456"}, {10, 5, ""}, {12, 5, ""}}
	for _, r := range ranges {
		got, _, err := tr.ReadRange("f", r.off, r.limit)
		if err != nil || string(got) != r.want {
			t.Errorf("ReadRange(%d, %d) = %q, %v; want %q", r.off, r.limit, got, err, r.want)
		}
	}
	syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o666)
	if _, _, err := tr.ReadTail("fifo", 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadTail(fifo) = %v, want ErrNotRegular", err)
	}
}

// benchAppend measures one append to a log that already holds lines
// lines: the figure must not grow with the log.
func benchAppend(b *testing.B, lines int) {
	dir := b.TempDir()
	line := strings.Repeat("e", 180) + "\n"
	if lines > 0 {
		os.WriteFile(filepath.Join(dir, "log"), bytes.Repeat([]byte(line), lines), 0o666)
	}
	tr, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	b.ResetTimer()
	for b.Loop() {
		if err := tr.AppendLine(context.Background(), "log", []byte(line)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendLineEmptyLog(b *testing.B)  { benchAppend(b, 0) }
func BenchmarkAppendLine200kLines(b *testing.B) { benchAppend(b, 200_000) }
