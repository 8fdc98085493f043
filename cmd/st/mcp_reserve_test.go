package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The reservation tools call the same functions as the verbs: a grant,
// a refusal naming the holder, the list, an idempotent release.
func TestMCPReservations(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	alice := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	bob := startMCP(t, root, mcpEnv(root, "ST_AGENT=bob"))

	sum, out := alice.ok("st_reserve", map[string]any{"paths": []string{filepath.Join(repo, "src") + "/"}, "reason": "MCP-REASON", "ttl": "1.5d"})
	if !strings.HasPrefix(sum, "reserved 1 pattern in ") || !strings.Contains(out, `"pattern":"src/**","mode":"exclusive","reason":"MCP-REASON"`) {
		t.Fatalf("st_reserve = %q, %s", sum, out)
	}
	txt, _ := bob.fails("st_reserve", map[string]any{"paths": []string{filepath.Join(repo, "src", "a.go")}, "shared": true})
	if !strings.HasPrefix(txt, "RESERVATION_CONFLICT: ") || !strings.Contains(txt, "alice holds src/** (exclusive)") || !strings.Contains(txt, "MCP-REASON") {
		t.Errorf("bob's st_reserve error = %q", txt)
	}
	if txt, _ := bob.fails("st_reserve", map[string]any{"paths": []string{filepath.Join(repo, "[x]")}}); !strings.HasPrefix(txt, "INVALID_PATTERN: ") {
		t.Errorf("bad glob error = %q", txt)
	}
	sum, out = bob.ok("st_reservations", map[string]any{})
	if sum != "1 active reservation" || !strings.Contains(out, `"agent":"alice"`) {
		t.Errorf("st_reservations = %q, %s", sum, out)
	}
	for i, want := range []string{"released 1 reservation", "released 0 reservations"} {
		if sum, _ := alice.ok("st_release", map[string]any{"all": true}); sum != want {
			t.Errorf("release #%d = %q, want %q", i+1, sum, want)
		}
	}
	if txt, _ := alice.fails("st_release", map[string]any{}); !strings.Contains(txt, "give paths or all") {
		t.Errorf("st_release without arguments = %q", txt)
	}
	bob.ok("st_reserve", map[string]any{"paths": []string{filepath.Join(repo, "src", "a.go")}})
}

// st_msg_search returns what `st message search` finds.
func TestMCPMessageSearch(t *testing.T) {
	root := t.TempDir()
	bob := startMCP(t, root, mcpEnv(root, "ST_AGENT=bob"))
	bob.ok("st_msg_send", map[string]any{"to": "alice", "body": "the parser is slow", "subject": "perf"})
	bob.ok("st_msg_send", map[string]any{"to": "alice", "body": "unrelated", "subject": "lunch"})
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	sum, out := p.ok("st_msg_search", map[string]any{"query": "PARSER"})
	if sum != "1 match" || !strings.Contains(out, `"from":"bob","subject":"perf","line":"the parser is slow"`) {
		t.Errorf("st_msg_search = %q, %s", sum, out)
	}
	if sum, _ := p.ok("st_msg_search", map[string]any{"query": "parser", "from": "carol"}); sum != "0 matches" {
		t.Errorf("from carol: %q", sum)
	}
	if txt, _ := p.fails("st_msg_search", map[string]any{"query": ""}); !strings.Contains(txt, "query must not be empty") {
		t.Errorf("empty query: %q", txt)
	}
}

// st_msg_ack records the acknowledgement `st message ls --unacked` reads.
func TestMCPMessageAck(t *testing.T) {
	root := t.TempDir()
	alice := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	if err := os.WriteFile(filepath.Join(root, "alice", "inbox", "1700000000000-aaaaaa.md"), []byte("---\nfrom: bob\nack: required\n---\nplease ack\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{`"already":false`, `"already":true`} {
		if _, out := alice.ok("st_msg_ack", map[string]any{"filename": "1700000000000-aaaaaa.md"}); !strings.Contains(out, want) {
			t.Errorf("ack #%d = %s, want %s", i+1, out, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "alice", "acks", "1700000000000-aaaaaa.md")); err != nil {
		t.Errorf("no ack record: %v", err)
	}
	if txt, _ := alice.fails("st_msg_ack", map[string]any{"filename": "1700000000001-zzzzzz.md"}); !strings.HasPrefix(txt, "MESSAGE_NOT_FOUND: ") {
		t.Errorf("ack of a missing message = %q", txt)
	}
}

// A reason is one line of plain text: st_reserve refuses a control
// character in one line, and grants nothing.
func TestMCPReserveReasonOneLine(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	alice := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	for _, reason := range []string{"ok\nbob  exclusive  x  FORGED", "\x1b[31mred"} {
		txt, _ := alice.fails("st_reserve", map[string]any{"paths": []string{filepath.Join(repo, "src") + "/"}, "reason": reason})
		if !strings.HasPrefix(txt, "INVALID_REASON: ") || strings.ContainsAny(txt, "\n\x1b") {
			t.Errorf("st_reserve with reason %q = %q", reason, txt)
		}
	}
	if sum, _ := alice.ok("st_reservations", map[string]any{}); sum != "0 active reservations" {
		t.Errorf("st_reservations = %q after refused grants", sum)
	}
}
