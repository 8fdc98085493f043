package mcp

import "testing"

// BenchmarkNewServer measures building the server: the SDK server and
// the 14 tools with their schemas, the in-process part of start-up.
func BenchmarkNewServer(b *testing.B) {
	root := b.TempDir()
	for b.Loop() {
		newServer(Config{Root: root, Agent: "alice", Channel: true})
	}
}
