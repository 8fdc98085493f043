package inbox

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// headFields is what a headReader(first, most) yields for content,
// parsed, next to the fields of the whole file it should match.
func headFields(t testing.TB, content string, first, most int64) (got, want message.Fields) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.md"), []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
	tr, err := fsutil.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	folder, err := tr.OpenFolder(".")
	if err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	data, err := newHeadReader(int(first), int(most)).read(folder, "m.md")
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ = message.Parse(Text(data))
	want, _, _ = message.Parse(Text([]byte(content)))
	// A frontmatter that does not close within most bytes reads as none.
	if len(content) > int(most) {
		if end := frontmatterEnd([]byte(content)); end < 0 || end > int(most) {
			want = message.Fields{}
		}
	}
	return got, want
}

func TestReadHead(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, content := range []string{
		"", "hello", "---\n", "---\n---\n", "---\nfrom: a\n---\nbody",
		"---\nfrom: a\nsubject: s\n---\n" + long,
		"---\nfrom: a\nsubject: " + long + "\n---\nbody",
		"---\nfrom: a\nsubject: " + long + long + long + "\n---\nbody",
		"---\nfrom: a\n---", "---\nfrom: a\n----\nx: y\n---\n" + long,
		"no frontmatter\n---\nfrom: a\n---\n" + long,
		"---\r\nfrom: a\r\n---\r\n" + long,
	} {
		got, want := headFields(t, content, 16, 128)
		if !maps.Equal(got, want) {
			t.Errorf("%q: head fields %v, whole file %v", content, got, want)
		}
	}
}

func FuzzReadHead(f *testing.F) {
	f.Add("---\nfrom: a\nsubject: s\n---\nbody", int64(8), int64(32))
	f.Add("---\nfrom: a\n---", int64(4), int64(16))
	f.Fuzz(func(t *testing.T, content string, first, most int64) {
		first, most = 1+abs(first)%64, 1+abs(most)%256
		most = max(most, first)
		got, want := headFields(t, content, first, most)
		if !maps.Equal(got, want) {
			t.Errorf("%q (%d, %d): head fields %v, whole file %v", content, first, most, got, want)
		}
	})
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
