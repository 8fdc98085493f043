package inbox

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/smalltalk-go/st/message"
)

// FuzzSubjectRoundTrip: any subject (any code point, U+2028 and U+2029
// included) comes back unchanged from every reader of a sent
// message: Read (message read, the MCP read tool), Items (ls, overview,
// the hooks) and the JSON listing (ls --json, the MCP list tool).
func FuzzSubjectRoundTrip(f *testing.F) {
	for _, s := range []string{"plain", "line\u2028separator", "para\u2029graph", "\u2028", "quote \" back\\slash", "tab\tcr\rnl\n", " padded ", "# not a comment", "'single'", `"double"`, "--- fence", "\x00\x7f\u0085\ufeff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, subject string) {
		if !utf8.ValidString(subject) || subject == "" {
			t.Skip("not text")
		}
		tr, _ := store(t, map[string]string{"bob/": ""})
		m := message.Message{From: "alice", Subject: subject, Body: []byte("hi\n")}
		if err := Check(m); err != nil {
			t.Skip("refused by send")
		}
		name, err := Send(tr, "bob", m, time.UnixMilli(1796158671881))
		if err != nil {
			t.Fatal(err)
		}
		_, data, err := Read(tr, "bob", name, false)
		if err != nil {
			t.Fatal(err)
		}
		if p := Project(name, string(data)); p.Subject != subject {
			t.Errorf("read: subject %q, want %q", p.Subject, subject)
		}
		items, err := Items(tr, "bob", Inbox, Filter{})
		if err != nil || len(items) != 1 || items[0].Subject == nil || *items[0].Subject != subject {
			t.Fatalf("list: %+v, %v; want subject %q", items, err, subject)
		}
		listing, err := ListJSON(tr, "bob", Inbox, Filter{})
		var raw bytes.Buffer
		if err == nil {
			_, err = listing.WriteTo(&raw)
		}
		var got []struct {
			Subject string `json:"subject"`
		}
		if err != nil || json.Unmarshal(raw.Bytes(), &got) != nil || len(got) != 1 || got[0].Subject != subject {
			t.Fatalf("JSON listing %s, %v; want subject %q", raw.Bytes(), err, subject)
		}
	})
}
