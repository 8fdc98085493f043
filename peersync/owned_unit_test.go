package peersync

import "testing"

// What settle sorts a put-aside copy by: a current host record, one of
// an agent's rewritten files, or neither.
func TestPutAsideKinds(t *testing.T) {
	for rel, want := range map[string]string{
		".st-hosts/build.example.com.json": "build.example.com",
		".st-hosts/a/1700000000000.json":   "",
		".st-hosts/a.forgotten":            "",
		".st-hosts/.json":                  "",
		"bob/status":                       "",
	} {
		if got, _ := recordHost(rel); got != want {
			t.Errorf("recordHost(%q) = %q, want %q", rel, got, want)
		}
	}
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
