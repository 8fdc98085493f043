package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// TranscriptTail bounds how much of a transcript the hooks read.
const TranscriptTail = 64 << 10

// ReadTranscriptTail reads at most the last limit bytes of the transcript
// at path (read-only; never blocks on a FIFO). limit is the bound.
func ReadTranscriptTail(path string, limit int64) ([]byte, error) {
	f, fi, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	return readTail(f, fi.Size(), limit)
}

// transcriptFirstRead is how much of a transcript's end the hooks read
// first. The last reply is nearly always in it, and the rest of the
// bound is read only when it is not: a fresh 64 KiB buffer is 16 page
// faults, about 0.3 ms on the machines this is built on, paid by every
// PostToolUse of a session whose transcript has grown past it.
const transcriptFirstRead = 8 << 10

// scanTranscriptTail hands scan the last transcriptFirstRead bytes of the
// transcript at path and then, if scan reports it found nothing there
// and the transcript holds more, its last limit bytes. Every line after
// the first cut is whole in both, so a scan that takes the newest line
// it wants, skipping one that does not parse, answers as it would have
// on the larger tail alone.
func scanTranscriptTail(path string, limit int64, scan func(tail []byte) (found bool)) error {
	f, fi, err := fsutil.OpenRegular(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	size, first := fi.Size(), min(limit, transcriptFirstRead)
	tail, err := readTail(f, size, first)
	if err != nil || scan(tail) || size <= first {
		return err
	}
	tail, err = readTail(f, size, limit)
	if err == nil {
		scan(tail)
	}
	return err
}

// readTail reads the last limit bytes of f, whose size is size.
func readTail(f *os.File, size, limit int64) ([]byte, error) {
	start := max(size-limit, 0)
	buf := make([]byte, size-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		return nil, err
	}
	return buf[:n], nil
}

// usage is the token accounting of one API response in a transcript.
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

type transcriptLine struct {
	IsSidechain bool `json:"isSidechain"`
	Message     struct {
		Model   string          `json:"model"`
		Usage   *usage          `json:"usage"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// ContextUsage finds the latest main-thread usage record in a
// transcript tail and returns the tokens its request sent (input plus
// cache writes and reads), how full the context window is, and the model
// of that turn. A first line cut by the tail bound, subagent (sidechain)
// lines and zero records are skipped; ok is false when there is none.
func ContextUsage(tail []byte) (tokens int64, model string, ok bool) {
	tokens, model, _, ok = lastReply(tail)
	return tokens, model, ok
}

// lastReply is ContextUsage with the text of the reply it read (its text
// blocks, one per line).
func lastReply(tail []byte) (tokens int64, model, text string, ok bool) {
	for line := range linesNewestFirst(tail) {
		if !bytes.Contains(line, []byte(`"usage"`)) {
			continue
		}
		var tl transcriptLine
		if json.Unmarshal(line, &tl) != nil || tl.IsSidechain || tl.Message.Usage == nil {
			continue
		}
		u := tl.Message.Usage
		if n := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens; n > 0 {
			return n, tl.Message.Model, replyText(tl.Message.Content), true
		}
	}
	return 0, "", "", false
}

// replyText is the text of a message's content: a string, or the text
// blocks of a list, one per line.
func replyText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(content, &blocks) // absent or malformed: the zero value is the answer
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// sameReply reports whether a transcript reply's text is the reply a
// Stop payload names (last_assistant_message): one holds the other, as
// the transcript splits a reply into a line per block.
func sameReply(text, last string) bool {
	text, last = strings.TrimSpace(text), strings.TrimSpace(last)
	return text != "" && last != "" && (strings.Contains(last, text) || strings.Contains(text, last))
}

// linesNewestFirst yields the lines of a JSONL tail from the last to the
// first, without their line ends; the first may be cut by the tail bound,
// which its JSON then fails to parse.
func linesNewestFirst(tail []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for len(tail) > 0 {
			tail = bytes.TrimRight(tail, "\r\n")
			i := bytes.LastIndexByte(tail, '\n')
			if !yield(tail[i+1:]) {
				return
			}
			tail = tail[:max(i, 0)]
		}
	}
}

// Context-fill thresholds, in percent of the window.
var contextThresholds = []int{80, 60}

// ContextLevel is the highest threshold that tokens reach in window: 80,
// 60 or 0.
func ContextLevel(tokens int64, window int) int {
	if window <= 0 {
		return 0
	}
	for _, th := range contextThresholds {
		if tokens*100 >= int64(th)*int64(window) {
			return th
		}
	}
	return 0
}

// ContextAdvice is the line a prompt gets when the context first passes
// a threshold; warned is the highest level already announced in the
// session. It returns the text and the new level, or "" when there is
// nothing new to say.
func ContextAdvice(tokens int64, window, warned int) (text string, level int) {
	level = ContextLevel(tokens, window)
	if level == 0 || level <= warned {
		return "", warned
	}
	pct := tokens * 100 / int64(window)
	return fmt.Sprintf("Context is %d%% full (%d of %d tokens, past the %d%% mark). "+
		"Flush your working state now with `st context write` (current task, decisions, next steps), before compaction.",
		pct, tokens, window, level), level
}
