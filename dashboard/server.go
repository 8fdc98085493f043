package dashboard

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"html/template"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"

	hostfleet "github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/watch"
)

// DefaultPoll is the backstop interval: how often the server compares
// every agent's folders for changes that came without a filesystem event.
const DefaultPoll = 2 * time.Second

// Config configures a Server.
type Config struct {
	// Root is the store root ($ST_ROOT); it is created when missing.
	Root string
	// Env resolves the sender of messages sent from the page the way the
	// CLI does ($ST_AGENT when the form names no sender).
	Env *layout.Env
	// From is the default sender shown in the forms ("" = $ST_AGENT).
	From string
	// Hosts are the Host header values accepted (host:port); nil accepts
	// any, which only a deliberately remote server should do.
	Hosts []string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Poll is the backstop interval (DefaultPoll when 0; negative: none).
	Poll time.Duration
	// MaxMessageBytes is the biggest message sent from the pages and
	// the biggest file shown (layout.DefaultMaxMessageBytes when 0).
	MaxMessageBytes int64
	// ContextWindow is the window context fills are measured against, in
	// tokens: the hooks' context_window (hooks.DefaultContextWindow when 0).
	ContextWindow int
	// Host is this machine's name in the fleet (fleet.Local) and
	// SyncStale how long a host may go unsynced before it is flagged
	// (fleet.DefaultStaleAfter when 0).
	Host      string
	SyncStale time.Duration
	// ProblemNotes are the folders where a hook that could not write to
	// the store leaves its note (hooks.ProblemNoteDirs); every page shows
	// the note while it is there.
	ProblemNotes []string
	// Mailbox is the operator's mailbox, not shown as an agent
	// (agents.Options).
	Mailbox string
}

// maxBytes is the configured maximum message size.
func (s *Server) maxBytes() int64 {
	if s.cfg.MaxMessageBytes > 0 {
		return s.cfg.MaxMessageBytes
	}
	return layout.DefaultMaxMessageBytes
}

// Server is the dashboard: its handler, the fleet rows it keeps fresh
// and the streams it feeds.
type Server struct {
	cfg   Config
	t     *fsutil.Tree
	fleet *fleet
	md    goldmark.Markdown
	pages *template.Template
	csrf  string
	hosts map[string]bool

	ctx    context.Context // ends when the server closes
	cancel context.CancelFunc
	done   chan struct{} // the watcher has stopped

	shared   shared // sections rendered once for every stream (shared.go)
	rowsMu   sync.Mutex
	rowCache map[string]cachedRow // rendered fleet rows (pages.go)

	mu      sync.Mutex
	touched map[string]uint64 // per agent: bumped on every rescan
	tick    uint64
	subs    map[chan struct{}]bool
}

// New opens the store, summarises every agent and starts watching.
// Close it to stop.
func New(cfg Config) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Poll == 0 {
		cfg.Poll = DefaultPoll
	}
	t, err := fsutil.OpenOrCreate(cfg.Root)
	if err != nil {
		return nil, err
	}
	// On a shared filesystem other hosts' writes come without events:
	// the backstop finds them, within watch.SharedPoll.
	cfg.Poll = watch.PollFor(cfg.Root, cfg.Poll)
	token := make([]byte, 32)
	rand.Read(token)
	s := &Server{
		cfg: cfg, t: t, md: newMarkdown(), csrf: hex.EncodeToString(token),
		touched: map[string]uint64{}, rowCache: map[string]cachedRow{}, subs: map[chan struct{}]bool{}, done: make(chan struct{}),
	}
	if cfg.Hosts != nil {
		s.hosts = map[string]bool{}
		for _, h := range cfg.Hosts {
			s.hosts[strings.ToLower(h)] = true
		}
	}
	s.pages = parsePages(s)
	w := newWatcher(t)
	s.fleet = newFleet(t, w.start(), cfg.Now, func(t *fsutil.Tree, now time.Time) hostfleet.Fleet {
		return hostfleet.Read(t, cfg.Host, now, cfg.SyncStale)
	}, cfg.Mailbox)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	go func() {
		defer close(s.done)
		defer w.close()
		w.run(s.ctx, cfg.Poll, s.changed)
	}()
	return s, nil
}

// Close stops watching and ends every open stream.
func (s *Server) Close() error {
	s.cancel()
	<-s.done
	return s.t.Close()
}

// changed rescans the agents the watcher names and wakes the streams.
func (s *Server) changed(ids []string, backstop bool) {
	s.fleet.Refresh(ids)
	if backstop {
		s.fleet.Restatus()
	}
	s.mu.Lock()
	for _, id := range ids {
		s.tick++
		s.touched[id] = s.tick
	}
	for ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	s.mu.Unlock()
}

// touch returns the change counter of agent id.
func (s *Server) touch(id string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.touched[id]
}

func (s *Server) subscribe() chan struct{} {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	s.subs[ch] = true
	s.mu.Unlock()
	return ch
}

func (s *Server) unsubscribe(ch chan struct{}) {
	s.mu.Lock()
	delete(s.subs, ch)
	s.mu.Unlock()
}

// Handler returns the dashboard's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveFleet)
	mux.HandleFunc("GET /agent/{id}", s.withAgent(s.serveAgent))
	mux.HandleFunc("GET /agent/{id}/message/{name}", s.withAgent(s.serveMessage))
	mux.HandleFunc("POST /agent/{id}/send", s.withAgent(s.serveSend))
	mux.HandleFunc("POST /agent/{id}/status", s.withAgent(s.serveStatus))
	mux.HandleFunc("GET /events", s.serveEvents)
	mux.Handle("GET /static/", staticHandler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "no such page")
	})
	return s.guard(mux)
}

// securityHeaders go on every response, errors included.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
		"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	"X-Content-Type-Options":       "nosniff",
	"X-Frame-Options":              "DENY",
	"Referrer-Policy":              "no-referrer",
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
}

// crossOrigin refuses state-changing requests that a browser made on
// behalf of another origin (Sec-Fetch-Site, else Origin against Host).
var crossOrigin = http.NewCrossOriginProtection()

// guard sets the security headers, refuses foreign Host names (DNS
// rebinding) and cross-origin posts, then serves.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		if s.hosts != nil && !s.hosts[strings.ToLower(r.Host)] {
			s.fail(w, r, http.StatusMisdirectedRequest, "unexpected Host header: use the address st dashboard printed")
			return
		}
		if err := crossOrigin.Check(r); err != nil {
			s.fail(w, r, http.StatusForbidden, "cross-origin request refused")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withAgent checks the {id} (and {name}) path values with the CLI's
// validators before the handler runs: a bad name is a 404, so no path
// built from them can leave the store.
func (s *Server) withAgent(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !layout.ValidAgent(r.PathValue("id")) {
			s.fail(w, r, http.StatusNotFound, "no such agent")
			return
		}
		if name := r.PathValue("name"); name != "" && !message.IsDeliverable(name) {
			s.fail(w, r, http.StatusNotFound, "no such message")
			return
		}
		h(w, r)
	}
}
