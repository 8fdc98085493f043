package status

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

func newTree(t *testing.T) (*fsutil.Tree, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "alice"), 0o777); err != nil {
		t.Fatal(err)
	}
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, root
}

func writeStatus(t *testing.T, root, content string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(root, "alice", "status")
	if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
	mt := time.Now().Add(-age)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNormalize(t *testing.T) {
	tests := map[string]string{
		"busy\n":                       "busy",
		"busy":                         "busy",
		"  busy  ":                     "busy",
		"b u s y":                      "busy",
		"\tb\u00a0u\u3000sy\ufeff\r\n": "busy",
		"BUSY":                         "offline",
		"busy\nextra":                  "busy",
		"garbage\nbusy":                "offline",
		"garbage":                      "offline",
		"":                             "offline",
		"\n":                           "offline",
		"unknown\n":                    "unknown",
		"available\n":                  "available",
		"away":                         "away",
		"dnd":                          "dnd",
		"offline":                      "offline",
		"busy\u200b":                   "offline", // U+200B is not JS whitespace
		"busy\u0085":                   "offline",
		"\x00busy":                     "offline",
	}
	for in, want := range tests {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEffective(t *testing.T) {
	tests := []struct {
		content string
		age     time.Duration
		want    string
	}{
		{"busy\n", 14 * time.Minute, "busy"},
		{"busy\n", 16 * time.Minute, "unknown"},
		{"offline\n", 16 * time.Minute, "unknown"},
		{"garbage\n", 16 * time.Minute, "unknown"},
		{"garbage\n", 0, "offline"},
		{"away\n", -time.Hour, "away"}, // a future mtime is not stale
		{"unknown\n", 0, "unknown"},
		{"", 0, "offline"},
	}
	for _, tt := range tests {
		tr, root := newTree(t)
		writeStatus(t, root, tt.content, tt.age)
		if got := Effective(tr, "alice", time.Now()); got != tt.want {
			t.Errorf("Effective(%q, age %v) = %q, want %q", tt.content, tt.age, got, tt.want)
		}
	}
	tr, root := newTree(t)
	if got := Effective(tr, "alice", time.Now()); got != "offline" {
		t.Errorf("missing file: %q", got)
	}
	if got := Effective(nil, "alice", time.Now()); got != "offline" {
		t.Errorf("nil tree: %q", got)
	}
	// Exactly 15 minutes is not stale (strictly greater).
	p := writeStatus(t, root, "busy\n", 0)
	fi, _ := os.Stat(p)
	if got := Effective(tr, "alice", fi.ModTime().Add(StaleAfter)); got != "busy" {
		t.Errorf("at exactly 15 min: %q", got)
	}
	if got := Effective(tr, "alice", fi.ModTime().Add(StaleAfter+time.Millisecond)); got != "unknown" {
		t.Errorf("at 15 min + 1 ms: %q", got)
	}
}

func TestEffectiveNeverBlocks(t *testing.T) {
	tr, root := newTree(t)
	if err := syscall.Mkfifo(filepath.Join(root, "alice", "status"), 0o666); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan string, 1)
	go func() {
		s := Effective(tr, "alice", time.Now())
		Refresh(tr, "alice")
		done <- s
	}()
	select {
	case got := <-done:
		if got != "offline" {
			t.Errorf("FIFO status = %q, want offline", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Effective/Refresh blocked on a FIFO")
	}
	// A symlink is not followed either.
	os.Remove(filepath.Join(root, "alice", "status"))
	os.WriteFile(filepath.Join(root, "target"), []byte("busy\n"), 0o666)
	os.Symlink("../target", filepath.Join(root, "alice", "status"))
	if got := Effective(tr, "alice", time.Now()); got != "offline" {
		t.Errorf("symlinked status = %q, want offline", got)
	}
}

// Set and SetAtExit write the same bytes and refuse the same states.
func TestSet(t *testing.T) {
	for name, set := range map[string]func(*fsutil.Tree, string, string) error{"Set": Set, "SetAtExit": SetAtExit} {
		t.Run(name, func(t *testing.T) {
			tr, root := newTree(t)
			for _, s := range Settable {
				if err := set(tr, "alice", s); err != nil {
					t.Fatal(err)
				}
				data, _ := os.ReadFile(filepath.Join(root, "alice", "status"))
				if string(data) != s+"\n" {
					t.Errorf("%s(%s) wrote %q", name, s, data)
				}
			}
			for _, bad := range []string{"unknown", "", "BUSY", "urgent", " busy"} {
				err := set(tr, "alice", bad)
				if err == nil || err.Error() != "state must be one of: offline, available, busy, away, dnd" {
					t.Errorf("%s(%q) = %v", name, bad, err)
				}
			}
			data, _ := os.ReadFile(filepath.Join(root, "alice", "status"))
			if string(data) != "dnd\n" {
				t.Errorf("a refused %s changed the file: %q", name, data)
			}
			assertNoTemps(t, filepath.Join(root, "alice"))
		})
	}
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	names, _ := os.ReadDir(dir)
	for _, n := range names {
		if strings.HasPrefix(n.Name(), ".") {
			t.Errorf("temp file left: %s", n.Name())
		}
	}
}

func TestRefresh(t *testing.T) {
	old := 10 * time.Minute
	tests := []struct {
		content string // "-" means no file
		want    string // "-" means still no file
		bumped  bool
	}{
		{"-", "available\n", true},
		{"busy\n", "busy\n", true},
		{"  away \t\n", "away\n", true},
		{"offline", "offline\n", true},
		{"unknown\n", "unknown\n", false},
		{"garbage\n", "garbage\n", false},
		{"", "", false},
		{"b u s y\n", "b u s y\n", false},
		{"BUSY\n", "BUSY\n", false},
	}
	for _, tt := range tests {
		tr, root := newTree(t)
		p := filepath.Join(root, "alice", "status")
		if tt.content != "-" {
			writeStatus(t, root, tt.content, old)
		}
		if err := Refresh(tr, "alice"); err != nil {
			t.Errorf("Refresh(%q): %v", tt.content, err)
		}
		data, err := os.ReadFile(p)
		if err != nil || string(data) != tt.want {
			t.Errorf("Refresh(%q) left %q, %v; want %q", tt.content, data, err, tt.want)
		}
		fi, _ := os.Stat(p)
		if bumped := time.Since(fi.ModTime()) < old/2; bumped != tt.bumped {
			t.Errorf("Refresh(%q) bumped mtime = %v, want %v", tt.content, bumped, tt.bumped)
		}
		assertNoTemps(t, filepath.Join(root, "alice"))
	}
}

func BenchmarkEffective(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	os.WriteFile(filepath.Join(root, "alice", "status"), []byte("busy\n"), 0o666)
	tr, _ := fsutil.Open(root)
	defer tr.Close()
	b.ReportAllocs()
	for b.Loop() {
		if Effective(tr, "alice", time.Now()) != "busy" {
			b.Fatal("wrong state")
		}
	}
}

func BenchmarkSet(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	tr, _ := fsutil.Open(root)
	defer tr.Close()
	for b.Loop() {
		if err := Set(tr, "alice", "busy"); err != nil {
			b.Fatal(err)
		}
	}
}

// Readable is written out rather than built at start-up: it must stay
// Settable and unknown.
func TestReadableIsSettableAndUnknown(t *testing.T) {
	want := append(append([]string{}, Settable...), "unknown")
	if !slices.Equal(Readable, want) {
		t.Errorf("Readable = %q, want %q", Readable, want)
	}
}
