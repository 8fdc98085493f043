package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/reserve"
)

// Outcomes of a shell form under bob's reservation of src/x.go.
const (
	pass      = ""
	reserved  = "reserved"
	undecided = "undecided"
)

// shellForms are shell commands as agents write them, each with what
// alice's pre-tool hook answers while bob holds src/x.go exclusively;
// the repository has src/x.go, src/y.go, lib/, other.go and x.go.
var shellForms = []struct{ command, want string }{
	// Writes of the reserved file.
	{"echo hi > src/x.go", reserved},
	{"echo hi >> src/x.go", reserved},
	{"echo hi >| src/x.go", reserved},
	{"echo hi &> src/x.go", reserved},
	{"echo hi 2> src/x.go", reserved},
	{"exec 3> src/x.go", reserved},
	{"cat > src/x.go <<'EOF'\nhi\nEOF\n", reserved},
	{"cd src && echo hi > x.go", reserved},
	{"(cd src && echo hi > x.go)", reserved},
	{"cd src; sed -i.bak 's/a/b/' x.go", reserved},
	{"cd lib/.. && echo hi > src/x.go", reserved},
	{"echo hi > ./lib/../src/x.go", reserved},
	{"sed -i s/a/b/ src/x.go", reserved},
	{"sed -i -e s/a/b/ -e s/c/d/ src/x.go", reserved},
	{"perl -pi -e s/a/b/ src/x.go", reserved},
	{"echo hi | tee -a src/x.go", reserved},
	{"sudo tee src/x.go < /dev/null", reserved},
	{"cp other.go src/x.go", reserved},
	{"cp x.go src/", reserved},
	{"mv tmp.go src/x.go", reserved},
	{"mv src/x.go /tmp/", reserved},
	{"install -m 644 other.go src/x.go", reserved},
	{"ln -sf ../other.go src/x.go", reserved},
	{"rsync -a build/ src/", reserved},
	{"dd if=/dev/zero of=src/x.go bs=1 count=1", reserved},
	{"truncate -s 0 src/x.go", reserved},
	{"rm -f src/x.go", reserved},
	{"rm -rf src", reserved},
	{"chmod +x src/x.go", reserved},
	{"touch src/x.go", reserved},
	{"gofmt -w src/x.go", reserved},
	{"git checkout -- src/x.go", reserved},
	{"git -C src checkout x.go", reserved},
	{"git restore --source HEAD~1 src/x.go", reserved},
	{"git rm src/x.go", reserved},
	{"git mv src/x.go src/z.go", reserved},
	{"env -C src touch x.go", reserved},
	{"pushd src && truncate -s 0 x.go", reserved},
	{"timeout 5 sed -i s/a/b/ src/x.go", reserved},
	{"bash -c 'echo hi > src/x.go'", reserved},
	{`sh -c "cd src; echo hi > x.go"`, reserved},
	{"eval 'echo hi > src/x.go'", reserved},
	{"echo $(echo hi > src/x.go)", reserved},
	{"if true; then echo hi > src/x.go; fi", reserved},
	{"for i in 1 2; do echo $i >> src/x.go; done", reserved},
	{"f() { echo hi > src/x.go; }; f", reserved},
	{"echo hi > src/*.go", reserved},
	{"rm src/x.*", reserved},
	{"patch src/x.go < fix.diff", reserved},
	{"patch -p1 <<'EOF'\n--- a/src/x.go\n+++ b/src/x.go\n@@ -1 +1 @@\n-a\n+b\nEOF\n", reserved},
	{"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/x.go\n@@\n-a\n+b\n*** End Patch\nEOF\n", reserved},
	{"cd src && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x.go\n+a\n*** End Patch\nEOF\n", reserved},
	{"apply_patch '*** Begin Patch\n*** Update File: src/x.go\n@@\n-a\n+b\n*** End Patch\n'", reserved},
	{"printf '%s' '*** Begin Patch\n*** Add File: src/x.go\n+a\n*** End Patch\n' | apply_patch", reserved},
	// Paths named where st cannot tell the effect.
	{`python3 -c "open('src/x.go', 'w').write('x')"`, undecided},
	{`node -e "require('fs').writeFileSync('src/x.go', '')"`, undecided},
	{"python3 <<'EOF'\nopen('src/x.go', 'w')\nEOF\n", undecided},
	{"echo hi > src/$NAME", undecided},
	{"./build.sh src/x.go", undecided},
	{"make src/x.go", undecided},
	{`awk '{print > "src/x.go"}' in.txt`, undecided},
	{"find src -name '*.go' -delete", undecided},
	{"go generate ./src/...", undecided},
	{"tar xf a.tar -C src", undecided},
	{"cd $DIR && echo hi > x.go", undecided},
	{"echo hi > $OUT", undecided},
	{"find . -name '*.go' | xargs sed -i s/a/b/", undecided},
	{"apply_patch < fix.patch", undecided},
	{"echo 'unclosed", undecided},
	// Reads, and writes of other files.
	{"cat src/x.go", pass},
	{"grep -n foo src/x.go", pass},
	{"head -5 src/x.go", pass},
	{"sed -n 1,5p src/x.go", pass},
	{"git diff src/x.go", pass},
	{"git log -p -- src/x.go", pass},
	{"git show HEAD:src/x.go", pass},
	{"git status && git add src/x.go", pass},
	{"cp src/x.go /tmp/", pass},
	{"cp src/x.go src/x.go.bak", pass},
	{"diff src/x.go other.go", pass},
	{"go build ./... && go test ./src/", pass},
	{"wc -l src/x.go; ls src", pass},
	{"cat src/x.go > /tmp/out 2>&1", pass},
	{"cd src && cat x.go", pass},
	{"echo hi > other.go", pass},
	{"sed -i s/a/b/ src/y.go", pass},
	{"awk '{print $1}' src/x.go", pass},
	{"python3 tools/gen.py other.go", pass},
	{"find src -name '*.go'", pass},
	{"rg foo src/ | head", pass},
	{"echo hi 2>&1 | tee /tmp/log >/dev/null", pass},
	{"cd $DIR && go test ./...", pass},
}

// shellRepo makes alice's store and a repository in which bob holds
// src/x.go, and returns the options and the repository.
func shellRepo(t *testing.T) (Options, string) {
	t.Helper()
	opt := testOptions(t)
	repo := bobHolds(t, opt, "src/x.go")
	for _, f := range []string{"src/x.go", "src/y.go", "lib/a.go", "other.go", "x.go"} {
		writeFile(t, filepath.Join(repo, f), "package x\n")
	}
	writeFile(t, filepath.Join(opt.Root, "alice", "status"), "busy\n")
	return opt, repo
}

// bobHolds makes a repository (its top level, symlinks resolved) in
// which bob holds pattern exclusively, in opt's store.
func bobHolds(t *testing.T, opt Options, pattern string) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	repo, _ = filepath.EvalSymlinks(repo)
	tr, err := fsutil.OpenOrCreate(opt.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if _, err := reserve.Reserve(context.Background(), tr, reserve.Request{Agent: "bob", Repo: reserve.Where{Top: repo},
		Patterns: []string{pattern}, Reason: "parser"}, fixed); err != nil {
		t.Fatal(err)
	}
	return repo
}

// shellEntries are the three clients' pre-tool hooks and their shell
// tools.
var shellEntries = []struct{ event, tool, deny string }{
	{PreToolUse, "Bash", `"permissionDecision":"deny"`},
	{CodexPreToolUse, "Bash", `"permissionDecision":"deny"`},
	{GeminiBeforeTool, GeminiShellTool, `"decision":"deny"`},
}

// runShell runs event's hook on a shell call of command in dir.
func runShell(t *testing.T, opt Options, event, tool, command, dir string) string {
	t.Helper()
	p, err := json.Marshal(map[string]any{"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": dir, "tool_name": tool,
		"tool_input": map[string]any{"command": command}, "tool_use_id": "t1"})
	if err != nil {
		t.Fatal(err)
	}
	return string(Run(event, p, opt).Stdout)
}

// outcome reads a hook's answer as pass, reserved or undecided.
func outcome(t *testing.T, out, deny string) string {
	t.Helper()
	switch {
	case out == "":
		return pass
	case !strings.Contains(out, deny):
		t.Fatalf("an answer that is not a refusal: %s", out)
	case strings.Contains(out, " is reserved exclusively by agent bob as src/x.go until "):
		return reserved
	case strings.Contains(out, "st cannot") || strings.Contains(out, "st could not"):
		return undecided
	}
	t.Fatalf("a refusal of neither kind: %s", out)
	return ""
}

func TestShellFormsEveryClient(t *testing.T) {
	if len(shellForms) < 60 {
		t.Fatalf("%d forms", len(shellForms))
	}
	opt, repo := shellRepo(t)
	for _, e := range shellEntries {
		for _, f := range shellForms {
			t.Run(e.event+"/"+f.command, func(t *testing.T) {
				out := runShell(t, opt, e.event, e.tool, f.command, repo)
				if got := outcome(t, out, e.deny); got != f.want {
					t.Errorf("%q: %s, want %s; answer %s", f.command, or(got, "pass"), or(f.want, "pass"), out)
				}
			})
		}
	}
}

func or(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// With shell_undecided: allow, what st cannot decide passes; a decided
// write of the reserved file is still refused.
func TestShellUndecidedAllow(t *testing.T) {
	opt, repo := shellRepo(t)
	opt.Config.ShellUndecided = ShellUndecidedAllow
	for _, e := range shellEntries {
		for _, f := range shellForms {
			want := f.want
			if want == undecided {
				want = pass
			}
			if got := outcome(t, runShell(t, opt, e.event, e.tool, f.command, repo), e.deny); got != want {
				t.Errorf("%s %q: %s, want %s", e.event, f.command, or(got, "pass"), or(want, "pass"))
			}
		}
	}
}

// manyFiles is an apply_patch adding n files in n folders, then the
// reserved src/x.go.
func manyFiles(n int) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i := range n {
		fmt.Fprintf(&b, "*** Add File: gen/d%d/f%d.go\n+package f\n", i, i)
	}
	b.WriteString("*** Update File: src/x.go\n@@\n-a\n+b\n*** End Patch\n")
	return b.String()
}

// A patch naming 100,000 files before the reserved one (a payload read
// thinned) is refused for the reserved file, as a patch and as a shell
// heredoc. How long it takes is scripts/bench's (no timed tests): the
// budget here is wide so that a loaded machine decides the same.
func TestManyFilesRefused(t *testing.T) {
	opt, repo := shellRepo(t)
	opt.HookTimeoutMS = "60000"
	patch := manyFiles(100000)
	for _, tc := range []struct{ event, tool, command string }{
		{CodexPreToolUse, "apply_patch", patch},
		{PreToolUse, "Bash", "apply_patch <<'EOF'\n" + patch + "EOF\n"},
	} {
		p, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": repo, "tool_name": tc.tool,
			"tool_input": map[string]any{"command": tc.command}})
		var out, errOut bytes.Buffer
		Serve(tc.event, opt, nil, bytes.NewReader(p), &out, &errOut)
		if outcome(t, out.String(), `"permissionDecision":"deny"`) != reserved {
			t.Errorf("%s %s: %.300s", tc.event, tc.tool, out.String())
		}
	}
}

// When the check runs out of the hook's time while another agent holds
// a reservation, the call is refused and the model told why.
func TestCheckOutOfTimeRefuses(t *testing.T) {
	opt, repo := shellRepo(t)
	release := make(chan struct{})
	slow := func() { <-release }
	slowCheck.Store(&slow)
	defer func() {
		close(release)
		slowCheck.Store(nil)
		running.Wait() // the hooks left running write in the test's folder
	}()
	for _, e := range shellEntries {
		p, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": repo, "tool_name": e.tool,
			"tool_input": map[string]any{"command": "echo hi > other.go"}})
		var out, errOut bytes.Buffer
		o := opt
		o.HookTimeoutMS = "300"
		Serve(e.event, o, nil, bytes.NewReader(p), &out, &errOut)
		if !strings.Contains(out.String(), e.deny) || !strings.Contains(out.String(), "within the hook's time budget") {
			t.Errorf("%s: %q", e.event, out.String())
		}
	}
}
