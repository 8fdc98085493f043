package toolcall

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeFS says which folders exist: everything under /p but /p/none and
// the names holding "branch"; the .go files under /p exist too. /p is a
// repository.
type fakeFS struct{}

func (fakeFS) isDir(p string) bool {
	return (p == "/p" || strings.HasPrefix(p, "/p/")) && !strings.Contains(p, "none") && !strings.Contains(p, "branch") &&
		!strings.HasSuffix(p, ".go")
}

func (f fakeFS) exists(p string) bool {
	return f.isDir(p) || strings.HasPrefix(p, "/p/") && strings.HasSuffix(p, ".go") && !strings.Contains(p, "none")
}

func (fakeFS) gitTop(dir string) string {
	if dir == "/p" || strings.HasPrefix(dir, "/p/") {
		return "/p"
	}
	return ""
}

func paths(list []Named) []string {
	var out []string
	for _, n := range list {
		out = append(out, n.Path)
	}
	return out
}

// The folder a write lands in, followed through the shell's forms; where
// the cd may fail (a folder that does not exist), both folders.
func TestShellFolders(t *testing.T) {
	tests := []struct {
		name, command string
		writes        []string
		blind         string // a part of it; "" none
	}{
		{"plain", "echo > f", []string{"/p/f"}, ""},
		{"cd &&", "cd src && echo > f", []string{"/p/src/f"}, ""},
		{"cd ;", "cd src; echo > f", []string{"/p/src/f"}, ""},
		{"cd newline", "cd src\necho > f", []string{"/p/src/f"}, ""},
		{"subshell ends", "(cd src && echo > a); echo > b", []string{"/p/src/a", "/p/b"}, ""},
		{"nested subshells", "(cd a && (cd b; echo > f))", []string{"/p/a/b/f"}, ""},
		{"pipeline side", "cd a | true; echo > f", []string{"/p/f"}, ""},
		{"background", "cd a & echo > f", []string{"/p/f"}, ""},
		{"missing folder: either", "cd none; echo > f", []string{"/p/none/f", "/p/f"}, ""},
		{"cd || cd: where the first may have failed part way", "cd a || cd b; echo > f", []string{"/p/a/f", "/p/b/f", "/p/a/b/f"}, ""},
		{"if branches", "if x; then cd a; else cd b; fi; echo > f", []string{"/p/a/f", "/p/b/f", "/p/f"}, ""},
		{"dot dot", "cd a/../b && echo > ../c/f", []string{"/p/c/f"}, ""},
		{"absolute", "cd /q && echo > f", []string{"/q/f", "/p/f"}, ""},
		{"quoted", `cd "my dir" && echo > 'a b'`, []string{"/p/my dir/a b"}, ""},
		{"escaped", `cd my\ dir && echo > f`, []string{"/p/my dir/f"}, ""},
		{"env -C", "env -C a FOO=1 touch f; echo > g", []string{"/p/a/f", "/p/g"}, ""},
		{"git -C", "git -C a checkout -- f", []string{"/p/a/f", "/p/a/f/**"}, ""},
		{"git -C for its command only", "git -C a reset --hard; echo > f", []string{"/p/f"}, ""},
		{"git from a folder st cannot tell", "cd $D && git pull", nil, "which repository `git pull`"},
		{"git --work-tree with a variable", "git --work-tree=$W reset --hard", nil, "--work-tree holds a variable"},
		{"git checkout of paths listed in a file", "git checkout --pathspec-from-file=list", nil, "listed in a file"},
		{"bash -c keeps its own folder", "bash -c 'cd a; echo > f'; echo > g", []string{"/p/a/f", "/p/g"}, ""},
		{"eval moves this shell", "eval 'cd a'; echo > f", []string{"/p/a/f"}, ""},
		{"cd $VAR", "cd $D && echo > f", nil, "variable"},
		{"cd ~", "cd ~/x && echo > f", nil, "variable, a ~"},
		{"bare cd", "cd; echo > f", nil, "home folder"},
		{"cd -", "cd - && echo > f", nil, "cd -"},
		{"popd", "pushd a; popd; echo > f", nil, "popd"},
		{"source", "source env.sh; echo > f", nil, "source"},
		{"absolute after an unknown cd", "cd $D; echo > /abs/f", []string{"/abs/f"}, ""},
		{"a cd that may fail from an unknown folder", "cd $D; cd /none; echo > f", nil, "variable"},
		{"a cd from an unknown folder", "cd $D; cd /p/a; echo > f", []string{"/p/a/f"}, ""},
		{"fd duplications", "echo 2>&1 >&2 >&- 3>&1", nil, ""},
		{"devices", "echo > /dev/null 2> /dev/stderr", nil, ""},
		{"not shell", "echo 'unclosed", nil, "cannot read this shell command"},
		{"apply_patch with no patch", "apply_patch < x.patch", nil, "not written in the command"},
		{"here-string patch", "apply_patch <<< '*** Begin Patch\n*** Delete File: d\n*** End Patch'", []string{"/p/d"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := shellEffect(tt.command, "/p", fakeFS{}, false)
			if got := paths(e.Writes); !slices.Equal(got, tt.writes) {
				t.Errorf("writes %q, want %q", got, tt.writes)
			}
			if (tt.blind == "") != (e.Blind == "") || !strings.Contains(e.Blind, tt.blind) {
				t.Errorf("blind %q, want %q", e.Blind, tt.blind)
			}
		})
	}
}

// Each writing command by its argument rule: what it writes, what it
// names undecided.
func TestCommandRules(t *testing.T) {
	tests := []struct {
		command   string
		writes    []string
		undecided []string
	}{
		{"sed -n 1p a", nil, nil},
		{"sed -i.bak -e s/x/y/ a b", []string{"/p/a", "/p/b"}, nil},
		{"sed --in-place s/x/y/ a", []string{"/p/a"}, nil},
		{"perl -ne print a.go", nil, []string{"/p/a.go"}},
		{"cp -r a b c/", []string{"/p/c/a", "/p/c/a/**", "/p/c/b", "/p/c/b/**"}, nil},
		{"cp -t dir a", []string{"/p/dir/a"}, nil},
		{"cp a.go dir", []string{"/p/dir/a.go"}, nil},
		{"mv a.go b.go", []string{"/p/b.go", "/p/a.go"}, nil},
		{"ln -s target.go link.go", []string{"/p/link.go"}, nil},
		{"ln -s a.go l.go && echo x > l.go", []string{"/p/l.go", "/p/a.go"}, nil},
		{"ln -sf ../b.go sub/l.go; (cd sub && sed -i s/a/b/ l.go)", []string{"/p/sub/l.go", "/p/b.go"}, nil},
		{"ln a.go h.go && tee h.go", []string{"/p/h.go", "/p/a.go"}, []string{"/p/a.go"}},
		{"cp -l a.go b.go", []string{"/p/b.go"}, []string{"/p/a.go"}},
		{"ln -sfn /p/src d.go && echo > d.go/x.go", []string{"/p/d.go", "/p/d.go/x.go", "/p/src/x.go"}, nil},
		{"cp -s /p/a.go dir && echo > dir/a.go", []string{"/p/dir/a.go", "/p/a.go"}, nil},
		{"echo > l.go; ln -s a.go l.go", []string{"/p/l.go"}, nil},
		{"ln -s /q d.go; ln -s /r d.go/e.go; echo > d.go/e.go/f.go", []string{"/p/d.go", "/p/d.go/e.go", "/q/e.go", "/p/d.go/e.go/f.go", "/r/f.go"}, nil},
		{"install -d x y", []string{"/p/x", "/p/y"}, nil},
		{"rsync -av --remove-source-files a/ host:b/", []string{"/p/a", "/p/a/**"}, nil},
		{"dd if=a of=b", []string{"/p/b"}, nil},
		{"truncate -s 0 a", []string{"/p/a"}, nil},
		{"rm -r d", []string{"/p/d", "/p/d/**"}, nil},
		{"chown -R me d", []string{"/p/d", "/p/d/**"}, nil},
		{"touch -d now a", []string{"/p/a"}, nil},
		{"mkdir -p -m 755 a/b", []string{"/p/a/b"}, nil},
		{"sort -o out in", []string{"/p/out"}, nil},
		{"uniq in out", []string{"/p/out"}, nil},
		{"curl -o out https://x", []string{"/p/out"}, nil},
		{"wget -O out https://x", []string{"/p/out"}, nil},
		{"gofmt -l a.go", nil, nil},
		{"go build -o bin/st ./cmd/st", []string{"/p/bin/st"}, nil},
		{"go test -coverprofile=c.out ./...", []string{"/p/c.out"}, nil},
		{"go mod tidy", []string{"/p/go.mod", "/p/go.sum"}, nil},
		{"go fmt ./pkg/...", nil, []string{"/p/pkg/**"}},
		{"git rm --cached a", nil, nil},
		{"git rm a", []string{"/p/a"}, nil},
		{"git rm -r '*.log'", []string{"/p/**/*.log"}, nil},
		{"git clean -fd d", []string{"/p/d", "/p/d/**"}, nil},
		{"git clean -fdx", []string{"/p", "/p/**"}, nil},
		{"cd sub && git clean -f", []string{"/p/sub", "/p/sub/**"}, nil},
		{"git clean -n", nil, nil},
		{"git checkout .", []string{"/p", "/p/**"}, nil},
		{"git checkout a.go", []string{"/p/a.go", "/p/a.go/**"}, nil},
		{"git checkout HEAD~1 -- src", []string{"/p/src", "/p/src/**"}, nil},
		{"git checkout branch a.go", []string{"/p/a.go", "/p/a.go/**"}, nil},
		{"git checkout -- '*.go'", []string{"/p/**/*.go"}, nil},
		{"git checkout -- 'src/*.go' 'src/a*b/x.go'", []string{"/p/src/**/*.go", "/p/src/**"}, nil},
		{"cd sub && git checkout -- :/src", []string{"/p/src", "/p/src/**"}, nil},
		{"git checkout -- ':!vendor'", nil, []string{"/p/**"}},
		{"git checkout branch", nil, []string{"/p/**"}},
		{"cd sub && git checkout branch", nil, []string{"/p/**"}},
		{"git checkout -b new-branch", nil, nil},
		{"git checkout -b new-branch branch", nil, []string{"/p/**"}},
		{"git checkout -p", nil, []string{"/p/**"}},
		{"git checkout -f", nil, []string{"/p/**"}},
		{"git checkout-index -f -a", nil, []string{"/p/**"}},
		{"git checkout-index -f a.go", []string{"/p/a.go"}, nil},
		{"git read-tree -um HEAD", nil, []string{"/p/**"}},
		{"git read-tree HEAD", nil, nil},
		{"7z x a.7z -osrc", nil, []string{"/p/src/**"}},
		{"7z l a.7z", nil, nil},
		{"git restore .", []string{"/p", "/p/**"}, nil},
		{"git restore --staged a.go", nil, nil},
		{"git restore -SW a.go", []string{"/p/a.go", "/p/a.go/**"}, nil},
		{"git restore --source=HEAD~1 :/", []string{"/p", "/p/**"}, nil},
		{"git switch branch", nil, []string{"/p/**"}},
		{"git switch -c new-branch", nil, nil},
		{"git switch -c new-branch origin/branch", nil, []string{"/p/**"}},
		{"git switch --orphan new-branch", nil, []string{"/p/**"}},
		{"git reset --hard", nil, []string{"/p/**"}},
		{"git reset --keep HEAD~1", nil, []string{"/p/**"}},
		{"git reset HEAD~1", nil, nil},
		{"git reset -- a.go", nil, nil},
		{"git stash", nil, []string{"/p/**"}},
		{"git stash -u", nil, []string{"/p/**"}},
		{"git stash push -m wip -- a.go", []string{"/p/a.go", "/p/a.go/**"}, nil},
		{"git stash pop", nil, []string{"/p/**"}},
		{"git stash list", nil, nil},
		{"git stash show -p", nil, nil},
		{"git merge topic", nil, []string{"/p/**"}},
		{"git pull --rebase", nil, []string{"/p/**"}},
		{"git rebase --abort", nil, []string{"/p/**"}},
		{"git cherry-pick abc123", nil, []string{"/p/**"}},
		{"git revert HEAD", nil, []string{"/p/**"}},
		{"git am x.patch", nil, []string{"/p/**"}},
		{"git --work-tree=/w reset --hard", nil, []string{"/w/**"}},
		{"git -C /p/sub pull", nil, []string{"/p/**"}},
		{"git -C /elsewhere pull", nil, []string{"/elsewhere/**", "/p/**"}}, // the -C may fail: st keeps both
		{"git status && git diff && git log -p && git fetch", nil, nil},
		{"git apply --check x.patch", nil, nil},
		{"git apply <<'EOF'\n--- a/x\n+++ b/x\nEOF", []string{"/p/x"}, nil},
		{"patch -o out a.go x.diff", []string{"/p/out", "/p/a.go"}, nil},
		{"tar czf out.tgz src", []string{"/p/out.tgz"}, nil},
		{"tar -xf a.tar", nil, []string{"/p/**"}},
		{"unzip -l a.zip", nil, nil},
		{"find d -exec grep x {} +", nil, nil},
		{"find d -exec sed -i s/a/b/ {} +", nil, []string{"/p/d/**"}},
		{"find . -fprint out", []string{"/p/out"}, nil},
		{"xargs grep x", nil, nil},
		{"command -v sed", nil, nil},
		{"nice -n 5 nohup tee a", []string{"/p/a"}, nil},
		{"timeout -s KILL 5 tee a", []string{"/p/a"}, nil},
		{"python3 -m pytest tests/", nil, nil},
		{"python3 -m black src/", nil, []string{"/p/src", "/p/src/**"}},
		{"python3 gen.py --out=x.go", nil, []string{"/p/x.go"}},
		{"python3 - a.go <<'EOF'\nopen('out/x.go', 'w')\nEOF", nil, []string{"/p/out/x.go", "/p/a.go"}},
		{"echo \"require('fs').writeFileSync('x.js', '')\" | node -", nil, []string{"/p/.writeFileSync", "/p/x.js"}},
		{"make -C sub all.go", nil, []string{"/p/sub", "/p/sub/**", "/p/all.go"}},
		{"black .", nil, []string{"/p", "/p/**"}},
		{"black --check . && npx prettier --check src && eslint . && clang-format a.go", nil, nil},
		{"npx -y prettier --write src/", nil, []string{"/p/src", "/p/src/**"}},
		{"clang-format -i a.go", nil, []string{"/p/a.go"}},
		{"eslint --fix", nil, []string{"/p", "/p/**"}},
		{"ruff format", nil, []string{"/p", "/p/**"}},
		{"ruff check --fix x.go", nil, []string{"/p/x.go"}},
		{"ruff check . && ruff format --check . && cargo fmt --check && cargo test && cargo build --release", nil, nil},
		{"cd sub && cargo fmt", nil, []string{"/p/**"}},
		{"cargo clippy --fix --allow-dirty", nil, []string{"/p/**"}},
		{"cargo run -- out.go", nil, []string{"/p/out.go"}},
		{"pytest tests/ && mypy . && cloc src", nil, nil},
		{"zip -r out.zip src", []string{"/p/out.zip"}, nil},
		{"docker build -t img . && pip install -e . && code .", nil, nil},
		{"scp -P 22 -r src host:backup/", nil, nil},
		{"scp host:x.go a.go", []string{"/p/a.go"}, nil},
		{"prettier --write=src/ a.go", nil, []string{"/p/src", "/p/src/**", "/p/a.go"}},
		{`awk '{print $1}' a`, nil, nil},
		{`awk -F: -v x=1 '{print $1}' a`, nil, nil},
		{`gawk -i inplace '{sub(/a/,"b")} 1' a b`, []string{"/p/a", "/p/b"}, nil},
		{`awk --include=inplace -e '{print}' a`, []string{"/p/a"}, nil},
		{`awk -f prog.awk a.go`, nil, []string{"/p/a.go"}},
		{`awk -i lib.awk '{print}' a.go`, nil, []string{"/p/a.go"}},
		{`awk '{print > "out.txt"}' a.go`, nil, []string{"/p/out.txt", "/p/a.go"}},
		{"echo > out/$N.go", nil, []string{"/p/out/**"}},
		{"echo > src/*.g[oa]", []string{"/p/src/*.g*"}, nil},
		{"echo > src/{a,b}.go", []string{"/p/src/*.go"}, nil},
		{"$CMD a.go", nil, []string{"/p/a.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			e := shellEffect(tt.command, "/p", fakeFS{}, false)
			if got := paths(e.Writes); !slices.Equal(got, tt.writes) {
				t.Errorf("writes %q, want %q", got, tt.writes)
			}
			if got := paths(e.Undecided); !slices.Equal(got, tt.undecided) {
				t.Errorf("undecided %q, want %q", got, tt.undecided)
			}
		})
	}
}

// A folder bound into a container may be written anywhere; a named
// volume is no folder of the project; a build only reads its context.
func TestContainerBindMounts(t *testing.T) {
	for _, tc := range []struct {
		command      string
		named, never string // an undecided path it has, one it must not have
		blind        bool
	}{
		{"docker run --rm -v ./src:/w:ro img", "/p/src/**", "", false},
		{"podman run --mount type=bind,source=/p/lib,target=/l img", "/p/lib/**", "", false},
		{"docker run -v vol:/data img", "", "/p/vol/**", false},
		{`docker run -v "$(pwd)":/w img`, "", "", true},
		{"docker build -t img .", "", "/p/**", false},
	} {
		e := shellEffect(tc.command, "/p", fakeFS{}, false)
		got := paths(e.Undecided)
		if tc.named != "" && !slices.Contains(got, tc.named) || tc.never != "" && slices.Contains(got, tc.never) {
			t.Errorf("%q: undecided %q", tc.command, got)
		}
		if (e.Blind != "") != tc.blind {
			t.Errorf("%q: blind %q", tc.command, e.Blind)
		}
	}
}

// A thinned command is relied on only where its patches sit in quoted
// here-documents.
func TestThinned(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a\n*** End Patch\n"
	for _, tc := range []struct {
		command string
		blind   bool
	}{
		{"apply_patch <<'EOF'\n" + patch + "EOF\n", false},
		{"apply_patch <<EOF\n" + patch + "EOF\n", true},
		{"apply_patch '" + patch + "'", false}, // no line is the patch's own: nothing was dropped
		{patch, true},
	} {
		if e := shellEffect(tc.command, "/p", fakeFS{}, true); (e.Blind != "") != tc.blind {
			t.Errorf("%q: blind %q", tc.command, e.Blind)
		}
	}
}

func TestOfEdit(t *testing.T) {
	for _, tc := range []struct {
		c    Call
		want []string
	}{
		{Call{Kind: Edit, Path: "/p/a/../b"}, []string{"/p/b"}},
		{Call{Kind: Edit, Path: "b", Cwd: "/p"}, []string{"/p/b"}},
		{Call{Kind: Edit, Path: "b"}, nil},
		{Call{Kind: Other, Path: "/p/b"}, nil},
		{Call{Kind: Patch, Input: "*** Begin Patch\n*** Add File: x\n*** End Patch", Cwd: "/p"}, []string{"/p/x"}},
	} {
		if got := paths(Of(tc.c).Writes); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
	if e := Of(Call{Kind: Patch, Input: "*** Begin Patch\n*** Add File: x\n*** End Patch"}); e.Blind == "" {
		t.Error("a patch with no folder is decided")
	}
}

// FuzzOf reads arbitrary shell commands and patches: it never panics,
// every path it names is absolute and clean (a pattern's wildcards
// aside), and a patch's paths are each on a marker line of it.
func FuzzOf(f *testing.F) {
	for _, s := range []string{
		"echo hi > src/x.go", "cd src && sed -i s/a/b/ x.go", "(cd a; cat <<'EOF' > b\nhi\nEOF\n)",
		"bash -c 'eval \"cp a b\"' | tee -a c", "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n*** End Patch\nEOF",
		"printf '%s' '*** Begin Patch\n*** Delete File: x\n*** End Patch' | apply_patch", "f() { rm -rf $X/*; }; f",
		"find . -exec sh -c 'echo > {}' \\;", "git -C ../x checkout -- '*.go'", "env -C a/.. dd of=/dev/null",
		"cd a && git --work-tree=../w stash pop", "git checkout -- ':/x/..' 'a*b/[c]d' ':!y'", "gawk -i inplace -e 1 f",
	} {
		f.Add(s, uint8(Shell))
	}
	f.Add("*** Begin Patch\r\n *** Delete File: \t\r\n*** End Patch", uint8(Patch))
	f.Fuzz(func(t *testing.T, input string, kind uint8) {
		c := Call{Kind: Kind(kind % 4), Input: input, Path: input, Cwd: "/cwd"}
		e := Of(c)
		for _, n := range append(append([]Named(nil), e.Writes...), e.Undecided...) {
			if !filepath.IsAbs(n.Path) || filepath.Clean(n.Path) != n.Path && !n.Glob {
				t.Fatalf("path %q is not absolute and clean", n.Path)
			}
		}
		if c.Kind == Patch {
			for _, p := range PatchPaths(input) {
				if p == "" || p != strings.TrimSpace(p) || strings.Contains(p, "\n") || !strings.Contains(input, p) {
					t.Fatalf("bad path %q", p)
				}
			}
		}
	})
}
