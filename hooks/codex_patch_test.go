package hooks

import (
	"path/filepath"
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
		why                      string // "": none; else a part of it
	}{
		{"apply_patch tool", "apply_patch", patch, "/p", "/p", true, ""},
		{"shell heredoc (as Codex 0.169 sent it)", "Bash", "apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p", true, ""},
		{"applypatch alias", "Bash", "applypatch <<EOF\n" + patch + "EOF\n", "/p", "/p", true, ""},
		{"cd first, relative", "Bash", "cd sub/dir && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p/sub/dir", true, ""},
		{"cd first, absolute", "Bash", "cd '/other place' && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/other place", true, ""},
		{"cd first, relative, no cwd", "Bash", "cd sub && apply_patch <<'EOF'\n" + patch + "EOF\n", "", "", true, "no working folder"},
		{"no cwd at all", "Bash", "apply_patch <<'EOF'\n" + patch + "EOF\n", "", "", true, "working folder is unknown"},
		{"two cds", "Bash", "cd sub && cd ../other && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p/other", true, ""},
		{"a cd it cannot read", "Bash", "cd $HOME && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "", true, "variable"},
		{"cd with no folder", "Bash", "cd && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "", true, "no folder"},
		{"other && prefix keeps cwd", "Bash", "true && apply_patch <<'EOF'\n" + patch + "EOF\n", "/p", "/p", true, ""},
		{"plain shell write", "Bash", "echo hi > hello.txt", "/p", "", false, ""},
		{"a patch shown, not applied", "Bash", "cat <<'EOF'\n" + patch + "EOF\n", "/p", "", false, ""},
		{"apply_patch named only after the patch", "Bash", "cat <<'EOF'\n" + patch + "EOF\n# apply_patch", "/p", "", false, ""},
		{"apply_patch named, not run, before the patch", "Bash", "echo apply_patch; cat <<'EOF'\n" + patch + "EOF\n", "/p", "", true, "not the command the patch is given to"},
		{"apply_patch on a file", "Bash", "apply_patch < fix.patch", "/p", "", true, "not written in the command"},
		{"apply_patch only named", "Bash", "grep -rn apply_patch docs/", "/p", "", false, ""},
		{"other tool", "exec_command", patch, "/p", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dir, ok, why := codexPatch(tt.tool, tt.command, tt.cwd)
			if ok != tt.ok || dir != tt.wantDir || (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
				t.Fatalf("codexPatch = (dir %q, ok %v, why %q), want (%q, %v, %q)", dir, ok, why, tt.wantDir, tt.ok, tt.why)
			}
			if ok && why == "" && !slices.Equal(PatchPaths(got), []string{"hello.txt"}) {
				t.Errorf("the patch's paths are %q", PatchPaths(got))
			}
		})
	}
}

// The shell forms before a patch: each one patchFolder follows gives the
// folder the shell is in when apply_patch runs; each one it does not
// gives a reason. Folders under /p exist except /p/none.
func TestPatchFolder(t *testing.T) {
	isDir := func(p string) bool { return strings.HasPrefix(p, "/p") && !strings.Contains(p, "none") }
	const ap = "apply_patch <<'EOF'\n"
	tests := []struct {
		name, head string
		dir        string // "" with why
		why        string
	}{
		{"plain", ap, "/p", ""},
		{"cd &&", "cd src && " + ap, "/p/src", ""},
		{"cd ;", "cd src; " + ap, "/p/src", ""},
		{"cd ; no space", "cd src;" + ap, "/p/src", ""},
		{"cd on its own line", "cd src\n" + ap, "/p/src", ""},
		{"cd on its own line, CRLF", "cd src\r\n" + ap, "/p/src", ""},
		{"blank and comment lines", "\n# move first\ncd src # there\n\n" + ap, "/p/src", ""},
		{"pushd &&", "pushd src && " + ap, "/p/src", ""},
		{"pushd ;", "pushd src >/dev/null; " + ap, "", "redirection"},
		{"subshell", "(cd src && " + ap, "/p/src", ""},
		{"subshell with spaces and ;", "( cd src ; " + ap, "/p/src", ""},
		{"nested subshells", "(cd a && (cd b; " + ap, "/p/a/b", ""},
		{"subshell closed before", "(cd src) && " + ap, "/p", ""},
		{"subshell closed before, then cd", "(cd a); cd b && " + ap, "/p/b", ""},
		{"cd into a subshell", "cd a && (cd b && " + ap, "/p/a/b", ""},
		{"chain of cds", "cd a; cd b\ncd ../c && " + ap, "/p/a/c", ""},
		{"absolute", "cd /q && " + ap, "/q", ""},
		{"quoted", `cd "my dir" && ` + ap, "/p/my dir", ""},
		{"single-quoted", `cd 'it''s' && ` + ap, "/p/its", ""},
		{"line continuation", "cd src \\\n && " + ap, "/p/src", ""},
		{"cd ; to a missing folder stays", "cd none; " + ap, "/p", ""},
		{"cd && cd ; the second missing", "cd a && cd none; " + ap, "/p/a", ""},
		{"cd missing && cd ; skips the rest", "cd none && cd a; " + ap, "/p", ""},
		{"other commands", "git status; ls -la | head > out.txt && " + ap, "/p", ""},
		{"other command then cd &&", "mkdir -p src && cd src && " + ap, "/p/src", ""},
		{"applypatch", "cd src && applypatch <<EOF\n", "/p/src", ""},
		{"other command then cd ;", "test -d src && cd src; " + ap, "", "only if another command succeeds"},
		{"cd || cd", "cd a || cd b; " + ap, "", "only if another command succeeds"},
		{"after ||", "cd a || " + ap, "", "after ||"},
		{"in a pipeline", "cat x | " + ap, "", "pipeline"},
		{"cd in a pipeline", "cd a | true; " + ap, "", "pipeline"},
		{"cd in the background", "cd a & " + ap, "", "background"},
		{"cd back", "cd - && " + ap, "", "cd -"},
		{"bare cd", "cd; " + ap, "", "no folder"},
		{"cd ~", "cd ~/src && " + ap, "", "variable, a ~"},
		{"cd $VAR", "cd $SRC && " + ap, "", "variable"},
		{"cd \"$VAR\"", `cd "$SRC" && ` + ap, "", "variable"},
		{"cd ${VAR}", "cd ${SRC} && " + ap, "", "expansion"},
		{"cd $(…)", "cd $(git rev-parse --show-toplevel) && " + ap, "", "substitution"},
		{"cd `…`", "cd `pwd`/src && " + ap, "", "substitution"},
		{"cd glob", "cd sr* && " + ap, "", "wildcard"},
		{"cd -P", "cd -P src && " + ap, "", "more than one"},
		{"cd -", "cd -- && " + ap, "", "cd --"},
		{"cd two args", "cd a b && " + ap, "", "more than one"},
		{"escaped space", `cd my\ dir && ` + ap, "", "variable, a ~ or a wildcard"},
		{"popd", "pushd a && popd; " + ap, "", "popd"},
		{"eval", `eval "cd src" && ` + ap, "", "eval"},
		{"source", "source env.sh && " + ap, "", "source"},
		{"dot", ". ./env.sh && " + ap, "", "`.`"},
		{"CDPATH", "CDPATH=/x cd src && " + ap, "", "variable set"},
		{"export", "export CDPATH=/x; cd src && " + ap, "", "export"},
		{"function", "f() { cd src; }; f && " + ap, "", "function"},
		{"brace group", "{ cd src; } && " + ap, "", "`{`"},
		{"if", "if true; then cd src; fi; " + ap, "", "`if`"},
		{"builtin cd", "builtin cd src && " + ap, "", "builtin"},
		{"other heredoc first", "cat <<X\nhi\nX\n" + ap, "", "heredoc"},
		{"run through env", "env apply_patch <<'EOF'\n", "", "not found"},
		{"inside bash -c", "bash -c 'cd src && " + ap, "", "quote"},
		{"unmatched )", "cd a) && " + ap, "", "unmatched"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, found, why := patchFolderWith(tt.head, "/p", isDir)
			if !found && why == "" {
				why = "not found"
			}
			if found && why == "" && dir != tt.dir || (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
				t.Fatalf("patchFolder = (%q, %v, %q), want (%q, %q)", dir, found, why, tt.dir, tt.why)
			}
		})
	}
}

// FuzzPatchPaths reads arbitrary patches and shell commands: it never
// panics, every path it returns is non-empty, trimmed, unique, and
// written on a marker line of the input; a call it takes as a patch has
// either a folder (absolute, clean) or a reason, never both.
func FuzzPatchPaths(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: hello.txt\n+hi there\n*** End Patch\n", "apply_patch")
	f.Add("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: hello.txt\n+hi there\n*** End Patch\nEOF\n", "Bash")
	f.Add("cd a && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: x\n*** Move to: y\n*** End Patch\nEOF", "Bash")
	f.Add("*** Begin Patch\r\n *** Delete File: \t\r\n*** End Patch", "apply_patch")
	f.Add("(cd src; pushd ../a && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: b\n*** End Patch\nEOF\n)", "Bash")
	f.Add("cd \"$X\" || cd '/y' ; { cd z; } | applypatch <<-E\n*** Begin Patch\n*** End Patch\nE", "Bash")
	f.Add("f() ( cd x ); # c\n  cd a\\\nb && (cd -) & apply_patch < p", "Bash")
	f.Fuzz(func(t *testing.T, command, tool string) {
		patch, dir, ok, why := codexPatch(tool, command, "/cwd")
		if !ok {
			if patch != "" || dir != "" || why != "" {
				t.Fatalf("no patch, yet (%q, %q, %q)", patch, dir, why)
			}
			return
		}
		if (dir == "") == (why == "") {
			t.Fatalf("dir %q and why %q", dir, why)
		}
		if dir != "" && (!filepath.IsAbs(dir) || filepath.Clean(dir) != dir) {
			t.Fatalf("dir %q is not absolute and clean", dir)
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
