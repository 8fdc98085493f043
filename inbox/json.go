package inbox

import (
	"io"
	"strconv"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/message"
)

// ItemsJSON is a listing as `message ls --json` prints it: a JSON array
// of the items, as jsstr.Marshal writes it, kept in runs that WriteTo
// writes one after the other.
type ItemsJSON struct {
	// runs hold the items in order, each after a comma; the first item's
	// comma is the array's opening bracket.
	runs [][]byte
}

// ListJSON is Items in its JSON form. The reader goroutine that read an
// entry encodes it (eachEntry), without reflection or an Item, at the end
// of its chunk's run: encoding the items after the reads took `ls --json`
// over 10,000 messages 7 ms of its 80, on one core.
func ListJSON(t *fsutil.Tree, id, folder string, f Filter) (ItemsJSON, error) {
	var l ItemsJSON
	err := eachEntry(t, id, folder, f, true,
		func(n int) { l.runs = make([][]byte, chunks(n)) },
		func(i int, e *entry) { l.add(i/chunkNames, e) })
	l.open()
	return l, err
}

// add appends e to run r.
func (l *ItemsJSON) add(r int, e *entry) {
	run := &l.runs[r]
	if *run == nil {
		*run = make([]byte, 0, chunkNames*192)
	}
	*run = appendEntry(append(*run, ','), e)
}

// open turns the first item's comma into the array's opening bracket.
func (l *ItemsJSON) open() {
	for _, run := range l.runs {
		if len(run) > 0 {
			run[0] = '['
			return
		}
	}
}

// WriteTo writes the JSON array of the items to w.
func (l ItemsJSON) WriteTo(w io.Writer) (int64, error) {
	var n int64
	write := func(b []byte) error {
		k, err := w.Write(b)
		n += int64(k)
		return err
	}
	end := "[]"
	for _, run := range l.runs {
		if len(run) == 0 {
			continue
		}
		if err := write(run); err != nil {
			return n, err
		}
		end = "]"
	}
	return n, write([]byte(end))
}

// appendEntry appends e.item() as jsstr.Marshal writes it. Its ts
// is finite, a file name's timestamp or an mtime, so it always has a
// JSON form.
func appendEntry(b []byte, e *entry) []byte {
	b = jsstr.AppendString(append(b, `{"filename":`...), e.name)
	b, _ = jsstr.AppendNumber(append(b, `,"ts":`...), e.ts)
	h := &e.heading
	if e.outside {
		h = &heading{from: "outside"}
	}
	b = appendNonEmpty(append(b, `,"from":`...), h.from)
	b = appendNonEmpty(append(b, `,"subject":`...), h.subject)
	b = appendNonEmpty(append(b, `,"inReplyTo":`...), h.inReplyTo)
	b = append(b, `,"tags":[`...)
	first := true
	for tag := range message.Tags(h.tags) {
		if !first {
			b = append(b, ',')
		}
		b, first = jsstr.AppendString(b, tag), false
	}
	b = append(b, ']')
	priority := h.priority
	if !message.ValidPriority(priority) {
		priority = ""
	}
	b = appendNonEmpty(append(b, `,"priority":`...), priority)
	return append(b, '}')
}

// appendNonEmpty appends s as a JSON string, or null when it is empty.
func appendNonEmpty(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return jsstr.AppendString(b, s)
}

// AppendHitsJSON appends hits as jsstr.Marshal writes them, without
// reflection: encoding/json took `search --all --json` over 100,000
// matches 7% of its time, all of it after the reading.
func AppendHitsJSON(b []byte, hits []Hit) []byte {
	if hits == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, h := range hits {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsstr.AppendString(append(b, `{"agent":`...), h.Agent)
		b = jsstr.AppendString(append(b, `,"folder":`...), h.Folder)
		b = jsstr.AppendString(append(b, `,"filename":`...), h.Filename)
		b = strconv.AppendInt(append(b, `,"ts":`...), h.TS, 10)
		b = jsstr.AppendString(append(b, `,"from":`...), h.From)
		b = jsstr.AppendString(append(b, `,"subject":`...), h.Subject)
		b = jsstr.AppendString(append(b, `,"line":`...), h.Line)
		b = append(b, '}')
	}
	return append(b, ']')
}
