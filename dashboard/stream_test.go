package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// sse is one received server-sent event.
type sse struct {
	name, id string
	data     map[string]any
}

// openStream connects to path on srv and returns its events as they come.
func openStream(t *testing.T, srv *httptest.Server, path string, header map[string]string) <-chan sse {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("GET %s = %d %s", path, res.StatusCode, ct)
	}
	out := make(chan sse, 100)
	go func() {
		defer res.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		var ev sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					out <- ev
				}
				ev = sse{}
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(line[6:]), &ev.data)
			}
		}
	}()
	return out
}

// next waits for the first event named name, skipping others.
func next(t *testing.T, evs <-chan sse, name string) sse {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatalf("stream ended before a %q event", name)
			}
			if ev.name == name {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %q event within 10s", name)
		}
	}
}

// nextWith waits for the first event named name whose html holds every
// one of want.
func nextWith(t *testing.T, evs <-chan sse, name string, want ...string) sse {
	t.Helper()
	for {
		ev := next(t, evs, name)
		html, _ := ev.data["html"].(string)
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(html, w)
		}
		if ok {
			return ev
		}
	}
}

func serve(t *testing.T, s *Server) *httptest.Server {
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv
}

// TestStreamFollowsArrivals: a message delivered by another writer
// reaches an open fleet page and the recipient's page through the
// watcher, with no request from the browser.
func TestStreamFollowsArrivals(t *testing.T) {
	root := writeStore(t, agentFolders)
	s := newServer(t, root, func(c *Config) { c.Hosts = nil })
	srv := serve(t, s)
	v := strconv.FormatUint(s.fleet.Version(), 10)
	fleetEvs := openStream(t, srv, "/events?v="+v, nil)
	bobEvs := openStream(t, srv, "/events?agent=bob&v="+strconv.FormatUint(s.touch("bob"), 10), nil)

	tr, _ := fsutil.Open(root)
	defer tr.Close()
	name, err := inbox.Send(tr, "bob", message.Message{From: "alice", Subject: "arrived <b>", Body: []byte("x")}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// A rescan may catch the delivery half done (its temp file only), so
	// the events that show the arrival may follow others.
	row := nextWith(t, fleetEvs, "row", "<strong>1</strong>")
	if row.data["id"] != "bob" {
		t.Errorf("row event = %v", row.data)
	}
	nextWith(t, fleetEvs, "summary", "<strong>1</strong> unread")
	nextWith(t, bobEvs, "live", name, "arrived &lt;b&gt;")

	// A stream resumed from the last id gets only what came after it.
	again := openStream(t, srv, "/events", map[string]string{"Last-Event-ID": row.id})
	addFiles(t, root, map[string]string{"carol/status": "away\n"})
	if ev := next(t, again, "row"); ev.data["id"] != "carol" {
		t.Errorf("resumed stream sent %v first, want carol", ev.data["id"])
	}
}

// TestBackstopWithoutEvents: a change fsnotify never reports (here: a
// file whose folder is not watched yet, on a server without fsnotify
// events reaching it) is found by the backstop's signatures.
func TestBackstopWithoutEvents(t *testing.T) {
	root := writeStore(t, agentFolders)
	s := newServer(t, root)
	w := newWatcher(s.t)
	w.fs.Close()
	w.fs = nil // polling only, as on a filesystem without inotify
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan []string, 10)
	w.start()
	go w.run(ctx, 50*time.Millisecond, func(ids []string, _ bool) {
		if len(ids) > 0 {
			got <- ids
		}
	})
	os.WriteFile(filepath.Join(root, "bob/inbox/1790000000000-abc123.md"), []byte("---\nfrom: a\n---\nx\n"), 0o666)
	select {
	case ids := <-got:
		if strings.Join(ids, ",") != "bob" {
			t.Errorf("backstop reported %v, want bob", ids)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("backstop never noticed the new file")
	}
}

// TestEventsRefusesBadAgent: the stream validates its agent too.
func TestEventsRefusesBadAgent(t *testing.T) {
	s := newServer(t, writeStore(t, agentFolders))
	res, _ := get(t, s, "/events?agent=Bob")
	if res.StatusCode != 404 {
		t.Errorf("= %d", res.StatusCode)
	}
}
