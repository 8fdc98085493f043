// Package storetest builds st stores in tests: a temporary root with the
// given files, and the store opened on it.
package storetest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// Write creates files under root: keys are slash paths relative to it, a
// key ending in "/" is an empty folder, any other holds its value.
func Write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o777); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// Open writes files under a fresh root and opens the store on it; the
// store is closed when the test ends.
func Open(t testing.TB, files map[string]string) (*fsutil.Tree, string) {
	t.Helper()
	root := t.TempDir()
	Write(t, root, files)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, root
}

// Sparse writes head to rel under root and extends the file to size
// bytes without writing them, so a test can plant a huge file cheaply.
func Sparse(t testing.TB, root, rel, head string, size int64) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(head), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
}

// Allocated is how many bytes f allocates on the heap.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
