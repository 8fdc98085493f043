package inbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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
