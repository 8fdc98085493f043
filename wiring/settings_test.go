package wiring

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/hooks"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/usr/local/bin/st", "/usr/local/bin/st"},
		{"/opt/my tools/st", "'/opt/my tools/st'"},
		{"/it's/st", `'/it'\''s/st'`},
		{"/a$b/st", "'/a$b/st'"},
		{"", "''"},
	}
	for _, tt := range tests {
		if got := ShellQuote(tt.in); got != tt.want {
			t.Errorf("ShellQuote(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if tt.in != "" {
			if got := ShellWords(ShellQuote(tt.in) + " hook x"); !reflect.DeepEqual(got, []string{tt.in, "hook", "x"}) {
				t.Errorf("ShellWords(ShellQuote(%q)) = %q", tt.in, got)
			}
		}
	}
	e := Entry{Hook: hooks.SessionStart, Args: []string{"--json"}}
	if got, want := e.Command("/My Apps/st"), "'/My Apps/st' hook session-start --json"; got != want {
		t.Errorf("Command() = %q, want %q", got, want)
	}
}

func TestShellWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"st hook pre-compact", []string{"st", "hook", "pre-compact"}},
		{`  "/a b/st"   hook  x `, []string{"/a b/st", "hook", "x"}},
		{`/a\ b/st hook`, []string{"/a b/st", "hook"}},
		{`"say \"hi\""`, []string{`say "hi"`}},
		{`''`, []string{""}},
		{`'unterminated`, []string{"unterminated"}},
	}
	for _, tt := range tests {
		if got := ShellWords(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ShellWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOursEvent(t *testing.T) {
	tests := []struct {
		cmd   string
		event string
		ours  bool
	}{
		{"/usr/local/bin/st hook session-start", hooks.SessionStart, true},
		{"st hook codex-stop", hooks.CodexStop, true},
		{"'/x y/st' hook pre-compact --json", hooks.PreCompact, true},
		{"/opt/smalltalk hook stop-failure", hooks.StopFailure, true},
		{"/my/build/st-dev hook pre-compact", hooks.PreCompact, true}, // the installing binary
		{"/opt/other hook pre-compact", "", false},
		{"st hooks path", "", false},
		{"st hook nope", "", false},
		{"/x/examples/claude-code/hooks/session-start.sh", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		event, ours := OursEvent(tt.cmd, "/my/build/st-dev")
		if event != tt.event || ours != tt.ours {
			t.Errorf("OursEvent(%q) = %q, %v, want %q, %v", tt.cmd, event, ours, tt.event, tt.ours)
		}
	}
}

func mustParse(t *testing.T, s string) *jsonobj.Object {
	t.Helper()
	v, err := jsonobj.ParseKeepNumbers([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*jsonobj.Object)
}

// formatJSON encodes v as the settings file is written.
func formatJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := jsonobj.MarshalIndent(v)
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

func TestInstallUninstall(t *testing.T) {
	docs := []string{
		`{}`,
		`{"hooks":{}}`,
		`{"env":{"A":"1"},"hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"echo hi"}]}]},"z":[1]}`,
		`{"hooks":{"PreCompact":[{"hooks":[{"type":"command","command":"/old/st hook pre-compact"},{"type":"command","command":"keep me"}]}]}}`,
	}
	for _, doc := range docs {
		for _, entries := range [][]Entry{ClaudeEntries, CodexEntries} {
			d := mustParse(t, doc)
			Install(d, entries, "/bin/st")
			once := formatJSON(t, d)
			Install(d, entries, "/bin/st")
			if twice := formatJSON(t, d); !bytes.Equal(once, twice) {
				t.Errorf("install twice on %s differs:\n%s\n%s", doc, once, twice)
			}
			if got := len(Installed(d, "/bin/st")); got != len(entries) {
				t.Errorf("install on %s: %d of ours, want %d", doc, got, len(entries))
			}
			if n := Uninstall(d, "/bin/st"); n != len(entries) {
				t.Errorf("uninstall on %s removed %d, want %d", doc, n, len(entries))
			}
			want := doc
			if doc == `{"hooks":{}}` {
				want = `{}` // an object emptied by the removal goes
			}
			if strings.Contains(doc, "/old/st") {
				want = `{"hooks":{"PreCompact":[{"hooks":[{"type":"command","command":"keep me"}]}]}}`
			}
			if got, w := formatJSON(t, d), formatJSON(t, mustParse(t, want)); !bytes.Equal(got, w) {
				t.Errorf("install+uninstall on %s gave\n%s", doc, got)
			}
		}
	}
}

func TestReadSettings(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, data string
		codex      bool
		refused    bool
	}{
		{"missing.json", "", false, false},
		{"blank.json", " \n", false, false},
		{"ok.json", `{"hooks":{"Stop":[{"hooks":[]}]}}`, false, false},
		{"bad.json", `{"a":`, false, true},
		{"root.json", `"x"`, false, true},
		{"hooks.json", `{"hooks":1}`, false, true},
		{"event.json", `{"hooks":{"Stop":{}}}`, false, true},
		{"group.json", `{"hooks":{"Stop":[1]}}`, false, true},
		{"inner.json", `{"hooks":{"Stop":[{"hooks":{}}]}}`, false, true},
		{"handler.json", `{"hooks":{"Stop":[{"hooks":["st"]}]}}`, false, true},
		{"codex-ok.json", `{"description":"d","hooks":{}}`, true, false},
		{"codex-schema.json", `{"$schema":"x","hooks":{}}`, true, true},
	}
	for _, tt := range tests {
		p := filepath.Join(dir, tt.name)
		if tt.name != "missing.json" {
			if err := os.WriteFile(p, []byte(tt.data), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		_, err := ReadSettings(p, tt.codex)
		if refused := errors.Is(err, ErrRefused); refused != tt.refused {
			t.Errorf("ReadSettings(%s) = %v, want refused %v", tt.name, err, tt.refused)
		}
	}
}

func TestWriteSettingsKeepsBackup(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(p, []byte(`{"a":1}`), 0o666); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSettings(p, false)
	if err != nil {
		t.Fatal(err)
	}
	Install(s.Doc, ClaudeEntries, "/bin/st")
	backup, err := WriteSettings(s, formatJSON(t, s.Doc))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(backup); string(got) != `{"a":1}` {
		t.Errorf("backup holds %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("dir holds %d files, want settings and backup only", len(entries))
	}
}
