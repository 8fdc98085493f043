package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reservedReason is the start of the refusal st gives for src/a.go under
// bob's reservation, in every client.
const reservedReason = "src/a.go is reserved exclusively by agent bob as src/**"

// A write_file and a replace of a file under another agent's reservation
// are refused: the file stays as it was, the reason reaches the model
// once, as the tool's error, and Gemini CLI reports no hook error.
func TestReservedEditRefused(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"write_file", "replace"} {
		t.Run(tool, func(t *testing.T) {
			t.Parallel()
			var r *rig
			r = newRig(t, func(n int, req apiRequest) reply {
				if n > 0 {
					return say("done")
				}
				args := map[string]any{"file_path": filepath.Join(r.proj, "src", "a.go"), "content": "changed\n"}
				if tool == "replace" {
					args = map[string]any{"file_path": filepath.Join(r.proj, "src", "a.go"), "old_string": "package a",
						"new_string": "package b", "instruction": "rename the package"}
				}
				return call(tool, args)
			})
			r.write(filepath.Join(r.proj, ".git", "HEAD"), "ref: refs/heads/main\n")
			r.write(filepath.Join(r.proj, "src", "a.go"), "package a\n")
			r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
			r.st("hooks", "install", "--for", "gemini")
			r.trust()
			_, stderr := r.gemini("edit src/a.go")
			if got := r.read(filepath.Join(r.proj, "src", "a.go")); got != "package a\n" {
				t.Errorf("src/a.go = %q: the edit went through", got)
			}
			reqs := r.api.Requests()
			if len(reqs) < 2 {
				t.Fatalf("%d model requests, want the call and its answer", len(reqs))
			}
			last := reqs[len(reqs)-1]
			if n := strings.Count(last.Raw, reservedReason); n != 1 {
				t.Errorf("the reason reached the model %d times, want once; function response: %s", n, last.LastFunctionResponse())
			}
			t.Logf("the tool's answer: %s", last.LastFunctionResponse())
			if fr := last.LastFunctionResponse(); !strings.Contains(fr, reservedReason) {
				t.Errorf("the tool's answer does not carry the reason: %s", fr)
			}
			if errs := hookErrors(stderr); len(errs) > 0 {
				t.Errorf("Gemini CLI reported hook errors:\n%s", strings.Join(errs, "\n"))
			}
			if _, err := os.Stat(filepath.Join(r.root, "alice", "events")); err != nil {
				t.Errorf("no event log: %v", err)
			}
			if ev := r.st("events"); !strings.Contains(ev, "advice=reserved") {
				t.Errorf("st events does not show the refusal:\n%s", ev)
			}
		})
	}
}

// A run_shell_command redirect into a file under another agent's
// reservation is refused as write_file is: the file stays as it was, the
// reason reaches the model once; a cat of the same file passes.
func TestReservedShellWriteRefused(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0:
			return call(hooksShellTool, map[string]any{"command": "echo changed > src/a.go", "description": "edit"})
		case 1:
			return call(hooksShellTool, map[string]any{"command": "cat src/a.go", "description": "read"})
		}
		return say("done")
	})
	r.write(filepath.Join(r.proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	r.write(filepath.Join(r.proj, "src", "a.go"), "package a\n")
	r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
	r.st("hooks", "install", "--for", "gemini")
	r.trust()
	_, stderr := r.gemini("edit src/a.go in the shell")
	if got := r.read(filepath.Join(r.proj, "src", "a.go")); got != "package a\n" {
		t.Errorf("src/a.go = %q: the redirect went through", got)
	}
	reqs := r.api.Requests()
	if len(reqs) < 3 {
		t.Fatalf("%d model requests, want the two calls and the answer", len(reqs))
	}
	if n := strings.Count(reqs[1].Raw, reservedReason); n != 1 {
		t.Errorf("the reason reached the model %d times, want once; function response: %s", n, reqs[1].LastFunctionResponse())
	}
	if fr := reqs[2].LastFunctionResponse(); !strings.Contains(fr, "package a") || strings.Contains(fr, "reserved") {
		t.Errorf("the read of the reserved file did not pass: %s", fr)
	}
	if errs := hookErrors(stderr); len(errs) > 0 {
		t.Errorf("Gemini CLI reported hook errors:\n%s", strings.Join(errs, "\n"))
	}
}

// hooksShellTool is Gemini CLI's shell tool.
const hooksShellTool = "run_shell_command"
