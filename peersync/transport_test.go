package peersync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A spec that rsync or ssh would read as an option is refused before
// anything is created, whether given directly or through an alias.
func TestResolvePeerRefusesOptionLikeSpecs(t *testing.T) {
	cfg := writePeers(t, "evil: -e:x\nhop: evil\nfine: me@host:st\n")
	tests := []struct {
		spec string
		ok   bool
	}{
		{"--rsh=touch /tmp/x:x", false},
		{"-e", false},
		{"-essh:x", false},
		{"local:--log-file=X", false},
		{"local:-x", false},
		{"host:-x", false},
		{"host:--remove-source-files", false},
		{"me@-oProxyCommand=x:st", false},
		{"evil", false},
		{"hop", false},
		{"-bare", false},
		{"host:path", true},
		{"me@host:dir-x", true},
		{"a-b:c", true},
		{"local:./-x", true},
		{"local:/srv/-x", true},
		{"fine", true},
		{"plain-token", true},
	}
	for _, tt := range tests {
		var made []string
		_, err := ResolvePeer(tt.spec, cfg, func(p string) error { made = append(made, p); return nil })
		switch {
		case tt.ok && err != nil:
			t.Errorf("%q: %v", tt.spec, err)
		case !tt.ok && err == nil:
			t.Errorf("%q: accepted", tt.spec)
		case !tt.ok && len(made) > 0:
			t.Errorf("%q: created %v before refusing", tt.spec, made)
		case !tt.ok && (!strings.Contains(err.Error(), "refusing peer") || strings.Contains(err.Error(), "\n")):
			t.Errorf("%q: error %q is not the one-line refusal", tt.spec, err)
		}
	}
}

// --all refuses a peers.yaml with an option-like spec before it copies
// or creates anything, naming the entry.
func TestAllRefusesOptionLikeSpecBeforeAnything(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // where the option-named folder would appear
	a := newMachine(t, writePeers(t, "good: local:good\nbad: local:--log-file=log\n"))
	a.send("alice", "bob", "hi\n")
	err := a.s.All("")
	if err == nil || !strings.HasPrefix(err.Error(), "peers.yaml: bad: refusing peer") {
		t.Fatalf("All = %v\n%s", err, a.log)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("created %v", entries)
	}
}

func TestBoundedRSH(t *testing.T) {
	const all = " -o ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=3"
	tests := []struct {
		rsh   string
		batch bool
		want  string // "" means rsync is left to RSYNC_RSH
	}{
		{"ssh", true, "ssh" + all + " -o BatchMode=yes"},
		{"ssh", false, "ssh" + all},
		{"/usr/bin/ssh -p 2222", true, "/usr/bin/ssh -p 2222" + all + " -o BatchMode=yes"},
		// What the user set stays; only what is missing is added.
		{"ssh -o ConnectTimeout=3 -oServerAliveInterval=60", true,
			"ssh -o ConnectTimeout=3 -oServerAliveInterval=60 -o ServerAliveCountMax=3 -o BatchMode=yes"},
		{"ssh -o batchmode=no -o 'ServerAliveCountMax 9'", true,
			"ssh -o batchmode=no -o 'ServerAliveCountMax 9' -o ConnectTimeout=10 -o ServerAliveInterval=5"},
		{"ssh -F /etc/st/ssh_config", true, "ssh -F /etc/st/ssh_config" + all + " -o BatchMode=yes"},
		// Not ssh: st does not know its options.
		{"false", true, ""},
		{"/opt/bin/my-rsh -x", true, ""},
		{"", true, ""},
	}
	for _, tt := range tests {
		got, ok := boundedRSH(tt.rsh, tt.batch)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("boundedRSH(%q, %v) = %q, want %q", tt.rsh, tt.batch, got, tt.want)
		}
	}
}

// rsync's exit 24 (files vanished before they could be copied, such as
// a host record pruned meanwhile) is a success, and the log names them.
func TestVanishedFilesAreNotAFailure(t *testing.T) {
	bin := t.TempDir()
	fake := `#!/bin/sh
echo 'file has vanished: "/r/.st-hosts/h1/1714826789012.json"' >&2
echo 'rsync warning: some files vanished before they could be transferred (code 24) at main.c(1338) [sender=3.2.7]' >&2
exit 24
`
	if err := os.WriteFile(filepath.Join(bin, "rsync"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	a := newMachine(t, t.TempDir())
	a.s.PathEnv = bin
	if err := a.s.Push("local:" + t.TempDir()); err != nil {
		t.Fatalf("push: %v\n%s", err, a.log)
	}
	if !strings.Contains(a.log.String(), `# 1 file vanished while copying (removed at the source meanwhile; nothing lost): "/r/.st-hosts/h1/1714826789012.json"`) {
		t.Errorf("log:\n%s", a.log)
	}
	// Any other failure still fails.
	os.WriteFile(filepath.Join(bin, "rsync"), []byte("#!/bin/sh\nexit 23\n"), 0o755)
	if err := a.s.Push("local:" + t.TempDir()); err == nil {
		t.Error("exit 23 counted as success")
	}
}
