package fleet

import (
	"testing"
	"time"
)

// HomeElsewhere refuses a rewrite only when another host claims the
// agent and the writer is not the agent itself.
func TestHomeElsewhere(t *testing.T) {
	tr := tree(t)
	now := time.Now().UnixMilli()
	if home := HomeElsewhere(tr, "bob", "carol", "hosta"); home != "" {
		t.Errorf("a store no host syncs: refused for %q", home)
	}
	Write(tr, Record{Host: "hostb", At: now, Agents: map[string]int64{"bob": now}, Claims: map[string]int64{"bob": 1}})
	for _, c := range []struct {
		name, id, writer, local, home string
	}{
		{"another agent's state, it lives elsewhere", "bob", "carol", "hosta", "hostb"},
		{"a person (no agent) writing it", "bob", "", "hosta", "hostb"},
		{"the agent itself, moving here", "bob", "bob", "hosta", ""},
		{"on its home host", "bob", "carol", "hostb", ""},
		{"an agent no host claims", "dave", "carol", "hosta", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if home := HomeElsewhere(tr, c.id, c.writer, c.local); home != c.home {
				t.Errorf("HomeElsewhere = %q, want %q", home, c.home)
			}
		})
	}
}
