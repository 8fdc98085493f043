package inbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

const fn = "1700000000001-aaaaaa.md"

func TestArchiveOutcomes(t *testing.T) {
	tests := []struct {
		name        string
		files       map[string]string
		wantOutcome Outcome
		wantCode    string // error code, "" for success
		wantInbox   bool   // inbox copy left afterwards
		wantArchive string // archive content afterwards ("" = absent)
	}{
		{"inbox only moves", map[string]string{"a/inbox/" + fn: "m", "a/archive/.k": ""}, Moved, "", false, "m"},
		{"archive only is idempotent", map[string]string{"a/archive/" + fn: "m", "a/inbox/.k": ""}, Idempotent, "", false, "m"},
		{"identical twin drops inbox copy", map[string]string{"a/inbox/" + fn: "m", "a/archive/" + fn: "m"}, Idempotent, "", false, "m"},
		{"neither is not found", map[string]string{"a/inbox/.k": "", "a/archive/.k": ""}, 0, sterr.MessageNotFound, false, ""},
		{"divergent twin conflicts", map[string]string{"a/inbox/" + fn: "one", "a/archive/" + fn: "two"}, 0, sterr.ArchiveConflict, true, "two"},
		{"missing archive folder is created", map[string]string{"a/inbox/" + fn: "m"}, Moved, "", false, "m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, root := store(t, tt.files)
			res, err := ArchiveMessage(tr, "a", fn, false)
			if tt.wantCode != "" {
				if got := sterr.CodeOf(err); got != tt.wantCode {
					t.Fatalf("error %v (code %s), want code %s", err, got, tt.wantCode)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if res.Outcome != tt.wantOutcome || res.Attachments != nil {
				t.Errorf("result = %+v, want outcome %v and no attachments", res, tt.wantOutcome)
			}
			if got := exists(root, "a/inbox/"+fn); got != tt.wantInbox {
				t.Errorf("inbox copy present = %v, want %v", got, tt.wantInbox)
			}
			data, _ := os.ReadFile(filepath.Join(root, "a/archive", fn))
			if got := string(data); got != tt.wantArchive {
				t.Errorf("archive copy = %q, want %q", got, tt.wantArchive)
			}
		})
	}
}

func TestArchiveAttachments(t *testing.T) {
	tr, root := store(t, map[string]string{
		"a/inbox/" + fn: "m",
		"a/inbox/1700000000001-aaaaaa.options.json": "o",
		"a/archive/1700000000001-aaaaaa.png":        "p",
		"a/inbox/1700000000001-aaaaaa.png":          "p",
		"a/inbox/1700000000002-bbbbbb.options.json": "other",
	})
	res, err := ArchiveMessage(tr, "a", fn, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []AttachmentOutcome{{"1700000000001-aaaaaa.options.json", Moved}, {"1700000000001-aaaaaa.png", Idempotent}}
	if res.Outcome != Moved || !slices.Equal(res.Attachments, want) {
		t.Errorf("result = %+v, want moved with %+v", res, want)
	}
	names, _ := List(tr, "a", Inbox)
	if len(names) != 0 || !exists(root, "a/inbox/1700000000002-bbbbbb.options.json") {
		t.Errorf("inbox after archive: %q; the other prefix's attachment must stay", names)
	}
}

func TestArchiveAttachmentConflictChangesNothing(t *testing.T) {
	tr, root := store(t, map[string]string{
		"a/inbox/" + fn: "m",
		"a/inbox/1700000000001-aaaaaa.options.json":   "one",
		"a/archive/1700000000001-aaaaaa.options.json": "two",
	})
	_, err := ArchiveMessage(tr, "a", fn, true)
	var e *sterr.Error
	if !errors.As(err, &e) || e.Code != sterr.ArchiveConflict || e.Details["filename"] != "1700000000001-aaaaaa.options.json" {
		t.Fatalf("error = %v, want ARCHIVE_CONFLICT naming the attachment", err)
	}
	if !exists(root, "a/inbox/"+fn) || exists(root, "a/archive/"+fn) {
		t.Error("the message moved although a sibling conflicted")
	}
}

func TestArchiveRefusesBadNames(t *testing.T) {
	tr, _ := store(t, nil)
	for _, name := range []string{".hidden.md", "x.txt", "a/b.md", fn[:22]} {
		if _, err := ArchiveMessage(tr, "a", name, false); sterr.CodeOf(err) != sterr.InvalidFilename {
			t.Errorf("ArchiveMessage(%q) error = %v, want INVALID_FILENAME", name, err)
		}
	}
}

func TestTrim(t *testing.T) {
	now := time.UnixMilli(1700086400000)
	files := map[string]string{
		"a/archive/1699999999999-aaaaaa.md":  "",
		"a/archive/1699999999999-aaaaaa.png": "",
		"a/archive/1700000000000-bbbbbb.md":  "",
		"a/archive/1700050000000-cccccc.md":  "",
		"a/archive/notes.md":                 "",
		"a/inbox/1600000000000-dddddd.md":    "",
	}
	day, bad, zero, two := "1d", "30days", 0, 2
	tests := []struct {
		name     string
		o        TrimOptions
		victims  []string
		attach   []string
		wantCode string
	}{
		{"older than is strict", TrimOptions{OlderThan: &day}, []string{"1699999999999-aaaaaa.md"}, nil, ""},
		{"keep last", TrimOptions{KeepLast: &two}, []string{"1699999999999-aaaaaa.md"}, nil, ""},
		{"union", TrimOptions{OlderThan: &day, KeepLast: &two}, []string{"1699999999999-aaaaaa.md"}, nil, ""},
		{"keep none", TrimOptions{KeepLast: &zero}, []string{"1699999999999-aaaaaa.md", "1700000000000-bbbbbb.md", "1700050000000-cccccc.md"}, nil, ""},
		{"attachments", TrimOptions{OlderThan: &day, WithAttachments: true}, []string{"1699999999999-aaaaaa.md"}, []string{"1699999999999-aaaaaa.png"}, ""},
		{"bad duration", TrimOptions{OlderThan: &bad}, nil, nil, sterr.InvalidDuration},
		{"no criterion", TrimOptions{}, nil, nil, "INTERNAL_ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, root := store(t, files)
			tt.o.Now = now
			res, err := Trim(tr, "a", tt.o)
			if tt.wantCode != "" {
				if sterr.CodeOf(err) != tt.wantCode || err == nil {
					t.Fatalf("error = %v, want code %s", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Victims, tt.victims) || !slices.Equal(res.Attachments, tt.attach) {
				t.Errorf("Trim() = %q + %q, want %q + %q", res.Victims, res.Attachments, tt.victims, tt.attach)
			}
			for _, v := range append(slices.Clone(tt.victims), tt.attach...) {
				if exists(root, "a/archive/"+v) {
					t.Errorf("%s was not deleted", v)
				}
			}
			if !exists(root, "a/archive/notes.md") || !exists(root, "a/inbox/1600000000000-dddddd.md") {
				t.Error("trim touched an outside file or the inbox")
			}
		})
	}
}

func TestTrimDryRunDeletesNothing(t *testing.T) {
	tr, root := store(t, map[string]string{"a/archive/1699999999999-aaaaaa.md": ""})
	zero := 0
	res, err := Trim(tr, "a", TrimOptions{KeepLast: &zero, DryRun: true})
	if err != nil || len(res.Victims) != 1 {
		t.Fatalf("Trim() = %+v, %v", res, err)
	}
	if !exists(root, "a/archive/1699999999999-aaaaaa.md") {
		t.Error("dry run deleted a file")
	}
}

// Upstream reads archive/ before parsing the duration: a missing archive
// trims nothing even with a bad duration (quirk 23).
func TestTrimMissingArchiveSkipsDurationCheck(t *testing.T) {
	tr, _ := store(t, nil)
	bad := "bogus"
	res, err := Trim(tr, "a", TrimOptions{OlderThan: &bad})
	if err != nil || len(res.Victims) != 0 || res.Victims == nil {
		t.Errorf("Trim(missing archive) = %+v, %v; want no victims, no error", res, err)
	}
}

// Only a missing archive is "nothing to trim": one that exists but
// cannot be listed (a file, a link out of the root) is an error.
func TestTrimUnlistableArchiveIsAnError(t *testing.T) {
	outside := t.TempDir()
	for _, tt := range []struct {
		name  string
		plant func(archive string) error
	}{
		{"a file", func(a string) error { return os.WriteFile(a, []byte("x"), 0o666) }},
		{"a link out of the root", func(a string) error { return os.Symlink(outside, a) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, root := store(t, map[string]string{"a/inbox/": ""})
			if err := tt.plant(filepath.Join(root, "a", "archive")); err != nil {
				t.Fatal(err)
			}
			keep := 0
			if res, err := Trim(tr, "a", TrimOptions{KeepLast: &keep}); err == nil {
				t.Errorf("Trim = %+v, nil; want the listing error", res)
			}
		})
	}
}

// TestArchiveRaceIsIdempotent races archivers (each with its own open
// tree, as separate processes have) over the same messages while a
// sweeper removes inbox twins: every archiver succeeds and every message
// ends up archived once. The raw link/remove errors of a loser used to
// leak out as failures.
func TestArchiveRaceIsIdempotent(t *testing.T) {
	const messages, archivers = 200, 4
	files := map[string]string{"a/archive/": ""}
	names := make([]string, messages)
	for i := range names {
		names[i] = fmt.Sprintf("17000000%05d-aaaaaa.md", i)
		files["a/inbox/"+names[i]] = msg("bob", "")
	}
	_, root := store(t, files)
	open := func() *fsutil.Tree {
		tr, err := fsutil.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tr.Close() })
		return tr
	}
	done := make(chan struct{})
	var sweeper sync.WaitGroup
	sweeper.Go(func() {
		tr := open()
		for {
			select {
			case <-done:
				return
			default:
				Sweep(tr)
			}
		}
	})
	trees := make([]*fsutil.Tree, archivers)
	for i := range trees {
		trees[i] = open()
	}
	var mu sync.Mutex
	var failures []string
	for _, name := range names {
		var wg sync.WaitGroup
		for _, tr := range trees {
			wg.Go(func() {
				if _, err := ArchiveMessage(tr, "a", name, false); err != nil {
					mu.Lock()
					failures = append(failures, err.Error())
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
	close(done)
	sweeper.Wait()
	if len(failures) > 0 {
		t.Errorf("%d of %d archivers failed, e.g. %s", len(failures), messages*archivers, failures[0])
	}
	for _, name := range names {
		if exists(root, "a/inbox/"+name) || !exists(root, "a/archive/"+name) {
			t.Errorf("%s: inbox %v, archive %v; want only archived", name, exists(root, "a/inbox/"+name), exists(root, "a/archive/"+name))
		}
	}
}
