package wiring

import (
	"github.com/smalltalk-go/st/internal/jsonobj"
)

// Codex keys its hook trust by position (event, group index, handler
// index), so removing a group of ours would move the user's later groups
// to new keys, which Codex then reports as untrusted and skips. These
// variants of Install and Uninstall never move another group: a group of
// ours that empties stays as an inert placeholder, {"hooks": []} (Codex
// 0.169 reads it as a group without handlers and says nothing), a
// reinstall rewrites our handler where it is, and a new group fills the
// first placeholder before it is appended. Placeholders at the end of an
// event hold no one's place and are dropped.

// InstallInPlace merges entries into a Codex doc without moving any other
// group (see above).
func InstallInPlace(doc *jsonobj.Object, entries []Entry, stBin string) {
	byEvent := hooksObject(doc, true)
	placed := make([]bool, len(entries))
	for _, event := range append([]string{}, byEvent.Keys()...) {
		v, _ := byEvent.Get(event)
		groups := v.([]any)
		for gi, g := range groups {
			group := g.(*jsonobj.Object)
			hv, _ := group.Get("hooks")
			handlers := hv.([]any)
			kept := []any{}
			for _, h := range handlers {
				cmd, _ := h.(*jsonobj.Object).Get("command")
				s, _ := cmd.(string)
				hook, ours := OursEvent(s, stBin)
				if !ours {
					kept = append(kept, h)
					continue
				}
				if i := entryFor(entries, event, hook); i >= 0 && !placed[i] {
					placed[i] = true
					e := entries[i]
					if len(handlers) == 1 {
						groups[gi] = e.Group(stBin)
						break
					}
					kept = append(kept, e.Handler(stBin))
				}
			}
			if groups[gi] != g {
				continue
			}
			if len(kept) != len(handlers) || len(handlers) == 0 {
				group.Set("hooks", kept)
			}
		}
		for i, e := range entries {
			if e.Event != event || placed[i] {
				continue
			}
			for gi, g := range groups {
				if isPlaceholder(g.(*jsonobj.Object)) {
					groups[gi] = e.Group(stBin)
					placed[i] = true
					break
				}
			}
		}
		setGroups(byEvent, event, groups)
	}
	for i, e := range entries {
		if !placed[i] {
			appendGroup(byEvent, e, stBin)
		}
	}
}

// UninstallInPlace removes every handler of ours from a Codex doc without
// moving any other group, and returns how many it removed.
func UninstallInPlace(doc *jsonobj.Object, stBin string) int {
	byEvent := hooksObject(doc, false)
	if byEvent == nil {
		return 0
	}
	removed := 0
	for _, event := range append([]string{}, byEvent.Keys()...) {
		v, _ := byEvent.Get(event)
		groups := v.([]any)
		changed := false
		for _, g := range groups {
			group := g.(*jsonobj.Object)
			hv, _ := group.Get("hooks")
			kept := []any{}
			for _, h := range hv.([]any) {
				cmd, _ := h.(*jsonobj.Object).Get("command")
				if s, ok := cmd.(string); ok {
					if _, ours := OursEvent(s, stBin); ours {
						removed++
						changed = true
						continue
					}
				}
				kept = append(kept, h)
			}
			if len(kept) != len(hv.([]any)) {
				group.Set("hooks", kept)
			}
		}
		if changed {
			setGroups(byEvent, event, groups)
		}
	}
	if removed > 0 && byEvent.Len() == 0 {
		doc.Delete("hooks")
	}
	return removed
}

// setGroups stores an event's groups without the placeholders at the
// end, deleting the event when nothing else is left.
func setGroups(byEvent *jsonobj.Object, event string, groups []any) {
	n := len(groups)
	for n > 0 && isEmptyGroup(groups[n-1].(*jsonobj.Object)) {
		n--
	}
	if n == 0 {
		byEvent.Delete(event)
		return
	}
	byEvent.Set(event, groups[:n])
}

// isPlaceholder reports whether group is the inert group we leave.
func isPlaceholder(group *jsonobj.Object) bool {
	return group.Len() == 1 && isEmptyGroup(group)
}

// isEmptyGroup reports whether group has no handlers.
func isEmptyGroup(group *jsonobj.Object) bool {
	hv, _ := group.Get("hooks")
	handlers, _ := hv.([]any)
	return len(handlers) == 0
}

// entryFor returns the index of the entry for event and hook, or -1.
func entryFor(entries []Entry, event, hook string) int {
	for i, e := range entries {
		if e.Event == event && e.Hook == hook {
			return i
		}
	}
	return -1
}
