package inbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// Readers hide exactly the inbox files a sweep would remove: list every
// agent's inbox through WithoutTwins, sweep, list again without it.
func TestWithoutTwinsHidesWhatSweepRemoves(t *testing.T) {
	for _, tt := range sweepCases() {
		t.Run(tt.name, func(t *testing.T) {
			tr, dir := store(t, tt.files)
			ids, _ := tr.ReadDirNames(".")
			visible := map[string][]string{}
			for _, id := range ids {
				names, _ := tr.ReadDirNames(id + "/" + Inbox)
				visible[id] = WithoutTwins(tr, id, slices.Clone(names))
				for _, n := range names {
					if IsArchivedTwin(tr, id, n) == slices.Contains(visible[id], n) {
						t.Errorf("IsArchivedTwin(%s, %s) disagrees with WithoutTwins", id, n)
					}
				}
			}
			Sweep(tr)
			for _, id := range ids {
				left, _ := tr.ReadDirNames(id + "/" + Inbox)
				slices.Sort(left)
				slices.Sort(visible[id])
				if !slices.Equal(visible[id], left) {
					t.Errorf("%s: readers see %v, the sweep leaves %v", id, visible[id], left)
				}
			}
			for _, p := range tt.gone {
				if !strings.Contains(p, "/inbox/") || exists(dir, p) {
					t.Errorf("case lists %s as gone", p)
				}
			}
		})
	}
}

// Every listing reader of the inbox leaves a twin out: List (ls, hooks,
// MCP, dashboard), Items, Select, Orphans, Search and Thread.
func TestInboxReadersSkipArchivedTwin(t *testing.T) {
	att := "1714826789012-abcdef.options.json"
	tr, dir := store(t, map[string]string{
		"alice/inbox/" + msgA: msg("bob", "subject: gone\n"), "alice/archive/" + msgA: msg("bob", "subject: gone\n"),
		"alice/inbox/" + att: "{}", "alice/archive/" + att: "{}",
		"alice/inbox/" + msgB: msg("bob", "in-reply-to: "+msgA+"\n"),
	})
	names, err := List(tr, "alice", Inbox)
	if err != nil || !slices.Equal(names, []string{msgB}) {
		t.Errorf("List = %v, %v; want only %s", names, err, msgB)
	}
	if items, _ := Items(tr, "alice", Inbox, Filter{}); len(items) != 1 || items[0].Filename != msgB {
		t.Errorf("Items = %+v", items)
	}
	if sel, _ := Select(tr, "alice", Inbox, Filter{From: "bob"}); !slices.Equal(sel, []string{msgB}) {
		t.Errorf("Select = %v", sel)
	}
	if o, _ := Orphans(tr, "alice", Inbox, nil); len(o) != 0 {
		t.Errorf("Orphans = %v: an archived message's attachment shows as an orphan", o)
	}
	for _, h := range Search(tr, Query{Text: "body", Folders: []string{Inbox}}) {
		if h.Filename == msgA {
			t.Errorf("Search found the archived twin: %+v", h)
		}
	}
	if lines, err := Thread(tr, msgB, false); err != nil || len(lines) != 2 || lines[0].Where.Folder != Archive {
		t.Errorf("Thread = %+v, %v; want the parent in the archive", lines, err)
	}
	if archived, _ := List(tr, "alice", Archive); !slices.Contains(archived, msgA) {
		t.Errorf("the archive lost its copy: %v", archived)
	}
	// The twin is still on disk: only the sweep removes it.
	if _, err := os.Stat(filepath.Join(dir, "alice/inbox", msgA)); err != nil {
		t.Fatal(err)
	}
}

// TestArchiveHas: the archive asked by one listing (many names to ask
// about) and by a stat per name (few) answers alike, regular files only.
func TestArchiveHas(t *testing.T) {
	tr, root := store(t, map[string]string{
		"a/archive/1700000000001-aaaaaa.md":     "x",
		"a/archive/1700000000001-aaaaaa.md.png": "y",
	})
	dir := filepath.Join(root, "a", "archive")
	os.Symlink("1700000000001-aaaaaa.md", filepath.Join(dir, "1700000000002-bbbbbb.md"))
	os.Mkdir(filepath.Join(dir, "1700000000003-cccccc.md"), 0o777)
	syscall.Mkfifo(filepath.Join(dir, "1700000000004-dddddd.md"), 0o666)
	archive, err := tr.OpenFolder("a/archive")
	if err != nil {
		t.Fatal(err)
	}
	defer archive.Close()
	want := map[string]bool{"1700000000001-aaaaaa.md": true, "1700000000001-aaaaaa.md.png": true,
		"1700000000002-bbbbbb.md": false, "1700000000003-cccccc.md": false, "1700000000004-dddddd.md": false,
		"1700000000005-eeeeee.md": false, "../archive/1700000000001-aaaaaa.md": false}
	for _, asks := range []int{1, 1 << 20} {
		has := archiveHas(archive, asks)
		for name, w := range want {
			if has(name) != w {
				t.Errorf("archiveHas(%d)(%q) = %v, want %v", asks, name, !w, w)
			}
		}
	}
}

// Pushable keeps what a channel pushes, whatever else lies in the inbox:
// canonical messages and other .md files, not dot-files, sidecars, other
// extensions or an archived twin; a twin that differs from its archive
// copy stays.
func TestPushable(t *testing.T) {
	twin, other := msg("bob", ""), msg("carol", "")
	tr, _ := store(t, map[string]string{
		"alice/inbox/1714826789012-aaaaaa.md":           msg("bob", ""),
		"alice/inbox/notes.md":                          msg("mallory", ""),
		"alice/inbox/.1714826789013-bbbbbb.md.tmp":      "x",
		"alice/inbox/1714826789012-aaaaaa.options.json": "{}",
		"alice/inbox/readme.txt":                        "x",
		"alice/inbox/1714826789014-cccccc.md":           twin,
		"alice/archive/1714826789014-cccccc.md":         twin,
		"alice/inbox/1714826789015-dddddd.md":           other,
		"alice/archive/1714826789015-dddddd.md":         msg("carol", "subject: edited\n"),
	})
	names, _ := tr.ReadDirNames("alice/" + Inbox)
	got := Pushable(tr, "alice", names)
	slices.Sort(got)
	want := []string{"1714826789012-aaaaaa.md", "1714826789015-dddddd.md", "notes.md"}
	if !slices.Equal(got, want) {
		t.Errorf("Pushable = %v, want %v", got, want)
	}
}
