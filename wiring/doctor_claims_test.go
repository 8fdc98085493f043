package wiring

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/storetest"
)

// The doctor fails an agent that two hosts of a synced store claim at
// once, naming both, and says nothing of one that moved or of another
// agent.
func TestCheckStoreDoubleClaim(t *testing.T) {
	tr, root := storetest.Open(t, map[string]string{"alice/inbox/": "", "bob/inbox/": "", "carol/inbox/": ""})
	now := time.Now().UnixMilli()
	hour := fleet.DoubleClaimWindow.Milliseconds()
	fleet.Write(tr, fleet.Record{Host: "h1", At: now, Agents: map[string]int64{"alice": now - 1000, "carol": now - 10*hour}})
	fleet.Write(tr, fleet.Record{Host: "h2", At: now, Agents: map[string]int64{"alice": now - 2000, "carol": now}})
	state := filepath.Join(t.TempDir(), "state")
	for _, tt := range []struct {
		agent, want string
	}{
		{"alice", "fleet: alice writes its own state on h1 and on h2 at once"},
		{"bob", ""},
		{"carol", ""},
	} {
		var fails []string
		var out strings.Builder
		checkStore(StoreCheck{Root: root, Agent: tt.agent, AgentVar: "ST_AGENT", StateDir: state}, func(f string, a ...any) { fails = append(fails, fmtLine(f, a...)) }, &out)
		got := strings.Join(fails, "\\n")
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s: FAIL lines %q, want %q", tt.agent, got, tt.want)
		}
	}
}
