package inbox

import (
	"sync"
	"sync/atomic"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/stackstart"
	"github.com/smalltalk-go/st/message"
)

// A listing of a big folder is bound by its reads: on two cores the read
// floor (scripts/readfloor) keeps both busy, so whatever a listing does
// besides reading costs wall time unless it runs beside the reads.
// eachEntry therefore hands the sorted names to reader goroutines in
// chunks, and a reader does every step for a name of its chunk: the
// filters, the read of the head, the projection and the caller's own step
// (fn: encoding, for `ls --json`). A chunk is a run of consecutive names,
// so what fn makes of one is already in order.
const (
	// chunkNames is how many consecutive names a reader takes at a time.
	chunkNames = 256
	// maxReaders matches the floor's parallelism.
	maxReaders = 4
)

// chunks is how many chunks eachEntry cuts n names into.
func chunks(n int) int { return (n + chunkNames - 1) / chunkNames }

// eachEntry lists the deliverable names in <id>/<folder> (List), calls
// start with how many there are, then calls fn with the index and entry
// of each name that passes f (lister.entry). meta reads the head of every
// canonical name; without it only a From filter reads them. fn runs in
// up to maxReaders goroutines: the names of chunk i/chunkNames all go to
// one of them, in order, one after the other. A missing folder gives an
// fs.ErrNotExist error.
func eachEntry(t *fsutil.Tree, id, folder string, f Filter, meta bool, start func(n int), fn func(i int, e *entry)) error {
	names, err := List(t, id, folder)
	if err != nil {
		return err
	}
	start(len(names))
	l := &lister{t: t, dir: id + "/" + folder, f: f, meta: meta}
	if meta || f.From != "" {
		if l.folder, err = t.OpenFolder(l.dir); err != nil {
			// The folder went away since the listing: nothing to read.
			l.folder = nil
		} else {
			defer l.folder.Close()
		}
	}
	inChunks(len(names), func() func(i int) {
		r := newHeadReader(headFirst, HeadMax)
		return func(i int) {
			if e, ok := l.entry(r, names[i]); ok {
				fn(i, &e)
			}
		}
	})
	return nil
}

// inChunks calls a work function for every index in [0, n), from up to
// maxReaders goroutines that each take chunks of chunkNames consecutive
// indexes, in order. newWork gives each goroutine its function (and with
// it the buffers it keeps). A single chunk is worked on the calling
// goroutine: a goroutine of its own cost its start and a grown stack for
// nothing to share (`st message ls` 1.51× an empty Go program against
// 1.45×, `message ls --json` 1.56× against 1.51×; benchtimer -n 200).
func inChunks(n int, newWork func() func(i int)) {
	if chunks(n) == 1 {
		work := newWork()
		for i := range n {
			work(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(maxReaders, chunks(n)) {
		wg.Go(func() {
			stackstart.GrowDeep()
			work := newWork()
			for {
				first := int(next.Add(1)-1) * chunkNames
				if first >= n {
					return
				}
				for i := first; i < min(n, first+chunkNames); i++ {
					work(i)
				}
			}
		})
	}
	wg.Wait()
}

// lister holds what the readers of one listing share.
type lister struct {
	t      *fsutil.Tree
	folder *fsutil.Folder // nil when no head is read
	dir    string
	f      Filter
	meta   bool
}

// entry is one listed name and what the listing read of it.
type entry struct {
	name    string
	ts      float64 // see Item.TS
	outside bool    // not a canonical name
	heading         // a canonical name's frontmatter, when read
}

// heading holds the frontmatter values a listing shows, as written.
type heading struct {
	from, subject, inReplyTo, tags, priority string
}

// readHeading projects a message's frontmatter onto heading without
// building a map of every field: a later line for a key wins, as in
// message.Parse.
func readHeading(text string) (h heading) {
	message.Scan(text, func(key, value string) {
		switch key {
		case "from":
			h.from = value
		case "subject":
			h.subject = value
		case "in-reply-to":
			h.inReplyTo = value
		case "tags":
			h.tags = value
		case "priority":
			h.priority = value
		}
	})
	return h
}

// entry is the listing's entry for name, filtered as `message ls`
// filters (§6.4); ok is false when f leaves it out.
func (l *lister) entry(r *headReader, name string) (e entry, ok bool) {
	e.name, e.outside = name, !message.IsCanonical(name)
	if !e.outside {
		e.ts = float64(message.Timestamp(name))
	} else if l.f.Since != nil || l.meta {
		e.ts = mtimeMs(l.t, l.dir+"/"+name)
	}
	if l.f.Since != nil && e.ts < *l.f.Since {
		return entry{}, false
	}
	if !e.outside && (l.meta || l.f.From != "") {
		var text string
		if l.folder != nil {
			if data, err := r.read(l.folder, name); err == nil {
				text = Text(data)
			}
		}
		e.heading = readHeading(text)
	}
	if l.f.From != "" {
		if e.outside && l.f.From != "outside" || !e.outside && e.from != l.f.From {
			return entry{}, false
		}
	}
	return e, true
}

// item is e as Items gives it: with its projected frontmatter (an
// outside file is from "outside" and has no other field).
func (e *entry) item() Item {
	it := Item{Filename: e.name, TS: e.ts, Tags: []string{}}
	if e.outside {
		outside := "outside"
		it.From = &outside
		return it
	}
	it.From, it.Subject, it.InReplyTo = nonEmpty(e.from), nonEmpty(e.subject), nonEmpty(e.inReplyTo)
	if e.tags != "" {
		it.Tags = message.ReadTags(e.tags)
	}
	if message.ValidPriority(e.priority) {
		it.Priority = nonEmpty(e.priority)
	}
	return it
}
