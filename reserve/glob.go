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

// segment is one folder name pattern, as written in src; deep marks
// "**".
type segment struct {
	deep bool
	src  string
	toks []tok
}

// sameName reports whether some non-empty name matches both x and y.
func sameName(x, y segment) bool {
	if x.src == y.src {
		return true // a name pattern always matches some name
	}
	return segOverlap(x.toks, y.toks)
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
			seg := segment{src: s, toks: make([]tok, 0, len(s))}
			for _, r := range s {
				switch r {
				case '*':
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
		seg := segment{src: s}
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
// supported syntax. Patterns of a few segments (all real ones) are
// explored without allocating: it runs for every candidate pair of a
// listing.
func Overlap(a, b Glob) bool {
	n, m := len(a.segs), len(b.segs)
	// A common path ends with names both tails match, up to the last **
	// of either: checked first, it settles most pairs of patterns that
	// start with ** (**/x/*.go against **/y/*.go) at once.
	for i, j := n-1, m-1; i >= 0 && j >= 0 && !a.segs[i].deep && !b.segs[j].deep; i, j = i-1, j-1 {
		if !sameName(a.segs[i], b.segs[j]) {
			return false
		}
	}
	states := (n + 1) * (m + 1)
	var seenBuf [4]uint64
	var stackBuf [64]uint16
	seen, stack := seenBuf[:], stackBuf[:0]
	if states > len(seenBuf)*64 {
		seen = make([]uint64, (states+63)/64)
	}
	mark := func(s int) bool { // reports whether s was new
		if seen[s/64]&(1<<(s%64)) != 0 {
			return false
		}
		seen[s/64] |= 1 << (s % 64)
		return true
	}
	push := func(i, j int) {
		if s := i*(m+1) + j; mark(s) {
			stack = append(stack, uint16(s))
		}
	}
	push(0, 0)
	for len(stack) > 0 {
		st := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		i, j := st/(m+1), st%(m+1)
		if i == n && j == m {
			return true
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
		if !sa.deep && !sb.deep && !sameName(sa, sb) {
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
	if lit, ok := literalToks(p, q); ok {
		return lit
	}
	n, m := len(p), len(q)
	// state (i, j, k): k is 1 once at least one rune was consumed.
	states := (n + 1) * (m + 1) * 2
	var seenBuf [8]uint64
	var stackBuf [128]int32
	seen, stack := seenBuf[:], stackBuf[:0]
	if states > len(seenBuf)*64 {
		seen = make([]uint64, (states+63)/64)
	}
	push := func(i, j, k int) {
		s := (i*(m+1)+j)*2 + k
		if seen[s/64]&(1<<(s%64)) == 0 {
			seen[s/64] |= 1 << (s % 64)
			stack = append(stack, int32(s))
		}
	}
	push(0, 0, 0)
	for len(stack) > 0 {
		s := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		k := s % 2
		i, j := (s/2)/(m+1), (s/2)%(m+1)
		if i == n && j == m && k == 1 {
			return true
		}
		if i < n && p[i].kind == tokStar {
			push(i+1, j, k)
		}
		if j < m && q[j].kind == tokStar {
			push(i, j+1, k)
		}
		// Consume one rune on both sides: a star stays, the rest move on.
		if i == n || j == m {
			continue
		}
		a, b := p[i], q[j]
		if a.kind == tokLit && b.kind == tokLit && a.r != b.r {
			continue
		}
		ni, nj := i+1, j+1
		if a.kind == tokStar {
			ni = i
		}
		if b.kind == tokStar {
			nj = j
		}
		push(ni, nj, 1)
	}
	return false
}

// literalToks answers segOverlap at once when both names are literal
// (the common case: equal or not) or when their literal starts already
// differ; ok is false when it takes the full search.
func literalToks(p, q []tok) (overlap, ok bool) {
	allLit := true
	for i := 0; i < len(p) || i < len(q); i++ {
		var a, b tok
		if i < len(p) {
			a = p[i]
		}
		if i < len(q) {
			b = q[i]
		}
		if i >= len(p) || i >= len(q) || a.kind != tokLit || b.kind != tokLit {
			if i < len(p) && a.kind != tokLit || i < len(q) && b.kind != tokLit {
				allLit = false
				break
			}
			return false, true // one literal name ends before the other
		}
		if a.r != b.r {
			return false, true
		}
	}
	return allLit && len(p) > 0, allLit
}
