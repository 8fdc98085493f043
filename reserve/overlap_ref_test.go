package reserve

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOverlapAgainstReference compares Overlap with the plain product
// search it replaced (overlapRef, kept below) on random patterns over a
// small alphabet, where overlaps and near misses are common.
func TestOverlapAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	atoms := []string{"a", "b", "*", "?", "ab", "a*", "*b"}
	gen := func() string {
		n := 1 + rng.IntN(4)
		segs := make([]string, n)
		for i := range segs {
			if rng.IntN(5) == 0 {
				segs[i] = "**"
				continue
			}
			var b strings.Builder
			for range 1 + rng.IntN(3) {
				b.WriteString(atoms[rng.IntN(len(atoms))])
			}
			segs[i] = b.String()
		}
		p := strings.Join(segs, "/")
		if rng.IntN(6) == 0 {
			p += "/"
		}
		return p
	}
	for range 20000 {
		p, q := gen(), gen()
		a, err1 := Parse(p)
		b, err2 := Parse(q)
		if err1 != nil || err2 != nil {
			continue
		}
		if got, want := Overlap(a, b), overlapRef(a, b); got != want {
			t.Fatalf("Overlap(%q, %q) = %v, the reference says %v", p, q, got, want)
		}
	}
}

// overlapRef is the former Overlap; it reports whether some path matches both a and b: it explores
// the product of the two patterns' automata, so it is exact for the
// supported syntax.
func overlapRef(a, b Glob) bool {
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
		if !sa.deep && !sb.deep && !segOverlapRef(sa.toks, sb.toks) {
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

// segOverlapRef is the former segOverlap; it reports whether some non-empty name matches both p and q.
func segOverlapRef(p, q []tok) bool {
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
