package codex

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// editModel is a model Codex 0.169's bundled catalogue knows and offers
// apply_patch to as a freeform (custom) tool, as real sessions get it;
// for the rig's gpt-5.1-codex it has no metadata and offers no
// apply_patch at all.
const editModel = "gpt-5.5"

// patchOf is an apply_patch patch adding path with one line.
func patchOf(path string) string {
	return "*** Begin Patch\n*** Add File: " + path + "\n+hello\n*** End Patch\n"
}

// shellPatch is the same patch as a shell command, as models also write it.
func shellPatch(path string) string {
	return "apply_patch <<'EOF'\n" + patchOf(path) + "EOF\n"
}

// custom is a call of a freeform tool.
func custom(name, input string) reply { return reply{Items: []item{{Custom: name, Input: input}}} }

// TestPreToolUseEditPayloads records what Codex sends PreToolUse when the
// model edits a file with apply_patch (its own tool, then the shell
// form): tool_name apply_patch or Bash, and the patch, verbatim, as
// tool_input.command. With -update it rewrites
// testdata/payloads/PreToolUse-apply_patch*.json.
func TestPreToolUseEditPayloads(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0:
			return custom("apply_patch", patchOf("a.txt"))
		case 1:
			return call("exec_command", map[string]any{"cmd": shellPatch("b.txt"), "login": false})
		}
		return say("done")
	})
	rec := filepath.Join(r.dir, "rec")
	if err := os.MkdirAll(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	r.write(filepath.Join(r.codexHome, "hooks.json"), `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command",`+
		`"command":"cat > $(mktemp `+rec+`/p-XXXXXX)","timeout":5}]}]}}`)
	r.trustAll()
	r.codex("add two files", "-m", editModel)

	got := map[string]map[string]any{} // by file name
	entries, err := os.ReadDir(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		var p map[string]any
		if err := json.Unmarshal([]byte(r.read(filepath.Join(rec, e.Name()))), &p); err != nil {
			t.Fatal(err)
		}
		in, _ := p["tool_input"].(map[string]any)
		switch {
		case p["tool_name"] == "apply_patch" && in["command"] == patchOf("a.txt"):
			got["PreToolUse-apply_patch.json"] = p
		case p["tool_name"] == "Bash" && in["command"] == shellPatch("b.txt"):
			got["PreToolUse-apply_patch-shell.json"] = p
		default:
			t.Errorf("unexpected PreToolUse payload: %v", p)
		}
		if keys := keys(in); !slices.Equal(keys, []string{"command"}) {
			t.Errorf("tool_input has %v, want only command", keys)
		}
	}
	if len(got) != 2 {
		t.Fatalf("recorded %d edit payloads, want the apply_patch one and the shell one", len(got))
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(r.proj, name)); err != nil {
			t.Errorf("the patch did not apply: %v", err)
		}
	}
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		checkRecorded(t, r, name, got[name])
	}
}

// With st's Codex hooks installed and trusted, an apply_patch under
// another agent's exclusive reservation is refused, in both forms, and
// the reason (who, until when, how to ask) is the tool output in the
// next request; a patch under the agent's own reservation applies.
func TestApplyPatchUnderReservation(t *testing.T) {
	t.Parallel()
	const reason = "src/a.go is reserved exclusively by agent bob as src/** until "
	const shellReason = "src/b.go is reserved exclusively by agent bob as src/** until "
	r := newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0:
			return custom("apply_patch", patchOf("src/a.go"))
		case 1:
			return call("exec_command", map[string]any{"cmd": shellPatch("src/b.go"), "login": false})
		case 2:
			return custom("apply_patch", patchOf("notes/mine.md"))
		}
		return say("done")
	})
	if out, err := exec.Command("git", "init", "-q", r.proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
	r.st("reserve", "notes/**")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("edit the parser", "-m", editModel)

	reqs := r.api.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4 (three edits, the answer)", len(reqs))
	}
	for _, tc := range []struct {
		req    int
		callID string
		want   string
	}{{1, "call_0_0", reason}, {2, "call_1_0", shellReason}} {
		out, ok := reqs[tc.req].FunctionOutput(tc.callID)
		if !ok {
			t.Fatalf("request %d has no output for %s", tc.req, tc.callID)
		}
		if !strings.Contains(out, tc.want) || !strings.Contains(out, "(reason: parser rewrite)") ||
			!strings.Contains(out, `st message send bob`) {
			t.Errorf("the model was told %q", out)
		}
		if n := strings.Count(reqs[tc.req].Raw, tc.want); n != 1 {
			t.Errorf("request %d holds the reason %d times, want once", tc.req, n)
		}
	}
	if out, _ := reqs[3].FunctionOutput("call_2_0"); strings.Contains(out, "reserved") {
		t.Errorf("alice's own reservation refused her patch: %q", out)
	}
	for _, refused := range []string{"src/a.go", "src/b.go"} {
		if _, err := os.Stat(filepath.Join(r.proj, refused)); err == nil {
			t.Errorf("%s was written despite bob's reservation", refused)
		}
	}
	if _, err := os.Stat(filepath.Join(r.proj, "notes", "mine.md")); err != nil {
		t.Errorf("alice's patch under her own reservation did not apply: %v", err)
	}
	if n := strings.Count(logs, "hook: PreToolUse Blocked"); n != 2 {
		t.Errorf("Codex blocked %d calls, want 2:\n%s", n, logs)
	}
	if events := r.st("events"); strings.Count(events, "advice=reserved") != 2 {
		t.Errorf("alice's event log does not record the two refusals:\n%s", events)
	}
}

// Which PreToolUse answers Codex 0.169 takes as a refusal: exit 2 with
// the reason on stderr, hookSpecificOutput.permissionDecision "deny"
// (what st prints) and decision "block" each stop the apply_patch, and
// the reason is the tool's output in the next request.
func TestPreToolUseDenyForms(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		if n < 3 {
			return custom("apply_patch", patchOf(fmt.Sprintf("f%d.txt", n)))
		}
		return say("done")
	})
	count := filepath.Join(r.dir, "count")
	if err := os.MkdirAll(count, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(r.dir, "deny.sh")
	r.write(script, `#!/bin/sh
cat >/dev/null
n=$(ls `+count+` | wc -l | tr -d ' ')
touch `+count+`/$n
case $n in
0) echo 'refused by exit 2' >&2; exit 2 ;;
1) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"refused by deny"}}' ;;
2) echo '{"decision":"block","reason":"refused by block"}' ;;
esac
`)
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	r.write(filepath.Join(r.codexHome, "hooks.json"), `{"hooks":{"PreToolUse":[{"matcher":"apply_patch",`+
		`"hooks":[{"type":"command","command":"`+script+`","timeout":5}]}]}}`)
	r.trustAll()
	r.codex("add three files", "-m", editModel)
	reqs := r.api.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	for i, want := range []string{"refused by exit 2", "refused by deny", "refused by block"} {
		out, ok := reqs[i+1].FunctionOutput(fmt.Sprintf("call_%d_0", i))
		if !ok || !strings.Contains(out, want) {
			t.Errorf("answer %d: the model got %q, want %q", i, out, want)
		}
		if _, err := os.Stat(filepath.Join(r.proj, fmt.Sprintf("f%d.txt", i))); err == nil {
			t.Errorf("answer %d (%s) did not stop the patch", i, want)
		}
	}
}

// The shell forms that put a patch in another folder: Codex runs each in
// the shell, where its apply_patch program (first on PATH, as Codex's
// own shim puts it) writes under src/ for `cd src; apply_patch` and
// `(cd src && apply_patch …)`; st follows them and refuses the patch under bob's
// reservation. A form st cannot follow (the folder in a variable) is
// refused with the reason and the plain form to retry in, and nothing
// is written.
func TestApplyPatchShellFormsUnderReservation(t *testing.T) {
	t.Parallel()
	forms := []string{
		"cd src; " + shellPatch("a.go"),
		"(cd src && " + shellPatch("b.go") + ")",
		"cd src\n" + shellPatch("c.go"),
		"D=src; cd $D && " + shellPatch("d.go"),
	}
	r := newRig(t, func(n int, req apiRequest) reply {
		if n < len(forms) {
			return call("exec_command", map[string]any{"cmd": forms[n], "login": false})
		}
		return say("done")
	})
	if out, err := exec.Command("git", "init", "-q", r.proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(r.proj, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.shimApplyPatch()
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("edit the parser", "-m", editModel)

	reqs := r.api.Requests()
	if len(reqs) != len(forms)+1 {
		t.Fatalf("%d model requests, want %d", len(reqs), len(forms)+1)
	}
	wants := []string{
		"src/a.go is reserved exclusively by agent bob",
		"src/b.go is reserved exclusively by agent bob",
		"src/c.go is reserved exclusively by agent bob",
		"st cannot tell which folder this apply_patch writes d.go in: a cd to a folder named with a variable",
	}
	for i, want := range wants {
		out, ok := reqs[i+1].FunctionOutput(fmt.Sprintf("call_%d_0", i))
		if !ok || !strings.Contains(out, want) {
			t.Errorf("form %q: the model was told %q, want %q", forms[i], out, want)
		}
	}
	if out, _ := reqs[len(forms)].FunctionOutput(fmt.Sprintf("call_%d_0", len(forms)-1)); !strings.Contains(out, "Retry in the plain form") {
		t.Errorf("the refusal of a form st cannot follow does not say how to retry: %q", out)
	}
	for _, name := range []string{"a.go", "b.go", "c.go", "d.go"} {
		if _, err := os.Stat(filepath.Join(r.proj, "src", name)); err == nil {
			t.Errorf("src/%s was written despite bob's reservation", name)
		}
	}
	if n := strings.Count(logs, "hook: PreToolUse Blocked"); n != len(forms) {
		t.Errorf("Codex blocked %d calls, want %d:\n%s", n, len(forms), logs)
	}
}

// shimApplyPatch puts an apply_patch program first on the rig's PATH:
// Codex's own binary under that name, which applies the patch on its
// stdin in the current folder, as the shim Codex sets up for its shell.
func (r *rig) shimApplyPatch() {
	r.t.Helper()
	bins, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(codexBin)), "@openai", "codex-*", "vendor", "*", "bin", "codex"))
	if len(bins) == 0 {
		r.t.Skip("no native codex binary to run as apply_patch")
	}
	dir := filepath.Join(r.dir, "shim")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Symlink(bins[0], filepath.Join(dir, "apply_patch")); err != nil {
		r.t.Fatal(err)
	}
	for _, kv := range r.env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			r.setEnv("PATH=" + dir + ":" + path)
			return
		}
	}
	r.setEnv("PATH=" + dir)
}

// A 3 MB apply_patch whose last file is under bob's reservation is
// refused like a small one (the hook used to read 1 MiB of its payload,
// found the JSON cut and let the patch through), in both forms.
func TestBigApplyPatchUnderReservation(t *testing.T) {
	t.Parallel()
	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n*** Add File: notes/big.md\n")
	for patch.Len() < 3<<20 {
		patch.WriteString("+a line of a big generated note\n")
	}
	patch.WriteString("*** Add File: src/gen.go\n+package src\n*** End Patch\n")
	r := newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0:
			return custom("apply_patch", patch.String())
		case 1:
			return call("exec_command", map[string]any{"cmd": "apply_patch <<'EOF'\n" + patch.String() + "EOF\n", "login": false})
		}
		return say("done")
	})
	if out, err := exec.Command("git", "init", "-q", r.proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	r.shimApplyPatch()
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("add the generated files", "-m", editModel)

	reqs := r.api.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	for i := range 2 {
		out, ok := reqs[i+1].FunctionOutput(fmt.Sprintf("call_%d_0", i))
		if !ok || !strings.Contains(out, "src/gen.go is reserved exclusively by agent bob") {
			t.Errorf("call %d: the model was told %.300q", i, out)
		}
	}
	for _, name := range []string{"src/gen.go", "notes/big.md"} {
		if _, err := os.Stat(filepath.Join(r.proj, name)); err == nil {
			t.Errorf("%s was written despite bob's reservation", name)
		}
	}
	if n := strings.Count(logs, "hook: PreToolUse Blocked"); n != 2 {
		t.Errorf("Codex blocked %d calls, want 2", n)
	}
}

// A shell redirect is refused as an apply_patch is: Codex's shell `echo …
// > src/a.go` under bob's reservation is refused, the file stays as it
// was, the reason reaches the model once; `cat src/a.go` passes.
func TestShellWriteUnderReservation(t *testing.T) {
	t.Parallel()
	const reason = "src/a.go is reserved exclusively by agent bob as src/** until "
	r := newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0:
			return call("exec_command", map[string]any{"cmd": "echo overwritten > src/a.go", "login": false})
		case 1:
			return call("exec_command", map[string]any{"cmd": "cat src/a.go", "login": false})
		}
		return say("done")
	})
	if out, err := exec.Command("git", "init", "-q", r.proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	r.write(filepath.Join(r.proj, "src", "a.go"), "package a\n")
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("edit in the shell")

	reqs := r.api.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3 (two commands, the answer)", len(reqs))
	}
	out, ok := reqs[1].FunctionOutput("call_0_0")
	if !ok || !strings.Contains(out, reason) || !strings.Contains(out, "(reason: parser rewrite)") {
		t.Errorf("the model was told %q", out)
	}
	if n := strings.Count(reqs[1].Raw, reason); n != 1 {
		t.Errorf("request 1 holds the reason %d times, want once", n)
	}
	if got := r.read(filepath.Join(r.proj, "src", "a.go")); got != "package a\n" {
		t.Errorf("src/a.go = %q: the redirect went through", got)
	}
	if out, _ := reqs[2].FunctionOutput("call_1_0"); !strings.Contains(out, "package a") || strings.Contains(out, "reserved") {
		t.Errorf("the read of the reserved file did not pass: %q", out)
	}
	if n := strings.Count(logs, "hook: PreToolUse Blocked"); n != 1 {
		t.Errorf("Codex blocked %d calls, want 1:\n%s", n, logs)
	}
}
