package dashboard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/storetest"
)

// testHost is the Host the handler tests' requests carry: the server
// accepts only loopback names on its port.
const testHost = "127.0.0.1:8340"

// writeStore creates files under a fresh root (slash paths; a path
// ending in "/" is an empty folder) and returns the root.
func writeStore(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	addFiles(t, root, files)
	return root
}

func addFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	storetest.Write(t, root, files)
}

// agentFolders are the folders that make alice and bob agents whose
// folders exist (the CLI's Strict policy for senders).
var agentFolders = map[string]string{
	"alice/inbox/": "", "alice/archive/": "",
	"bob/inbox/": "", "bob/archive/": "",
}

func with(base map[string]string, more map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// newServer starts a server over root with $ST_AGENT=alice; it closes
// with the test.
func newServer(t testing.TB, root string, tune ...func(*Config)) *Server {
	t.Helper()
	env := map[string]string{"ST_ROOT": root, "ST_AGENT": "alice"}
	cfg := Config{
		Root:  root,
		Env:   layout.NewEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, io.Discard),
		Hosts: loopbackHosts("127.0.0.1", 8340),
		Poll:  -1,
	}
	for _, f := range tune {
		f(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// do serves one request and returns the response and its body.
func do(t testing.TB, h http.Handler, r *http.Request) (*http.Response, string) {
	t.Helper()
	if r.Host == "example.com" {
		r.Host = testHost
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func get(t testing.TB, s *Server, path string) (*http.Response, string) {
	t.Helper()
	return do(t, s.Handler(), httptest.NewRequest("GET", path, nil))
}

// post builds a form post as the page makes it: same origin, with the
// page's token unless the form sets csrf itself.
func post(s *Server, path string, form url.Values) *http.Request {
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", s.csrf)
	}
	r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Origin", "http://"+testHost)
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Host = testHost
	return r
}

// inboxNames lists the files of an agent's inbox.
func inboxNames(t testing.TB, root, id string) []string {
	t.Helper()
	des, _ := os.ReadDir(filepath.Join(root, id, "inbox"))
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

// fixedClock returns a clock that reads *at.
func fixedClock(at *time.Time) func() time.Time { return func() time.Time { return *at } }
