package hooks

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// The brief reads an archived message once: what it found quiet is
// remembered in the state dir, so a quiet file is not read again (here
// rewritten to ask, which no message ever is, to show it), while new
// arrivals are read and a lost memory means reading the archive again.
func TestBriefRemembersTheQuietArchive(t *testing.T) {
	opt, root := testEnv(t)
	opt.StateDir = t.TempDir()
	archive := filepath.Join(root, "alice", "archive")
	put := func(name, extra string) {
		t.Helper()
		os.MkdirAll(archive, 0o777)
		if err := os.WriteFile(filepath.Join(archive, name), []byte("---\nfrom: bob\n"+extra+"---\nhi\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	unacked := func() []string {
		t.Helper()
		tree, err := fsutil.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer tree.Close()
		return briefUnacked(tree, opt)
	}
	const quiet, asks, later, laterQuiet = "1700000000001-aaaaaa.md", "1700000000002-bbbbbb.md", "1700000000003-cccccc.md", "1700000000004-dddddd.md"
	put(quiet, "")
	put(asks, "ack: required\n")
	if got := unacked(); !slices.Equal(got, []string{asks}) {
		t.Fatalf("first brief: %q, want %q", got, asks)
	}
	key, _ := rootKey(root)
	memory := filepath.Join(opt.StateDir, quietAcksDir, key, "alice")
	if data, err := os.ReadFile(memory); err != nil || string(data) != quiet+"\n" {
		t.Fatalf("remembered %q (%v), want %q", data, err, quiet+"\n")
	}

	put(quiet, "ack: required\n")
	put(later, "ack: required\n")
	put(laterQuiet, "")
	if got := unacked(); !slices.Equal(got, []string{asks, later}) {
		t.Errorf("second brief: %q, want %q (the quiet one not read again, the new one read)", got, []string{asks, later})
	}
	if data, _ := os.ReadFile(memory); string(data) != quiet+"\n"+laterQuiet+"\n" {
		t.Errorf("remembered %q, want both quiet names", data)
	}

	os.Remove(memory)
	if got := unacked(); !slices.Equal(got, []string{quiet, asks, later}) {
		t.Errorf("with the memory lost: %q, want the archive read again", got)
	}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if strings.Contains(path, quietAcksDir) {
			t.Errorf("the memory is in the store: %s", path)
		}
		return nil
	})
}
