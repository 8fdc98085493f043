package inbox

import (
	"fmt"
	"testing"
)

// BenchmarkThread10k walks a thread in a store of 10,000 messages spread
// over 10 agents' inboxes and archives, every message replying to an
// earlier one (the target: st message thread under 150 ms).
func BenchmarkThread10k(b *testing.B) {
	const n = 10000
	name := func(i int) string { return fmt.Sprintf("%013d-%06d.md", 1700000000000+i, i%1000000) }
	files := map[string]string{}
	for i := range n {
		dir := fmt.Sprintf("agent%d/", i%10) + []string{"inbox", "archive"}[i%2]
		body := fmt.Sprintf("---\nfrom: agent%d\nsubject: s%d\n", (i+1)%10, i)
		if i > 0 {
			body += "in-reply-to: " + name(i/2) + "\n"
		}
		body += "---\nbody\n"
		files[dir+"/"+name(i)] = body
	}
	t, _ := store(b, files)
	for b.Loop() {
		lines, err := Thread(t, name(n/4), true)
		if err != nil || len(lines) == 0 {
			b.Fatalf("Thread = %d lines, %v", len(lines), err)
		}
	}
}

// BenchmarkItems10k is `st message ls --json` over an inbox of 10,000
// messages minus process start-up (the target: under 100 ms).
func BenchmarkItems10k(b *testing.B) {
	files := map[string]string{}
	for i := range 10000 {
		name := fmt.Sprintf("%013d-%06d.md", 1700000000000+i, i)
		files["alice/inbox/"+name] = fmt.Sprintf("---\nfrom: bob\nsubject: s%d\ntags: [a, b]\n---\nbody %d\n", i, i)
	}
	t, _ := store(b, files)
	for b.Loop() {
		items, err := Items(t, "alice", Inbox, Filter{})
		if err != nil || len(items) != 10000 {
			b.Fatalf("Items = %d, %v", len(items), err)
		}
	}
}
