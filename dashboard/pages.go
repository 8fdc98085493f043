package dashboard

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/smalltalk-go/st/overview"
	"github.com/smalltalk-go/st/status"
)

//go:embed web/*.html
var pageFiles embed.FS

//go:embed static
var staticFiles embed.FS

// staticHandler serves the embedded script and stylesheet; nothing else
// exists under /static/.
func staticHandler() http.Handler {
	sub, _ := fs.Sub(staticFiles, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no listings
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

func parsePages(s *Server) *template.Template {
	funcs := template.FuncMap{
		"ago":      s.ago,
		"agoTime":  func(t time.Time) string { return s.ago(float64(t.UnixMilli())) },
		"iso":      func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"isoMs":    func(ms float64) string { return time.UnixMilli(int64(ms)).UTC().Format(time.RFC3339) },
		"clock":    func(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") },
		"settable": func() []string { return status.Settable },
		"root":     func() string { return s.cfg.Root },
		"csrf":     func() string { return s.csrf },
		"from":     func() string { return s.cfg.From },
		"since":    s.sinceTS,
		"chartW":   func() float64 { return chartW },
		"chartH":   func() float64 { return chartH },
	}
	return template.Must(template.New("").Funcs(funcs).ParseFS(pageFiles, "web/*.html"))
}

// ago renders a time (unix ms; 0 = never) the way `st overview` does.
func (s *Server) ago(ms float64) string {
	if ms == 0 {
		return "—"
	}
	return overview.FormatAge(math.Max(0, float64(s.cfg.Now().UnixMilli())-ms)) + " ago"
}

// sinceTS renders an event timestamp's age.
func (s *Server) sinceTS(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ""
	}
	return s.ago(float64(t.UnixMilli()))
}

// fleetPage is the data of the fleet page.
type fleetPage struct {
	Rows    []Row
	Version uint64
	Summary summary
}

// summary counts the fleet by status, plus those waiting on a human.
type summary struct {
	Agents  int
	Unread  int
	Waiting int
	States  []stateCount
}

type stateCount struct {
	State string
	N     int
}

func summarise(rows []Row) summary {
	sm := summary{Agents: len(rows)}
	n := map[string]int{}
	for _, r := range rows {
		n[r.Status]++
		sm.Unread += r.Unread
		if r.Waiting != nil {
			sm.Waiting++
		}
	}
	for _, st := range status.Readable {
		if n[st] > 0 {
			sm.States = append(sm.States, stateCount{st, n[st]})
		}
	}
	return sm
}

func (s *Server) serveFleet(w http.ResponseWriter, r *http.Request) {
	rows, v := s.fleet.Rows()
	s.render(w, http.StatusOK, "fleet", fleetPage{Rows: rows, Version: v, Summary: summarise(rows)})
}

// agentPage is the data of an agent page.
type agentPage struct {
	ID      string
	Version uint64
	View    AgentView
	Notice  string
}

func (s *Server) serveAgent(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, ok := s.fleet.Row(id); !ok && !s.t.IsDir(id) {
		s.fail(w, r, http.StatusNotFound, "no such agent: "+id)
		return
	}
	v := s.touch(id)
	page := agentPage{ID: id, Version: v, View: s.agentView(id)}
	if sent := r.URL.Query().Get("sent"); sent != "" {
		page.Notice = "sent " + sent
	}
	if st := r.URL.Query().Get("status"); st != "" {
		page.Notice = "status set to " + st
	}
	s.render(w, http.StatusOK, "agent", page)
}

func (s *Server) serveMessage(w http.ResponseWriter, r *http.Request) {
	id, name := r.PathValue("id"), r.PathValue("name")
	v, ok := s.messageView(id, name)
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such message: "+name)
		return
	}
	s.render(w, http.StatusOK, "message", v)
}

// errorPage is the data of an error page.
type errorPage struct {
	Code    int
	Message string
}

// fail answers with an error: JSON for the page's script, else a page.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	if wantsJSON(r) {
		writeJSON(w, code, map[string]any{"error": msg})
		return
	}
	s.render(w, code, "error", errorPage{code, msg})
}

// render executes a page into memory first, so a template error is a
// clean 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, code int, name string, data any) {
	var b bytes.Buffer
	if err := s.pages.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "internal error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// fragment renders a named template to a string, for the streams.
func (s *Server) fragment(name string, data any) string {
	var b strings.Builder
	if err := s.pages.ExecuteTemplate(&b, name, data); err != nil {
		return ""
	}
	return b.String()
}
