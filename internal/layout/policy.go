package layout

import (
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

// Policy says what an explicitly named agent's folders must look like.
// The agent taken from the environment ("you, claiming to be you") always
// gets its inbox and archive created.
type Policy int

const (
	// Strict requires both inbox/ and archive/ to exist.
	Strict Policy = iota
	// Lenient requires at least one of inbox/ and archive/.
	Lenient
	// Create makes both folders.
	Create
	// GrammarOnly checks the name and nothing else.
	GrammarOnly
)

// Resolve returns the agent a command acts on: explicit when non-empty
// (validated, then checked against p), otherwise the environment's agent
// (validated, its folders created).
func Resolve(root, explicit string, p Policy, env *Env) (string, error) {
	if explicit != "" {
		if err := CheckAgent(explicit); err != nil {
			return "", err
		}
		return explicit, Apply(root, explicit, p)
	}
	id, err := env.AgentName()
	if err != nil {
		return "", err
	}
	if err := CheckAgent(id); err != nil {
		return "", err
	}
	return id, EnsureAgent(root, id)
}

// Apply checks or creates the folders of a valid agent name per p.
func Apply(root, id string, p Policy) error {
	switch p {
	case Create:
		return EnsureAgent(root, id)
	case GrammarOnly:
		return nil
	}
	t, err := fsutil.Open(root)
	if err != nil {
		return sterr.NotHosted(id)
	}
	defer t.Close()
	inbox, archive := t.IsDir(id+"/inbox"), t.IsDir(id+"/archive")
	if inbox && archive || p == Lenient && (inbox || archive) {
		return nil
	}
	return sterr.NotHosted(id)
}

// EnsureAgent creates <root>/<id>/inbox and archive.
func EnsureAgent(root, id string) error {
	t, err := fsutil.OpenOrCreate(root)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := t.MkdirAll(id + "/inbox"); err != nil {
		return err
	}
	return t.MkdirAll(id + "/archive")
}
