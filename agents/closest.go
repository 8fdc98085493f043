package agents

import (
	"github.com/smalltalk-go/st/internal/fsutil"
)

// NewRecipientNote is the note for a message sent to a name that had no
// folder in the store before it: the send created the folder, which is
// usually a typo. It names the closest existing agent when one is near
// enough. Delivery still happens (scripts rely on it); this only warns.
func NewRecipientNote(t *fsutil.Tree, to string) string {
	note := "note: " + to + " had no folder before this message, so it is a new agent"
	if c := Closest(IDs(t), to); c != "" {
		note += "; did you mean " + c + "?"
	}
	return note
}

// Closest returns the name in ids nearest to name by edit distance, if
// it is near enough to be a typo of it (at most 2 edits, and fewer than
// half of name's letters); "" otherwise. Ties go to the first in ids.
func Closest(ids []string, name string) string {
	best, bestD := "", 0
	limit := min(2, (len([]rune(name))-1)/2)
	for _, id := range ids {
		if id == name {
			continue
		}
		if d := editDistance(id, name); d <= limit && (best == "" || d < bestD) {
			best, bestD = id, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance (Levenshtein
// plus adjacent transpositions, the commonest typo) between a and b.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
