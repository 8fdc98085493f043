package dashboard

import "testing"

// The operator's mailbox is no row of the board (it was listed and
// counted as an agent), unless it acts as one.
func TestOperatorMailboxIsNoRow(t *testing.T) {
	root := writeStore(t, with(agentFolders, map[string]string{
		"operator/inbox/1700000000000-aaaaaa.md": "---\nfrom: alice\n---\nalice waits\n",
		"ops/inbox/1700000000000-bbbbbb.md":      "---\nfrom: alice\n---\nhi\n",
		"ops/status":                             "busy\n",
	}))
	s := newServer(t, root, func(c *Config) { c.Mailbox = "operator" })
	if _, ok := s.fleet.Row("operator"); ok {
		t.Error("the operator's mailbox is a row of the board")
	}
	if _, ok := s.fleet.Row("alice"); !ok {
		t.Error("alice has no row")
	}
	s = newServer(t, root, func(c *Config) { c.Mailbox = "ops" })
	if _, ok := s.fleet.Row("ops"); !ok {
		t.Error("a mailbox with a status of its own is no row")
	}
}
