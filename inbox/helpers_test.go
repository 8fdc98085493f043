package inbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// store creates a root holding files (slash paths relative to the root;
// a path ending in "/" is an empty folder) and returns the opened tree
// and the root's path.
func store(t testing.TB, files map[string]string) (*fsutil.Tree, string) {
	t.Helper()
	root := t.TempDir()
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
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, root
}

func exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

func msg(from, extra string) string {
	return "---\nfrom: " + from + "\n" + extra + "---\nbody\n"
}
