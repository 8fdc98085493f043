package resource

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/storetest"
)

func tree(t *testing.T) (*fsutil.Tree, string) {
	t.Helper()
	root := t.TempDir()
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	if err := tr.MkdirAll("alice/inbox"); err != nil {
		t.Fatal(err)
	}
	return tr, root
}

func TestBytes(t *testing.T) {
	tests := []struct {
		r    Resource
		want string
	}{
		{Resource{URL: "https://x.y/z", Title: "the PR", Tags: []string{"a", "b"}, Relation: "owns"},
			"---\nurl: \"https://x.y/z\"\ntitle: \"the PR\"\ntags: [a, b]\nrelation: owns\n---\n"},
		{Resource{URL: "pty://s"}, "---\nurl: \"pty://s\"\n---\n"},
		{Resource{URL: "pty://s", Title: "plain", Tags: []string{"b c"}, Relation: "relates-to", Body: []byte("no newline")},
			"---\nurl: \"pty://s\"\ntitle: plain\ntags: [\"b c\"]\nrelation: relates-to\n---\nno newline"},
		{Resource{URL: "pty://s", Tags: []string{}, Body: []byte("d\n")}, "---\nurl: \"pty://s\"\n---\nd\n"},
	}
	for _, tt := range tests {
		if got := string(tt.r.Bytes()); got != tt.want {
			t.Errorf("Bytes(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url string
		ok  bool
	}{
		{"https://x.y/z", true},
		{"pty://session", true},
		{"a+b.c-d://x", true},
		{"x://y", true},
		{"https://", false},
		{"HTTPS://x", false},
		{"1http://x", false},
		{"nope", false},
		{"", false},
		{"mailto:a@b", false},
		{"x://\n", false},
		{"x://\r", false},
		{"x://\u2028", false},
		{"x:// ", true},
		{"x://\x00", true},
		{"x://\xff", true},
		{"x://é", true},
		{"a:b://c", false},
		{"a//:x", false},
	}
	for _, tt := range tests {
		err := CheckURL(tt.url)
		if (err == nil) != tt.ok {
			t.Errorf("CheckURL(%q) = %v, want ok %v", tt.url, err, tt.ok)
		}
		if err != nil && sterr.CodeOf(err) != sterr.InvalidResourceURL {
			t.Errorf("CheckURL(%q) code = %s", tt.url, sterr.CodeOf(err))
		}
	}
	err := CheckURL("say \"hi\"\n")
	want := `invalid resource url: "say \"hi\"\n" (must contain a scheme, e.g. https://, pty://)`
	if err == nil || err.Error() != want {
		t.Errorf("CheckURL message = %v, want %s", err, want)
	}
}

func TestSplitTags(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{nil, []string{}},
		{[]string{"a,b"}, []string{"a", "b"}},
		{[]string{" a , ", "b,,c", ""}, []string{"a", "b", "c"}},
		{[]string{" , "}, []string{}},
	}
	for _, tt := range tests {
		if got := SplitTags(tt.in...); !slices.Equal(got, tt.want) {
			t.Errorf("SplitTags(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		content string
		want    string
	}{
		{"---\nurl: \"https://x\"\ntitle: \"t\"\ntags: [a, \"b c\", 'd']\nrelation: owns\n---\nbody\n",
			`{"filename":"f","url":"https://x","title":"t","tags":["a","b c","d"],"relation":"owns","body":"body\n"}`},
		{"---\ntitle: \"\"\nrelation:\n---\n",
			`{"filename":"f","url":"","title":null,"tags":[],"relation":null,"body":""}`},
		{"no frontmatter",
			`{"filename":"f","url":"","title":null,"tags":[],"relation":null,"body":"no frontmatter"}`},
		{"---\nurl: x\ntags: []\n---\n",
			`{"filename":"f","url":"x","title":null,"tags":[],"relation":null,"body":""}`},
	}
	for _, tt := range tests {
		out, _ := jsstr.Marshal(Parse("f", []byte(tt.content)))
		if string(out) != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.content, out, tt.want)
		}
	}
}

func TestAddReadRemove(t *testing.T) {
	tr, root := tree(t)
	now := time.UnixMilli(1795966371663)
	name, err := Add(tr, "alice", Resource{URL: "https://x", Title: "t", Body: []byte("d")}, now)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := name[:14], "1795966371663-"; got != want {
		t.Errorf("name %q does not start with %q", name, want)
	}
	if got := List(tr, "alice"); !slices.Equal(got, []string{name}) {
		t.Errorf("List = %q, want [%s]", got, name)
	}
	rec, err := Read(tr, "alice", name, -1)
	if err != nil {
		t.Fatal(err)
	}
	if rec.URL != "https://x" || rec.Title == nil || *rec.Title != "t" || rec.Body != "d" {
		t.Errorf("Read = %+v", rec)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "alice/resources"))
	if len(entries) != 1 {
		t.Errorf("resources/ holds %d entries, want 1 (no temp file left)", len(entries))
	}
	if err := Remove(tr, "alice", name); err != nil {
		t.Fatal(err)
	}
	err = Remove(tr, "alice", name)
	var se *sterr.Error
	if !errors.As(err, &se) || se.Code != sterr.ResourceNotFound || se.Message != "resource not found: alice/resources/"+name {
		t.Errorf("second Remove = %v, want RESOURCE_NOT_FOUND", err)
	}
	if _, err := Read(tr, "alice", name, 100); sterr.CodeOf(err) != sterr.ResourceNotFound {
		t.Errorf("Read after Remove = %v, want RESOURCE_NOT_FOUND", err)
	}
	if _, err := Read(tr, "alice", "notes.md", -1); sterr.CodeOf(err) != sterr.InvalidFilename {
		t.Errorf("Read(notes.md) = %v, want INVALID_FILENAME", err)
	}
	if err := Remove(tr, "alice", "../x.md"); sterr.CodeOf(err) != sterr.InvalidFilename {
		t.Errorf("Remove(../x.md) = %v, want INVALID_FILENAME", err)
	}
	if _, err := Add(tr, "alice", Resource{URL: "nope"}, now); sterr.CodeOf(err) != sterr.InvalidResourceURL {
		t.Errorf("Add(nope) = %v, want INVALID_RESOURCE_URL", err)
	}
}

func TestListSkipsNonCanonical(t *testing.T) {
	tr, root := tree(t)
	dir := filepath.Join(root, "alice/resources")
	os.MkdirAll(dir, 0o777)
	for _, n := range []string{"1700000000001-bbbbbb.md", "1700000000000-aaaaaa.md", "notes.md", ".x.md", "1700000000000-aaaaaa.json"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o666)
	}
	if got, want := List(tr, "alice"), []string{"1700000000000-aaaaaa.md", "1700000000001-bbbbbb.md"}; !slices.Equal(got, want) {
		t.Errorf("List = %q, want %q", got, want)
	}
	if got := List(tr, "bob"); got == nil || len(got) != 0 {
		t.Errorf("List(missing) = %#v, want empty non-nil", got)
	}
}

// FuzzRoundTrip: whatever is published reads back the same (URL, title,
// relation, tags without commas), and Parse never fails on any bytes.
func FuzzRoundTrip(f *testing.F) {
	f.Add("https://x.y/z", "the PR", "a,b", "owns", []byte("desc"))
	f.Add("pty://s", "", "", "", []byte{})
	f.Add("x://\"q\"\\", "t\n\"x\"", " , ", "relates-to", []byte("---\nnot: fm\n"))
	f.Fuzz(func(t *testing.T, url, title, tags, relation string, body []byte) {
		Parse("f", body) // any bytes: must not panic
		if !ValidURL(url) || !validUTF8(url, title, tags, relation) || !utf8.Valid(body) {
			return
		}
		r := Resource{URL: url, Title: title, Tags: SplitTags(tags), Relation: relation, Body: body}
		rec := Parse("f", r.Bytes())
		if rec.URL != url {
			t.Errorf("url %q read back as %q", url, rec.URL)
		}
		if got := deref(rec.Title); got != title {
			t.Errorf("title %q read back as %q", title, got)
		}
		if got := deref(rec.Relation); got != relation {
			t.Errorf("relation %q read back as %q", relation, got)
		}
		if rec.Body != string(body) {
			t.Errorf("body %q read back as %q", body, rec.Body)
		}
	})
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func validUTF8(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// A title with U+2028 or U+2029 reads back whole (upstream's reader
// drops the line, as st's did).
func TestLineSeparatorTitle(t *testing.T) {
	rec := Parse("f", Resource{URL: "x://y", Title: "a\u2028b\u2029c"}.Bytes())
	if rec.Title == nil || *rec.Title != "a\u2028b\u2029c" {
		t.Errorf("title with U+2028 read back as %v", rec.Title)
	}
}

// Reads are bounded: Read refuses a file over its limit, ReadHeader reads
// only the head whatever the description's size, and CheckSize refuses a
// resource whose file would pass the limit.
func TestBoundedReads(t *testing.T) {
	const name = "1795966371663-abcdef.md"
	desc := strings.Repeat("d", 64<<10)
	tr, _ := storetest.Open(t, map[string]string{
		"alice/resources/" + name: "---\nurl: \"https://x\"\ntitle: t\n---\n" + desc,
	})
	size := int64(len("---\nurl: \"https://x\"\ntitle: t\n---\n") + len(desc))
	for _, tt := range []struct {
		limit   int64
		tooBig  bool
		wantLen int
	}{
		{-1, false, len(desc)},
		{size, false, len(desc)},
		{size - 1, true, 0},
		{10, true, 0},
	} {
		rec, err := Read(tr, "alice", name, tt.limit)
		if got := sterr.CodeOf(err) == sterr.MessageTooLarge; got != tt.tooBig {
			t.Errorf("Read(limit %d) error %v, want too large %v", tt.limit, err, tt.tooBig)
		}
		if len(rec.Body) != tt.wantLen {
			t.Errorf("Read(limit %d) body of %d bytes, want %d", tt.limit, len(rec.Body), tt.wantLen)
		}
	}
	rec, err := ReadHeader(tr, "alice", name)
	if err != nil || rec.URL != "https://x" || rec.Title == nil || *rec.Title != "t" || rec.Body != "" {
		t.Errorf("ReadHeader = %+v, %v", rec, err)
	}
	if _, err := ReadHeader(tr, "alice", "1795966371663-zzzzzz.md"); sterr.CodeOf(err) != sterr.ResourceNotFound {
		t.Errorf("ReadHeader of a missing file: %v", err)
	}
	r := Resource{URL: "https://x", Body: []byte("0123456789")}
	n := int64(len(r.Bytes()))
	if err := CheckSize(r, n); err != nil {
		t.Errorf("CheckSize at the limit: %v", err)
	}
	if err := CheckSize(r, n-1); sterr.CodeOf(err) != sterr.MessageTooLarge {
		t.Errorf("CheckSize over the limit: %v", err)
	}
}
