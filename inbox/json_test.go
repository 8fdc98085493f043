package inbox

import (
	"math"
	"testing"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// FuzzAppendJSON: the hand encoder writes what jsstr.Marshal writes.
func FuzzAppendJSON(f *testing.F) {
	f.Add("1796158671881-mzan5r.md", 1796158671881.0, "alice", "hi <there> & \u2028", "", "a,b", "high", uint8(0))
	f.Add("outside \xff.txt", 1796158671881.123, "", "\n\t\"\\", "x", "", "", uint8(0xff))
	f.Fuzz(func(t *testing.T, name string, ts float64, from, subject, reply, tag, prio string, shape uint8) {
		opt := func(bit uint8, s string) *string {
			if shape&bit != 0 {
				return nil
			}
			return &s
		}
		it := Item{Filename: name, TS: ts, From: opt(1, from), Subject: opt(2, subject), InReplyTo: opt(4, reply), Priority: opt(8, prio)}
		switch shape >> 4 & 3 {
		case 1:
			it.Tags = []string{}
		case 2:
			it.Tags = []string{tag, from}
		}
		for _, items := range [][]Item{nil, {}, {it}, {it, it}} {
			want, err := jsstr.Marshal(items)
			got, ok := AppendJSON(nil, items)
			if ok != (err == nil) {
				t.Fatalf("AppendJSON(%#v) ok=%v, Marshal error %v", items, ok, err)
			}
			if ok && string(got) != string(want) {
				t.Fatalf("AppendJSON(%#v) =\n%s\nMarshal\n%s", items, got, want)
			}
		}
	})
}

func TestAppendJSONRefusesNaN(t *testing.T) {
	if _, ok := AppendJSON(nil, []Item{{TS: math.NaN()}}); ok {
		t.Error("AppendJSON wrote a NaN")
	}
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
