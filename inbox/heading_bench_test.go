package inbox

import "testing"

// A message as `st message send` writes it, the shape of nearly every
// file a listing reads.
var benchMessage = []byte("---\nfrom: alice\nsubject: \"message 0\"\ntags: [bench, load]\n---\nbody 0\n")

// BenchmarkReadHeading is the per-message projection of a listing.
func BenchmarkReadHeading(b *testing.B) {
	for b.Loop() {
		_ = readHeading(Text(benchMessage))
	}
}

// BenchmarkAppendEntry is the per-message encoding of `ls --json`.
func BenchmarkAppendEntry(b *testing.B) {
	e := entry{name: "1796189937989-000000.md", ts: 1796189937989, heading: readHeading(Text(benchMessage))}
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		buf = appendEntry(buf[:0], &e)
	}
}
