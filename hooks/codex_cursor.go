package hooks

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sha256"
)

// The Codex hooks remember what they already told an agent in a cursor,
// one per store root and agent (a single global cursor would let bob's
// Stop swallow what arrived for alice):
//
//	$XDG_STATE_HOME/st-codex-hooks/<key>/ROOT                 the root's absolute path
//	$XDG_STATE_HOME/st-codex-hooks/<key>/<agent>.last-checked the cursor
//
// <key> is the first 16 hex digits of the SHA-256 of the root's absolute
// path (symlinks resolved): a path is not a name, so it is hashed, and
// ROOT says which root a folder is for. Agent names are validated and
// lowercase, so they never clash with ROOT.
//
// The cursor file is a watermark, then the names already announced whose
// ts is at least the watermark minus cursorSlackMS, one per line:
//
//	1784628007000
//	1784628006500-bbbbbb.md
//	1784628007000-cccccc.md
//
// The watermark is the newest ts listed (never later than the clock read
// before listing, never moving back), not the time the hook ran, so a
// message landing while the hook lists or writes is not skipped; the names
// keep the slack window's messages from being announced twice. A message
// delivered more than cursorSlackMS after its own timestamp is only in
// `st message ls`, as before.
//
// Both files are hints, written without fsyncs (fsutil.WriteHint): a
// crash that loses the last write only announces messages again (with
// the cursor gone, the inbox), and ROOT is written again when it does
// not match.
const (
	cursorRootFile = "ROOT"
	cursorSuffix   = ".last-checked"
	cursorSlackMS  = 5000
)

// codexCursor is one agent's cursor, locked while it is open.
type codexCursor struct {
	tree   *fsutil.Tree // the state dir's st-codex-hooks folder
	rel    string       // <key>/<agent>.last-checked
	unlock func()
	mark   int64 // unix ms
	seen   map[string]bool
	read   string // the file as read, to skip writing it unchanged
}

// rootKey names root's cursor folder.
func rootKey(root string) (key, abs string) {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = filepath.Clean(root)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:8]), abs
}

// openCursor opens (creating its folders) and locks agent's cursor in
// tree. A lock it cannot get in time is skipped: the hook still answers.
func openCursor(tree *fsutil.Tree, opt Options) *codexCursor {
	root, agent := opt.Root, opt.Agent
	key, abs := rootKey(root)
	c := &codexCursor{tree: tree, rel: key + "/" + agent + cursorSuffix, unlock: func() {}, seen: map[string]bool{}}
	if tree.MkdirAll(key) != nil {
		return c
	}
	if data, _, err := tree.ReadRegular(key + "/" + cursorRootFile); err != nil || string(data) != abs+"\n" {
		_ = tree.WriteHint(key+"/"+cursorRootFile, []byte(abs+"\n")) // best effort: the hook fails open
	}
	ctx, cancel := opt.waitCtx(cursorLockWait)
	defer cancel()
	if unlock, err := tree.Lock(ctx, "codex-cursor-"+key+"-"+agent); err == nil {
		c.unlock = unlock
	}
	if data, _, err := tree.ReadRegular(c.rel); err == nil {
		c.read = string(data)
		c.mark, c.seen = parseCursor(c.read)
	} else if errors.Is(err, fs.ErrNotExist) {
		c.mark = legacyCursor(tree)
	}
	return c
}

// legacyCursorFile is the Node st's one cursor for every root and agent:
// the unix ms of its last Stop, digits only.
const legacyCursorFile = "last-checked.txt"

// legacyCursor is the Node st's cursor, 0 when there is none. An agent
// without a cursor of its own starts from it, once (its first save
// writes its own), so the first Stop after an upgrade does not announce
// the whole inbox again. The file stays: every agent the Node st served
// shared it.
func legacyCursor(tree *fsutil.Tree) int64 {
	data, _, err := tree.ReadRegular(legacyCursorFile)
	if err != nil {
		return 0
	}
	s := strings.TrimSuffix(string(data), "\n")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || !jsstr.IsDigits(s) {
		return 0
	}
	return n
}

// cursorLockWait bounds the wait for another hook of the same agent.
const cursorLockWait = time.Second

// parseCursor reads a cursor file; anything but digits on the first line
// is no cursor at all (0, nothing seen).
func parseCursor(s string) (int64, map[string]bool) {
	seen := map[string]bool{}
	lines := strings.Split(s, "\n")
	n, err := strconv.ParseInt(lines[0], 10, 64)
	if err != nil || !jsstr.IsDigits(lines[0]) {
		return 0, seen
	}
	for _, name := range lines[1:] {
		if name != "" {
			seen[name] = true
		}
	}
	return n, seen
}

// since is the ts to list from: the watermark minus the slack.
func (c *codexCursor) since() float64 { return float64(max(c.mark-cursorSlackMS, 0)) }

// unseen drops the items already announced.
func (c *codexCursor) unseen(items []item) []item {
	var out []item
	for _, it := range items {
		if !c.seen[it.Filename] && it.TS >= c.since() {
			out = append(out, it)
		}
	}
	return out
}

// save records what the hook announced: shown, the items it named now,
// among listed, every item it listed (nowMS being the clock read before
// listing). Items listed but neither shown now nor announced before stay
// unannounced: the watermark stops at the oldest of them, so the next
// list finds them again, and only announced names go in the file. Errors
// are dropped: the worst case is one repeated announcement.
func (c *codexCursor) save(listed, shown []item, nowMS int64) {
	announced := map[string]bool{}
	for _, it := range shown {
		announced[it.Filename] = true
	}
	for name := range c.seen {
		announced[name] = true
	}
	mark := advanceMark(c.mark, listed, nowMS)
	for _, it := range listed {
		if !announced[it.Filename] {
			mark = max(c.mark, min(mark, int64(math.Floor(it.TS))))
		}
	}
	c.mark = mark
	var b strings.Builder
	b.WriteString(strconv.FormatInt(c.mark, 10))
	b.WriteByte('\n')
	for _, it := range listed {
		if it.TS >= c.since() && announced[it.Filename] {
			b.WriteString(it.Filename)
			b.WriteByte('\n')
		}
	}
	if b.String() != c.read { // most Stops find nothing new: no write
		_ = c.tree.WriteHint(c.rel, []byte(b.String())) // best effort: the hook fails open
	}
}

// advanceMark is the new watermark: the newest listed ts, but no later
// than nowMS (a peer's clock ahead must not hide local arrivals), and
// never before mark.
func advanceMark(mark int64, listed []item, nowMS int64) int64 {
	newest := math.Inf(-1)
	for _, it := range listed {
		newest = max(newest, it.TS)
	}
	if math.IsInf(newest, -1) {
		return mark
	}
	return max(mark, min(int64(math.Floor(newest)), nowMS))
}

func (c *codexCursor) close() { c.unlock() }
