package hooks

import (
	"bytes"
	"io/fs"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/hookkit"
)

// The pre-compact digest (issue 6): below the stub or the marker,
// pre-compact adds what the event log shows since now.md was last
// written (files edited, last commands, failures). The stub text stays
// intact at the top.

// digestHead starts the digest section (hookkit.Digest's title).
const digestHead = "## Activity since now.md was last written"

// stubDigest is the section added after the stub: since the blank
// now.md's mtime, or from the latest session log when there is none.
func stubDigest(t *fsutil.Tree, agent string, fi fs.FileInfo, statErr error) string {
	var since time.Time
	if statErr == nil {
		since = fi.ModTime()
	}
	return hookkit.DigestFor(t, agent, since)
}

// markerDigest is the section put right below the marker line, quoted so
// that it reads as part of the marker and the next pre-compact can find
// and replace it (digests never stack).
func markerDigest(t *fsutil.Tree, agent string, since time.Time) string {
	d := hookkit.DigestFor(t, agent, since)
	if d == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(">\n")
	for _, line := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		if line == "" {
			b.WriteString(">\n")
		} else {
			b.WriteString("> " + line + "\n")
		}
	}
	b.WriteString("\n")
	return b.String()
}

// stripDigest removes a quoted digest left by an earlier pre-compact at
// the top of body (the marker line already removed).
func stripDigest(body []byte) []byte {
	if !bytes.HasPrefix(body, []byte(">\n> "+digestHead)) {
		return body
	}
	for len(body) > 0 && body[0] == '>' {
		i := bytes.IndexByte(body, '\n')
		if i < 0 {
			return nil
		}
		body = body[i+1:]
	}
	if len(body) > 0 && body[0] == '\n' {
		body = body[1:]
	}
	return body
}
