package main

import (
	"strings"

	"github.com/alecthomas/kong"
)

// closestVerb is the visible verb (or alias) of n nearest to a mistyped
// word, for a "did you mean": within two edits (a swap of neighbours
// counts as one) and fewer than half the word's letters, or "" when
// nothing is that close.
func closestVerb(word string, n *kong.Node) string {
	best, bestDist := "", 3
	for _, c := range visibleChildren(n) {
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			d := editDistance(word, name)
			if d < bestDist && 2*d < len(word) {
				best, bestDist = c.Name, d
			}
		}
	}
	return best
}

// withHint adds "Did you mean `<path> <verb>`?" to the first line of a
// group's unknown-verb message when a verb is near.
func withHint(msg, near, path string) string {
	if near == "" {
		return msg
	}
	first, rest, _ := strings.Cut(msg, "\n")
	return first + ". Did you mean `" + path + " " + near + "`?\n" + rest
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of adjacent bytes.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
