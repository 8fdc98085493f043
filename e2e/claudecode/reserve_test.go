package claudecode

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Reservations against the real client: bob holds src/ exclusively, so
// PreToolUse refuses alice's Write there and the reason reaches the
// model as the tool's result; her Write under her own reservation goes
// through.
func TestReservationRefusesEdit(t *testing.T) {
	var p *project
	p = newProject(t, func(n int, r *Request) Reply {
		switch {
		case r.HasToolResult("toolu_own"):
			return Text("edits done")
		case r.HasToolResult("toolu_held"):
			return ToolUse("toolu_own", "Write", map[string]any{"file_path": filepath.Join(p.dir, "mine", "b.go"), "content": "package mine\n"})
		}
		return ToolUse("toolu_held", "Write", map[string]any{"file_path": filepath.Join(p.dir, "src", "a.go"), "content": "package overwritten\n"})
	})
	if out, err := exec.Command("git", "init", "-q", p.dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	held := filepath.Join(p.dir, "src", "a.go")
	if err := os.MkdirAll(filepath.Dir(held), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(held, []byte("package src\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.stAs("bob", "reserve", "src/", "--reason", "RESERVE-REASON: moving the parser")
	p.st("reserve", "mine/")

	r := p.claude("edit two files", "--permission-mode", "acceptEdits")
	p.checkClean(r)
	if r.result == nil || r.result["result"] != "edits done" {
		t.Fatalf("the run ended with %v", r.result)
	}
	reqs := p.mock.Messages()
	i := firstWith(reqs, func(r *Request) bool { return r.HasToolResult("toolu_held") })
	if i < 0 {
		t.Fatal("no request carries the refused Write's result")
	}
	got := reqs[i].LastUser()
	for _, want := range []string{"src/a.go is reserved exclusively by agent bob", "RESERVE-REASON: moving the parser", "st message send bob"} {
		if !strings.Contains(got, want) {
			t.Errorf("the model was not told %q; it got %.600q", want, got)
		}
	}
	if data, _ := os.ReadFile(held); string(data) != "package src\n" {
		t.Errorf("bob's reserved file was changed: %q", data)
	}
	if data, err := os.ReadFile(filepath.Join(p.dir, "mine", "b.go")); err != nil || string(data) != "package mine\n" {
		t.Errorf("alice's own reserved file: %q, %v; want her Write to pass", data, err)
	}
	denied := false
	for _, e := range find(p.events(), "PreToolUse") {
		if e.Tool == "Write" && e.Advice == "reserved" && strings.HasSuffix(e.Path, "src/a.go") {
			denied = true
		}
		if e.Advice == "reserved" && strings.HasSuffix(e.Path, "b.go") {
			t.Errorf("alice's own reservation refused her: %+v", e)
		}
	}
	if !denied {
		t.Errorf("no PreToolUse event records the refusal: %+v", find(p.events(), "PreToolUse"))
	}
}

// A 3 MB Write of a file under another agent's reservation is refused
// like a small one: the hook used to read 1 MiB of its payload, found
// the JSON cut and let the Write through.
func TestReservationRefusesBigWrite(t *testing.T) {
	var p *project
	big := strings.Repeat("// a line of a big generated file\n", 3<<20/34)
	p = newProject(t, func(n int, r *Request) Reply {
		if r.HasToolResult("toolu_big") {
			return Text("big write done")
		}
		return ToolUse("toolu_big", "Write", map[string]any{"file_path": filepath.Join(p.dir, "src", "gen.go"), "content": big})
	})
	if out, err := exec.Command("git", "init", "-q", p.dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	held := filepath.Join(p.dir, "src", "gen.go")
	if err := os.MkdirAll(filepath.Dir(held), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(held, []byte("package src\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.stAs("bob", "reserve", "src/", "--reason", "RESERVE-REASON: regenerating")

	r := p.claude("write the big file", "--permission-mode", "acceptEdits")
	p.checkClean(r)
	reqs := p.mock.Messages()
	i := firstWith(reqs, func(r *Request) bool { return r.HasToolResult("toolu_big") })
	if i < 0 {
		t.Fatal("no request carries the big Write's result")
	}
	if got := reqs[i].LastUser(); !strings.Contains(got, "src/gen.go is reserved exclusively by agent bob") {
		t.Errorf("the model was not told the file is reserved; it got %.600q", got)
	}
	if data, _ := os.ReadFile(held); string(data) != "package src\n" {
		t.Errorf("bob's reserved file was overwritten (%d bytes)", len(data))
	}
}

// A shell write is refused as an edit is: alice's Bash `sed -i` of a file
// bob holds is refused, the file stays as it was and the reason (the one
// an Edit gets) reaches the model once; her Bash `cat` of the same file
// passes.
func TestReservationRefusesShellWrite(t *testing.T) {
	const reason = "src/a.go is reserved exclusively by agent bob as src/** until "
	p := newProject(t, func(n int, r *Request) Reply {
		switch {
		case r.HasToolResult("toolu_cat"):
			return Text("shell done")
		case r.HasToolResult("toolu_sed"):
			return ToolUse("toolu_cat", "Bash", map[string]any{"command": "cat src/a.go", "description": "read"})
		}
		return ToolUse("toolu_sed", "Bash", map[string]any{"command": "sed -i s/src/changed/ src/a.go", "description": "edit"})
	})
	if out, err := exec.Command("git", "init", "-q", p.dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	held := filepath.Join(p.dir, "src", "a.go")
	if err := os.MkdirAll(filepath.Dir(held), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(held, []byte("package src\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.stAs("bob", "reserve", "src/", "--reason", "RESERVE-REASON: moving the parser")

	r := p.claude("edit and read a file in the shell")
	p.checkClean(r)
	if r.result == nil || r.result["result"] != "shell done" {
		t.Fatalf("the run ended with %v", r.result)
	}
	reqs := p.mock.Messages()
	i := firstWith(reqs, func(r *Request) bool { return r.HasToolResult("toolu_sed") })
	if i < 0 {
		t.Fatal("no request carries the refused sed's result")
	}
	if got := reqs[i].LastUser(); !strings.Contains(got, reason) || !strings.Contains(got, "RESERVE-REASON: moving the parser") {
		t.Errorf("the model was not told the file is reserved; it got %.600q", got)
	}
	if n := strings.Count(string(reqs[i].Body), reason); n != 1 {
		t.Errorf("the reason reached the model %d times, want once", n)
	}
	if data, _ := os.ReadFile(held); string(data) != "package src\n" {
		t.Errorf("bob's reserved file was changed: %q", data)
	}
	j := firstWith(reqs, func(r *Request) bool { return r.HasToolResult("toolu_cat") })
	if j < 0 {
		t.Fatal("no request carries the cat's result")
	}
	if got := reqs[j].LastUser(); !strings.Contains(got, "package src") || strings.Contains(got, "reserved exclusively") {
		t.Errorf("the read of the reserved file did not pass: %.600q", got)
	}
}
