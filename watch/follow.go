// The Follower is the state machine of `st watch`: which inboxes are
// followed, the initial replay, and the later passes that report names
// not seen before. It lists folders itself and keeps its own seen-set,
// so it does not matter how a pass was triggered (a filesystem event, a
// poll tick) or how many events were missed or merged.

package watch

import (
	"slices"
	"strings"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
)

// Setup says what to follow.
type Setup struct {
	// Single is the one agent whose inbox is followed. When empty, every
	// agent's inbox except Suppress's is followed, re-listed on each pass.
	Single   string
	Suppress string
	// Cutoff: the replay reports canonical names whose timestamp is at
	// least this (unix ms).
	Cutoff      int64
	WithSubject bool
}

// Line is one reported arrival.
type Line struct {
	Filename string
	Agent    string // whose inbox it arrived in
	Subject  string // with WithSubject only
	subject  bool
}

// String is the printed form: the filename, or with a subject
// "<filename>\t<subject>" (the tab even for an empty subject).
func (l Line) String() string {
	if l.subject {
		return l.Filename + "\t" + l.Subject
	}
	return l.Filename
}

// Follower reports arrivals in a store.
type Follower struct {
	t     *fsutil.Tree
	setup Setup
	seen  map[string]bool // by filename, shared by all followed folders
}

// NewFollower returns a follower over t.
func NewFollower(t *fsutil.Tree, s Setup) *Follower {
	return &Follower{t: t, setup: s, seen: map[string]bool{}}
}

// Dirs returns the followed inbox folders, relative to the root, sorted.
func (f *Follower) Dirs() []string {
	if f.setup.Single != "" {
		return []string{f.setup.Single + "/inbox"}
	}
	names, err := f.t.ReadDirNames(".")
	if err != nil {
		return nil
	}
	slices.Sort(names)
	var dirs []string
	for _, id := range names {
		if !layout.ValidAgent(id) || id == f.setup.Suppress {
			continue
		}
		if d := id + "/inbox"; f.t.IsDir(d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Replay reports every canonical name at or after the cutoff, in sorted
// order per folder, and marks every existing name seen.
func (f *Follower) Replay() []Line { return f.pass(true) }

// Poll reports the canonical names not seen before and marks them seen.
func (f *Follower) Poll() []Line { return f.pass(false) }

func (f *Follower) pass(replay bool) []Line {
	var out []Line
	for _, dir := range f.Dirs() {
		names, err := f.t.ReadDirNames(dir)
		if err != nil {
			continue
		}
		// An archived twin a sync brought back is not an arrival.
		names = inbox.WithoutTwins(f.t, strings.TrimSuffix(dir, "/inbox"), names)
		slices.Sort(names)
		for _, name := range names {
			if !message.IsCanonical(name) {
				continue
			}
			if replay {
				// Upstream's replay does not consult the seen-set: a name
				// in two followed inboxes is reported for each.
				f.seen[name] = true
				if message.Timestamp(name) < f.setup.Cutoff {
					continue
				}
			} else {
				if f.seen[name] {
					continue
				}
				f.seen[name] = true
			}
			out = append(out, f.line(dir, name))
		}
	}
	return out
}

func (f *Follower) line(dir, name string) Line {
	l := Line{Filename: name, Agent: strings.TrimSuffix(dir, "/inbox")}
	if !f.setup.WithSubject {
		return l
	}
	l.subject = true
	if fields, ok := inbox.ReadFields(f.t, dir+"/"+name); ok {
		l.Subject = fields["subject"]
	}
	return l
}
