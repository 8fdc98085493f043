package peersync

import (
	"strings"
	"sync"
)

// shellWords splits a remote shell command (RSYNC_RSH) into words as
// rsync does: at blanks, except inside single or double quotes, which
// are removed.
func shellWords(s string) []string {
	var words []string
	var b strings.Builder
	inWord := false
	var quote rune
	for _, c := range s {
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteRune(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words
}

// shellQuotePath quotes a path for the peer's shell, leaving a leading
// "~/" to it (rsync's paths are the login folder's, and so are the
// command's).
func shellQuotePath(p string) string {
	prefix := ""
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		prefix, p = "~/", rest
	}
	if p == "" {
		return prefix + "."
	}
	return prefix + "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// splitRemote splits an rsync remote location [user@]host:path into its
// parts; ok is false for what is not one (a daemon's host::module).
func splitRemote(target string) (user, host, path string, ok bool) {
	host, path, ok = strings.Cut(target, ":")
	if strings.HasPrefix(host, "[") || strings.Contains(host, "@[") {
		// An IPv6 address: [addr]:path.
		i := strings.Index(target, "]:")
		if i < 0 {
			return "", "", "", false
		}
		host, path, ok = target[:i+1], target[i+2:], true
	}
	if !ok || strings.HasPrefix(path, ":") {
		return "", "", "", false
	}
	if u, h, found := strings.Cut(host, "@"); found {
		user, host = u, h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" {
		return "", "", "", false
	}
	return user, host, path, true
}

// tailBuffer keeps the last max bytes written to it: a long-lived
// command's stderr, read when it ends.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// lastLine is the last non-blank line of text, trimmed.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// truncate cuts s to at most n bytes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
