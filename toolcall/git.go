package toolcall

import (
	"path/filepath"
	"strings"
)

// gitCall is one git command being read: the invocation of its
// subcommand, and the working tree --work-tree names, if any.
type gitCall struct {
	in   invocation
	tree *word
}

// gitRule reads git [-C DIR] [-c K=V] [--work-tree DIR] SUBCOMMAND …
// A subcommand that restores or removes paths writes what its pathspecs
// cover (a folder with everything under it, as git reads them); one that
// may rewrite any file of the working tree (a branch switch, reset
// --hard, stash, merge, pull, rebase …) names the whole tree, undecided:
// whether it touches a reserved file depends on what git finds.
func gitRule(in invocation) {
	args := in.args
	var dirs []word
	g := gitCall{in: in}
	for len(args) > 0 && (args[0].isFlag() || !args[0].lit && strings.HasPrefix(args[0].pre, "-")) {
		a := args[0].text
		if !args[0].lit {
			if strings.HasPrefix(args[0].pre, "--work-tree=") {
				tree := args[0] // not literal: treeTops says st cannot name it
				g.tree = &tree
			}
			args = args[1:]
			continue
		}
		args = args[1:]
		switch {
		case a == "-C" && len(args) > 0:
			dirs = append(dirs, args[0])
			args = args[1:]
		case a == "--work-tree" && len(args) > 0:
			g.tree = &args[0]
			args = args[1:]
		case strings.HasPrefix(a, "--work-tree="):
			tree := literal(strings.TrimPrefix(a, "--work-tree="))
			g.tree = &tree
		case (a == "-c" || a == "--git-dir" || a == "--namespace") && len(args) > 0:
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return
	}
	if len(dirs) > 0 {
		at := in.s.at
		defer func() { in.s.at = at }()
		for _, d := range dirs {
			in.s.cd(d, "git -C")
		}
	}
	sub, rest := args[0].text, args[1:]
	g.in.name = "git " + sub
	switch sub {
	case "checkout":
		g.checkout(rest)
	case "restore":
		g.restore(rest)
	case "switch":
		o := optSpec{value: "cC", long: []string{"create", "force-create", "orphan", "conflict"}}.parse(rest)
		if o.any("c", "C", "create", "force-create") && len(o.ops) == 0 {
			return // a new branch where HEAD is: the files stay
		}
		g.wholeTree()
	case "reset":
		if (optSpec{}).parse(rest).any("hard", "merge", "keep") {
			g.wholeTree()
		}
	case "stash":
		g.stash(rest)
	case "merge", "pull", "rebase", "cherry-pick", "revert", "am":
		g.wholeTree()
	case "rm":
		o := optSpec{}.parse(rest)
		if !o.any("cached") {
			g.pathspecs(o.ops, o.any("r"))
		}
	case "clean":
		o := optSpec{value: "e", long: []string{"exclude"}}.parse(rest)
		if o.any("n", "dry-run") {
			return
		}
		ops := o.ops
		if len(ops) == 0 {
			ops = []word{literal(".")} // git cleans from the folder it runs in
		}
		g.pathspecs(ops, true)
	case "checkout-index":
		if o := (optSpec{}).parse(rest); o.any("a", "all") {
			g.wholeTree()
		} else {
			g.pathspecs(o.ops, false)
		}
	case "read-tree":
		if (optSpec{}).parse(rest).any("u", "reset") {
			g.wholeTree()
		}
	case "mv":
		copyRule(true, copySpec)(invocation{s: in.s, name: "git mv", args: rest})
	case "apply":
		g.apply(rest)
	}
}

// checkout reads git checkout: after "--" every operand is a path; without
// it, a first operand that is no file or folder is a branch or commit,
// alone a switch of the whole tree.
func (g gitCall) checkout(rest []word) {
	before, after, dashed := splitDashDash(rest)
	o := optSpec{value: "bB", long: []string{"orphan", "conflict", "pathspec-from-file"}}.parse(before)
	switch {
	case o.any("pathspec-from-file"):
		g.in.s.eff.blind("st cannot see which files this `git checkout` restores: they are listed in a file")
	case dashed:
		g.pathspecs(after, true)
	case len(o.ops) == 0:
		if o.any("p", "patch", "f", "force") {
			g.wholeTree() // hunks to discard, or every local change thrown away
		}
		// -b/-B/--orphan NAME alone: a new branch where HEAD is, the files stay.
	case g.isPath(o.ops[0]):
		g.pathspecs(o.ops, true)
	case len(o.ops) > 1:
		g.pathspecs(o.ops[1:], true)
	default:
		g.wholeTree()
	}
}

// restore reads git restore: its pathspecs, unless only the index is
// restored (--staged without --worktree).
func (g gitCall) restore(rest []word) {
	o := optSpec{value: "s", long: []string{"source", "pathspec-from-file"}}.parse(rest)
	switch {
	case o.any("S", "staged") && !o.any("W", "worktree"):
	case o.any("pathspec-from-file"):
		g.in.s.eff.blind("st cannot see which files this `git restore` restores: they are listed in a file")
	case len(o.ops) > 0:
		g.pathspecs(o.ops, true)
	case o.any("p", "patch"):
		g.wholeTree()
	}
}

// stash reads git stash: push (the default) puts the tree back to HEAD,
// in its pathspecs or everywhere; pop, apply and branch write what the
// stash holds; list, show, drop, clear, create and store leave the files.
func (g gitCall) stash(rest []word) {
	verb, args := "push", rest
	if len(rest) > 0 && rest[0].lit && !rest[0].isFlag() {
		verb, args = rest[0].text, rest[1:]
	}
	switch verb {
	case "list", "show", "drop", "clear", "create", "store":
	case "push":
		o := optSpec{value: "m", long: []string{"message", "pathspec-from-file"}}.parse(args)
		if len(o.ops) > 0 && !o.any("pathspec-from-file") {
			g.pathspecs(o.ops, true)
			return
		}
		g.wholeTree()
	default:
		g.wholeTree()
	}
}

func (g gitCall) apply(rest []word) {
	in := g.in
	o := optSpec{value: "pC", long: []string{"directory", "exclude", "include"}}.parse(rest)
	switch {
	case o.any("check", "stat", "numstat", "summary", "cached"):
	case len(o.ops) > 0 || in.stdin == "":
		in.s.eff.blind("st cannot see which files this `git apply` changes: the diff is not written in the command")
	default:
		strip := 1
		if p := o.vals["p"]; len(p) > 0 {
			strip = atoi(p[len(p)-1].text)
		}
		in.diffWrites(in.stdin, strip)
	}
}

// splitDashDash splits args at the first "--": what comes before, what
// after, and whether there was one.
func splitDashDash(args []word) (before, after []word, dashed bool) {
	for i, a := range args {
		if a.lit && a.text == "--" {
			return args[:i], args[i+1:], true
		}
	}
	return args, nil, false
}

// isPath reports whether w names a file or folder that exists, in some
// folder the shell may be in, or is a pattern: git then reads it as a
// path rather than a branch.
func (g gitCall) isPath(w word) bool {
	if !w.lit {
		return false
	}
	if strings.ContainsAny(w.text, "*?[") || strings.HasPrefix(w.text, ":") {
		return true
	}
	ps, why := g.in.s.paths(w.text)
	if why != "" {
		return true // the folder is unknown: writing it says so
	}
	for _, p := range ps {
		if g.in.s.fs.exists(p) {
			return true
		}
	}
	return false
}

// pathspecs records what git's pathspecs ws cover as written: a path and,
// when tree, everything under it; a pattern in every folder under its
// literal start (git's * crosses folders); ":/…" from the top of the
// working tree.
func (g gitCall) pathspecs(ws []word, tree bool) {
	for _, w := range ws {
		switch {
		case !w.lit:
			g.in.writeTree(w, tree)
		case strings.HasPrefix(w.text, ":/"):
			g.fromTop(strings.TrimPrefix(w.text, ":/"))
		case strings.HasPrefix(w.text, ":"):
			g.wholeTree() // other pathspec magic (":!x", ":(glob)…"): st does not read it
		case strings.ContainsAny(w.text, "*?["):
			t := gitPattern(w.text)
			g.in.s.write(word{text: t, lit: true, glob: true, pre: t}, "`"+g.in.name+"`")
		default:
			g.in.writeTree(w, tree)
		}
	}
}

// gitPattern is a st glob covering every path git's pattern p matches.
// git's * crosses folders, so "*.go" and "src/*.go" are every .go file
// at any depth under the folder; any other pattern covers everything
// under its literal start.
func gitPattern(p string) string {
	dir, last := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, last = p[:i+1], p[i+1:]
	}
	if !strings.ContainsAny(dir, "*?[") && strings.HasPrefix(last, "*") {
		return dir + "**/" + (word{text: last}).pattern()
	}
	start := p[:strings.IndexAny(p, "*?[")]
	return start[:strings.LastIndexByte(start, '/')+1] + "**"
}

// treeTops are the top folders of the working trees command may act on
// (tree, --work-tree's, else the repository holding each folder the
// shell may be in); ok is false, and the call blind, where st cannot
// tell.
func (s *shell) treeTops(command string, tree *word) (tops []string, ok bool) {
	if tree != nil {
		if !tree.lit {
			s.eff.blind("st cannot tell which working tree `" + command + "` changes: --work-tree holds a variable, a ~ or a command substitution")
			return nil, false
		}
		ps, why := s.paths(tree.text)
		if why != "" {
			s.eff.blind("st cannot tell which working tree `" + command + "` changes: " + why)
			return nil, false
		}
		return ps, true
	}
	if s.at.why != "" {
		s.eff.blind("st cannot tell which repository `" + command + "` changes: " + s.at.why)
		return nil, false
	}
	for _, d := range s.at.dirs {
		top := s.fs.gitTop(d)
		if top == "" {
			top = d // no repository above: git will fail, or find one st cannot see
		}
		tops = append(tops, top)
	}
	return tops, true
}

// wholeTree records that command may rewrite any file of the working
// tree (git reset --hard, cargo fmt): the tree is named, undecided.
func (s *shell) wholeTree(command string, tree *word) {
	tops, ok := s.treeTops(command, tree)
	if !ok {
		return
	}
	why := "`" + command + "` may rewrite any file of the working tree"
	for _, top := range tops {
		s.eff.undecided(Named{Path: filepath.Join(top, "**"), Glob: true, Why: why})
	}
}

// wholeTree records that the git command may rewrite any file of its
// working tree.
func (g gitCall) wholeTree() { g.in.s.wholeTree(g.in.name, g.tree) }

// fromTop records rel, a path from the top of the working tree, and
// everything under it, as written.
func (g gitCall) fromTop(rel string) {
	tops, ok := g.in.s.treeTops(g.in.name, g.tree)
	if !ok {
		return
	}
	for _, top := range tops {
		p := filepath.Join(top, rel)
		g.in.writeTree(literal(p), true)
	}
}
