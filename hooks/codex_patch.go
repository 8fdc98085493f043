package hooks

import (
	"path/filepath"
	"strings"
)

// Codex edits files with apply_patch, whose input is a patch in its own
// format: "*** Begin Patch", then per file an "*** Add File: P",
// "*** Update File: P" (optionally followed by "*** Move to: Q") or
// "*** Delete File: P" line with its content, then "*** End Patch".
// Codex 0.169 hands PreToolUse the patch as tool_input.command, under
// tool_name "apply_patch" for its own tool and "Bash" when the model runs
// `apply_patch <<'EOF' … EOF` in the shell, which Codex applies the same
// way (e2e/codex/testdata/payloads).

// Patch markers of the apply_patch format.
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
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
		case l == patchBegin:
			in = true
			continue
		case l == patchEnd:
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

// codexPatch returns the patch a Codex tool call applies and the folder
// its relative paths are relative to; ok is false when the call applies
// none. apply_patch's command is the patch itself; a shell command
// applies one when it runs apply_patch (or applypatch) on a heredoc
// holding a patch, possibly after `cd DIR &&`, as Codex accepts it.
func codexPatch(toolName, command, cwd string) (patch, dir string, ok bool) {
	switch toolName {
	case "apply_patch":
		return command, cwd, true
	case "Bash":
		if !strings.Contains(command, patchBegin) {
			return "", "", false
		}
		head, _, _ := strings.Cut(command, patchBegin)
		if !strings.Contains(head, "apply_patch") && !strings.Contains(head, "applypatch") {
			return "", "", false
		}
		// Each `cd DIR &&` before apply_patch moves where its paths
		// start; a cd it cannot read leaves the call undecided.
		dir = cwd
		segments := strings.Split(head, "&&")
		for _, seg := range segments[:len(segments)-1] {
			if f := strings.Fields(seg); len(f) == 0 || f[0] != "cd" {
				continue
			}
			to, ok := cdTarget(seg)
			if !ok {
				return "", "", false
			}
			if !filepath.IsAbs(to) {
				if dir == "" {
					return "", "", false
				}
				to = filepath.Join(dir, to)
			}
			dir = to
		}
		return command, dir, true
	}
	return "", "", false
}

// cdTarget returns the folder of a plain `cd DIR` (DIR bare or in one
// pair of quotes); ok is false for anything else.
func cdTarget(s string) (dir string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(s), "cd ")
	if !found {
		return "", false
	}
	dir = strings.TrimSpace(rest)
	if n := len(dir); n >= 2 && (dir[0] == '\'' || dir[0] == '"') && dir[n-1] == dir[0] {
		dir = dir[1 : n-1]
		if strings.ContainsAny(dir, "'\"$`\\") {
			return "", false
		}
	} else if strings.ContainsAny(dir, " \t\n'\"$`\\;|&<>(){}*?~") {
		return "", false
	}
	return dir, dir != ""
}
