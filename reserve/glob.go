package reserve

import (
	"fmt"
	"path"
	"strings"

	"github.com/smalltalk-go/st/internal/sterr"
)

// The glob syntax, relative to the repository's top level, '/' between
// folders:
//
//	*    any run of characters within one folder name (also none)
//	?    exactly one character, never '/'
//	**   as a whole segment: any number of folders, none included
//	a/   (a trailing slash) the folder a and everything under it
//
// Everything else is literal. Character classes, braces, escapes and
// negation are refused, so a pattern never means something other than
// what it says. Matching is case-sensitive.

// tokKind is what one character of a segment pattern matches.
type tokKind uint8

const (
	tokLit  tokKind = iota // the rune itself
	tokOne                 // ?: any one rune
	tokStar                // *: any run of runes
)

type tok struct {
	kind tokKind
	r    rune
}

// segment is one folder name pattern; deep marks "**".
type segment struct {
	deep bool
	toks []tok
}

// Glob is a parsed pattern.
type Glob struct {
	src  string
	segs []segment
}

// String returns the pattern as written (normalised).
func (g Glob) String() string { return g.src }

// InvalidPattern is the error code for a pattern st cannot reserve.
const InvalidPattern = "INVALID_PATTERN"

func badPattern(p, why string) error {
	return sterr.New(InvalidPattern, fmt.Sprintf("unsupported pattern %q: %s (supported: literal paths, *, ?, ** as a whole segment, a trailing / for a folder)", p, why),
		map[string]any{"pattern": p, "reason": why})
}

// Parse parses a repository-relative pattern. A trailing slash (or a
// pattern of "." alone) reserves a folder and everything under it.
func Parse(p string) (Glob, error) {
	src := p
	if p == "" {
		return Glob{}, badPattern(src, "empty")
	}
	if strings.HasPrefix(p, "/") {
		return Glob{}, badPattern(src, "absolute; give it relative to the repository's top level")
	}
	if i := strings.IndexAny(p, "[]{}\\"); i >= 0 {
		return Glob{}, badPattern(src, fmt.Sprintf("%q is not supported", p[i]))
	}
	if strings.HasPrefix(p, "!") {
		return Glob{}, badPattern(src, "negation is not supported")
	}
	folder := strings.HasSuffix(p, "/") || p == "."
	p = strings.TrimRight(p, "/")
	var g Glob
	var out []string
	for _, s := range strings.Split(p, "/") {
		switch {
		case s == "" || s == ".":
			continue
		case s == "..":
			return Glob{}, badPattern(src, "'..' leaves the folder")
		case s == "**":
			if len(g.segs) > 0 && g.segs[len(g.segs)-1].deep {
				continue // a/**/** is a/**
			}
			g.segs = append(g.segs, segment{deep: true})
		case strings.Contains(s, "**"):
			return Glob{}, badPattern(src, "** must be a whole segment, like src/**/x.go")
		default:
			var seg segment
			for _, r := range s {
				switch r {
				case '*':
					if n := len(seg.toks); n > 0 && seg.toks[n-1].kind == tokStar {
						continue
					}
					seg.toks = append(seg.toks, tok{kind: tokStar})
				case '?':
					seg.toks = append(seg.toks, tok{kind: tokOne})
				default:
					seg.toks = append(seg.toks, tok{kind: tokLit, r: r})
				}
			}
			g.segs = append(g.segs, seg)
		}
		out = append(out, s)
	}
	if folder && (len(g.segs) == 0 || !g.segs[len(g.segs)-1].deep) {
		g.segs = append(g.segs, segment{deep: true})
		out = append(out, "**")
	}
	if len(g.segs) == 0 {
		return Glob{}, badPattern(src, "empty")
	}
	g.src = strings.Join(out, "/")
	return g, nil
}

// literal is the glob matching exactly the slash-separated path p, with
// no character taken as a wildcard.
func literal(p string) Glob {
	var g Glob
	for _, s := range strings.Split(path.Clean(p), "/") {
		var seg segment
		for _, r := range s {
			seg.toks = append(seg.toks, tok{kind: tokLit, r: r})
		}
		g.segs = append(g.segs, seg)
	}
	g.src = p
	return g
}

// Match reports whether the repository-relative path p matches g. The
// characters of p are all literal.
func (g Glob) Match(p string) bool { return Overlap(g, literal(p)) }

// Overlap reports whether some path matches both a and b: it explores
// the product of the two patterns' automata, so it is exact for the
// supported syntax.
func Overlap(a, b Glob) bool {
	n, m := len(a.segs), len(b.segs)
	seen := make([]bool, (n+1)*(m+1))
	stack := [][2]int{{0, 0}}
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, j := st[0], st[1]
		if seen[i*(m+1)+j] {
			continue
		}
		seen[i*(m+1)+j] = true
		if i == n && j == m {
			return true
		}
		push := func(i, j int) {
			if !seen[i*(m+1)+j] {
				stack = append(stack, [2]int{i, j})
			}
		}
		// ** may match no folder at all.
		if i < n && a.segs[i].deep {
			push(i+1, j)
		}
		if j < m && b.segs[j].deep {
			push(i, j+1)
		}
		if i == n || j == m {
			continue
		}
		// Both consume one folder name: ** stays, a name pattern moves on.
		sa, sb := a.segs[i], b.segs[j]
		if !sa.deep && !sb.deep && !segOverlap(sa.toks, sb.toks) {
			continue
		}
		ni, nj := i+1, j+1
		if sa.deep {
			ni = i
		}
		if sb.deep {
			nj = j
		}
		push(ni, nj)
	}
	return false
}

// segOverlap reports whether some non-empty name matches both p and q.
func segOverlap(p, q []tok) bool {
	n, m := len(p), len(q)
	// state (i, j, k): k is 1 once at least one rune was consumed.
	seen := make([]bool, (n+1)*(m+1)*2)
	idx := func(i, j, k int) int { return (i*(m+1)+j)*2 + k }
	type state struct{ i, j, k int }
	stack := []state{{0, 0, 0}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[idx(s.i, s.j, s.k)] {
			continue
		}
		seen[idx(s.i, s.j, s.k)] = true
		if s.i == n && s.j == m && s.k == 1 {
			return true
		}
		if s.i < n && p[s.i].kind == tokStar {
			stack = append(stack, state{s.i + 1, s.j, s.k})
		}
		if s.j < m && q[s.j].kind == tokStar {
			stack = append(stack, state{s.i, s.j + 1, s.k})
		}
		// Consume one rune on both sides: a star stays, the rest move on.
		if s.i == n || s.j == m {
			continue
		}
		a, b := p[s.i], q[s.j]
		if a.kind == tokLit && b.kind == tokLit && a.r != b.r {
			continue
		}
		ni, nj := s.i+1, s.j+1
		if a.kind == tokStar {
			ni = s.i
		}
		if b.kind == tokStar {
			nj = s.j
		}
		stack = append(stack, state{ni, nj, 1})
	}
	return false
}
