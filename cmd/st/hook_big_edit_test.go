package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bigEditPayload is a recorded edit payload (e2e/<client>/testdata/
// payloads) reshaped into an edit of about size bytes in folder cwd.
func bigEditPayload(t *testing.T, recorded, cwd string, size int) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "e2e", filepath.Dir(recorded), "testdata", "payloads", filepath.Base(recorded)))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	p["cwd"] = cwd
	if strings.HasPrefix(recorded, "claudecode/") {
		p["tool_name"] = "Write"
		p["tool_input"] = map[string]any{"file_path": filepath.Join(cwd, "src", "a.go"), "content": strings.Repeat("// a long line of Go\n", size/21)}
	} else {
		var patch strings.Builder
		patch.WriteString("*** Begin Patch\n*** Update File: docs/notes.md\n@@\n")
		for patch.Len() < size {
			patch.WriteString("+a line of the notes, \"quoted\"\n")
		}
		patch.WriteString("*** Update File: src/a.go\n@@\n-package src\n+package mine\n*** End Patch\n")
		p["tool_input"] = map[string]any{"command": patch.String()}
	}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A 3 MB Write and a 3 MB apply_patch of a file under another agent's
// reservation are refused like small ones: the hooks used to read 1 MiB
// of the payload, found it cut, and let the edit through. A 100 MB Write
// is decided too (or, on a machine too slow to read it within the
// budget, refused as unread); none is refused without a reservation.
func TestHookBigEditUnderReservation(t *testing.T) {
	env, _ := hookBudgetStore(t)
	for i, kv := range env {
		if strings.HasPrefix(kv, "ST_HOOK_TIMEOUT_MS=") {
			env[i] = "ST_HOOK_TIMEOUT_MS=" // the default budget
		}
	}
	repo := filepath.Join(t.TempDir(), "repo")
	for _, d := range []string{".git", "src", "docs"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(repo, "src", "a.go"), []byte("package src\n"), 0o644)
	stPath, err := exec.LookPath("st")
	if err != nil {
		t.Fatal(err)
	}
	st := func(t *testing.T, agent string, stdin []byte, args ...string) string {
		t.Helper()
		cmd := exec.Command(stPath, args...)
		cmd.Env = append(append([]string(nil), env...), "ST_AGENT="+agent)
		cmd.Dir = repo
		cmd.Stdin = bytes.NewReader(stdin)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("st %v: %v\n%s", args, err, errOut.String())
		}
		return out.String()
	}
	for _, tc := range []struct {
		recorded, hook string
		size           int
	}{
		{"claudecode/PreToolUse.json", "pre-tool-use", 3 << 20},
		{"codex/PreToolUse-apply_patch.json", "codex-pre-tool-use", 3 << 20},
		{"claudecode/PreToolUse.json", "pre-tool-use", 100 << 20},
	} {
		if tc.size > 50<<20 && testing.Short() {
			continue // building and reading 100 MB takes most of the test: the full run does it
		}
		payload := bigEditPayload(t, tc.recorded, repo, tc.size)
		t.Run(fmt.Sprintf("%s/%dMB", tc.hook, tc.size>>20), func(t *testing.T) {
			st(t, "bob", nil, "reserve", "src/")
			out := st(t, "alice", payload, "hook", tc.hook)
			decided := strings.Contains(out, "src/a.go is reserved exclusively by agent bob")
			unread := tc.size > 50<<20 && strings.Contains(out, "st could not read this Write call whole")
			t.Logf("decided on the path: %v", decided)
			if !strings.Contains(out, `"permissionDecision":"deny"`) || !decided && !unread {
				t.Errorf("a %d-byte edit of bob's file: %.300q, want it refused", len(payload), out)
			}
			st(t, "bob", nil, "release", "src/")
			if out := st(t, "alice", payload, "hook", tc.hook); out != "" {
				t.Errorf("refused with no reservation: %.300q", out)
			}
		})
	}
}
