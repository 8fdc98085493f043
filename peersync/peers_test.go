package peersync

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

func TestParsePeers(t *testing.T) {
	tests := []struct {
		in   string
		want []Peer
	}{
		{"", nil},
		{"a: local:/x\nb: host:/y\n", []Peer{{"a", "local:/x"}, {"b", "host:/y"}}},
		{"# comment\n  # indented comment\n\n\t\nno colon here\n: empty name\nempty:\n  spaced  :  v  \n", []Peer{{"spaced", "v"}}},
		{"a: b # trailing\n", []Peer{{"a", "b # trailing"}}},
		{"laptop: me@laptop:.local/state/smalltalk\n", []Peer{{"laptop", "me@laptop:.local/state/smalltalk"}}},
		{"dup: first\ndup: second\n", []Peer{{"dup", "first"}, {"dup", "second"}}},
		{"q: \"quoted\"\r\n", []Peer{{"q", "\"quoted\""}}},
	}
	for _, tt := range tests {
		if got := ParsePeers(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParsePeers(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// The peers.yaml people write are plain YAML mappings; on those the line
// rules must agree with a YAML decoder.
func TestParsePeersAgreesWithYAML(t *testing.T) {
	files := []string{
		"laptop: me@laptop:.local/state/smalltalk\nbackup: local:/mnt/backup/st\n",
		"# peers\nwork: work\nwork-box: local:/srv/st/\n\nhome: user@home.example.org:st-root\n",
		"a: b\n",
	}
	for _, f := range files {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(f), &doc); err != nil {
			t.Fatalf("yaml: %v", err)
		}
		m := doc.Content[0]
		var want []Peer
		for i := 0; i+1 < len(m.Content); i += 2 {
			want = append(want, Peer{m.Content[i].Value, m.Content[i+1].Value})
		}
		if got := ParsePeers(f); !reflect.DeepEqual(got, want) {
			t.Errorf("ParsePeers(%q) = %v, yaml.v3 reads %v", f, got, want)
		}
	}
}

func FuzzParsePeers(f *testing.F) {
	f.Add("a: local:/x\n# c\nb: h:/y\n")
	f.Add(" : \n:\n\u00a0x\u00a0:\u2028y\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range ParsePeers(text) {
			if p.Name == "" || p.Spec == "" || strings.Contains(p.Name, ":") || strings.Contains(p.Name+p.Spec, "\n") {
				t.Fatalf("bad entry %q from %q", p, text)
			}
		}
	})
}

func writePeers(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, PeersFile), []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestResolvePeer(t *testing.T) {
	cfg := writePeers(t, "lap: me@lap:st\nalias: lap\nloc: local:/srv/x/\nlap: other:ignored\nloop1: loop2\nloop2: loop1\nself: self\nbadlocal: local:\n")
	tests := []struct {
		spec, want, err string
		mkdir           string
	}{
		{spec: "local:/a/b/", want: "/a/b/", mkdir: "/a/b/"},
		{spec: "local:rel", want: "rel/", mkdir: "rel"},
		{spec: "host:/x", want: "host:/x/"},
		{spec: "user@host:path/", want: "user@host:path/"},
		{spec: "lap", want: "me@lap:st/"},
		{spec: "alias", want: "me@lap:st/"},
		{spec: "loc", want: "/srv/x/", mkdir: "/srv/x/"},
		{spec: "unknown", want: "unknown:.local/state/smalltalk/"},
		{spec: "loop1", err: "peer alias loop: loop1"},
		{spec: "self", err: "peer alias loop: self"},
		{spec: "local:", err: "local: peer requires a path: local:"},
		{spec: "badlocal", err: "local: peer requires a path: local:"},
	}
	for _, tt := range tests {
		var made string
		got, err := ResolvePeer(tt.spec, cfg, func(p string) error { made = p; return nil })
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ResolvePeer(%q) error = %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want || made != tt.mkdir {
			t.Errorf("ResolvePeer(%q) = %q, %v (mkdir %q), want %q (mkdir %q)", tt.spec, got, err, made, tt.want, tt.mkdir)
		}
	}
}

func TestResolvePeerWithoutConfig(t *testing.T) {
	got, err := ResolvePeer("box", filepath.Join(t.TempDir(), "none"), nil)
	if err != nil || got != "box:.local/state/smalltalk/" {
		t.Errorf("ResolvePeer(box) = %q, %v", got, err)
	}
}

func TestReadPeersErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := readPeers(dir)
	if want := "no peers configured at " + filepath.Join(dir, PeersFile); err == nil || err.Error() != want {
		t.Errorf("missing: %v, want %q", err, want)
	}
	if code := sterr.CodeOf(err); code != sterr.PeersConfigMissing {
		t.Errorf("code %s", code)
	}
	cfg := writePeers(t, "# only a comment\n")
	_, err = readPeers(cfg)
	var e *sterr.Error
	if !errors.As(err, &e) || e.Message != "no peers found in: "+filepath.Join(cfg, PeersFile) || e.Code != sterr.PeersConfigInvalid {
		t.Errorf("empty: %v", err)
	}
}

// peers.yaml is read as every $ST_CONFIG file is: a FIFO there is an
// error at once, not a hang, and so is a file over layout.MaxConfigBytes.
func TestReadPeersRefusesFIFOAndHugeFile(t *testing.T) {
	fifo := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifo, PeersFile), 0o666); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	huge := writePeers(t, "box: me@box\n"+strings.Repeat("# padding\n", layout.MaxConfigBytes/10+1))
	for _, dir := range []string{fifo, huge} {
		done := make(chan error, 1)
		go func() {
			_, err := readPeers(dir)
			if err == nil {
				_, _, err = lookupAlias(dir, "box")
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: read without an error", dir)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading peers.yaml hangs", dir)
		}
	}
}
