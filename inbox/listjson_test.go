package inbox

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// TestListingsAgree: over a folder big enough for every reader goroutine
// to take several chunks, ListJSON writes what jsstr.Marshal writes of
// Items, and Select gives Items' names, under every filter: the entries
// come back in byte order whichever reader read them.
func TestListingsAgree(t *testing.T) {
	files := map[string]string{"a/archive/": ""}
	senders := []string{"bob", "carol", "dave"}
	for i := range 3*maxReaders*chunkNames + 17 {
		name := fmt.Sprintf("%013d-%06d.md", 1790000000000+i/3, i)
		switch i % 7 {
		case 0:
			files["a/inbox/"+name] = "no frontmatter"
		case 1:
			files["a/inbox/"+fmt.Sprintf("outside-%04d.md", i)] = "outside"
		default:
			files["a/inbox/"+name] = msg(senders[i%3], fmt.Sprintf("subject: \"n %d\"\ntags: [t%d, 'u v']\npriority: %s\n", i, i%5, []string{"high", "bogus"}[i%2]))
		}
	}
	tr, _ := store(t, files)
	since := 1790000000000.0 + 400
	for _, f := range []Filter{{}, {From: "carol"}, {From: "outside"}, {Since: &since}, {Since: &since, From: "bob"}} {
		items, err := Items(tr, "a", Inbox, f)
		if err != nil || len(items) == 0 || f == (Filter{}) && len(items) != len(files)-1 {
			t.Fatalf("Items(%+v) = %d items, %v", f, len(items), err)
		}
		if !slices.IsSortedFunc(items, func(a, b Item) int { return strings.Compare(a.Filename, b.Filename) }) {
			t.Errorf("Items(%+v) out of order", f)
		}
		want, _ := jsstr.Marshal(items)
		l, err := ListJSON(tr, "a", Inbox, f)
		var got bytes.Buffer
		if err == nil {
			_, err = l.WriteTo(&got)
		}
		if err != nil || got.String() != string(want) {
			t.Errorf("ListJSON(%+v) = %v, differs from Items:\n%.300s\n%.300s", f, err, got.String(), want)
		}
		names, err := Select(tr, "a", Inbox, f)
		wantNames := make([]string, len(items))
		for i, it := range items {
			wantNames[i] = it.Filename
		}
		if err != nil || !slices.Equal(names, wantNames) || !slices.IsSorted(names) {
			t.Errorf("Select(%+v) = %d names, %v; Items %d", f, len(names), err, len(wantNames))
		}
	}
}
