package fleet

import (
	"testing"
	"time"
)

// ForOwner holds a rewrite back only when another host claims the agent
// and the writer is not the agent itself.
func TestForOwner(t *testing.T) {
	tr := tree(t)
	now := time.Now().UnixMilli()
	if _, home := ForOwner(tr, "bob", "carol", "hosta"); home != "" {
		t.Errorf("a store no host syncs: held back for %q", home)
	}
	Write(tr, Record{Host: "hostb", At: now, Agents: map[string]int64{"bob": now}})
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
			w, home := ForOwner(tr, c.id, c.writer, c.local)
			if home != c.home || (w == tr) != (c.home == "") {
				t.Errorf("ForOwner = (same tree %v, %q), want home %q", w == tr, home, c.home)
			}
		})
	}
}
