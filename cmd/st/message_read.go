package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/message"
)

type messageReadCmd struct {
	Raw     bool     `help:"print the file exactly as stored"`
	JSON    bool     `name:"json" help:"print one JSON object with the header fields and body"`
	Archive bool     `help:"look in archive/ before inbox/"`
	Args    []string `arg:"" optional:"" form:"[<identity>] <filename>" predict:"@agent-message" agent:"" help:"whose folder (default: $ST_AGENT) and the message's filename"`
}

// splitPositionals reads [<identity>] <filename> as read, archive and
// thread do: one argument is a filename when it ends in .md, else an
// agent; two are agent and filename; more are too many.
func splitPositionals(args []string) (agent, filename string, err error) {
	switch len(args) {
	case 0:
	case 1:
		if strings.HasSuffix(args[0], ".md") {
			filename = args[0]
		} else if stemOnly(args[0]) {
			return "", "", sterr.Msg("<filename> required (a message's filename ends in .md: did you mean %s.md?)", args[0])
		} else {
			agent = args[0]
		}
	case 2:
		agent, filename = args[0], args[1]
		if stemOnly(filename) {
			return "", "", sterr.New(sterr.InvalidFilename,
				fmt.Sprintf("invalid filename: %s (a message's filename ends in .md: did you mean %s.md?)", filename, filename),
				map[string]any{"value": filename})
		}
	default:
		return "", "", sterr.Msg("too many arguments")
	}
	if filename == "" {
		return "", "", sterr.Msg("<filename> required")
	}
	return agent, filename, nil
}

// stemOnly reports whether arg is a message's filename without its .md
// (1795966371663-k3x9qa), which a newcomer copies from a listing.
func stemOnly(arg string) bool {
	return !strings.HasSuffix(arg, ".md") && message.IsCanonical(arg+".md")
}

func (c *messageReadCmd) Run(a *app) error {
	if c.Raw && c.JSON {
		return sterr.Msg("--raw and --json are mutually exclusive")
	}
	agent, name, err := splitPositionals(c.Args)
	if err != nil {
		return err
	}
	id, t, err := a.openAgent(agent, layout.Lenient)
	if err != nil {
		return err
	}
	defer t.Close()
	if !message.IsDeliverable(name) {
		return sterr.InvalidName(name)
	}
	// A message over the maximum size is refused as MCP refuses it, unless
	// asked for whole (--raw): then it is streamed, never held, for whole
	// or as JSON it would take many times its size in memory.
	max := a.env.MaxMessageBytes()
	if loc, err := inbox.Locate(t, id, name, c.Archive); err == nil {
		if fi, err := t.Lstat(loc.Path()); err == nil && fi.Size() > max {
			if !c.Raw {
				return tooLargeToRead(fi.Size(), max, c.Args)
			}
			return a.streamRaw(t, loc)
		}
	}
	where, data, err := inbox.ReadWithin(t, id, name, c.Archive, max)
	if err != nil {
		return err
	}
	text := inbox.Text(data)
	switch {
	case c.Raw:
		_, err = io.WriteString(a.stdout, text)
		return err
	case c.JSON:
		return a.printJSON(readJSON{name, id, where.Folder, inbox.Project(name, text)})
	}
	// The sender wrote the body: its control characters are escaped (an
	// escape sequence would reach the terminal, or the model reading the
	// output); --raw prints them as stored.
	label := termsafe.Line(where.Folder + "/" + name)
	if message.IsOutside(name) {
		fmt.Fprintf(a.stderr, "# %s (outside: non-canonical filename)\n", label)
		_, err = io.WriteString(a.stdout, termsafe.Text(text))
		return err
	}
	fields, body, ok := message.Parse(text)
	if !ok {
		fmt.Fprintf(a.stderr, "# %s (untyped: no frontmatter)\n", label)
		_, err = io.WriteString(a.stdout, termsafe.Text(text))
		return err
	}
	a.printHeader(label, id, name, fields)
	if a.runByModel() {
		body = quoteBody(fields["from"], body)
	}
	_, err = io.WriteString(a.stdout, termsafe.Text(body))
	return err
}

// runByModel reports whether a model's tool runs st: Claude Code sets
// CLAUDECODE=1 and Gemini CLI GEMINI_CLI=1 for the commands they run.
// The model reads stderr and stdout as one text, where a body could pass
// for the header that precedes it.
func (a *app) runByModel() bool {
	return a.env.Get("CLAUDECODE") == "1" || a.env.Get("GEMINI_CLI") == "1"
}

// quoteBody marks body as the sender's text for a model reading it: a
// line before and after, and every line of it quoted with "| ", so that
// no line of it passes for st's header or another message's.
func quoteBody(from, body string) string {
	if from == "" {
		from = "the sender"
	}
	var b strings.Builder
	b.WriteString("[the message body follows: " + from + "'s text, each line quoted with \"| \"]\n")
	for line := range strings.Lines(body) {
		b.WriteString("| " + line)
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("[end of the message body]\n")
	return b.String()
}

// tooLargeToRead is the error for a message of size bytes over max, with
// the way to print it whole on purpose.
func tooLargeToRead(size, max int64, args []string) error {
	err := layout.ErrTooLarge("message", size, max)
	return sterr.New(sterr.MessageTooLarge,
		fmt.Sprintf("%v; print it whole with st message read --raw %s", err, strings.Join(args, " ")),
		map[string]any{"size": size, "limit": max})
}

// printHeader writes a typed message's header fields to stderr.
func (a *app) printHeader(label, id, name string, fields message.Fields) {
	var h strings.Builder
	fmt.Fprintf(&h, "# %s\n", label)
	fmt.Fprintf(&h, "to:          %s  (derived from path)\n", id)
	fmt.Fprintf(&h, "ts:          %s  (derived from filename)\n", name[:13])
	for _, key := range []string{"from", "subject", "in-reply-to", "tags", "priority"} {
		if v := fields[key]; v != "" {
			fmt.Fprintf(&h, "%-12s %s\n", key+":", termsafe.Line(v))
		}
	}
	h.WriteString("\n")
	_, _ = io.WriteString(a.stderr, h.String()) // the header, as fmt.Fprintf to stderr
}

// streamRaw prints the message at loc as --raw prints a smaller one,
// reading it a chunk at a time so that memory stays bounded whatever its
// size.
func (a *app) streamRaw(t *fsutil.Tree, loc inbox.Location) error {
	f, _, err := t.OpenRegular(loc.Path())
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	out := &validUTF8Writer{w: a.stdout}
	if _, err := io.CopyBuffer(out, f, make([]byte, 256<<10)); err != nil {
		return err
	}
	return out.Flush()
}

// validUTF8Writer passes bytes on with every run of invalid UTF-8
// replaced by one U+FFFD, as inbox.Text does to a whole file, across
// the boundaries of the writes.
type validUTF8Writer struct {
	w       io.Writer
	buf     []byte // the carried bytes, then the current write
	carry   int    // an incomplete sequence left from the last write
	lastBad bool   // the last write ended in an invalid run
}

func (u *validUTF8Writer) Write(p []byte) (int, error) {
	b := append(u.buf[:u.carry], p...)
	u.buf = b
	cut := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	if err := u.emit(b[:cut]); err != nil {
		return 0, err
	}
	u.carry = copy(b, b[cut:])
	return len(p), nil
}

// Flush writes what is left of an incomplete sequence at the end.
func (u *validUTF8Writer) Flush() error {
	err := u.emit(u.buf[:u.carry])
	u.carry = 0
	return err
}

func (u *validUTF8Writer) emit(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if utf8.Valid(b) {
		u.lastBad = false
		_, err := u.w.Write(b)
		return err
	}
	fixed := bytes.ToValidUTF8(b, []byte("\uFFFD"))
	if r, size := utf8.DecodeRune(b); u.lastBad && r == utf8.RuneError && size == 1 {
		fixed = fixed[len("\uFFFD"):] // the run goes on from the last write
	}
	r, size := utf8.DecodeLastRune(b)
	u.lastBad = r == utf8.RuneError && size == 1
	_, err := u.w.Write(fixed)
	return err
}

// readJSON is the object `message read --json` prints.
type readJSON struct {
	Filename string           `json:"filename"`
	Identity string           `json:"identity"`
	Folder   string           `json:"folder"`
	Message  inbox.Projection `json:"message"`
}

// Help is message read's paragraph.
func (messageReadCmd) Help() string {
	return `The header fields go to stderr and the body to stdout, so the body can be
piped on its own. One argument ending in .md is a filename in your own
folders; inbox/ is searched before archive/ unless --archive is given.
Reading does not archive the message.

The sender wrote the body: its control characters (an escape sequence,
a bell) are printed as visible escapes such as \x1b, keeping newlines and
tabs. Run by a model's tool (Claude Code and Gemini CLI say so in the
environment), the body is printed between two lines of st's, each of its
lines quoted with "| ", so that none passes for st's own. A message over
the maximum size ($ST_MAX_MESSAGE_BYTES, 4 MiB by default) is refused, as
st_msg_read refuses it; --raw prints any message whole, exactly as stored.`
}

func (messageReadCmd) examples() []example {
	return []example{
		{"read a message from your inbox", "st message read 1795966371663-k3x9qa.md"},
		{"print one of bob's archived messages as JSON", "st message read bob 1795966371663-k3x9qa.md --archive --json"},
	}
}
