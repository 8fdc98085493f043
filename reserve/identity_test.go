package reserve

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// identify is Identify without the process's memory of earlier answers.
func identify(top string) string {
	idCache.Delete(top)
	return Identify(top, CommandWait).ID
}

// git runs git in dir with a fixed identity and no user configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestIdentifyClones(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := t.TempDir()
	a := filepath.Join(base, "home", "a", "proj")
	git(t, base, "init", "-q", a)
	git(t, a, "commit", "-q", "--allow-empty", "-m", "root")
	root := git(t, a, "rev-parse", "HEAD")
	git(t, a, "commit", "-q", "--allow-empty", "-m", "second")
	b := filepath.Join(base, "home", "b", "proj")
	git(t, base, "clone", "-q", a, b)
	wt := filepath.Join(base, "wt")
	git(t, a, "worktree", "add", "-q", wt)
	sub := filepath.Join(base, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// A .git file naming the git folder by a relative path, as submodules do.
	rel, _ := filepath.Rel(sub, filepath.Join(b, ".git"))
	if err := os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: "+rel+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "root:" + root
	for _, top := range []string{a, b, wt, sub} {
		if got := identify(top); got != want {
			t.Errorf("identify(%s) = %q, want %q", top, got, want)
		}
	}
	// Found once, the identity is kept in the common git folder: a
	// worktree's is its main repository's.
	for _, f := range []string{filepath.Join(a, ".git", IDFile), filepath.Join(b, ".git", IDFile)} {
		if data, err := os.ReadFile(f); err != nil || strings.TrimSpace(string(data)) != want {
			t.Errorf("%s = %q, %v; want %q", f, data, err, want)
		}
	}
	// Kept, it costs no git process: without git it is still found.
	t.Setenv("PATH", t.TempDir())
	if got := identify(b); got != want {
		t.Errorf("identify from the kept file = %q, want %q", got, want)
	}
}

// TestIdentifyInGitHook: inside a git hook GIT_DIR names the repository
// the hook runs for; the identity of another one is still its own.
func TestIdentifyInGitHook(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []string{a, b} {
		git(t, base, "init", "-q", d)
		git(t, d, "commit", "-q", "--allow-empty", "-m", "root of "+d)
	}
	t.Setenv("GIT_DIR", filepath.Join(a, ".git"))
	if got, want := identify(b), "root:"+git(t, b, "--git-dir", filepath.Join(b, ".git"), "rev-parse", "HEAD"); got != want {
		t.Errorf("identify(b) with GIT_DIR=a = %q, want %q", got, want)
	}
}

func TestIdentifyFallbacks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := t.TempDir()
	empty := filepath.Join(base, "empty")
	git(t, base, "init", "-q", empty)
	if got := Identify(empty, CommandWait); got != (Where{Top: empty}) {
		t.Errorf("a repository without commit or origin: %+v", got)
	}
	git(t, empty, "remote", "add", "origin", "git@GitHub.com:acme/proj.git")
	if got := Identify(empty, CommandWait); got.Origin != "github.com/acme/proj" || got.ID != "" {
		t.Errorf("a repository with only an origin: %+v", got)
	}
	if _, err := os.Stat(filepath.Join(empty, ".git", IDFile)); err == nil {
		t.Errorf("an identity was kept before the first commit")
	}
	git(t, empty, "commit", "-q", "--allow-empty", "-m", "root")
	if got := identify(empty); !strings.HasPrefix(got, "root:") {
		t.Errorf("after the first commit: %q, want a root", got)
	}
	fake := filepath.Join(base, "fake")
	if err := os.MkdirAll(filepath.Join(fake, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Identify(fake, HookWait); got != (Where{Top: fake}) {
		t.Errorf("an empty .git folder: %+v", got)
	}
}

// TestIdentifyGivesUp: a hook whose git ran out of time leaves a marker,
// and the hooks after it do not start git again for a while; a command
// does, and keeps the root it finds.
func TestIdentifyGivesUp(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	git(t, base, "init", "-q", repo)
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "root")
	want := "root:" + git(t, repo, "rev-parse", "HEAD")
	// A git that never answers in time.
	bin := t.TempDir()
	slow := "#!/bin/sh\nexec /bin/sleep 5\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(slow), 0o755); err != nil {
		t.Fatal(err)
	}
	path := os.Getenv("PATH")
	t.Setenv("PATH", bin)
	if got := Identify(repo, 50*time.Millisecond).ID; got != "" {
		t.Fatalf("with a git that hangs: %q", got)
	}
	data, _ := os.ReadFile(filepath.Join(repo, ".git", IDFile))
	if !strings.HasPrefix(string(data), "unknown ") {
		t.Fatalf("marker %q, want unknown <time>", data)
	}
	t.Setenv("PATH", path)
	if got := Identify(repo, HookWait).ID; got != "" {
		t.Errorf("a hook within the marker's hour found %q; it should leave it to a command", got)
	}
	if got := Identify(repo, CommandWait).ID; got != want {
		t.Errorf("a command: %q, want %q", got, want)
	}
	if got := identify(repo); got != want {
		t.Errorf("after the command: %q, want %q", got, want)
	}
}

func TestNormalizeURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://github.com/acme/proj.git", "github.com/acme/proj"},
		{"https://user:pw@GitHub.com/acme/proj/", "github.com/acme/proj"},
		{"ssh://git@github.com:22/acme/proj.git", "github.com/acme/proj"},
		{"git@github.com:acme/proj.git", "github.com/acme/proj"},
		{"github.com:acme/proj", "github.com/acme/proj"},
		{"/srv/git/proj.git", "/srv/git/proj"},
		{"file:///srv/git/proj.git", "/srv/git/proj"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeURL(tt.in); got != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSameRepoAcrossPaths: reservations made through two clones at two
// paths clash; a file written before identities existed (a path only)
// still clashes with one made at its path.
func TestSameRepoAcrossPaths(t *testing.T) {
	a := Reservation{ID: "1", Agent: "amy", Repo: "/home/a/proj", RepoID: "root:aa", Pattern: "src/**", Mode: Exclusive}
	b := Reservation{ID: "2", Agent: "bob", Repo: "/home/b/proj", RepoID: "root:aa", Pattern: "src/x.go", Mode: Exclusive}
	old := Reservation{ID: "3", Agent: "cat", Repo: "/home/b/proj", Pattern: "src/x.go", Mode: Exclusive}
	other := Reservation{ID: "4", Agent: "dan", Repo: "/home/c/proj", RepoID: "root:bb", Pattern: "src/x.go", Mode: Exclusive}
	viaOrigin := Reservation{ID: "5", Agent: "eve", Repo: "/home/e/proj", Origin: "github.com/acme/proj", Pattern: "src/y.go", Mode: Exclusive}
	a.Origin = "github.com/acme/proj"
	if !Clashes(a, viaOrigin) || Clashes(b, viaOrigin) {
		t.Errorf("origin: a~viaOrigin %v, b~viaOrigin %v; want true false", Clashes(a, viaOrigin), Clashes(b, viaOrigin))
	}
	if !Clashes(a, b) || !Clashes(b, old) || Clashes(a, other) || Clashes(a, old) {
		t.Errorf("Clashes: a~b %v, b~old %v, a~other %v, a~old %v; want true true false false",
			Clashes(a, b), Clashes(b, old), Clashes(a, other), Clashes(a, old))
	}
	got := Conflicts([]Reservation{a, b, old, other})
	if !got["1"] || !got["2"] || !got["3"] || got["4"] {
		t.Errorf("Conflicts = %v, want 1, 2 and 3", got)
	}
	set := &Set{Active: []Reservation{a}, globs: []compiled{compile(a.Pattern)}}
	if _, ok := set.Holder("bob", Where{Top: "/home/b/proj", ID: "root:aa"}, "src/x.go"); !ok {
		t.Errorf("an edit through the other clone is not refused")
	}
	if _, ok := set.Holder("bob", Where{Top: "/home/b/proj", ID: "root:bb"}, "src/x.go"); ok {
		t.Errorf("an edit in another repository is refused")
	}
}
