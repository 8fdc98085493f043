package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

func setup(t *testing.T, files ...string) (*fsutil.Tree, string) {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		add(t, root, f, "---\nfrom: x\nsubject: s-"+filepath.Base(f)[:3]+"\n---\nhi\n")
	}
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, root
}

func add(t *testing.T, root, rel, content string) {
	t.Helper()
	full := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

func strs(lines []Line) []string {
	out := []string{}
	for _, l := range lines {
		out = append(out, l.Agent+":"+l.String())
	}
	return out
}

func TestReplayCutoffAndOrder(t *testing.T) {
	tr, _ := setup(t,
		"alice/inbox/1700000000002-cccccc.md",
		"alice/inbox/1700000000000-aaaaaa.md",
		"alice/inbox/1700000000001-bbbbbb.md",
		"alice/inbox/1700000000001-bbbbbb.options.json",
		"alice/inbox/notes.md",
		"alice/inbox/.1700000000003-dddddd.md",
		"alice/archive/1700000000004-eeeeee.md",
		"bob/inbox/1700000000005-ffffff.md",
	)
	tests := []struct {
		cutoff int64
		want   []string
	}{
		{0, []string{"alice:1700000000000-aaaaaa.md", "alice:1700000000001-bbbbbb.md", "alice:1700000000002-cccccc.md"}},
		{1700000000001, []string{"alice:1700000000001-bbbbbb.md", "alice:1700000000002-cccccc.md"}},
		{1700000000003, []string{}},
	}
	for _, tt := range tests {
		f := NewFollower(tr, Setup{Single: "alice", Cutoff: tt.cutoff})
		if got := strs(f.Replay()); !slices.Equal(got, tt.want) {
			t.Errorf("Replay(cutoff %d) = %q, want %q", tt.cutoff, got, tt.want)
		}
		// Everything already there is seen, replayed or not.
		if got := f.Poll(); len(got) != 0 {
			t.Errorf("Poll after Replay(cutoff %d) = %q, want nothing", tt.cutoff, strs(got))
		}
	}
}

func TestPollReportsEachNewNameOnce(t *testing.T) {
	tr, root := setup(t, "alice/inbox/1700000000000-aaaaaa.md")
	f := NewFollower(tr, Setup{Single: "alice", WithSubject: true})
	if got, want := strs(f.Replay()), []string{"alice:1700000000000-aaaaaa.md\ts-170"}; !slices.Equal(got, want) {
		t.Fatalf("Replay = %q, want %q", got, want)
	}
	add(t, root, "alice/inbox/1700000000009-zzzzzz.md", "untyped")
	add(t, root, "alice/inbox/1600000000000-oooooo.md", "---\nsubject: old name, new file\n---\n")
	add(t, root, "alice/inbox/later.md", "outside")
	want := []string{"alice:1600000000000-oooooo.md\told name, new file", "alice:1700000000009-zzzzzz.md\t"}
	if got := strs(f.Poll()); !slices.Equal(got, want) {
		t.Errorf("Poll = %q, want %q", got, want)
	}
	if got := f.Poll(); len(got) != 0 {
		t.Errorf("second Poll = %q, want nothing", strs(got))
	}
	// A name that leaves (archived) and comes back is not reported again.
	os.Rename(filepath.Join(root, "alice/inbox/1700000000009-zzzzzz.md"), filepath.Join(root, "alice/1700000000009-zzzzzz.md"))
	f.Poll()
	os.Rename(filepath.Join(root, "alice/1700000000009-zzzzzz.md"), filepath.Join(root, "alice/inbox/1700000000009-zzzzzz.md"))
	if got := f.Poll(); len(got) != 0 {
		t.Errorf("Poll after a name came back = %q, want nothing", strs(got))
	}
}

func TestAllSuppressesAndRelists(t *testing.T) {
	tr, root := setup(t,
		"alice/inbox/1700000000000-aaaaaa.md",
		"bob/inbox/1700000000001-bbbbbb.md",
		"Bad/inbox/1700000000002-cccccc.md",
		"inbox/inbox/1700000000003-dddddd.md",
	)
	f := NewFollower(tr, Setup{Suppress: "alice"})
	if got, want := strs(f.Replay()), []string{"bob:1700000000001-bbbbbb.md"}; !slices.Equal(got, want) {
		t.Errorf("Replay = %q, want %q", got, want)
	}
	if got, want := f.Dirs(), []string{"bob/inbox"}; !slices.Equal(got, want) {
		t.Errorf("Dirs = %q, want %q", got, want)
	}
	add(t, root, "carol/inbox/1700000000004-eeeeee.md", "x")
	add(t, root, "alice/inbox/1700000000005-ffffff.md", "x")
	if got, want := strs(f.Poll()), []string{"carol:1700000000004-eeeeee.md"}; !slices.Equal(got, want) {
		t.Errorf("Poll = %q, want %q", got, want)
	}
}

func TestMissingInbox(t *testing.T) {
	tr, root := setup(t)
	os.MkdirAll(filepath.Join(root, "bob/archive"), 0o777)
	f := NewFollower(tr, Setup{Single: "bob"})
	if got := f.Replay(); len(got) != 0 {
		t.Errorf("Replay of a missing inbox = %q", strs(got))
	}
	add(t, root, "bob/inbox/1700000000000-aaaaaa.md", "x")
	if got, want := strs(f.Poll()), []string{"bob:1700000000000-aaaaaa.md"}; !slices.Equal(got, want) {
		t.Errorf("Poll once the inbox appears = %q, want %q", got, want)
	}
}
