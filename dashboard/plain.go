package dashboard

import (
	"regexp"
	"strings"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// The fleet page shows now.md's first line as plain text: what the agent
// is on, without the Markdown around it (`## Rewriting…` reads
// "Rewriting…", a table row `| step | state |` reads "step · state").

var (
	mdLink     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	mdEmphasis = regexp.MustCompile("(\\*\\*|__|~~|`)")
	mdItalic   = regexp.MustCompile(`\*([^*\s][^*]*)\*`)
	mdLead     = regexp.MustCompile(`^(#{1,6}\s+|>\s*|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+)`)
	mdRule     = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$|^\s*([-*_]\s*){3,}$`)
)

// plainLine returns the first line of Markdown src that holds text, as
// plain text capped to max runes; "" when there is none.
func plainLine(src string, max int) string {
	fence := false
	// A lone "\r" ends a line in Markdown as "\n" does.
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	for line := range strings.Lines(src) {
		line = jsstr.TrimSpace(line)
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fence = !fence
			continue
		}
		if line == "" || mdRule.MatchString(line) || (!fence && strings.HasPrefix(line, "<!--")) {
			continue
		}
		if s := plain(line, fence); s != "" {
			return capDots(s, max)
		}
	}
	return ""
}

// plain strips one line's Markdown (none inside a code fence).
func plain(line string, code bool) string {
	if code {
		return line
	}
	for {
		l := mdLead.ReplaceAllString(line, "")
		if l == line {
			break
		}
		line = l
	}
	if strings.HasPrefix(line, "|") || strings.HasSuffix(line, "|") {
		var cells []string
		for c := range strings.SplitSeq(strings.Trim(line, "|"), "|") {
			if c = jsstr.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
		line = strings.Join(cells, " · ")
	}
	line = mdLink.ReplaceAllString(line, "$1")
	line = mdEmphasis.ReplaceAllString(line, "")
	line = mdItalic.ReplaceAllString(line, "$1")
	line = strings.TrimRight(line, "#")
	return jsstr.TrimSpace(line)
}
