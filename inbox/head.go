package inbox

import (
	"bytes"
	"path"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// Listings need a message's frontmatter, never its body, so they read a
// bounded prefix: one big message (which a peer may sync in) must not
// cost every listing, hook and dashboard refresh its size.
const (
	// headFirst is the prefix read first; it holds the whole of nearly
	// every message.
	headFirst = 8 << 10
	// HeadMax bounds the frontmatter: one not closed within this many
	// bytes reads as none.
	HeadMax = 1 << 20
)

// readHead returns the part of the file name of folder that holds its
// frontmatter: the whole file when it is read whole, else the prefix up
// to the closing "---" line (at most HeadMax bytes), or nothing when there
// is no frontmatter there. message.Parse gives the same fields for it as
// for the whole file. name must come from a listing that showed it as a
// regular file (regularNames): the read trusts that type (ReadStart).
func readHead(folder *fsutil.Folder, name string) ([]byte, error) {
	return newHeadReader(headFirst, HeadMax).read(folder, name)
}

// headReader reads heads (readHead) into a buffer it keeps from file to
// file, so a listing allocates only the text it keeps. One per goroutine.
type headReader struct {
	first, most int
	buf         []byte
}

// newHeadReader reads first bytes, then up to most. The first read takes
// at least the four bytes of the opening "---\n", so a short one never
// mistakes the start of a frontmatter for none.
func newHeadReader(first, most int) *headReader {
	return &headReader{first: max(first, 4), most: most}
}

// read returns the head of name; the bytes are the reader's until its
// next read.
func (r *headReader) read(folder *fsutil.Folder, name string) ([]byte, error) {
	for limit := r.first; ; limit = r.most {
		// One byte more than the limit tells a file of exactly limit
		// bytes (read whole) from a longer one.
		if cap(r.buf) < limit+1 {
			r.buf = make([]byte, limit+1)
		}
		n, err := folder.ReadStart(name, r.buf[:limit+1])
		if err != nil {
			return nil, err
		}
		if n <= limit {
			return r.buf[:n], nil
		}
		data := r.buf[:limit]
		if !bytes.HasPrefix(data, []byte("---\n")) {
			return nil, nil
		}
		if end := frontmatterEnd(data); end >= 0 {
			return data[:end], nil
		}
		if limit >= r.most {
			return nil, nil
		}
	}
}

// wholeReader reads files whole, up to limit bytes, into a buffer it
// keeps from file to file. One per goroutine.
type wholeReader struct {
	limit int
	buf   []byte
}

// read returns the first limit bytes of name (all of a smaller file);
// the bytes are the reader's until its next read.
func (r *wholeReader) read(folder *fsutil.Folder, name string) ([]byte, error) {
	for size := min(headFirst, r.limit); ; size = min(size*16, r.limit) {
		if cap(r.buf) < size+1 {
			r.buf = make([]byte, size+1)
		}
		n, err := folder.ReadStart(name, r.buf[:size+1])
		if err != nil {
			return nil, err
		}
		if n <= size || size >= r.limit {
			return r.buf[:min(n, size)], nil
		}
	}
}

// frontmatterEnd is the offset just past the closing "---\n" line of the
// frontmatter data starts, or -1 when data holds no such line.
func frontmatterEnd(data []byte) int {
	for i := 4; i < len(data); {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return -1
		}
		if j == 3 && string(data[i:i+3]) == "---" {
			return i + 4
		}
		i += j + 1
	}
	return -1
}

// ReadHead returns the part of the regular file rel that holds its
// frontmatter (see readHead); ok is false when rel cannot be read.
func ReadHead(t *fsutil.Tree, rel string) (data []byte, ok bool) {
	dir, name := path.Split(rel)
	folder, err := t.OpenFolder(path.Clean(dir))
	if err != nil {
		return nil, false
	}
	defer folder.Close()
	// No listing vouches for rel's type here (readHead trusts one).
	if !folder.IsRegular(name) {
		return nil, false
	}
	data, err = readHead(folder, name)
	return data, err == nil
}

// ReadFields returns the frontmatter of the regular file rel (reading
// only its head); ok is false when rel cannot be read.
func ReadFields(t *fsutil.Tree, rel string) (fields message.Fields, ok bool) {
	data, ok := ReadHead(t, rel)
	if !ok {
		return message.Fields{}, false
	}
	fields, _, _ = message.Parse(Text(data))
	return fields, true
}
