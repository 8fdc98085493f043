package dashboard

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/smalltalk-go/st/internal/layout"
)

// Stream timing: a comment every keepAlive keeps proxies and the browser
// from timing the stream out; an agent page's section is re-rendered at
// most every agentEvery however fast its logs grow.
const (
	keepAlive  = 20 * time.Second
	agentEvery = 200 * time.Millisecond
)

// serveEvents streams changes as server-sent events. The fleet page
// (no agent parameter) gets a "row" event per changed agent, "remove"
// per vanished one and a "summary" (counted and linked for the page's
// ?show= and ?order=, which the page passes on); an agent page (?agent=ID) gets its
// "state" and "live" sections re-rendered. Each event's id is the version it brings
// the page to; the page passes the version it was rendered at as ?v=,
// and EventSource resends the last id on reconnect, so nothing is missed
// and nothing is sent twice.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	agent := r.URL.Query().Get("agent")
	if agent != "" && !layout.ValidAgent(agent) {
		s.fail(w, r, http.StatusNotFound, "no such agent")
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	v := lastVersion(r)
	view := viewOf(r.URL.Query())
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 1000\n\n")
	flusher.Flush()

	wake := s.subscribe()
	defer s.unsubscribe(wake)
	alive := time.NewTicker(keepAlive)
	defer alive.Stop()
	var last time.Time
	for {
		var err error
		if agent == "" {
			v, err = s.sendFleet(w, v, view)
		} else if t := s.touch(agent); t > v {
			if wait := agentEvery - time.Since(last); wait > 0 {
				select {
				case <-time.After(wait):
				case <-r.Context().Done():
					return
				case <-s.ctx.Done():
					return
				}
				t = s.touch(agent)
			}
			data, at := s.shared.get("agent/"+agent, t, func() map[string]any {
				view := s.agentView(agent)
				return map[string]any{"state": s.fragment("state", view), "html": s.fragment("live", view)}
			})
			err = sendEvent(w, "live", at, data)
			v, last = at, time.Now()
		}
		if err != nil {
			return
		}
		flusher.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-wake:
		case <-alive.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			flusher.Flush()
		}
	}
}

// lastVersion is the Last-Event-ID of a reconnecting stream, else ?v=.
func lastVersion(r *http.Request) uint64 {
	s := r.Header.Get("Last-Event-ID")
	if s == "" {
		s = r.URL.Query().Get("v")
	}
	v, _ := strconv.ParseUint(s, 10, 64)
	return v
}

// sendFleet sends the rows changed after version v and returns the
// version the page is at now.
func (s *Server) sendFleet(w http.ResponseWriter, v uint64, view view) (uint64, error) {
	changed, removed, now := s.fleet.Since(v)
	if now <= v {
		return v, nil
	}
	for _, id := range removed {
		if err := sendEvent(w, "remove", now, map[string]any{"id": id}); err != nil {
			return v, err
		}
	}
	for _, r := range changed {
		if err := sendEvent(w, "row", now, map[string]any{"id": r.ID, "html": string(s.rowHTML(r))}); err != nil {
			return v, err
		}
	}
	data, _ := s.shared.get("summary?"+view.href(), now, func() map[string]any {
		rows, _ := s.fleet.Rows()
		sm := summarise(rows, view)
		return map[string]any{"html": s.fragment("summary", sm), "alarm": sm.Alarm}
	})
	if err := sendEvent(w, "summary", now, data); err != nil {
		return v, err
	}
	return now, nil
}

// sendEvent writes one event; the JSON data holds no newline, so it is a
// single data line.
func sendEvent(w http.ResponseWriter, name string, id uint64, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\nid: %d\ndata: %s\n\n", name, id, b)
	return err
}
