package front

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync/atomic"
	"time"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// MaxFrameBytes bounds one line from the client. A longer line cannot be
// answered (its id is somewhere in the part not read), so it ends the
// server with a reason on stderr.
const MaxFrameBytes = 16 << 20

// FrameLimit is the frame bound for a maximum message size: room for a
// tool argument of that size even if JSON escapes every byte (\u0000 is
// six bytes for one), plus the request around it. So an argument over
// the maximum reaches its tool, which refuses it naming the limit,
// instead of ending the server.
func FrameLimit(maxMessage int64) int {
	const envelope = 1 << 20
	if maxMessage <= 0 || maxMessage > (math.MaxInt-envelope)/6 {
		return MaxFrameBytes
	}
	return max(MaxFrameBytes, int(6*maxMessage+envelope))
}

// ErrFrameTooLarge ends a session whose client sent a line over the limit.
type ErrFrameTooLarge struct{ Limit int }

func (e ErrFrameTooLarge) Error() string {
	return fmt.Sprintf("a frame from the client is over the %d-byte limit (%d MiB); stopping", e.Limit, e.Limit>>20)
}

// Reader reads the client's lines, one JSON-RPC message each. What it
// has read past the last line stays in its buffer (Buffered), so that a
// server taking over the session loses none of it.
type Reader struct {
	r        *bufio.Reader
	src      io.Reader
	maxFrame int
	cut      atomic.Bool
}

// NewReader reads in, a line at most maxFrame bytes.
func NewReader(in io.Reader, maxFrame int) *Reader {
	return &Reader{r: bufio.NewReaderSize(in, 64<<10), src: in, maxFrame: maxFrame}
}

// Cut makes Line return os.ErrDeadlineExceeded from now on, ending a
// read that waits on a source with deadlines (a pipe the runtime polls);
// a source without them must not block (a regular file), or Line ends
// only once the read returns.
func (r *Reader) Cut() {
	r.cut.Store(true)
	if d, ok := r.src.(interface{ SetReadDeadline(time.Time) error }); ok {
		_ = d.SetReadDeadline(time.Now()) // a source without deadlines is one that does not block
	}
}

// Line returns the next line without its "\n" (or "\r\n"). At the end
// of the input it returns the last unterminated line with io.EOF; on any
// other error, what it read of a line, as read.
func (r *Reader) Line() ([]byte, error) {
	var line []byte
	for {
		if r.cut.Load() {
			return line, os.ErrDeadlineExceeded
		}
		chunk, err := r.r.ReadSlice('\n')
		if len(line)+len(chunk) > r.maxFrame+2 { // room for "\r\n"
			return nil, ErrFrameTooLarge{r.maxFrame}
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return line, err
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) > r.maxFrame {
			return nil, ErrFrameTooLarge{r.maxFrame}
		}
		return line, err
	}
}

// Buffered returns a copy of what was read from the input and not
// returned as a line yet.
func (r *Reader) Buffered() []byte {
	b, _ := r.r.Peek(r.r.Buffered())
	return bytes.Clone(b)
}

// The JSON-RPC error codes for a frame that is not a request.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
)

// BadFrame returns the error reply for a line that is not JSON or not a
// JSON object, or nil when the line is one and left to the decoder.
func BadFrame(line []byte) []byte {
	if !json.Valid(line) {
		return ErrorReply(nil, CodeParseError, "Parse error: the line is not one JSON value")
	}
	if bytes.TrimSpace(line)[0] != '{' {
		return ErrorReply(nil, CodeInvalidRequest, "Invalid Request: not a JSON-RPC 2.0 object (batches are not supported)")
	}
	return nil
}

// ErrorReply is a JSON-RPC error response. The SDK's encoder leaves out
// a null id, which JSON-RPC requires when the request's id is unknown,
// so it is built here.
func ErrorReply(id json.RawMessage, code int64, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, _ := jsstr.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	return b
}

// ResultFrame is a successful reply with its newline, from its id and
// result, both JSON already.
func ResultFrame[T ~string | ~[]byte](id []byte, result T) []byte {
	return replyFrame(id, "result", result)
}

// ErrorFrame is an error reply with its newline, from its id and error
// object, both JSON already.
func ErrorFrame(id []byte, errorObject string) []byte {
	return replyFrame(id, "error", errorObject)
}

// replyFrame is a reply with its newline: the id, then the member named
// key holding body.
func replyFrame[T ~string | ~[]byte](id []byte, key string, body T) []byte {
	frame := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"":}`)+len(id)+len(key)+len(body)+1)
	frame = append(frame, `{"jsonrpc":"2.0","id":`...)
	frame = append(frame, id...)
	frame = append(frame, `,"`...)
	frame = append(frame, key...)
	frame = append(frame, `":`...)
	frame = append(frame, body...)
	return append(frame, "}\n"...)
}
