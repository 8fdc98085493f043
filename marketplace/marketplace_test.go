package marketplace

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/wiring"
)

// The committed marketplace files are what the generator writes from
// the client tables today: a hook added to wiring.Clients without
// `go generate ./marketplace` fails here.
func TestCommittedFilesAreGenerated(t *testing.T) {
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, f := range files {
		want[f.Path] = true
		got, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./marketplace)", f.Path, err)
			continue
		}
		if !bytes.Equal(got, f.Data) {
			t.Errorf("%s differs from what the generator writes (run go generate ./marketplace)", f.Path)
		}
	}
	// A file left in a plugin folder from an older generation is stale.
	err = filepath.WalkDir(filepath.Join("..", "plugins"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("..", p)
		if !want[filepath.ToSlash(rel)] {
			t.Errorf("%s is not generated any more: remove it", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every plugin hook runs the entry of the same event that `st hooks
// install --all` wires, guarded.
func TestPluginHooksMatchTheInstallSet(t *testing.T) {
	for _, c := range wiring.Clients() {
		doc := wiring.PluginHooks(c.InstallSet(true))
		hv, _ := doc.Get("hooks")
		byEvent := hv.(*jsonobj.Object)
		var events []string
		for _, e := range c.InstallSet(true) {
			events = append(events, e.Event)
		}
		if got := strings.Join(byEvent.Keys(), ","); got != strings.Join(events, ",") {
			t.Errorf("%s: plugin events %s, install set %s", c.Name, got, strings.Join(events, ","))
		}
		for _, e := range c.InstallSet(true) {
			if ev, ok := wiring.PluginEvent(e.PluginCommand()); !ok || ev != e.Hook {
				t.Errorf("%s %s: PluginEvent(%q) = %q, %v", c.Name, e.Event, e.PluginCommand(), ev, ok)
			}
		}
	}
}

// The guard, run by sh as the clients run it: without st on PATH one
// line on stderr and exit 0; with st, st runs with the entry's words.
func TestPluginCommandGuard(t *testing.T) {
	e := wiring.Entry{Event: "SessionStart", Hook: "session-start", Args: []string{"--json"}}
	empty := t.TempDir()
	cmd := exec.Command("/bin/sh", "-c", e.PluginCommand())
	cmd.Env = []string{"PATH=" + empty}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("without st: %v, want exit 0", err)
	}
	if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "st is not on PATH") {
		t.Errorf("without st: stdout %q, stderr %q; want one line on stderr", stdout.String(), stderr.String())
	}

	bin := t.TempDir()
	fake := "#!/bin/sh\necho \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "st"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command("/bin/sh", "-c", e.PluginCommand())
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil || string(out) != "hook session-start --json\n" {
		t.Errorf("with st: %q, %v; want st run as hook session-start --json", out, err)
	}
}
