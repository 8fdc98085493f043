package inbox

import (
	"bytes"
	"math"
	"testing"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// FuzzItemsJSON: the hand encoder writes what jsstr.Marshal writes of
// the same entry's Item, for an entry and for a listing.
func FuzzItemsJSON(f *testing.F) {
	f.Add("1796158671881-mzan5r.md", 1796158671881.0, false, "alice", "hi <there> & \u2028", "", "[a, 'b c', \"\"]", "high")
	f.Add("outside \xff.txt", 1796158671881.123, true, "", "\n\t\"\\", "x", "", "")
	f.Add("1796158671881-mzan5r.md", 0.0, false, "", "", "", "[]", "urgent")
	f.Fuzz(func(t *testing.T, name string, ts float64, outside bool, from, subject, reply, tags, prio string) {
		if math.IsNaN(ts) || math.IsInf(ts, 0) {
			t.Skip("a listed ts is a timestamp or an mtime, always finite")
		}
		e := entry{name: name, ts: ts, outside: outside, heading: heading{from, subject, reply, tags, prio}}
		want, err := jsstr.Marshal(e.item())
		if err != nil {
			t.Fatal(err)
		}
		if got := appendEntry(nil, &e); string(got) != string(want) {
			t.Fatalf("appendEntry(%#v) =\n%s\nMarshal\n%s", e, got, want)
		}
		for _, n := range []int{0, 1, 2} {
			items := make([]Item, n)
			// One entry a run, then all in one run.
			l, one := ItemsJSON{runs: make([][]byte, n+1)}, ItemsJSON{runs: make([][]byte, 2)}
			for i := range n {
				items[i] = e.item()
				l.add(i+1, &e)
				one.add(1, &e)
			}
			want, _ := jsstr.Marshal(items)
			l.open()
			one.open()
			for _, l := range []ItemsJSON{l, one} {
				var got bytes.Buffer
				if k, err := l.WriteTo(&got); err != nil || k != int64(got.Len()) || got.String() != string(want) {
					t.Fatalf("WriteTo(%d entries) = %d, %v:\n%s\nMarshal\n%s", n, k, err, got.String(), want)
				}
			}
		}
	})
}

// FuzzAppendHitsJSON: the hand encoder of search hits writes what
// jsstr.Marshal writes.
func FuzzAppendHitsJSON(f *testing.F) {
	f.Add("alice", "inbox", "1796158671881-mzan5r.md", int64(1796158671881), "bob", "hi <there> & \u2028", "a \"line\"\n")
	f.Add("", "archive", "\xff", int64(-1), "\x00", "\u2029", "\t\\")
	f.Fuzz(func(t *testing.T, agent, folder, name string, ts int64, from, subject, line string) {
		h := Hit{agent, folder, name, ts, from, subject, line}
		for _, hits := range [][]Hit{nil, {}, {h}, {h, h}} {
			want, err := jsstr.Marshal(hits)
			if err != nil {
				t.Fatal(err)
			}
			if got := AppendHitsJSON(nil, hits); string(got) != string(want) {
				t.Fatalf("AppendHitsJSON(%#v) =\n%s\nMarshal\n%s", hits, got, want)
			}
		}
	})
}
