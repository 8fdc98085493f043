package hooks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/smalltalk-go/st/internal/stackstart"
	"github.com/smalltalk-go/st/toolcall"
)

// The edit hooks (pre-tool-use, codex-pre-tool-use) decide on a path
// whatever the size of the edit: a Write of 3 MB is as much an edit as
// one of 3 bytes. A payload of up to 1 MiB (editLimits.small) is read
// whole, as every hook's is. A bigger one is streamed through a JSON
// scanner that keeps what the hooks look at and drops the rest, so
// memory stays small and time is one pass over the content:
//
//   - every member of up to 64 KiB (the session, cwd, tool_name,
//     tool_input's file_path ...), as sent;
//   - of a bigger tool_input.command (a patch, or a shell command holding
//     one), the lines outside the patch (the shell commands that place
//     it, up to 64 KiB in all) and every line of it starting with "***"
//     (the markers naming the files), which are all toolcall reads: the
//     kept text still parses as the same shell command;
//   - nothing of the rest (a Write's content, an Edit's strings).
//
// What keeps the kept part from telling the whole story (the budget ran
// out, the JSON is broken, a marker line is too long ...) is returned as
// the payload's cut, and the hooks refuse such an edit where a
// reservation could apply (undecided.go).

// thinLimits are the bounds of a thinned read (tests shrink them).
type thinLimits struct {
	small   int // a payload of at most this many bytes is read whole, as sent
	field   int // a bigger member is dropped (the command: thinned)
	head    int // the shell commands before a patch
	line    int // a longer line is read only to see whether it is a marker
	markers int // the marker lines kept, in all
}

var editLimits = thinLimits{small: 1 << 20, field: 64 << 10, head: 64 << 10, line: 8 << 10, markers: 8 << 20}

const maxDepth = 1000 // JSON nesting the scanner follows

// readEditPayload reads an edit hook's payload from r until deadline and
// returns it (thinned when it is bigger than editLimits.small) and why the
// hook cannot rely on it to name every path, "" when it can. It stops at
// the end of the JSON object, without waiting for the end of r. A small
// payload that is not JSON is returned as read, with no cut: the hook
// takes it as any other hook does.
func readEditPayload(r io.Reader, deadline time.Time) (payload []byte, cut string) {
	return readEditPayloadWith(r, deadline, editLimits)
}

func readEditPayloadWith(r io.Reader, deadline time.Time, lim thinLimits) (payload []byte, cut string) {
	s := &slimmer{lim: lim}
	tee := &teeStart{r: r, max: lim.small + 1}
	done := make(chan error, 1)
	go func() {
		stackstart.GrowDeep() // scan decodes strings with encoding/json, deep enough to grow twice
		br := bufio.NewReaderSize(tee, 64<<10)
		err := s.scan(br)
		if err != nil {
			_, _ = io.Copy(io.Discard, br) // to the end: what is not JSON is kept as sent
		}
		done <- err
	}()
	timer := time.NewTimer(max(time.Until(deadline), 0))
	defer timer.Stop()
	select {
	case err := <-done:
		if tee.n <= lim.small {
			return tee.buf, ""
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil && s.cut == "" {
			s.cut = "its input is not valid JSON"
		}
		return s.build(), s.cut
	case <-timer.C:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.build(), "its input did not arrive whole within the hook's time budget"
	}
}

// teeStart reads r and keeps the first max bytes read.
type teeStart struct {
	r   io.Reader
	buf []byte
	max int
	n   int // bytes read in all
}

func (t *teeStart) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if room := t.max - len(t.buf); room > 0 {
		t.buf = append(t.buf, p[:min(n, room)]...)
	}
	t.n += n
	return n, err
}

// member is one kept object member: its key as sent (quoted) and value.
type member struct {
	key []byte
	val []byte
}

// slimmer is the state of one scan: what it kept so far, under mu so
// that a scan cut short by the deadline still gives what it had.
type slimmer struct {
	lim   thinLimits
	mu    sync.Mutex
	top   []member // the top-level members kept, tool_input aside
	input []member // tool_input's members kept, when it is an object
	inObj bool     // tool_input is an object
	cut   string   // why the kept part may not name every path
}

// build returns the kept members as one JSON object, tool_input last.
func (s *slimmer) build() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for _, m := range s.top {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(m.key)
		b.WriteByte(':')
		b.Write(m.val)
	}
	if s.inObj {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"tool_input":{`)
		for i, m := range s.input {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(m.key)
			b.WriteByte(':')
			b.Write(m.val)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes()
}

func (s *slimmer) setCut(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cut == "" {
		s.cut = why
	}
}

var errJSON = errors.New("hooks: not JSON")

// scan reads the payload object from br.
func (s *slimmer) scan(br *bufio.Reader) error {
	sc := &jsonScan{br: br, keyCap: s.lim.field}
	if c, err := sc.ws(); err != nil || c != '{' {
		return errJSON
	}
	return sc.members(func(key []byte) error {
		if string(key) == `"tool_input"` {
			c, err := sc.peekWS()
			if err != nil {
				return err
			}
			if c == '{' {
				return s.scanInput(sc)
			}
		}
		val, over, err := sc.capture(s.lim.field)
		if err != nil {
			return err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case key == nil:
		case !over:
			s.top = append(s.top, member{key, val})
		case string(key) == `"tool_name"` || string(key) == `"cwd"`:
			if s.cut == "" {
				s.cut = "its " + strings.Trim(string(key), `"`) + " is too long to read"
			}
		}
		if string(key) == `"tool_input"` {
			s.inObj, s.input = false, nil
		}
		return nil
	})
}

// isPathKey says whether key, quoted as in the payload, is a tool_input
// member that names what a tool works on.
func isPathKey(key []byte) bool {
	switch string(key) {
	case `"file_path"`, `"notebook_path"`, `"path"`:
		return true
	}
	return false
}

// scanInput reads the tool_input object.
func (s *slimmer) scanInput(sc *jsonScan) error {
	_, _ = sc.br.ReadByte() // the '{' peekWS saw
	s.mu.Lock()
	s.inObj, s.input = true, nil
	s.mu.Unlock()
	return sc.members(func(key []byte) error {
		var val []byte
		var over bool
		var err error
		if string(key) == `"command"` {
			if c, err := sc.peekWS(); err != nil {
				return err
			} else if c == '"' {
				val, thinned, err := s.scanCommand(sc)
				if err != nil {
					return err
				}
				s.mu.Lock()
				s.input = append(s.input, member{key, val})
				if thinned {
					s.input = append(s.input, member{[]byte(`"` + ThinnedMember + `"`), []byte("true")})
				}
				s.mu.Unlock()
				return nil
			}
		}
		val, over, err = sc.capture(s.lim.field)
		if err != nil {
			return err
		}
		if over || key == nil {
			if isPathKey(key) || string(key) == `"command"` {
				s.setCut("its " + strings.Trim(string(key), `"`) + " is too long to read")
			}
			return nil
		}
		s.mu.Lock()
		s.input = append(s.input, member{key, val})
		s.mu.Unlock()
		return nil
	})
}

// scanCommand reads tool_input.command, a string: whole when it holds at
// most lim.field bytes, else thinned to the lines a patch's paths and
// folder are read from (the package comment).
func (s *slimmer) scanCommand(sc *jsonScan) (val []byte, thinned bool, err error) {
	_, _ = sc.br.ReadByte() // the opening quote
	k := &lineKeeper{lim: s.lim}
	raw := []byte{'"'}
	over := false
	err = sc.str(func(chunk []byte) {
		if !over {
			if len(raw)+len(chunk) <= s.lim.field {
				raw = append(raw, chunk...)
			} else {
				over = true
			}
		}
		k.write(chunk)
	})
	if err != nil {
		return nil, false, err
	}
	if !over {
		return append(raw, '"'), false, nil
	}
	k.end()
	if k.cut != "" {
		s.setCut(k.cut)
	}
	out, _ := json.Marshal(k.text())
	return out, true, nil
}

// ThinnedMember is the tool_input member a thinned read adds when it
// dropped lines of the command: its shell must then hold each patch in
// a quoted here-document for st to rely on what it kept (writes.go).
const ThinnedMember = "st_command_thinned"

// lineKeeper thins a long command read as raw JSON string text (escapes
// undone line by line), keeping the head before "*** Begin Patch" and
// the marker lines.
type lineKeeper struct {
	lim      thinLimits
	esc      []byte // an escape being read: "\" or "\uXXX"
	line     []byte // the current line, raw, at most lim.line bytes
	long     bool   // the current line is longer than lim.line
	inPatch  bool   // inside a patch: "*** Begin Patch" was seen, its "*** End Patch" not yet
	sawPatch bool   // a patch began
	headCut  bool   // the head outgrew lim.head
	head     int    // bytes of head kept
	markers  int    // bytes of marker lines kept
	kept     []string
	cut      string

	// unterminated: the command's last line is kept and ended without a
	// newline, so the text ends without one too (a final "\" followed by
	// a newline would join lines that the command keeps apart).
	unterminated bool
}

func (k *lineKeeper) write(chunk []byte) {
	for _, c := range chunk {
		switch {
		case len(k.esc) == 0 && c == '\\':
			k.esc = append(k.esc, c)
			continue
		case len(k.esc) == 0:
			k.add(c)
			continue
		}
		k.esc = append(k.esc, c)
		if k.esc[1] == 'u' && len(k.esc) < 6 {
			continue
		}
		if string(k.esc) == `\n` || strings.EqualFold(string(k.esc), `\u000a`) {
			k.endLine()
		} else {
			for _, e := range k.esc {
				k.add(e)
			}
		}
		k.esc = k.esc[:0]
	}
}

func (k *lineKeeper) add(c byte) {
	if len(k.line) >= k.lim.line {
		k.long = true
		return
	}
	k.line = append(k.line, c)
}

// end ends the last line. A command too long to keep whole and holding
// no patch may still run apply_patch on one in the part dropped.
func (k *lineKeeper) end() {
	if len(k.line) > 0 || k.long {
		kept := len(k.kept)
		k.endLine()
		k.unterminated = len(k.kept) > kept
	}
	if k.headCut && !k.inPatch {
		k.setCut("its command is too long to read")
	}
}

// decode undoes a raw line's escapes; ok is false when they are broken.
func decode(raw []byte) (string, bool) {
	var s string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	if json.Unmarshal(q, &s) != nil {
		return "", false
	}
	return s, true
}

// mayMark reports whether a raw line could be a marker line once
// decoded: its first byte after raw spaces is '*', an escape (an escaped
// tab or space) or the start of a non-ASCII space.
func mayMark(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " ")
	return len(raw) > 0 && (raw[0] == '*' || raw[0] == '\\' || raw[0] >= 0x80)
}

func (k *lineKeeper) endLine() {
	raw, long := k.line, k.long
	k.line, k.long = k.line[:0], false
	if (k.inPatch || k.headCut) && !mayMark(raw) {
		if k.inPatch && len(raw) > 0 && strings.IndexByte("+- @", raw[0]) < 0 {
			// Not a patch's content line: it may end the here-document
			// the patch is in, and what follows would run as commands.
			k.setCut("its patch holds a line that is not a patch line")
		}
		return // neither a marker nor "*** Begin Patch"
	}
	if long {
		// Cut at lim.line, the line may end inside an escape or a
		// character: drop the tail until it decodes.
		for len(raw) > 0 {
			if _, ok := decode(raw); ok {
				break
			}
			raw = raw[:len(raw)-1]
		}
	}
	text, ok := decode(raw)
	trimmed := strings.TrimSpace(text)
	switch {
	case !ok:
		k.setCut("its command holds a line st cannot read")
		return
	case long && strings.HasPrefix(trimmed, "*"):
		k.setCut("its command holds a marker line too long to read")
		return
	case !k.inPatch && trimmed == toolcall.PatchBegin:
		k.inPatch, k.sawPatch = true, true
		if k.headCut {
			k.setCut("the commands before its patch are too long to read")
		}
	case k.inPatch && !strings.HasPrefix(trimmed, "***"):
		return
	case k.inPatch:
		if k.markers += len(text) + 1; k.markers > k.lim.markers {
			k.setCut("its patch names more files than st can read")
			return
		}
		// After the patch come the shell's own lines again (the
		// heredoc's end, a closing quote, more commands): kept as the
		// head is, so that the kept text still parses as shell.
		k.inPatch = trimmed != toolcall.PatchEnd
	default: // the head, or what follows a patch
		if long || k.head+len(text)+1 > k.lim.head {
			if k.sawPatch {
				k.setCut("the commands after its patch are too long to read")
			}
			k.headCut = true
			return
		}
		k.head += len(text) + 1
	}
	k.kept = append(k.kept, text)
}

func (k *lineKeeper) setCut(why string) {
	if k.cut == "" {
		k.cut = why
	}
}

// text is the kept lines, one per line.
func (k *lineKeeper) text() string {
	if k.unterminated {
		return strings.Join(k.kept, "\n")
	}
	return strings.Join(k.kept, "\n") + "\n"
}

// jsonScan reads JSON from a bufio.Reader without holding strings.
type jsonScan struct {
	br     *bufio.Reader
	depth  int
	keyCap int // a longer key is cut (it then matches none st reads)
}

// ws skips white space and returns the next byte, consumed.
func (sc *jsonScan) ws() (byte, error) {
	for {
		c, err := sc.br.ReadByte()
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
	}
}

// peekWS skips white space and returns the next byte, not consumed.
func (sc *jsonScan) peekWS() (byte, error) {
	c, err := sc.ws()
	if err != nil {
		return 0, err
	}
	_ = sc.br.UnreadByte() // right after a read: it cannot fail
	return c, nil
}

// members reads an object's members after its '{' up to its '}',
// handing each key (quoted, as sent) to fn, which reads the value; a key
// longer than keyCap is handed on as nil.
func (sc *jsonScan) members(fn func(key []byte) error) error {
	if sc.depth++; sc.depth > maxDepth {
		return errJSON
	}
	defer func() { sc.depth-- }()
	c, err := sc.ws()
	if err != nil {
		return err
	}
	if c == '}' {
		return nil
	}
	for {
		if c != '"' {
			return errJSON
		}
		key := []byte{'"'}
		if err := sc.str(func(chunk []byte) {
			if key != nil && len(key)+len(chunk) <= sc.keyCap {
				key = append(key, chunk...)
			} else {
				key = nil
			}
		}); err != nil {
			return err
		}
		if key != nil {
			key = append(key, '"')
		}
		if c, err = sc.ws(); err != nil || c != ':' {
			return errJSON
		}
		if err := fn(key); err != nil {
			return err
		}
		if c, err = sc.ws(); err != nil {
			return err
		}
		switch c {
		case '}':
			return nil
		case ',':
			if c, err = sc.ws(); err != nil {
				return err
			}
		default:
			return errJSON
		}
	}
}

// str reads a string's content after its opening quote, through its
// closing quote (not handed on), handing the raw content to fn in chunks.
func (sc *jsonScan) str(fn func([]byte)) error {
	run := 0 // backslashes ending what was read so far
	for {
		chunk, err := sc.br.ReadSlice('"')
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
		if err == bufio.ErrBufferFull {
			fn(chunk)
			n := trailing(chunk)
			if n == len(chunk) {
				run += n
			} else {
				run = n
			}
			continue
		}
		body := chunk[:len(chunk)-1]
		n := trailing(body)
		if n == len(body) {
			n += run
		}
		if n%2 == 0 {
			fn(body)
			return nil
		}
		fn(chunk) // an escaped quote
		run = 0
	}
}

// trailing counts the backslashes that end b.
func trailing(b []byte) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n
}

// capture reads one value, keeping its raw text while it holds at most
// limit bytes; over is true when it held more (and val is nil).
func (sc *jsonScan) capture(limit int) (val []byte, over bool, err error) {
	var b []byte
	keep := func(p []byte) {
		if over {
			return
		}
		if p == nil || len(b)+len(p) > limit { // nil: a key too long to keep
			over, b = true, nil
			return
		}
		b = append(b, p...)
	}
	if err := sc.value(keep); err != nil {
		return nil, false, err
	}
	return b, over, nil
}

// value reads one value, handing its raw text to keep.
func (sc *jsonScan) value(keep func([]byte)) error {
	c, err := sc.ws()
	if err != nil {
		return err
	}
	switch {
	case c == '"':
		keep([]byte{'"'})
		if err := sc.str(keep); err != nil {
			return err
		}
		keep([]byte{'"'})
		return nil
	case c == '{':
		keep([]byte{'{'})
		first := true
		err := sc.members(func(key []byte) error {
			if !first {
				keep([]byte{','})
			}
			first = false
			keep(key)
			keep([]byte{':'})
			return sc.value(keep)
		})
		keep([]byte{'}'})
		return err
	case c == '[':
		if sc.depth++; sc.depth > maxDepth {
			return errJSON
		}
		defer func() { sc.depth-- }()
		keep([]byte{'['})
		if n, err := sc.peekWS(); err != nil {
			return err
		} else if n == ']' {
			_, _ = sc.br.ReadByte() // the byte was peeked: it cannot fail
			keep([]byte{']'})
			return nil
		}
		for {
			if err := sc.value(keep); err != nil {
				return err
			}
			n, err := sc.ws()
			if err != nil {
				return err
			}
			keep([]byte{n})
			if n == ']' {
				return nil
			}
			if n != ',' {
				return errJSON
			}
		}
	case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
		lit := []byte{c}
		for len(lit) < 400 {
			n, err := sc.br.ReadByte()
			if err != nil {
				break // the end of the input ends a literal; the caller sees it
			}
			if !(n >= '0' && n <= '9' || n >= 'a' && n <= 'z' || n == '.' || n == '+' || n == '-' || n == 'E') {
				_ = sc.br.UnreadByte() // right after a read: it cannot fail
				break
			}
			lit = append(lit, n)
		}
		keep(lit)
		return nil
	}
	return errJSON
}
