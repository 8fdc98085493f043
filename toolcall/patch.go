package toolcall

import (
	"strings"
)

// Codex edits files with apply_patch, whose input is a patch in its own
// format: "*** Begin Patch", then per file an "*** Add File: P",
// "*** Update File: P" (optionally followed by "*** Move to: Q") or
// "*** Delete File: P" line with its content, then "*** End Patch".
// Codex 0.169 hands PreToolUse the patch as tool_input.command, under
// tool_name "apply_patch" for its own tool and "Bash" when the model runs
// `apply_patch <<'EOF' … EOF` in the shell, which Codex applies the same
// way (e2e/codex/testdata/payloads); the shell forms are read in
// shell.go.

// Markers of the apply_patch format.
const (
	PatchBegin  = "*** Begin Patch"
	PatchEnd    = "*** End Patch"
	patchAdd    = "*** Add File: "
	patchUpdate = "*** Update File: "
	patchDelete = "*** Delete File: "
	patchMoveTo = "*** Move to: "
)

// PatchPaths lists the files a patch adds, updates, deletes or moves to,
// in order of appearance, each once, as written (relative paths stay
// relative). Only lines between "*** Begin Patch" and "*** End Patch"
// count; like Codex's parser it ignores the whitespace around a marker
// line. Content lines start with '+', '-' or a space before their text,
// so none reads as a marker except a context line holding one, which
// errs towards checking a path too many.
func PatchPaths(patch string) []string {
	var out []string
	seen := map[string]bool{}
	in := false
	for line := range strings.Lines(patch) {
		l := strings.TrimSpace(line)
		switch {
		case l == PatchBegin:
			in = true
			continue
		case l == PatchEnd:
			in = false
			continue
		case !in:
			continue
		}
		for _, m := range []string{patchAdd, patchUpdate, patchDelete, patchMoveTo} {
			if p, ok := strings.CutPrefix(l, m); ok {
				if p = strings.TrimSpace(p); p != "" && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}
