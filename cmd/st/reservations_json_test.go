package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/reserve"
)

// TestReservationsJSONEncoder: the listing's own encoder prints what the
// generic one prints for the same records, escapes included.
func TestReservationsJSONEncoder(t *testing.T) {
	at := time.UnixMilli(1_800_000_000_123)
	list := []reserve.Reservation{
		{ID: "1-a", Agent: "bob", Repo: "/r", RepoID: "root:ab", Pattern: "src/**", Mode: "exclusive", Reason: "x\n\x1b[31m\"y\" <z> &", Host: "h", Created: at, Expires: at.Add(time.Hour)},
		{ID: "2-b", Agent: "amy", Repo: "/r", Pattern: "a.go", Mode: "shared", Created: at, Expires: at.Add(time.Minute)},
	}
	conflicts := map[string]bool{"1-a": true}
	want, err := jsstr.Marshal(reservationsJSON(list, conflicts))
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if got := appendReservationsJSON(nil, list, conflicts); !bytes.Equal(got, want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := appendReservationsJSON(nil, nil, nil); string(got) != "[]\n" {
		t.Errorf("empty: %q", got)
	}
}
