package inbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/storetest"
)

// store creates a root holding files (slash paths relative to the root;
// a path ending in "/" is an empty folder) and returns the opened tree
// and the root's path.
func store(t testing.TB, files map[string]string) (*fsutil.Tree, string) {
	t.Helper()
	return storetest.Open(t, files)
}

func exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

func msg(from, extra string) string {
	return "---\nfrom: " + from + "\n" + extra + "---\nbody\n"
}
