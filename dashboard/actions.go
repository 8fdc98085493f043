package dashboard

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	hostfleet "github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// maxForm bounds a posted form (a message body is small; bulk content
// goes in a file, as `st message send --help` says).
const maxForm = 1 << 20

// checkPost parses the form and checks the CSRF token; it answers the
// request itself and returns false when the post is refused.
func (s *Server) checkPost(w http.ResponseWriter, r *http.Request) bool {
	// A form carries one message: its body is percent-encoded (up to
	// three bytes per byte) beside a few short fields.
	r.Body = http.MaxBytesReader(w, r.Body, 3*s.maxBytes()+maxForm)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, "bad form: "+err.Error())
		return false
	}
	token := r.PostForm.Get("csrf")
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.csrf)) != 1 {
		s.fail(w, r, http.StatusForbidden, "missing or wrong CSRF token: reload the page")
		return false
	}
	return true
}

// serveSend delivers a message to {id} with the checks of
// `st message send`, in its order: the recipient's name, the sender
// (the form's from, else the configured one, else $ST_AGENT; its
// folders must exist), in-reply-to, priority, a non-empty body.
func (s *Server) serveSend(w http.ResponseWriter, r *http.Request) {
	if !s.checkPost(w, r) {
		return
	}
	to, f := r.PathValue("id"), r.PostForm
	m := message.Message{
		Subject:   f.Get("subject"),
		InReplyTo: f.Get("in-reply-to"),
		Tags:      message.SplitTags(f.Get("tags")),
		Priority:  f.Get("priority"),
		Body:      []byte(strings.ReplaceAll(f.Get("body"), "\r\n", "\n")),
	}
	from := f.Get("from")
	if from == "" {
		from = s.cfg.From
	}
	sender, err := layout.Resolve(s.cfg.Root, from, layout.Strict, s.cfg.Env)
	if err == nil {
		m.From = sender
		err = inbox.Check(m)
	}
	if err == nil {
		err = inbox.CheckSize(m, s.maxBytes())
	}
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	name, err := inbox.Send(s.t, to, m, s.cfg.Now())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	s.done200(w, r, map[string]any{"ok": true, "name": name, "message": "sent " + name},
		"/agent/"+to+"?sent="+url.QueryEscape(name))
}

// serveStatus sets {id}'s status like `st status <id> --set <state>`:
// the agent's folders are created, then the state is checked.
func (s *Server) serveStatus(w http.ResponseWriter, r *http.Request) {
	if !s.checkPost(w, r) {
		return
	}
	id, state := r.PathValue("id"), r.PostForm.Get("state")
	if err := layout.Apply(s.cfg.Root, id, layout.Create); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	// The page acts for a person, not for id: where id lives on another
	// host, which alone writes its status, the change is refused
	// (fleet.HomeElsewhere) and the page says where to make it.
	if home := hostfleet.HomeElsewhere(s.t, id, "", s.cfg.Host); home != "" {
		s.fail(w, r, http.StatusConflict, hostfleet.NotHome(id, home, "status").Error())
		return
	}
	if err := status.Set(s.t, id, state); err != nil {
		code := http.StatusInternalServerError
		var se *sterr.Error
		if errors.As(err, &se) {
			code = http.StatusBadRequest
		}
		s.fail(w, r, code, err.Error())
		return
	}
	message := "status: " + state
	s.done200(w, r, map[string]any{"ok": true, "status": state, "message": message},
		"/agent/"+id+"?status="+url.QueryEscape(state))
}

// done200 answers a successful post: JSON for the page's script, else a
// redirect back to the page (post/redirect/get).
func (s *Server) done200(w http.ResponseWriter, r *http.Request, body map[string]any, back string) {
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, body)
		return
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// wantsJSON reports whether the page's script made the request.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // cannot fail for these types
}
