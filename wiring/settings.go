package wiring

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsonobj"
)

// Settings is a harness settings file (Claude Code settings*.json or
// Codex hooks.json) as read for a merge.
type Settings struct {
	Path   string          // as given
	Raw    []byte          // the bytes read; nil when the file does not exist
	Exists bool            // the file exists
	Doc    *jsonobj.Object // the parsed root, numbers as written; empty for a missing or blank file
	StBin  string          // the st whose hooks WriteSettings looks for besides any st's
}

// ErrRefused wraps every refusal to touch a settings file.
var ErrRefused = errors.New("refusing to change it")

func refuse(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s — %w", path, fmt.Sprintf(format, args...), ErrRefused)
}

// ReadSettings reads and checks a settings file: a missing or blank file
// is an empty object; invalid JSON, a root that is not an object or a
// "hooks" value of the wrong shape is refused. For Codex (strict) a root
// key other than "description" and "hooks" is refused too, because Codex
// rejects the whole file for it.
func ReadSettings(path string, codex bool) (*Settings, error) {
	s := &Settings{Path: path, Doc: jsonobj.New()}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	s.Raw, s.Exists = data, true
	if strings.TrimSpace(string(data)) == "" {
		return s, nil
	}
	v, err := jsonobj.ParseKeepNumbers(data)
	if err != nil && hasComments(data) {
		return nil, refuse(path, "it holds comments, which st would lose rewriting it; "+
			"take them out (or move them to a copy) and run again, or add st's entries by hand: "+
			"st hooks install --dry-run --settings /dev/null (st init: --print) prints them")
	}
	if err != nil {
		return nil, refuse(path, "not valid JSON (%v)", err)
	}
	root, ok := v.(*jsonobj.Object)
	if !ok {
		return nil, refuse(path, "top-level value is not an object")
	}
	if codex {
		var extra []string
		for _, k := range root.Keys() {
			if k != "description" && k != "hooks" {
				extra = append(extra, k)
			}
		}
		if len(extra) > 0 {
			return nil, refuse(path, "Codex rejects a hooks.json with top-level keys other than \"description\" and \"hooks\" (found %s)", strings.Join(extra, ", "))
		}
	}
	if err := checkShape(root); err != nil {
		return nil, refuse(path, "%v", err)
	}
	s.Doc = root
	return s, nil
}

// checkShape verifies hooks → {event: [{matcher?, hooks: [{…}]}]}.
func checkShape(root *jsonobj.Object) error {
	hv, ok := root.Get("hooks")
	if !ok {
		return nil
	}
	byEvent, ok := hv.(*jsonobj.Object)
	if !ok {
		return errors.New(`"hooks" is not an object`)
	}
	for _, event := range byEvent.Keys() {
		v, _ := byEvent.Get(event)
		groups, ok := v.([]any)
		if !ok {
			return fmt.Errorf("hooks.%s is not an array", event)
		}
		for i, g := range groups {
			group, ok := g.(*jsonobj.Object)
			if !ok {
				return fmt.Errorf("hooks.%s[%d] is not an object", event, i)
			}
			hv, ok := group.Get("hooks")
			if !ok {
				return fmt.Errorf("hooks.%s[%d] has no \"hooks\" array", event, i)
			}
			handlers, ok := hv.([]any)
			if !ok {
				return fmt.Errorf("hooks.%s[%d].hooks is not an array", event, i)
			}
			for j, h := range handlers {
				if _, ok := h.(*jsonobj.Object); !ok {
					return fmt.Errorf("hooks.%s[%d].hooks[%d] is not an object", event, i, j)
				}
			}
		}
	}
	return nil
}

// Install merges entries into doc: every handler of ours already there is
// removed (a group emptied by that goes too) and each entry's group is
// appended to its event, which keeps its place. Everything else is left
// as it was, and installing twice gives the same document.
func Install(doc *jsonobj.Object, entries []Entry, stBin string) {
	byEvent := hooksObject(doc, true)
	keep := map[string]bool{}
	for _, e := range entries {
		keep[e.Event] = true
	}
	removeOurs(byEvent, stBin, keep)
	for _, e := range entries {
		appendGroup(byEvent, e, stBin)
	}
}

// appendGroup adds e's group at the end of its event's list.
func appendGroup(byEvent *jsonobj.Object, e Entry, stBin string) {
	var groups []any
	if v, ok := byEvent.Get(e.Event); ok {
		groups = v.([]any)
	}
	byEvent.Set(e.Event, append(groups, e.Group(stBin)))
}

// Uninstall removes every handler of ours from doc, with the groups,
// events and "hooks" object that this empties, and returns how many
// handlers it removed.
func Uninstall(doc *jsonobj.Object, stBin string) int {
	byEvent := hooksObject(doc, false)
	if byEvent == nil {
		return 0
	}
	n := removeOurs(byEvent, stBin, nil)
	if n > 0 && byEvent.Len() == 0 {
		doc.Delete("hooks")
	}
	return n
}

func hooksObject(doc *jsonobj.Object, create bool) *jsonobj.Object {
	if v, ok := doc.Get("hooks"); ok {
		return v.(*jsonobj.Object)
	}
	if !create {
		return nil
	}
	h := jsonobj.New()
	doc.Set("hooks", h)
	return h
}

// removeOurs drops our handlers from every event; a group or event left
// empty by the removal is dropped, except events in keep.
func removeOurs(byEvent *jsonobj.Object, stBin string, keep map[string]bool) int {
	removed := 0
	for _, event := range append([]string{}, byEvent.Keys()...) {
		v, _ := byEvent.Get(event)
		groups := v.([]any)
		out := []any{}
		changed := false
		for _, g := range groups {
			group := g.(*jsonobj.Object)
			hv, _ := group.Get("hooks")
			handlers := hv.([]any)
			kept := []any{}
			for _, h := range handlers {
				cmd, _ := h.(*jsonobj.Object).Get("command")
				if s, ok := cmd.(string); ok {
					if _, ours := OursEvent(s, stBin); ours {
						removed++
						continue
					}
				}
				kept = append(kept, h)
			}
			if len(kept) == len(handlers) {
				out = append(out, g)
				continue
			}
			changed = true
			if len(kept) > 0 {
				group.Set("hooks", kept)
				out = append(out, group)
			}
		}
		if !changed {
			continue
		}
		if len(out) == 0 && !keep[event] {
			byEvent.Delete(event)
		} else {
			byEvent.Set(event, out)
		}
	}
	return removed
}

// Installed lists the events of the handlers of ours in doc.
func Installed(doc *jsonobj.Object, stBin string) []Handler {
	var out []Handler
	for _, h := range AllHandlers(doc) {
		if _, ours := OursEvent(h.Command, stBin); ours {
			out = append(out, h)
		}
	}
	return out
}

// Handler is one command handler found in a settings file.
type Handler struct {
	Event   string
	Command string
	Async   bool   // Claude Code's "async": true
	Name    string // Gemini CLI's "name", by which hooksConfig.disabled may name it
}

// AllHandlers lists every command handler in doc, in file order.
func AllHandlers(doc *jsonobj.Object) []Handler {
	var out []Handler
	byEvent := hooksObject(doc, false)
	if byEvent == nil {
		return nil
	}
	for _, event := range byEvent.Keys() {
		v, _ := byEvent.Get(event)
		for _, g := range v.([]any) {
			hv, _ := g.(*jsonobj.Object).Get("hooks")
			for _, h := range hv.([]any) {
				obj := h.(*jsonobj.Object)
				if cmd, ok := obj.Get("command"); ok {
					if s, ok := cmd.(string); ok {
						async, _ := obj.Get("async")
						name, _ := obj.Get("name")
						n, _ := name.(string)
						out = append(out, Handler{Event: event, Command: s, Async: async == true, Name: n})
					}
				}
			}
		}
	}
	return out
}

// WriteSettings replaces the file at path with data atomically, first
// keeping the previous bytes in <path>.st-backup when they are the
// user's own file: one that exists and holds none of st's hooks (those
// of s.StBin or of any st). A file st already changed leaves the backup
// alone, so after a reinstall or an uninstall it still holds the file
// from before st's first install. A symlinked settings file is written
// through to its target. It returns the backup path, or "" when it kept
// none.
func WriteSettings(s *Settings, data []byte) (backup string, err error) {
	path := s.Path
	if s.Exists {
		if target, err := filepath.EvalSymlinks(path); err == nil {
			path = target
		}
	}
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	t, err := fsutil.OpenOrCreate(dir)
	if err != nil {
		return "", err
	}
	defer t.Close()
	if s.Exists && !s.hadOurs() {
		backup = path + ".st-backup"
		if err := t.WriteAtomic(name+".st-backup", s.Raw); err != nil {
			return "", err
		}
	}
	return backup, t.WriteAtomic(name, data)
}

// hadOurs reports whether the file as read (s.Raw; s.Doc may have been
// changed since) holds any of st's hooks.
func (s *Settings) hadOurs() bool {
	v, err := jsonobj.ParseKeepNumbers(s.Raw)
	doc, ok := v.(*jsonobj.Object)
	if err != nil || !ok {
		return false
	}
	return len(Installed(doc, s.StBin)) > 0
}

// Unchanged reports whether data equals the file's current bytes.
func (s *Settings) Unchanged(data []byte) bool { return s.Exists && bytes.Equal(s.Raw, data) }
