package hooks

import (
	"slices"
	"strings"
	"testing"
)

func TestPatchPaths(t *testing.T) {
	tests := []struct {
		name, patch string
		want        []string
	}{
		{"add (as Codex 0.169 sent it)", "*** Begin Patch\n*** Add File: hello.txt\n+hi there\n*** End Patch\n", []string{"hello.txt"}},
		{"every kind, in order, each once",
			"*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** Move to: src/b.go\n*** Delete File: old/c.go\n" +
				"*** Add File: /abs/d.go\n+d\n*** Update File: src/a.go\n@@\n z\n*** End Patch",
			[]string{"src/a.go", "src/b.go", "old/c.go", "/abs/d.go"}},
		{"whitespace around markers and CRLF", "  *** Begin Patch\r\n\t*** Update File:  spaced name.go \r\n@@\r\n-a\r\n+b\r\n*** End Patch\r\n",
			[]string{"spaced name.go"}},
		{"content lines are not markers",
			"*** Begin Patch\n*** Add File: a\n+*** Update File: not-a\n*** Update File: b\n@@\n-*** Delete File: not-b\n+x\n*** End Patch\n",
			[]string{"a", "b"}},
		{"outside the patch", "*** Update File: before\n*** Begin Patch\n*** Delete File: in\n*** End Patch\n*** Update File: after\n",
			[]string{"in"}},
		{"two patches", "*** Begin Patch\n*** Delete File: one\n*** End Patch\n*** Begin Patch\n*** Delete File: two\n*** End Patch\n",
			[]string{"one", "two"}},
		{"unterminated patch still counts", "*** Begin Patch\n*** Update File: x.go\n@@\n-a\n", []string{"x.go"}},
		{"empty path", "*** Begin Patch\n*** Add File: \n*** Add File:   \n*** End Patch\n", nil},
		{"no begin", "*** Update File: x.go\n", nil},
		{"marker without the space", "*** Begin Patch\n*** Add File:x\n*** End Patch\n", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PatchPaths(tt.patch); !slices.Equal(got, tt.want) {
				t.Errorf("PatchPaths = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCodexPatch(t *testing.T) {
	const patch = "*** Begin Patch\n*** Add File: hello.txt\n+hi there\n*** End Patch\n"
	tests := []struct {
		name, tool, command, cwd string
		wantDir                  string
		ok                       bool
	}{
		{"apply_patch tool", "apply_patch", patch, "/p", "/p", true},
		{"shell heredoc (as Codex 0.169 sent it)", "Bash", "apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p", true},
		{"applypatch alias", "Bash", "applypatch <<EOF\n" + patch + "EOF\n", "/p", "/p", true},
		{"cd first, relative", "Bash", "cd sub/dir && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p/sub/dir", true},
		{"cd first, absolute", "Bash", "cd '/other place' && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/other place", true},
		{"cd first, relative, no cwd", "Bash", "cd sub && apply_patch <<'EOF'\n" + patch + "EOF\n", "", "", false},
		{"two cds", "Bash", "cd sub && cd ../other && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p/other", true},
		{"a cd it cannot read", "Bash", "cd $HOME && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "", false},
		{"cd with no folder", "Bash", "cd && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "", false},
		{"other && prefix keeps cwd", "Bash", "true && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p", true},
		{"plain shell write", "Bash", "echo hi > hello.txt", "/p", "", false},
		{"a patch shown, not applied", "Bash", "cat <<'EOF'\n" + patch + "EOF\n", "/p", "", false},
		{"apply_patch named only after the patch", "Bash", "cat <<'EOF'\n" + patch + "EOF\n# apply_patch", "/p", "", false},
		{"other tool", "exec_command", patch, "/p", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dir, ok := codexPatch(tt.tool, tt.command, tt.cwd)
			if ok != tt.ok || dir != tt.wantDir {
				t.Fatalf("codexPatch = (dir %q, ok %v), want (%q, %v)", dir, ok, tt.wantDir, tt.ok)
			}
			if ok && !slices.Equal(PatchPaths(got), []string{"hello.txt"}) {
				t.Errorf("the patch's paths are %q", PatchPaths(got))
			}
		})
	}
}

// FuzzPatchPaths reads arbitrary patches and shell commands: it never
// panics, every path it returns is non-empty, trimmed, unique, and
// written on a marker line of the input.
func FuzzPatchPaths(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: hello.txt\n+hi there\n*** End Patch\n", "apply_patch")
	f.Add("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: hello.txt\n+hi there\n*** End Patch\nEOF\n", "Bash")
	f.Add("cd a && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: x\n*** Move to: y\n*** End Patch\nEOF", "Bash")
	f.Add("*** Begin Patch\r\n *** Delete File: \t\r\n*** End Patch", "apply_patch")
	f.Fuzz(func(t *testing.T, command, tool string) {
		patch, _, ok := codexPatch(tool, command, "/cwd")
		if !ok {
			return
		}
		seen := map[string]bool{}
		for _, p := range PatchPaths(patch) {
			if p == "" || p != strings.TrimSpace(p) || seen[p] {
				t.Fatalf("bad path %q in %q", p, PatchPaths(patch))
			}
			seen[p] = true
			if !strings.Contains(patch, p) || strings.Contains(p, "\n") {
				t.Fatalf("path %q is not on one line of the input", p)
			}
		}
	})
}

// The deny st prints is one Codex takes.
func TestCodexDenyAccepted(t *testing.T) {
	if err := CheckOutput(CodexPreToolUse, Deny("src/a.go is reserved")); err != nil {
		t.Errorf("CheckOutput rejects st's deny: %v", err)
	}
}
