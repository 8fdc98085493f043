package peersync

import "testing"

// Which of an agent's files are its home's to rewrite.
func TestRewrittenFiles(t *testing.T) {
	for rel, want := range map[string]bool{
		"status": true, "context/now.md": true, "context/.flush-errors.log": true,
		"events/s1.jsonl": true, "events/.s1.state.json": true, "traces/s1.json": true,
		"inbox/1-abc.md": false, "context/decisions/1-abc.md": false, "traces/s1.sent": false,
	} {
		if got := isRewritten(rel); got != want {
			t.Errorf("isRewritten(%q) = %v, want %v", rel, got, want)
		}
	}
}
