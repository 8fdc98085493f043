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

// readHead returns the part of the regular file name of folder that
// holds its frontmatter: the whole file when it is read whole, else the
// prefix up to the closing "---" line (at most HeadMax bytes), or nothing
// when there is no frontmatter there. message.Parse gives the same fields
// for it as for the whole file.
func readHead(folder *fsutil.Folder, name string) ([]byte, error) {
	return readHeadWithin(folder, name, headFirst, HeadMax)
}

// readHeadWithin is readHead reading first bytes, then up to most. The
// first read takes at least the four bytes of the opening "---\n", so a
// short one never mistakes the start of a frontmatter for none.
func readHeadWithin(folder *fsutil.Folder, name string, first, most int64) ([]byte, error) {
	limit := max(first, 4)
	for {
		data, size, err := folder.ReadPrefix(name, limit)
		if err != nil || int64(len(data)) >= size {
			return data, err
		}
		if !bytes.HasPrefix(data, []byte("---\n")) {
			return nil, nil
		}
		if end := frontmatterEnd(data); end >= 0 {
			return data[:end], nil
		}
		if limit >= most {
			return nil, nil
		}
		limit = most
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
