package dashboard

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

// The fleet page says where an agent waiting on a human is: its project
// folder, host and tmux pane, as its notification line recorded them.
func TestFleetPageWhere(t *testing.T) {
	ts := events.Stamp(time.Now())
	s := newServer(t, writeStore(t, with(agentFolders, map[string]string{
		"bob/status": "busy\n",
		"bob/events/b1.jsonl": `{"ts":"` + ts + `","event":"Notification","session":"b1","type":"permission_prompt",` +
			`"message":"Claude needs your permission to use Bash","cwd":"/w/proj","host":"vm2","pane":"%7","hook_us":300}` + "\n",
	})))
	_, body := do(t, s.Handler(), httptest.NewRequest("GET", "/", nil))
	if !strings.Contains(body, `<span class="where">go to /w/proj on vm2, tmux pane %7</span>`) {
		t.Errorf("the fleet page does not say where bob waits:\n%s", body)
	}
}
