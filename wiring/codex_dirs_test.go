package wiring

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestCodexProjectDirs(t *testing.T) {
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	deep := filepath.Join(repo, "a", "b")
	os.MkdirAll(deep, 0o755)
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	wt := filepath.Join(tmp, "worktree", "sub")
	os.MkdirAll(wt, 0o755)
	os.WriteFile(filepath.Join(tmp, "worktree", ".git"), []byte("gitdir: elsewhere\n"), 0o644) // a worktree's .git is a file
	lone := filepath.Join(tmp, "lone", "x")
	os.MkdirAll(lone, 0o755)
	for _, tc := range []struct {
		cwd  string
		want []string
	}{
		{deep, []string{repo, filepath.Join(repo, "a"), deep}},
		{repo, []string{repo}},
		{wt, []string{filepath.Join(tmp, "worktree"), wt}},
		{lone, []string{lone}},
	} {
		if got := CodexProjectDirs(tc.cwd); !slices.Equal(got, tc.want) {
			t.Errorf("CodexProjectDirs(%s) = %v, want %v", tc.cwd, got, tc.want)
		}
	}
}
