package wiring

import (
	"bytes"
	"testing"
)

// Codex's trust keys are positional: install and uninstall must leave
// every other group at its index.
func TestInPlaceKeepsOtherGroupsAtTheirIndex(t *testing.T) {
	const user = `{"type":"command","command":"echo user"}`
	st := func(hook string) string {
		return `{"hooks":[{"type":"command","command":"/bin/st hook ` + hook + `","timeout":5}]}`
	}
	tests := []struct {
		name, doc, installed, uninstalled string
	}{
		{
			name:        "ours first, the user's after",
			doc:         `{"hooks":{"SessionStart":[` + st("codex-session-start") + `,{"hooks":[` + user + `]}]}}`,
			installed:   `{"hooks":{"SessionStart":[` + st("codex-session-start") + `,{"hooks":[` + user + `]}],"Stop":[` + st("codex-stop") + `]}}`,
			uninstalled: `{"hooks":{"SessionStart":[{"hooks":[]},{"hooks":[` + user + `]}]}}`,
		},
		{
			name:        "an old st path is rewritten where it is",
			doc:         `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/st hook codex-stop"}]},{"hooks":[` + user + `]}]}}`,
			installed:   `{"hooks":{"Stop":[` + st("codex-stop") + `,{"hooks":[` + user + `]}],"SessionStart":[` + st("codex-session-start") + `]}}`,
			uninstalled: `{"hooks":{"Stop":[{"hooks":[]},{"hooks":[` + user + `]}]}}`,
		},
		{
			name:        "a placeholder is filled again",
			doc:         `{"hooks":{"SessionStart":[{"hooks":[]},{"hooks":[` + user + `]}]}}`,
			installed:   `{"hooks":{"SessionStart":[` + st("codex-session-start") + `,{"hooks":[` + user + `]}],"Stop":[` + st("codex-stop") + `]}}`,
			uninstalled: `{"hooks":{"SessionStart":[{"hooks":[]},{"hooks":[` + user + `]}]}}`,
		},
		{
			name:        "ours last leaves no placeholder",
			doc:         `{"hooks":{"Stop":[{"hooks":[` + user + `]}]}}`,
			installed:   `{"hooks":{"Stop":[{"hooks":[` + user + `]},` + st("codex-stop") + `],"SessionStart":[` + st("codex-session-start") + `]}}`,
			uninstalled: `{"hooks":{"Stop":[{"hooks":[` + user + `]}]}}`,
		},
		{
			name:        "nothing else",
			doc:         `{}`,
			installed:   `{"hooks":{"SessionStart":[` + st("codex-session-start") + `],"Stop":[` + st("codex-stop") + `]}}`,
			uninstalled: `{}`,
		},
	}
	// The placement, shown with the two session hooks (codex-pre-tool-use
	// is placed the same way).
	entries := CodexEntries[:2]
	for _, tt := range tests {
		d := mustParse(t, tt.doc)
		InstallInPlace(d, entries, "/bin/st")
		if got, want := formatJSON(t, d), formatJSON(t, mustParse(t, tt.installed)); !bytes.Equal(got, want) {
			t.Errorf("%s: installed\n%s\nwant\n%s", tt.name, got, want)
		}
		InstallInPlace(d, entries, "/bin/st")
		if got, want := formatJSON(t, d), formatJSON(t, mustParse(t, tt.installed)); !bytes.Equal(got, want) {
			t.Errorf("%s: installing twice gave\n%s", tt.name, got)
		}
		if n := UninstallInPlace(d, "/bin/st"); n != 2 {
			t.Errorf("%s: removed %d, want 2", tt.name, n)
		}
		if got, want := formatJSON(t, d), formatJSON(t, mustParse(t, tt.uninstalled)); !bytes.Equal(got, want) {
			t.Errorf("%s: uninstalled\n%s\nwant\n%s", tt.name, got, want)
		}
	}
}
