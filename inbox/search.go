package inbox

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
)

// Query says what Search looks for and where.
type Query struct {
	Text    string   // matched case-insensitively against subjects and body lines
	Agents  []string // whose folders
	Folders []string // Inbox and/or Archive
	From    string   // only messages from this sender ("" = anyone)
	Since   int64    // only messages named at or after this unix-ms time (0 = all)
	// MaxBytes bounds what is read of each message (0 means
	// layout.DefaultMaxMessageBytes): the whole of any message send
	// accepts, and no more of a huge file planted in the store.
	MaxBytes int64
}

// Hit is one message that matched, with the first line that did.
// The jsonschema tags describe the fields in the MCP tool's output schema.
type Hit struct {
	Agent    string `json:"agent" jsonschema:"The agent whose folder holds the message."`
	Folder   string `json:"folder" jsonschema:"inbox or archive."`
	Filename string `json:"filename" jsonschema:"The message's filename, for st_msg_read."`
	TS       int64  `json:"ts" jsonschema:"When it was sent, in unix milliseconds."`
	From     string `json:"from" jsonschema:"Its sender."`
	Subject  string `json:"subject" jsonschema:"Its subject (empty when none)."`
	Line     string `json:"line" jsonschema:"The first line that matched: the subject, or else a body line, cut after 200 bytes."`
}

// lineChars caps a matched line in a hit.
const lineChars = 200

// Search reads every canonical message in the query's folders, with no
// index, and returns those whose subject or body contains the text,
// newest first. Unreadable files and missing folders are skipped.
func Search(t *fsutil.Tree, q Query) []Hit {
	needle := strings.ToLower(q.Text)
	if needle == "" {
		return nil
	}
	var hits []Hit
	for _, agent := range q.Agents {
		for _, folder := range q.Folders {
			hits = append(hits, searchFolder(t, agent, folder, needle, q)...)
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.TS != b.TS {
			return int(b.TS - a.TS)
		}
		return strings.Compare(b.Filename, a.Filename)
	})
	return hits
}

func searchFolder(t *fsutil.Tree, agent, folder, needle string, q Query) []Hit {
	dir := agent + "/" + folder
	names, err := regularNames(t, dir)
	if err != nil {
		return nil
	}
	keep := names[:0]
	for _, n := range names {
		if message.IsCanonical(n) && (q.Since == 0 || message.Timestamp(n) >= q.Since) {
			keep = append(keep, n)
		}
	}
	// The inbox's archived twins are left out (WithoutTwins), checked by
	// the readers and only for matches: before, the check of every name
	// cost a search --all over 100,000 messages a tenth of its time, on
	// its serial path.
	var inArchive func(string) bool
	if folder == Inbox {
		if archive, err := t.OpenFolder(agent + "/" + Archive); err == nil {
			defer archive.Close()
			inArchive = archiveHas(archive, len(keep))
		}
	}
	limit := q.MaxBytes
	if limit <= 0 {
		limit = layout.DefaultMaxMessageBytes
	}
	// The whole message, not its head: the text may be anywhere in the body.
	whole := func() reader { return &wholeReader{limit: int(min(limit, math.MaxInt32))} }
	var mu sync.Mutex
	var hits []Hit
	readCanonicalWith(t, dir, keep, whole, func(i int, text string) {
		h, ok := match(text, needle, q.From)
		if !ok || inArchive != nil && archivedTwin(t, inArchive, agent, keep[i]) {
			return
		}
		h.Agent, h.Folder, h.Filename, h.TS = agent, folder, keep[i], message.Timestamp(keep[i])
		mu.Lock()
		hits = append(hits, h)
		mu.Unlock()
	})
	return hits
}

// match checks one message: a cheap scan of the whole text first, the
// parse only for candidates.
func match(text, needle, from string) (Hit, bool) {
	if indexFold(text, needle) < 0 {
		return Hit{}, false
	}
	var h Hit
	body, _ := message.Scan(text, func(key, value string) {
		switch key {
		case "from":
			h.From = value
		case "subject":
			h.Subject = value
		}
	})
	if from != "" && h.From != from {
		return Hit{}, false
	}
	if indexFold(h.Subject, needle) >= 0 {
		h.Line = h.Subject
		return h, true
	}
	i := indexFold(body, needle)
	if i < 0 {
		return Hit{}, false // only the frontmatter matched
	}
	start := strings.LastIndexByte(body[:i], '\n') + 1
	end := strings.IndexByte(body[i:], '\n')
	if end < 0 {
		end = len(body)
	} else {
		end += i
	}
	h.Line = capLine(strings.TrimSpace(body[start:end]))
	return h, true
}

func capLine(s string) string {
	if len(s) <= lineChars {
		return s
	}
	cut := lineChars
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// indexFold returns the index of needle (lower case) in s, ignoring
// case, or -1. ASCII needles are matched byte by byte without copying s;
// others through a lower-cased copy (then the index is only a hint that
// it matched).
func indexFold(s, needle string) int {
	if needle == "" {
		return 0
	}
	for i := 0; i < len(needle); i++ {
		if needle[i] >= utf8.RuneSelf {
			return strings.Index(strings.ToLower(s), needle)
		}
	}
	c0 := needle[0]
	c1 := c0
	if 'a' <= c0 && c0 <= 'z' {
		c1 = c0 - 'a' + 'A'
	}
	lim := len(s) - len(needle) + 1 // candidates start before lim
	// The next position of each case of the first byte, found with
	// IndexByte and kept until passed, so the scan stays linear.
	next0, next1 := -1, -1
	if c1 == c0 {
		next1 = lim
	}
	for i := 0; i < lim; {
		if next0 < i {
			next0 = lim
			if k := strings.IndexByte(s[i:lim], c0); k >= 0 {
				next0 = i + k
			}
		}
		if next1 < i {
			next1 = lim
			if k := strings.IndexByte(s[i:lim], c1); k >= 0 {
				next1 = i + k
			}
		}
		j := min(next0, next1)
		if j >= lim {
			return -1
		}
		if asciiEqualFold(s[j:j+len(needle)], needle) {
			return j
		}
		i = j + 1
	}
	return -1
}

// asciiEqualFold compares s with the lower-case ASCII needle.
func asciiEqualFold(s, needle string) bool {
	for i := 0; i < len(needle); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != needle[i] {
			return false
		}
	}
	return true
}
