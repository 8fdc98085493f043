package hooks

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

// The question an agent waits on comes from what Claude Code really
// sends: the recorded Notification payload has a message and a
// notification_type, and no title.
func TestWaitingFromRecordedNotification(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "e2e", "claudecode", "testdata", "payloads", "Notification.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ParsePayload(data)
	if !ok {
		t.Fatalf("bad payload %s", data)
	}
	ev := NewEvent("Notification", &p, time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC))
	w, ok := events.WaitingOn([]events.Event{*ev})
	if !ok {
		t.Fatalf("not waiting after %s", data)
	}
	if w.Type != "permission_prompt" || w.Question() != "Claude needs your permission" {
		t.Errorf("waiting = %+v, question %q", w, w.Question())
	}
}
