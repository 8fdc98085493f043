// Package toolcall tells what an agent's tool call writes: an editor
// tool's file, an apply_patch patch's files, or a shell command's
// redirections and the files of the commands it runs (sed -i, cp, rm, git
// checkout …), read with a real shell parser. Every client's hook asks
// it the same question, so Claude Code, Codex and Gemini CLI get one
// answer; a client only says which of its tools is which Kind.
//
// It only reads the filesystem (whether a folder exists, for cd and cp);
// it runs nothing.
package toolcall

import (
	"path/filepath"
	"slices"
)

// Kind is what a tool does with its input.
type Kind uint8

const (
	Other Kind = iota // a tool that writes no file (reads, searches …)
	Edit              // writes the file Call.Path names
	Patch             // applies the apply_patch patch in Call.Input
	Shell             // runs the shell command in Call.Input
)

// Call is one tool call: its kind, the file an editor tool names, the
// patch or command, and the folder it runs in (absolute; "" unknown).
type Call struct {
	Kind  Kind
	Path  string
	Input string
	Cwd   string

	// Thinned says the command lost the content lines of its patches
	// (a hook reads a huge command thinned): only a patch in a quoted
	// here-document lost nothing the shell runs.
	Thinned bool
}

// Named is a path a call names. Path is absolute and clean; when Glob
// it is a pattern in reserve's syntax (*, ?, ** segments) standing for
// every file the call may touch there. Why says why st cannot decide
// what the call does to it (only for Effect.Undecided).
type Named struct {
	Path string
	Glob bool
	Why  string
}

// Effect is what a call writes: the paths it certainly writes, the
// paths it names without st being able to tell whether it writes them,
// and Blind, why st cannot even tell which paths it writes ("" when it
// can).
type Effect struct {
	Writes    []Named
	Undecided []Named
	Blind     string

	seen map[seenKey]bool // what Writes and Undecided hold
}

type seenKey struct {
	path      string
	glob, und bool
}

// None reports whether the call writes nothing st can see and hides
// nothing from it.
func (e Effect) None() bool { return len(e.Writes) == 0 && len(e.Undecided) == 0 && e.Blind == "" }

// Of returns what c writes.
func Of(c Call) Effect {
	switch c.Kind {
	case Edit:
		if c.Path == "" {
			return Effect{}
		}
		p := c.Path
		if !filepath.IsAbs(p) {
			if c.Cwd == "" {
				return Effect{}
			}
			p = filepath.Join(c.Cwd, p)
		}
		return Effect{Writes: []Named{{Path: filepath.Clean(p)}}}
	case Patch:
		var e Effect
		paths := PatchPaths(c.Input) // each once
		if c.Cwd == "" && slices.ContainsFunc(paths, func(p string) bool { return !filepath.IsAbs(p) }) {
			e.Blind = "st cannot tell which folder this apply_patch writes in: the working folder is unknown"
		}
		e.Writes = make([]Named, 0, len(paths))
		for _, p := range paths {
			if filepath.IsAbs(p) || c.Cwd != "" {
				e.Writes = append(e.Writes, Named{Path: join(c.Cwd, p)})
			}
		}
		return e
	case Shell:
		e := shellEffect(c.Input, c.Cwd, osFS{}, c.Thinned)
		return e
	}
	return Effect{}
}

// join is p in folder dir, clean.
func join(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// write records a path the call writes, once.
func (e *Effect) write(n Named) {
	if e.once(seenKey{n.Path, n.Glob, false}) {
		e.Writes = append(e.Writes, n)
	}
}

// undecided records a path the call names without st knowing what it
// does to it, once.
func (e *Effect) undecided(n Named) {
	if e.once(seenKey{n.Path, n.Glob, true}) {
		e.Undecided = append(e.Undecided, n)
	}
}

func (e *Effect) once(k seenKey) bool {
	if e.seen == nil {
		e.seen = map[seenKey]bool{}
	}
	if e.seen[k] {
		return false
	}
	e.seen[k] = true
	return true
}

// blind records why st cannot tell what the call writes; the first
// reason stays.
func (e *Effect) blind(why string) {
	if e.Blind == "" {
		e.Blind = why
	}
}
