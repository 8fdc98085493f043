package dashboard

import "sync"

// shared renders a section once for every open page that needs it: the
// first stream to ask for a key at a version renders it, the others
// (there may be dozens of tabs on one agent or on the fleet) get the
// same bytes. Renders run one at a time, which also keeps a burst of
// changes from rendering the same section on every stream at once.
type shared struct {
	mu      sync.Mutex
	entries map[string]sharedEntry
}

type sharedEntry struct {
	version uint64
	data    map[string]any
}

// get returns key's section at version or newer, and its version; render
// makes it when none is cached.
func (c *shared) get(key string, version uint64, render func() map[string]any) (map[string]any, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok && e.version >= version {
		return e.data, e.version
	}
	if c.entries == nil {
		c.entries = map[string]sharedEntry{}
	}
	d := render()
	c.entries[key] = sharedEntry{version, d}
	return d, version
}
