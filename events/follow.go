package events

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/watch"
)

// readChunk bounds one read of a followed log.
const readChunk = 4 << 20

// Follower reads what is appended to an agent's logs: each Poll returns
// the complete lines added since the previous one (the first Poll returns
// everything that passes the filter). It keeps one offset per file and
// consumes only whole lines, so a line being written is picked up whole
// on a later Poll.
type Follower struct {
	t      *fsutil.Tree
	agent  string
	filter Filter
	off    map[string]int64
}

// NewFollower starts following agent's logs that pass f.
func NewFollower(t *fsutil.Tree, agent string, f Filter) *Follower {
	return &Follower{t: t, agent: agent, filter: f, off: map[string]int64{}}
}

// Poll returns the new records, oldest first. Each log is stated
// through the open events folder and read only when it grew or shrank: a
// follow wakes at every line appended to any log, and an agent keeps a
// log per session.
func (fl *Follower) Poll() ([]Record, error) {
	folder, names, err := openLogs(fl.t, fl.agent)
	if err != nil {
		return nil, err
	}
	if folder != nil {
		defer folder.Close()
	}
	present := map[string]bool{}
	var out []Record
	for _, name := range names {
		if !fl.filter.wantFile(name) {
			continue
		}
		present[name] = true
		if size, _, ok := folder.Regular(name); ok && size == fl.off[name] {
			continue // nothing appended, nothing replaced by a shorter file
		}
		out = fl.pollFile(out, name)
	}
	for name := range fl.off {
		if !present[name] {
			delete(fl.off, name) // pruned: start over if it comes back
		}
	}
	sortRecords(out)
	return out, nil
}

func (fl *Follower) pollFile(out []Record, name string) []Record {
	rel := Dir(fl.agent) + "/" + name
	for {
		off := fl.off[name]
		data, fi, err := fl.t.ReadRange(rel, off, readChunk)
		if err != nil {
			return out
		}
		if fi.Size() < off {
			fl.off[name] = 0 // replaced by a shorter file: read it afresh
			continue
		}
		lines := Lines(data)
		n := 0
		for _, l := range lines {
			n += len(l) + 1
		}
		out = appendRecords(out, data[:n], name, fl.filter)
		fl.off[name] = off + int64(n)
		if len(data) < readChunk || n == 0 {
			return out
		}
	}
}

// Follow emits every record that passes f, then each new one as it is
// appended, until ctx ends. It wakes on filesystem events and at least
// every poll.
func Follow(ctx context.Context, t *fsutil.Tree, agent string, f Filter, poll time.Duration, emit func([]Record) error) error {
	w := watch.New(poll)
	defer func() { _ = w.Close() }() // the follow is over; nothing to report
	agentDir := filepath.Join(t.Base(), agent)
	eventsDir := filepath.Join(t.Base(), filepath.FromSlash(Dir(agent)))
	fl := NewFollower(t, agent, f)
	for {
		w.Watch(agentDir, eventsDir)
		recs, err := fl.Poll()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if len(recs) > 0 {
			if err := emit(recs); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-w.Wake():
		}
	}
}
