package inbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/message"
)

func TestListFiltering(t *testing.T) {
	tr, root := store(t, map[string]string{
		"a/inbox/1700000000002-bbbbbb.md":           msg("bob", ""),
		"a/inbox/1700000000001-aaaaaa.md":           msg("carol", ""),
		"a/inbox/1700000000001-aaaaaa.options.json": "{}",
		"a/inbox/1700000000001-aaaaaa.x.md":         "attachment",
		"a/inbox/.1700000000003-cccccc.md.tmp":      "temp",
		"a/inbox/.st-1700000000004-dddddd.md.1.tmp": "temp",
		"a/inbox/notes.md":                          "outside",
		"a/inbox/readme.txt":                        "not md",
		"a/inbox/1700000000005-EEEEEE.MD":           "upper",
		"a/inbox/x.sync-conflict-1-2-3.txt":         "conflict",
	})
	os.Mkdir(filepath.Join(root, "a/inbox/1700000000006-ffffff.md"), 0o777)
	os.Symlink("1700000000001-aaaaaa.md", filepath.Join(root, "a/inbox/1700000000007-gggggg.md"))
	got, err := List(tr, "a", Inbox)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1700000000001-aaaaaa.md", "1700000000002-bbbbbb.md", "notes.md"}
	if !slices.Equal(got, want) {
		t.Errorf("List() = %q, want %q", got, want)
	}
	since := 1700000000002.0
	tests := []struct {
		name string
		f    Filter
		want []string
	}{
		{"none", Filter{}, want},
		{"from bob", Filter{From: "bob"}, []string{"1700000000002-bbbbbb.md"}},
		{"from outside", Filter{From: "outside"}, []string{"notes.md"}},
		{"from nobody", Filter{From: "zed"}, nil},
		{"since", Filter{Since: &since}, []string{"1700000000002-bbbbbb.md", "notes.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Select(tr, "a", Inbox, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Select() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestListMissingFolder(t *testing.T) {
	tr, _ := store(t, nil)
	if _, err := List(tr, "ghost", Inbox); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("List(missing) error = %v, want fs.ErrNotExist", err)
	}
	if _, err := List(nil, "ghost", Inbox); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("List(nil tree) error = %v, want fs.ErrNotExist", err)
	}
}

func TestItems(t *testing.T) {
	tr, root := store(t, map[string]string{
		"a/inbox/1700000000001-aaaaaa.md": msg("bob", "subject: \"\"\ntags: [x, 'y z']\npriority: urgent\n"),
		"a/inbox/notes.md":                "hello",
	})
	mt := time.Unix(1700000000, 123456789)
	os.Chtimes(filepath.Join(root, "a/inbox/notes.md"), mt, mt)
	items, err := Items(tr, "a", Inbox, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("Items() returned %d items, want 2", len(items))
	}
	c, o := items[0], items[1]
	if c.TS != 1700000000001 || *c.From != "bob" || c.Subject != nil || c.Priority != nil || !slices.Equal(c.Tags, []string{"x", "y z"}) {
		t.Errorf("canonical item = %+v", c)
	}
	if got, want := o.TS, 1700000000123.456789; got != want {
		t.Errorf("outside ts = %v, want %v", got, want)
	}
	if *o.From != "outside" || o.Tags == nil {
		t.Errorf("outside item = %+v", o)
	}
}

func TestOrphans(t *testing.T) {
	tr, _ := store(t, map[string]string{
		"a/inbox/1700000000001-aaaaaa.md":           "m",
		"a/inbox/1700000000001-aaaaaa.options.json": "{}",
		"a/inbox/1700000000002-bbbbbb.options.json": "{}",
		"a/inbox/1700000000003-cccccc.x.md":         "{}",
		"a/archive/1700000000002-bbbbbb.md":         "m",
	})
	got, err := Orphans(tr, "a", Inbox, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1700000000002-bbbbbb.options.json", "1700000000003-cccccc.x.md"}; !slices.Equal(got, want) {
		t.Errorf("Orphans() = %q, want %q", got, want)
	}
	since := 1700000000003.0
	got, _ = Orphans(tr, "a", Inbox, &since)
	if want := []string{"1700000000003-cccccc.x.md"}; !slices.Equal(got, want) {
		t.Errorf("Orphans(since) = %q, want %q", got, want)
	}
}

// A FIFO named like a message must be skipped by every reader without
// ever being opened (opening one for reading blocks until a writer comes).
func TestFIFONeverBlocks(t *testing.T) {
	tr, root := store(t, map[string]string{"a/archive/.keep": ""})
	fifo := filepath.Join(root, "a/inbox/1700000000001-aaaaaa.md")
	os.MkdirAll(filepath.Dir(fifo), 0o777)
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if names, _ := List(tr, "a", Inbox); len(names) != 0 {
			t.Errorf("List() = %q, want nothing", names)
		}
		if items, _ := Items(tr, "a", Inbox, Filter{From: "bob"}); len(items) != 0 {
			t.Errorf("Items() = %v, want nothing", items)
		}
		if _, _, err := Read(tr, "a", "1700000000001-aaaaaa.md", false); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("Read(fifo) error = %v, want not found", err)
		}
		if _, err := ArchiveMessage(tr, "a", "1700000000001-aaaaaa.md", true); err == nil {
			t.Error("ArchiveMessage(fifo) succeeded")
		}
		if _, err := Thread(tr, "1700000000001-aaaaaa.md", false); err == nil {
			t.Error("Thread(fifo) succeeded")
		}
		if _, err := FindForReply(tr, "a", "1700000000001-aaaaaa.md"); err == nil {
			t.Error("FindForReply(fifo) succeeded")
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a reader blocked on a FIFO")
	}
}

// FuzzHead checks the map-free projection (readHeading, item) of a listing against the
// fields message.Parse gives: a later line for a key wins, an invalid
// priority is none, tags are read once.
func FuzzHead(f *testing.F) {
	for _, s := range []string{
		"---\nfrom: a\nfrom: b\nsubject: \"s\\n\"\nin-reply-to: x\ntags: [p, 'q r']\npriority: high\npriority: bogus\n---\nbody",
		"---\ntags: []\npriority: low\n---\n", "---\nfrom: a\n", "no frontmatter",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fields, _, _ := message.Parse(text)
		opt := func(k string) string {
			if v := fields[k]; v != "" {
				return v
			}
			return "<nil>"
		}
		want := []string{opt("from"), opt("subject"), opt("in-reply-to"), "<nil>"}
		if p := fields["priority"]; message.ValidPriority(p) {
			want[3] = p
		}
		wantTags := []string{}
		if v := fields["tags"]; v != "" {
			wantTags = message.ReadTags(v)
		}
		e := entry{heading: readHeading(text)}
		it := e.item()
		deref := func(s *string) string {
			if s == nil {
				return "<nil>"
			}
			return *s
		}
		got := []string{deref(it.From), deref(it.Subject), deref(it.InReplyTo), deref(it.Priority)}
		if !slices.Equal(got, want) || !slices.Equal(it.Tags, wantTags) || it.Tags == nil {
			t.Fatalf("readHeading(%q) = %q %q, want %q %q", text, got, it.Tags, want, wantTags)
		}
	})
}
