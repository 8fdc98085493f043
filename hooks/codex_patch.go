package hooks

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
// holding a patch, after the commands patchFolder follows. why, when not
// empty, says why st cannot tell the folder (or, for a shell command
// running apply_patch on no patch written in it, the files): the hook
// refuses such a call when a reservation could apply.
func codexPatch(toolName, command, cwd string) (patch, dir string, ok bool, why string) {
	switch toolName {
	case "apply_patch":
		return command, cwd, true, ""
	case "Bash":
		head, _, hasPatch := strings.Cut(command, patchBegin)
		if !strings.Contains(head, "apply_patch") && !strings.Contains(head, "applypatch") {
			return "", "", false, ""
		}
		dir, found, why := patchFolder(head, cwd)
		if !hasPatch {
			if !found {
				return "", "", false, "" // a command that only names apply_patch
			}
			return command, "", true, "st cannot see which files this apply_patch changes: the patch is not written in the command"
		}
		if !found && why == "" {
			why = "apply_patch is not the command the patch is given to"
		}
		if why == "" && dir == "" {
			why = "the working folder is unknown"
		}
		if why != "" {
			return command, "", true, "st cannot tell which folder this apply_patch writes in: " + why
		}
		return command, dir, true, ""
	}
	return "", "", false, ""
}
