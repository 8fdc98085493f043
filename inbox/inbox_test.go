package inbox

import (
	"os"
	"path/filepath"
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
