package message

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// crockford is the alphabet of the random suffix; the generator maps each
// random byte modulo 32 into it.
const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// NewName returns a canonical name "<unix-ms>-<rand6>.md" for time now.
func NewName(now time.Time) string {
	var b [6]byte
	for i := range b {
		b[i] = crockford[rand.Uint32()%32]
	}
	return strconv.FormatInt(now.UnixMilli(), 10) + "-" + string(b[:]) + ".md"
}

// IsCanonical reports whether name matches ^[0-9]{13}-[0-9a-z]{6}\.md$.
func IsCanonical(name string) bool {
	return len(name) == 23 && hasPrefixShape(name) && name[20:] == ".md"
}

// hasPrefixShape reports whether name starts with <13 digits>-<6 [0-9a-z]>.
func hasPrefixShape(name string) bool {
	if len(name) < 20 || name[13] != '-' {
		return false
	}
	for i := 0; i < 13; i++ {
		if name[i] < '0' || name[i] > '9' {
			return false
		}
	}
	for i := 14; i < 20; i++ {
		c := name[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

// Prefix returns the 20-character "<ts>-<rand6>" of a name matching
// ^([0-9]{13}-[0-9a-z]{6})\..+$, and false for any other name.
func Prefix(name string) (string, bool) {
	if len(name) < 22 || !hasPrefixShape(name) || name[20] != '.' {
		return "", false
	}
	return name[:20], true
}

// IsAttachment reports whether name has a prefix but is not the canonical
// message itself (e.g. "<prefix>.options.json").
func IsAttachment(name string) bool {
	_, ok := Prefix(name)
	return ok && !IsCanonical(name)
}

// IsOutside reports whether name is a human-dropped ".md" file: not
// canonical, no prefix, not hidden, no path separators.
func IsOutside(name string) bool {
	if len(name) <= 3 || !strings.HasSuffix(name, ".md") || name[0] == '.' {
		return false
	}
	if strings.ContainsAny(name, "/\\") || IsCanonical(name) {
		return false
	}
	_, hasPrefix := Prefix(name)
	return !hasPrefix
}

// IsDeliverable reports whether name is canonical or outside.
func IsDeliverable(name string) bool { return IsCanonical(name) || IsOutside(name) }

// Timestamp returns the unix-ms prefix of a canonical or prefixed name.
func Timestamp(name string) int64 {
	ts, _ := strconv.ParseInt(name[:13], 10, 64)
	return ts
}
