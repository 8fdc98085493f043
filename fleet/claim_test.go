package fleet

import (
	"maps"
	"slices"
	"testing"
	"time"
)

// Claims are ordered by generation, then by host name, never by time
// (records of older versions, with no generations, by time among
// themselves); a host claims an agent new to it one above the best
// claim it knows, keeps its claim while it stands, and gives it up when
// another beats it.
func TestClaims(t *testing.T) {
	rec := func(host string, at int64, claims map[string]int64) Record {
		agents := map[string]int64{}
		for id := range claims {
			agents[id] = at
		}
		return Record{Host: host, At: at, Agents: agents, Claims: claims}
	}
	legacy := func(host string, at int64) Record {
		return Record{Host: host, At: at, Agents: map[string]int64{"bob": at}}
	}
	for _, c := range []struct {
		name       string
		recs       []Record
		owner      string
		marked     bool // hostb has a mark for bob
		claim      int64
		gives      bool
		wantClaims bool
	}{
		{"a new agent", nil, "", true, 1, false, true},
		{"moving here from a", []Record{rec("hosta", 9e12, map[string]int64{"bob": 3})}, "hosta", true, 4, false, true},
		{"a move here stands, whatever the times", []Record{rec("hosta", 9e12, map[string]int64{"bob": 3}), rec("hostb", 1, map[string]int64{"bob": 4})}, "hostb", true, 4, false, true},
		{"moved away from here", []Record{rec("hosta", 1, map[string]int64{"bob": 5}), rec("hostb", 9e12, map[string]int64{"bob": 4})}, "hosta", true, 0, true, false},
		{"two claims at once: the first name wins", []Record{rec("hosta", 1, map[string]int64{"bob": 4}), rec("hostb", 9e12, map[string]int64{"bob": 4})}, "hosta", true, 0, true, false},
		{"older versions: the newest write", []Record{legacy("hosta", 2), legacy("hostc", 1)}, "hosta", true, 1, false, true},
		{"a generation beats any older version", []Record{legacy("hosta", 9e12), rec("hostc", 1, map[string]int64{"bob": 1})}, "hostc", false, 0, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs := map[string]Record{}
			for _, r := range c.recs {
				recs[r.Host] = r
			}
			if got := Owners(recs)["bob"]; got != c.owner {
				t.Errorf("owner %q, want %q", got, c.owner)
			}
			marked := map[string]int64{}
			if c.marked {
				marked["bob"] = 5
			}
			claims, yield := Claimed(recs, "hostb", marked)
			if gen, ok := claims["bob"]; ok != c.wantClaims || gen != c.claim {
				t.Errorf("claims %v, want bob at %d (%v)", claims, c.claim, c.wantClaims)
			}
			if got := slices.Contains(yield, "bob"); got != c.gives {
				t.Errorf("gives bob up: %v, want %v", got, c.gives)
			}
		})
	}
}

// A host's next record keeps an agent it gave up among its recent
// writers for the double-claim window, then drops it.
func TestRecentOutlivesTheMark(t *testing.T) {
	prev := Record{Agents: map[string]int64{"bob": 1_000_000, "old": 1}}
	got := Recent(prev, map[string]int64{"alice": 2_000_000}, time.UnixMilli(1_000_000+DoubleClaimWindow.Milliseconds()))
	if want := map[string]int64{"bob": 1_000_000, "alice": 2_000_000}; !maps.Equal(got, want) {
		t.Errorf("Recent = %v, want %v", got, want)
	}
}
