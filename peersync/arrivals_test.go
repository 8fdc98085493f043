package peersync

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// ReportArrivals names the messages that arrive after it started, in
// agents it knew and in one whose folder appears later, and not those
// already there, rsync's temp files or other files; it ends when its
// input does.
func TestReportArrivals(t *testing.T) {
	m := newMachine(t, t.TempDir())
	before := m.send("alice", "bob", "already here\n")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ended := make(chan error, 1)
	go func() { ended <- ReportArrivals(context.Background(), m.root, inR, outW); outW.Close() }()
	lines := bufio.NewScanner(outR)
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no line: %v", lines.Err())
		}
		return lines.Text()
	}
	if got := next(); got != arrivalsBanner {
		t.Fatalf("first line %q", got)
	}
	// Not news: a status write, an rsync temp file in an inbox.
	os.WriteFile(filepath.Join(m.root, "bob", "status"), []byte("busy\n"), 0o666)
	os.WriteFile(filepath.Join(m.root, "bob", "inbox", ".1700000000000-abcdef.md.XyZ123"), []byte("x"), 0o666)
	toBob := m.send("alice", "bob", "news\n")
	toCarol := m.send("alice", "carol", "a new agent\n")
	var got []string
	for len(got) < 2 {
		got = append(got, next())
	}
	slices.Sort(got)
	want := []string{"inbox bob " + toBob, "inbox carol " + toCarol}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q (and not %s)", got, want, before)
	}
	inW.Close()
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("ended with %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("still running after its input ended")
	}
}

func TestParseArrival(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
	}{
		{"inbox bob 1700000000000-abcdef.md", true},
		{"inbox Bob 1700000000000-abcdef.md", false},
		{"inbox ../x 1700000000000-abcdef.md", false},
		{"inbox bob ../../etc/passwd", false},
		{"inbox bob 1700000000000-abcdef.md extra", false},
		{"ping", false},
		{"", false},
	}
	for _, tt := range tests {
		a, ok := parseArrival(tt.line)
		if ok != tt.ok || ok && "inbox "+a.agent+" "+a.name != tt.line {
			t.Errorf("parseArrival(%q) = %v, %v", tt.line, a, ok)
		}
	}
}

func FuzzParseArrival(f *testing.F) {
	f.Add("inbox bob 1700000000000-abcdef.md")
	f.Add("inbox  bob\t1700000000000-abcdef.md ")
	f.Fuzz(func(t *testing.T, line string) {
		a, ok := parseArrival(line)
		if ok && (strings.ContainsAny(a.agent+a.name, "/\\ ") || a.agent == "" || a.name == "") {
			t.Errorf("%q gave %+v", line, a)
		}
	})
}

func TestSplitRemote(t *testing.T) {
	tests := []struct {
		target, user, host, path string
		ok                       bool
	}{
		{"me@lap:st/", "me", "lap", "st/", true},
		{"lap:.local/state/smalltalk/", "", "lap", ".local/state/smalltalk/", true},
		{"lap:/srv/st/", "", "lap", "/srv/st/", true},
		{"me@[::1]:st/", "me", "::1", "st/", true},
		{"[fe80::1]:/x/", "", "fe80::1", "/x/", true},
		{"lap::module/", "", "", "", false},
		{":st/", "", "", "", false},
		{"nothing/", "", "", "", false},
	}
	for _, tt := range tests {
		user, host, path, ok := splitRemote(tt.target)
		if user != tt.user || host != tt.host || path != tt.path || ok != tt.ok {
			t.Errorf("splitRemote(%q) = %q %q %q %v", tt.target, user, host, path, ok)
		}
	}
}

func TestShellWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ssh", []string{"ssh"}},
		{"  ssh -F /a/b  -p 22 ", []string{"ssh", "-F", "/a/b", "-p", "22"}},
		{`ssh -i "/my keys/id" -o 'ProxyCommand nc %h %p'`, []string{"ssh", "-i", "/my keys/id", "-o", "ProxyCommand nc %h %p"}},
		{`ssh -o ""`, []string{"ssh", "-o", ""}},
	}
	for _, tt := range tests {
		if got := shellWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("shellWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzShellWords(f *testing.F) {
	f.Add(`ssh -i "/my keys/id" -o 'A B'`)
	f.Fuzz(func(t *testing.T, in string) {
		for _, w := range shellWords(in) {
			if !strings.ContainsAny(in, `'"`) && (w == "" || strings.ContainsAny(w, " \t\n")) {
				t.Errorf("%q gave word %q", in, w)
			}
		}
	})
}

func TestShellQuotePath(t *testing.T) {
	tests := map[string]string{
		".local/state/smalltalk/": "'.local/state/smalltalk/'",
		"/srv/it's/":              `'/srv/it'\''s/'`,
		"~/st/":                   "~/'st/'",
		"":                        ".",
		"~/":                      "~/.",
	}
	for in, want := range tests {
		if got := shellQuotePath(in); got != want {
			t.Errorf("shellQuotePath(%q) = %s, want %s", in, got, want)
		}
	}
}
