package wiring

import (
	"os"
	"path/filepath"
)

// CodexProjectDirs are the folders whose .codex/ Codex loads for a
// session started in cwd: the project root (the nearest folder up from
// cwd holding .git, Codex's default project_root_markers) and every
// folder below it down to cwd, root first. Without a marker it is cwd
// alone.
func CodexProjectDirs(cwd string) []string {
	dirs := []string{cwd}
	for dir := cwd; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dirs
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return []string{cwd}
		}
		dir = parent
		dirs = append([]string{dir}, dirs...)
	}
}
