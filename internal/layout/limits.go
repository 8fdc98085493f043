package layout

import (
	"fmt"
	"io"
	"strconv"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

// DefaultMaxMessageBytes is the biggest message (the whole file, header
// and body) that send, the MCP tools and the dashboard accept, and the
// biggest file the dashboard and the MCP read tools show; MaxMessageVar
// changes it.
const DefaultMaxMessageBytes = 4 << 20

// MaxConfigBytes bounds each file of $ST_CONFIG (config.yaml,
// peers.yaml): st's settings take a few hundred bytes, and a bigger file
// (or a FIFO or device planted there) is not read at all.
const MaxConfigBytes = 1 << 20

// MaxMessageVar names the variable that sets the maximum message size in
// bytes.
const MaxMessageVar = "ST_MAX_MESSAGE_BYTES"

// ParseMaxMessageBytes reads MaxMessageVar's value: a positive decimal
// integer is the limit; anything else (unset, empty, signs, spaces,
// other bases) means DefaultMaxMessageBytes.
func ParseMaxMessageBytes(v string) int64 {
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return DefaultMaxMessageBytes
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return DefaultMaxMessageBytes
	}
	return n
}

// MaxMessageBytes is the maximum message size this environment sets.
func (e *Env) MaxMessageBytes() int64 { return ParseMaxMessageBytes(e.Get(MaxMessageVar)) }

// TooLargeNote is what a page shows instead of a file of size bytes that
// is over the maximum it reads.
func TooLargeNote(size int64) string { return fmt.Sprintf("file too large, %d bytes", size) }

// ErrTooLarge is the error for what (a message, now.md, a decision) of
// size bytes over limit, the maximum message size; a negative size is not
// known (input read only up to the limit).
func ErrTooLarge(what string, size, limit int64) error {
	over := "more than"
	details := map[string]any{"limit": limit}
	if size >= 0 {
		over = fmt.Sprintf("%d bytes, more than", size)
		details["size"] = size
	}
	return sterr.New(sterr.MessageTooLarge,
		fmt.Sprintf("%s too large: %s the maximum of %d bytes (set %s to change it)", what, over, limit, MaxMessageVar),
		details)
}

// ReadFileWithin reads the regular file rel of t when it holds at most
// limit bytes (any size when limit is negative); a bigger file is
// ErrTooLarge for what, and only limit+1 bytes of it are read.
func ReadFileWithin(t *fsutil.Tree, rel, what string, limit int64) ([]byte, error) {
	if limit < 0 {
		data, _, err := t.ReadRegular(rel)
		return data, err
	}
	data, fi, err := t.ReadRange(rel, 0, limit+1)
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, ErrTooLarge(what, fi.Size(), limit)
	}
	return data, nil
}

// ReadAllWithin reads r to its end, but no further than one byte past
// limit: more is ErrTooLarge for what, refused without holding it all.
func ReadAllWithin(r io.Reader, what string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, ErrTooLarge(what, -1, limit)
	}
	return data, nil
}
