package overview

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
)

type file struct {
	path    string
	content string
	mtime   time.Time
}

func build(t testing.TB, files []file) *fsutil.Tree {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		full := filepath.Join(root, f.path)
		if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
			t.Fatal(err)
		}
		if f.content == "/" {
			os.Mkdir(full, 0o777)
			continue
		}
		if err := os.WriteFile(full, []byte(f.content), 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestGetJSON(t *testing.T) {
	now := time.UnixMilli(1795966400000)
	at := func(ms int64, ns int) time.Time { return time.UnixMilli(ms).Add(time.Duration(ns)) }
	tr := build(t, []file{
		{"alice/inbox/1795966300000-aaaaaa.md", "---\nfrom: bob\nsubject: \"re: x\"\n---\nhi\n", at(1795966300000, 0)},
		{"alice/inbox/1795966390000-bbbbbb.md", "---\nfrom: \n---\nempty from\n", at(1795966390000, 250000)},
		{"alice/inbox/notes.md", "outside", at(1795966399000, 0)},
		{"alice/archive/1795966200000-cccccc.md", "no frontmatter", at(1795966200000, 13200)},
		{"alice/status", "available\n", at(1795966395000, 0)},
		{"bob/inbox/", "/", time.Time{}},
		{"bob/name", " Bob <&> \n", at(1795966000000, 0)},
	})
	o := Get(tr, "alice", now, -1, "")
	got, err := jsstr.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"identity":"alice","inbox":{"unread":2,"oldest":{"filename":"1795966300000-aaaaaa.md","from":"bob","ageMs":100000,"subject":"re: x"}},` +
		`"members":[{"identity":"alice","status":"available","name":null,"lastActivity":1795966399000,"inbox":2},` +
		`{"identity":"bob","status":"offline","name":"Bob <&>","lastActivity":null,"inbox":0}],` +
		`"recent":[{"kind":"status","identity":"alice","ageMs":5000},` +
		`{"kind":"message","identity":"","target":"alice","ageMs":9999.75,"filename":"1795966390000-bbbbbb.md"},` +
		`{"kind":"message","identity":"bob","target":"alice","ageMs":100000,"filename":"1795966300000-aaaaaa.md","subject":"re: x"},` +
		// JavaScript subtracts the same doubles: 1795966400000 - 1795966200000.0132.
		`{"kind":"archive","identity":"unknown","target":"alice","ageMs":199999.98681640625,"filename":"1795966200000-cccccc.md"}]}`
	if string(got) != want {
		t.Errorf("overview JSON\n got %s\nwant %s", got, want)
	}

	o = Get(tr, "alice", now, 1, "")
	if len(o.Recent) != 1 || o.Recent[0].Kind != KindStatus {
		t.Errorf("recent 1 = %+v, want the status entry", o.Recent)
	}
	if o = Get(tr, "alice", now, 0, ""); o.Recent == nil || len(o.Recent) != 0 {
		t.Errorf("recent 0 = %#v, want empty non-nil", o.Recent)
	}
	// A future file is age 0, not negative.
	o = Get(tr, "alice", time.UnixMilli(1795966000000), 1, "")
	if got, _ := jsstr.Marshal(o.Recent); string(got) != `[{"kind":"status","identity":"alice","ageMs":0}]` {
		t.Errorf("future recent = %s", got)
	}
	if o.Inbox.Oldest.AgeMs != 0 {
		t.Errorf("future oldest ageMs = %d, want 0", o.Inbox.Oldest.AgeMs)
	}
}

func TestRecentTiesKeepStoreOrder(t *testing.T) {
	mt := time.UnixMilli(1795966300000)
	tr := build(t, []file{
		{"b/status", "busy\n", mt},
		// Not the inbox copy's twin (which readers would leave out).
		{"b/archive/1795966300000-aaaaaa.md", "---\nfrom: x\nsubject: s\n---\n", mt},
		{"b/inbox/1795966300001-aaaaaa.md", "---\nfrom: x\n---\n", mt},
		{"b/inbox/1795966300000-aaaaaa.md", "---\nfrom: x\n---\n", mt},
		{"a/status", "busy\n", mt},
	})
	o := Get(tr, "a", time.UnixMilli(1795966400000), -1, "")
	var got []string
	for _, r := range o.Recent {
		got = append(got, r.Kind+":"+r.Target+r.Filename)
	}
	want := []string{"status:", "message:b1795966300000-aaaaaa.md", "message:b1795966300001-aaaaaa.md", "archive:b1795966300000-aaaaaa.md", "status:"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tie order = %q, want %q", got, want)
	}
	if o.Recent[0].Identity != "a" || o.Recent[4].Identity != "b" {
		t.Errorf("status entries = %+v", o.Recent)
	}
}

func TestFormatAge(t *testing.T) {
	tests := []struct {
		ms   float64
		want string
	}{
		{-5, "0s"},
		{0, "0s"},
		{999.9, "0s"},
		{59_999.99, "59s"},
		{60_000, "1m"},
		{3_599_999, "59m"},
		{3_600_000, "1h"},
		{86_399_999, "23h"},
		{86_400_000, "1d"},
		{400 * 86_400_000, "400d"},
	}
	for _, tt := range tests {
		if got := FormatAge(tt.ms); got != tt.want {
			t.Errorf("FormatAge(%v) = %q, want %q", tt.ms, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	now := time.UnixMilli(1795966400000)
	last := float64(1795966399000)
	name := "Alice"
	o := Overview{
		Identity: "alice",
		Inbox:    Inbox{Unread: 3, Oldest: &Oldest{Filename: "f.md", From: "bob", AgeMs: 7_200_000}},
		Members: []agents.Enriched{
			{Agent: agents.Agent{Identity: "alice", Status: "available", Name: &name}, LastActivity: &last},
			{Agent: agents.Agent{Identity: "a-very-long-agent-name", Status: "unknown"}},
		},
		Recent: []Activity{
			{Kind: KindMessage, Identity: "bob", Target: "alice", AgeMs: 61_000, Filename: "f.md", Subject: "hi"},
			{Kind: KindArchive, Identity: "", Target: "alice", AgeMs: 5 * 86_400_000, Filename: "g.md"},
			{Kind: KindStatus, Identity: "carol", AgeMs: 100 * 86_400_000},
		},
	}
	want := "You are alice.\n\nInbox:\n  3 new (oldest 2h ago: bob — \"(no subject)\")\n\n" +
		"Members (2):\n" +
		"  alice        available  last active 1s ago\n" +
		"  a-very-long-agent-name unknown    —\n\n" +
		"Recent activity:\n" +
		"  1m    bob → alice — hi\n" +
		"  5d    archive  → alice — g.md\n" +
		"  100d  carol status changed\n"
	if got := Text(o, now); got != want {
		t.Errorf("Text =\n%s\nwant\n%s", got, want)
	}
	o.Inbox.Oldest = nil
	if got := Text(o, now); !strings.Contains(got, "Inbox:\n  3 new\n\n") {
		t.Errorf("Text without oldest =\n%s", got)
	}
}

func TestPadCountsUTF16(t *testing.T) {
	tests := []struct {
		s    string
		want string
	}{
		{"ab", "ab   "},
		{"abcde", "abcde"},
		{"abcdef", "abcdef"},
		{"é", "é    "},
		{"😀", "😀   "},
	}
	for _, tt := range tests {
		if got := pad(tt.s, 5); got != tt.want {
			t.Errorf("pad(%q, 5) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// BenchmarkGet200x50 times the dashboard over 200 agents with 50 messages
// each (25 in the inbox, 25 in the archive), the target's shape.
func BenchmarkGet200x50(b *testing.B) {
	root := b.TempDir()
	for i := range 200 {
		id := fmt.Sprintf("agent-%03d", i)
		for _, dir := range []string{"inbox", "archive"} {
			os.MkdirAll(filepath.Join(root, id, dir), 0o777)
		}
		os.WriteFile(filepath.Join(root, id, "status"), []byte("available\n"), 0o666)
		for j := range 50 {
			dir := "inbox"
			if j%2 == 1 {
				dir = "archive"
			}
			name := fmt.Sprintf("%013d-%06d.md", 1795966000000+int64(i*50+j), j)
			body := fmt.Sprintf("---\nfrom: agent-%03d\nsubject: \"message %d\"\n---\nbody\n", (i+1)%200, j)
			os.WriteFile(filepath.Join(root, id, dir, name), []byte(body), 0o666)
		}
	}
	tr, err := fsutil.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	now := time.Now()
	b.ResetTimer()
	for b.Loop() {
		if _, err := jsstr.Marshal(Get(tr, "agent-000", now, DefaultRecent, "")); err != nil {
			b.Fatal(err)
		}
	}
}

// newest keeps what a stable sort of every candidate, newest first, cut
// to n keeps: random mtimes with many ties, every n from 0 to past the
// count.
func TestNewestAsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 2))
	for round := range 300 {
		offered := make([]candidate, rng.IntN(40))
		for i := range offered {
			offered[i] = candidate{mtime: float64(rng.IntN(8)), name: strconv.Itoa(i)}
		}
		sorted := slices.Clone(offered)
		slices.SortStableFunc(sorted, func(a, b candidate) int { return cmp.Compare(b.mtime, a.mtime) })
		for n := 0; n <= len(offered)+1; n++ {
			s := newest{n: n}
			for _, c := range offered {
				s.offer(c)
			}
			want := sorted[:min(n, len(sorted))]
			if !slices.Equal(s.kept, want) && !(len(s.kept) == 0 && len(want) == 0) {
				t.Fatalf("round %d, n %d: kept %v, want %v", round, n, s.kept, want)
			}
		}
	}
}
