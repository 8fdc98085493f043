package dashboard

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/attention"
	hostfleet "github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/hooks"
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
		"tsTime":   tsTime,
		"chartW":   func() float64 { return chartW },
		"chartH":   func() float64 { return chartH },
		"sparkW":   func() float64 { return sparkW },
		"sparkH":   func() float64 { return sparkH },
		"spark":    sparkBars,
		"sparkN":   sparkTotal,
		"fill":     s.fill,
		"tokens":   kTokens,
		"until":    s.until,
		"msOf":     func(t time.Time) int64 { return t.UnixMilli() },
		"rank":     groupRank,
		"rowHTML":  s.rowHTML,
		"hosts":    func() []hostfleet.Host { return s.fleet.Hosts() },
		"now":      func() time.Time { return s.cfg.Now() },
		"syncedMs": func(h hostfleet.Host) float64 { return float64(*h.SyncedAt) },
		"label": func(g string) string {
			if !validGroup(g) {
				return g
			}
			return attention.Label(g)
		},
		"title": func(alarm int) string {
			if alarm > 0 {
				return "(" + strconv.Itoa(alarm) + ") st dashboard"
			}
			return "st dashboard"
		},
		// a stat or two per page: the note is read, never removed
		"storeProblem": func() string { return hooks.PeekStoreProblem(s.cfg.ProblemNotes, s.cfg.Root) },
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

// tsTime is an event timestamp's time; zero when it does not parse.
func tsTime(ts string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, ts)
	return t
}

// fleetPage is the data of the fleet page.
type fleetPage struct {
	Rows    []Row
	Version uint64
	Summary summary
}

// view is the fleet page's order and filter, from its URL: ?order=name
// (else by attention) and ?show=GROUP (else every agent).
type view struct {
	Order string
	Show  string
}

func viewOf(q url.Values) view {
	v := view{Order: orderAttention, Show: q.Get("show")}
	if q.Get("order") == orderName {
		v.Order = orderName
	}
	if !validGroup(v.Show) {
		v.Show = ""
	}
	return v
}

// href is the fleet page's URL with this view.
func (v view) href() string {
	q := url.Values{}
	if v.Show != "" {
		q.Set("show", v.Show)
	}
	if v.Order != orderAttention {
		q.Set("order", v.Order)
	}
	if len(q) == 0 {
		return "/"
	}
	return "/?" + q.Encode()
}

// summary counts the fleet by attention group; each count links to the
// page filtered to that group.
type summary struct {
	Agents int
	Unread int
	Alarm  int // agents in a group that needs a person (the title's count)
	Groups []groupCount
	View   view
	All    string // the link to every agent, in this order
	Orders []orderLink
}

type groupCount struct {
	Group
	N       int
	Href    string
	Current bool
}

type orderLink struct {
	Label, Href string
	Current     bool
}

func summarise(rows []Row, v view) summary {
	sm := summary{Agents: len(rows), View: v, All: view{Order: v.Order}.href()}
	n := map[string]int{}
	for i := range rows {
		n[rows[i].Group]++
		sm.Unread += rows[i].Unread
		if rows[i].Alarm() {
			sm.Alarm++
		}
	}
	for _, g := range groups {
		if n[g.Key] > 0 || g.Key == v.Show {
			link := view{Order: v.Order, Show: g.Key}
			if g.Key == v.Show {
				link.Show = "" // clicking the current filter clears it
			}
			sm.Groups = append(sm.Groups, groupCount{g, n[g.Key], link.href(), g.Key == v.Show})
		}
	}
	for _, o := range []string{orderAttention, orderName} {
		sm.Orders = append(sm.Orders, orderLink{"by " + o, view{Order: o, Show: v.Show}.href(), o == v.Order})
	}
	return sm
}

// arrange orders rows for the view and keeps those it shows.
func arrange(rows []Row, v view) []Row {
	sortRows(rows, v.Order)
	if v.Show == "" {
		return rows
	}
	var shown []Row
	for _, r := range rows {
		if r.Group == v.Show {
			shown = append(shown, r)
		}
	}
	return shown
}

func (s *Server) serveFleet(w http.ResponseWriter, r *http.Request) {
	rows, ver := s.fleet.Rows()
	v := viewOf(r.URL.Query())
	sm := summarise(rows, v)
	s.render(w, http.StatusOK, "fleet", fleetPage{Rows: arrange(rows, v), Version: ver, Summary: sm})
}

// rowCacheAge bounds how old a cached row's relative times ("3m ago")
// may be; the page's script ages them in place anyway.
const rowCacheAge = time.Minute

// cachedRow is a row's rendered HTML, by the row's version.
type cachedRow struct {
	version uint64
	at      time.Time
	html    template.HTML
}

// rowHTML renders a fleet row once per version (and minute), so a page
// of a thousand agents, or a change sent to every open page, costs a
// copy of what was rendered rather than a thousand renders.
func (s *Server) rowHTML(r Row) template.HTML {
	now := s.cfg.Now()
	s.rowsMu.Lock()
	c, ok := s.rowCache[r.ID]
	s.rowsMu.Unlock()
	if ok && c.version == r.version && now.Sub(c.at) < rowCacheAge && !now.Before(c.at) {
		return c.html
	}
	html := template.HTML(s.fragment("row", r)) // #nosec: rendered by html/template
	s.rowsMu.Lock()
	if old, ok := s.rowCache[r.ID]; !ok || old.version <= r.version {
		s.rowCache[r.ID] = cachedRow{r.version, now, html}
	}
	s.rowsMu.Unlock()
	return html
}

// fillView is a context fill as the pages show it.
type fillView struct {
	Fill
	Window int64
	Pct    int    // of Window; -1 when the tokens exceed it (the window is not the configured one)
	Level  string // "", "warm" (60 %), "hot" (80 %)
}

// fill renders f against the window its client reported, else the
// configured one; nil when no fill was recorded.
func (s *Server) fill(f Fill) *fillView {
	if f.Tokens <= 0 {
		return nil
	}
	v := &fillView{Fill: f, Window: s.window(), Pct: -1}
	if f.Reported > 0 {
		v.Window = f.Reported
	}
	if f.Tokens <= v.Window {
		v.Pct = int(f.Tokens * 100 / v.Window)
		switch {
		case v.Pct >= 80:
			v.Level = "hot"
		case v.Pct >= 60:
			v.Level = "warm"
		}
	}
	return v
}

// window is the context window the fill is measured against.
func (s *Server) window() int64 {
	if s.cfg.ContextWindow > 0 {
		return int64(s.cfg.ContextWindow)
	}
	return hooks.DefaultContextWindow
}

// kTokens renders a token count briefly: 84k, 1.2M.
func kTokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	case n >= 1000:
		return strconv.FormatInt(n/1000, 10) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// sparkBars draws a row's sparkline (sparkW × sparkH user units).
func sparkBars(n [sparkBuckets]int) []Bar {
	peak := 0
	for _, c := range n {
		peak = max(peak, c)
	}
	if peak == 0 {
		return nil
	}
	w := sparkW / sparkBuckets
	var bars []Bar
	for i, c := range n {
		if c == 0 {
			continue
		}
		h := max(1, sparkH*float64(c)/float64(peak))
		bars = append(bars, Bar{X: float64(i) * w, Y: sparkH - h, W: w - 1, H: h})
	}
	return bars
}

// sparkTotal is the number of events a sparkline counts.
func sparkTotal(n [sparkBuckets]int) int {
	t := 0
	for _, c := range n {
		t += c
	}
	return t
}

// Sparkline geometry, in SVG user units.
const (
	sparkW = 48.0
	sparkH = 14.0
)

// until renders when a retry is due, the way ago renders a time past:
// "next in 3m", and once the time has passed without the retry running,
// how long it has been overdue: "overdue by 9m", not "since 9m ago", which
// the row's "since" of the failure follows (app.js renders the same as
// time goes by).
func (s *Server) until(t time.Time) string {
	d := t.Sub(s.cfg.Now())
	if d <= 0 {
		return "overdue by " + overview.FormatAge(float64(-d.Milliseconds()))
	}
	return "next in " + overview.FormatAge(float64(d.Milliseconds()))
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
	_, _ = w.Write(b.Bytes()) // a browser that went away gets nothing more
}

// fragment renders a named template to a string, for the streams.
func (s *Server) fragment(name string, data any) string {
	var b strings.Builder
	if err := s.pages.ExecuteTemplate(&b, name, data); err != nil {
		return ""
	}
	return b.String()
}
