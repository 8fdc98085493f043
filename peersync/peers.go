package peersync

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

// Peer is one "name: spec" entry of peers.yaml.
type Peer struct {
	Name string
	Spec string
}

// PeersFile is the name of the peers list inside the config folder.
const PeersFile = "peers.yaml"

// ParsePeers reads the peers.yaml format: one "name: spec" per line,
// split at the first colon, both sides trimmed. Blank lines, comment
// lines (optional blanks then #), lines without a colon and lines with
// an empty side are skipped. Entries keep file order, duplicates too:
// alias lookups take the first match, --all visits every entry.
//
// The lines are valid YAML, but the file is read line by line rather
// than decoded as YAML, because existing st installs rely on these exact
// rules, which YAML does not share: "a: b # x" keeps " # x" in the spec,
// quotes are kept, a line without a colon or an indented one is skipped
// instead of failing the whole file, and duplicate names are allowed.
func ParsePeers(text string) []Peer {
	var out []Peer
	for _, line := range strings.Split(text, "\n") {
		rest := strings.TrimLeft(line, " \t")
		if rest == "" || rest[0] == '#' {
			continue
		}
		name, spec, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		name, spec = jsstr.TrimSpace(name), jsstr.TrimSpace(spec)
		if name == "" || spec == "" {
			continue
		}
		out = append(out, Peer{Name: name, Spec: spec})
	}
	return out
}

// readPeers reads <config>/peers.yaml for the --all fan-outs.
func readPeers(configDir string) ([]Peer, error) {
	path := filepath.Join(configDir, PeersFile)
	data, err := readPeersFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, sterr.New(sterr.PeersConfigMissing, "no peers configured at "+path,
			map[string]any{"path": path})
	}
	if err != nil {
		return nil, err
	}
	peers := ParsePeers(string(data))
	if len(peers) == 0 {
		return nil, configInvalid(path, "no peers found in")
	}
	return peers, nil
}

// readPeersFile reads peers.yaml as every file of $ST_CONFIG is read: a
// regular file (through symlinks) of at most layout.MaxConfigBytes, so a
// FIFO there cannot hang a sync.
func readPeersFile(path string) ([]byte, error) {
	return fsutil.ReadConfig(path, layout.MaxConfigBytes)
}

func configInvalid(path, reason string) error {
	return sterr.New(sterr.PeersConfigInvalid, reason+": "+path,
		map[string]any{"path": path, "reason": reason})
}

// lookupAlias returns the spec of the first entry named name, if any.
// A missing peers.yaml simply has no aliases.
func lookupAlias(configDir, name string) (string, bool, error) {
	data, err := readPeersFile(filepath.Join(configDir, PeersFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	for _, p := range ParsePeers(string(data)) {
		if p.Name == name {
			return p.Spec, true, nil
		}
	}
	return "", false, nil
}

// ResolvePeer turns a peer spec into the rsync location of its store
// root, always ending in "/" (rsync's "the contents of"):
//
//   - local:<path>: the path (created if missing);
//   - anything with a colon (host:path, user@host:path): itself;
//   - a bare token: its alias in peers.yaml, resolved again, or else
//     <token>:.local/state/smalltalk/ (the default root over ssh).
//
// mkdir creates a local peer's folder.
func ResolvePeer(spec, configDir string, mkdir func(string) error) (string, error) {
	seen := map[string]bool{}
	for {
		if err := refuseOptionLike(spec); err != nil {
			return "", err
		}
		if p, ok := strings.CutPrefix(spec, "local:"); ok {
			if p == "" {
				return "", configInvalid(spec, "local: peer requires a path")
			}
			if err := mkdir(p); err != nil {
				return "", err
			}
			return strings.TrimSuffix(p, "/") + "/", nil
		}
		if strings.Contains(spec, ":") {
			return strings.TrimSuffix(spec, "/") + "/", nil
		}
		if seen[spec] {
			return "", sterr.Msg("peer alias loop: %s", spec)
		}
		seen[spec] = true
		alias, ok, err := lookupAlias(configDir, spec)
		if err != nil {
			return "", err
		}
		if !ok {
			return spec + ":.local/state/smalltalk/", nil
		}
		spec = alias
	}
}
