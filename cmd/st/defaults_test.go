package main

import (
	"fmt"
	"github.com/smalltalk-go/st/peersync"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/alecthomas/kong"
	"github.com/smalltalk-go/st/dashboard"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/overview"
	"github.com/smalltalk-go/st/reserve"
)

// statedDefault finds a value a help text names as its default: "(default
// 500)", "(default local; for codex user)". "(default: $ST_AGENT)" and
// the like describe a rule, not a value, and are left alone.
var statedDefault = regexp.MustCompile(`\(default ([^:)][^)]*)\)`)

// TestHelpDefaults compares every default a help text states with the
// value the code applies when the flag is not given, and fails on a help
// text stating a default this test does not know (add it to the table).
func TestHelpDefaults(t *testing.T) {
	a := newApp([]string{"st"}, nil, io.Discard, io.Discard, func(string) (string, bool) { return "", false })
	client, err := checkFamily(nil, installFamilies())
	if err != nil {
		t.Fatal(err)
	}
	// The scope a missing --scope picks, named by the file it picks.
	scopeOf := func(family string) string {
		t.Helper()
		got, err := a.settingsPath(family, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range []string{"user", "project", "local"} {
			if p, err := a.settingsPath(family, &sc, nil); err == nil && p == got {
				return sc
			}
		}
		t.Fatalf("%s: the default settings file %s is no scope's", family, got)
		return ""
	}
	if got := filepath.Base(must(a.settingsPath(hooks.ClaudeCode, nil, nil))); got != "settings.local.json" {
		t.Errorf("hooks install without --scope writes %s, want settings.local.json", got)
	}
	if scopeOf(hooks.Codex) != scopeOf(hooks.Gemini) {
		t.Errorf("help says Codex and Gemini CLI share a default scope; they are %s and %s", scopeOf(hooks.Codex), scopeOf(hooks.Gemini))
	}
	scope := fmt.Sprintf("%s; for codex and gemini %s", scopeOf(hooks.ClaudeCode), scopeOf(hooks.Codex))
	want := map[string]string{
		"hooks install --for":       client,
		"hooks uninstall --for":     client,
		"hooks path --for":          client,
		"init --for":                client,
		"hooks install --scope":     scope,
		"hooks uninstall --scope":   scope,
		"dashboard --addr":          dashboard.DefaultAddr,
		"events prune --older-than": days(events.DefaultRetention),
		"gc serve --interval":       strconv.FormatFloat(gcDefaultInterval.Seconds(), 'f', -1, 64) + "s",
		"sync serve --interval":     strconv.FormatFloat(peersync.DefaultServeInterval.Seconds(), 'f', -1, 64) + "s",
		"overview --recent":         strconv.Itoa(overview.DefaultRecent),
		"reserve --ttl":             fmt.Sprintf("%s, at most %s", hours(reserve.DefaultTTL), hours(reserve.MaxTTL)),
		"watch --interval":          strconv.FormatInt(defaultWatchInterval.Milliseconds(), 10),
	}
	seen := map[string]bool{}
	walkCommands(testModel(t), func(n *kong.Node) {
		for _, f := range n.Flags {
			m := statedDefault.FindStringSubmatch(f.Help)
			if m == nil {
				continue
			}
			key := commandPath(n) + " --" + f.Name
			seen[key] = true
			w, ok := want[key]
			switch {
			case !ok:
				t.Errorf("st %s: help states the default %q, which this test does not compare with the code", key, m[1])
			case m[1] != w:
				t.Errorf("st %s: help states the default %q, the code uses %q", key, m[1], w)
			}
		}
	})
	for key := range want {
		if !seen[key] {
			t.Errorf("st %s: help states no default any more (drop it from the table)", key)
		}
	}
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}

// days and hours write a duration as the help texts do: 30d, 168h.
func days(d time.Duration) string {
	if d%(24*time.Hour) != 0 {
		return d.String()
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}

func hours(d time.Duration) string {
	if d%time.Hour != 0 {
		return d.String()
	}
	return strconv.Itoa(int(d/time.Hour)) + "h"
}
