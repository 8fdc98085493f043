// Package layout knows where things live in the store: it validates agent
// names, resolves the root and the acting agent from the environment (the
// only code in st that reads it), and applies the folder policy that
// decides whether an agent's folders must exist or may be created.
package layout

import "github.com/smalltalk-go/st/internal/sterr"

// reserved reports whether name can never be an agent: it is a folder or
// state word.
func reserved(name string) bool {
	switch name {
	case "inbox", "archive", "resources", "status", "name",
		"offline", "available", "busy", "away", "dnd",
		"unknown", "members", "agents", "overview":
		return true
	}
	return false
}

// ValidAgent reports whether name matches ^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$
// and is not reserved. Such a name is always a single safe path element.
func ValidAgent(name string) bool {
	if name == "" || reserved(name) {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if alnum {
			continue
		}
		if (c == '.' || c == '-') && i != 0 && i != len(name)-1 {
			continue
		}
		return false
	}
	return true
}

// CheckAgent returns the INVALID_IDENTITY error for a name ValidAgent refuses.
func CheckAgent(name string) error {
	if !ValidAgent(name) {
		return sterr.InvalidAgent(name)
	}
	return nil
}
