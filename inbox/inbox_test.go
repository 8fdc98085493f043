package inbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

func TestSend(t *testing.T) {
	base := t.TempDir()
	tr, err := fsutil.Open(base)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	now := time.UnixMilli(1795966371663)
	m := message.Message{From: "alice", Subject: "s", Body: []byte("hi\n")}
	seen := map[string]bool{}
	for range 30 {
		name, err := Send(tr, "bob", m, now)
		if err != nil {
			t.Fatal(err)
		}
		if !message.IsCanonical(name) || !strings.HasPrefix(name, "1795966371663-") || seen[name] {
			t.Fatalf("name %q", name)
		}
		seen[name] = true
		data, _ := os.ReadFile(filepath.Join(base, "bob", "inbox", name))
		if string(data) != "---\nfrom: alice\nsubject: s\n---\nhi\n" {
			t.Errorf("file = %q", data)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "bob", "archive")); err == nil {
		t.Error("Send created archive/")
	}
	entries, _ := os.ReadDir(filepath.Join(base, "bob", "inbox"))
	if len(entries) != 30 {
		t.Errorf("inbox holds %d entries, want 30 (no temps)", len(entries))
	}
}

func BenchmarkSend(b *testing.B) {
	base := b.TempDir()
	tr, err := fsutil.Open(base)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	m := message.Message{From: "alice", Subject: "bench", Tags: []string{"a", "b"}, Body: []byte("hello bob\n")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Send(tr, "bob", m, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListNames measures what every inbox listing does first: read
// the folder names of 10,000 messages, keep the deliverable ones, sort.
func BenchmarkListNames(b *testing.B) {
	base := b.TempDir()
	dir := filepath.Join(base, "bob", "inbox")
	os.MkdirAll(dir, 0o777)
	for i := range 10000 {
		name := message.NewName(time.UnixMilli(1795966371663 + int64(i)))
		os.WriteFile(filepath.Join(dir, name), []byte("---\nfrom: alice\n---\nx\n"), 0o666)
	}
	tr, err := fsutil.Open(base)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	b.ReportAllocs()
	for b.Loop() {
		names, err := tr.ReadDirNames("bob/inbox")
		if err != nil {
			b.Fatal(err)
		}
		kept := names[:0]
		for _, n := range names {
			if message.IsDeliverable(n) {
				kept = append(kept, n)
			}
		}
		slices.Sort(kept)
		if len(kept) != 10000 {
			b.Fatalf("%d names", len(kept))
		}
	}
}

// bobInbox1000 is a store holding 1,000 messages from alice in bob's inbox.
func bobInbox1000() map[string]string {
	files := map[string]string{}
	for i := range 1000 {
		m := message.Message{From: "alice", Subject: "subject line", Tags: []string{"x"}, Body: []byte("body\n")}
		files["bob/inbox/"+message.NewName(time.UnixMilli(1795966371663+int64(i)))] = string(m.Bytes())
	}
	return files
}

// BenchmarkListParse reads and parses 1,000 messages, as `ls --json` does.
func BenchmarkListParse(b *testing.B) {
	tr, _ := store(b, bobInbox1000())
	b.ReportAllocs()
	for b.Loop() {
		names, _ := tr.ReadDirNames("bob/inbox")
		slices.Sort(names)
		for _, n := range names {
			data, _, err := tr.ReadRegular("bob/inbox/" + n)
			if err != nil {
				b.Fatal(err)
			}
			if f, _, _ := message.Parse(string(data)); f["from"] != "alice" {
				b.Fatal("bad parse")
			}
		}
	}
}

// BenchmarkListParseSub is BenchmarkListParse reading through a folder
// tree (fsutil.Tree.Sub), as a listing of many files should.
func BenchmarkListParseSub(b *testing.B) {
	tr, _ := store(b, bobInbox1000())
	b.ReportAllocs()
	for b.Loop() {
		sub, err := tr.Sub("bob/inbox")
		if err != nil {
			b.Fatal(err)
		}
		names, _ := sub.ReadDirNames(".")
		slices.Sort(names)
		for _, n := range names {
			data, _, err := sub.ReadRegular(n)
			if err != nil {
				b.Fatal(err)
			}
			if f, _, _ := message.Parse(string(data)); f["from"] != "alice" {
				b.Fatal("bad parse")
			}
		}
		sub.Close()
	}
}
