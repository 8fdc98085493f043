package peersync

import (
	"testing"

	"github.com/smalltalk-go/st/fleet"
)

// A push compares claims over the records here and the peer's newer ones,
// never taking another copy of this host's own record.
func TestWithNewer(t *testing.T) {
	rec := func(host string, at int64) fleet.Record { return fleet.Record{Host: host, At: at} }
	here := map[string]fleet.Record{"self": rec("self", 5), "a": rec("a", 10), "b": rec("b", 10)}
	learned := map[string]fleet.Record{"self": rec("self", 99), "a": rec("a", 11), "b": rec("b", 9), "c": rec("c", 1)}
	got := withNewer(here, learned, "self")
	for host, want := range map[string]int64{"self": 5, "a": 11, "b": 10, "c": 1} {
		if got[host].At != want {
			t.Errorf("%s: At %d, want %d", host, got[host].At, want)
		}
	}
	if here["a"].At != 10 {
		t.Error("withNewer changed the records here")
	}
}
