package toolcall

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell command is read with mvdan.cc/sh's bash parser and walked as
// the shell would run it, following its folder: cd and pushd move it, a
// subshell, a pipeline's commands and a background command move only
// their own. Where a cd may fail (its folder does not exist yet) or a
// branch may not run, the folders the shell may be in are all kept, and
// a path is checked in each. What writes is in commands.go.

// fsys is what the walk asks of the filesystem (tests fake it).
type fsys interface {
	isDir(p string) bool
	exists(p string) bool
	gitTop(dir string) string // the working tree holding dir, "" outside any
}

type osFS struct{}

func (osFS) isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func (osFS) exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// gitTop is the nearest folder at or above dir holding a .git (a folder,
// or a file in a linked worktree).
func (osFS) gitTop(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// maxFolders bounds the folders a shell may be in that the walk keeps;
// past it the folder is unknown.
const maxFolders = 8

// folder is where the shell may be: one of dirs, or, when why is set,
// somewhere st cannot tell.
type folder struct {
	dirs []string
	why  string
}

func (f folder) union(g folder) folder {
	if f.why != "" {
		return f
	}
	if g.why != "" {
		return g
	}
	out := folder{dirs: append([]string(nil), f.dirs...)}
	for _, d := range g.dirs {
		if !contains(out.dirs, d) {
			out.dirs = append(out.dirs, d)
		}
	}
	if len(out.dirs) > maxFolders {
		return folder{why: "too many folders the shell may be in"}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// shell is one walk of a command.
type shell struct {
	fs    fsys
	at    folder
	eff   *Effect
	depth int    // bash -c and eval strings parsed again
	stdin string // the literal text piped into the command being read, when known
	piped bool   // the command being read gets a pipe's output on stdin

	hdocPatches int // patches inside quoted here-documents (Call.Thinned)

	// links are the links the command made so far (ln, cp -l/-s), by
	// path: a later write through one writes what it points to.
	links map[string]string
}

// maxDepth bounds how deep bash -c, eval and substitutions nest.
const maxDepth = 16

// shellEffect reads command, run in folder cwd; thinned as Call.Thinned.
func shellEffect(command, cwd string, fs fsys, thinned bool) Effect {
	tableOnce.Do(buildTables)
	var e Effect
	s := &shell{fs: fs, eff: &e}
	if cwd == "" {
		s.at = folder{why: "the working folder is unknown"}
	} else {
		s.at = folder{dirs: []string{filepath.Clean(cwd)}}
	}
	s.script(command)
	if thinned && s.hdocPatches < patchCount(command) {
		e.blind("st could not read this command whole, and a patch in it is not in a quoted here-document (<<'EOF'), " +
			"so the lines st skipped may be commands")
	}
	return e
}

// patchCount counts the "*** Begin Patch" lines of s.
func patchCount(s string) int {
	n := 0
	for line := range strings.Lines(s) {
		if strings.TrimSpace(line) == PatchBegin {
			n++
		}
	}
	return n
}

// parser reads bash; one per walk, it is not safe to share.
func newParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
}

// script parses src and walks it in the current shell.
func (s *shell) script(src string) {
	if s.depth++; s.depth > maxDepth {
		s.eff.blind("st cannot follow commands nested this deep")
		return
	}
	defer func() { s.depth-- }()
	f, err := newParser().Parse(strings.NewReader(src), "")
	if err != nil {
		s.eff.blind("st cannot read this shell command (" + err.Error() + ")")
		return
	}
	s.stmts(f.Stmts)
}

func (s *shell) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		s.stmt(st)
	}
}

// sub walks list in a subshell: its folder ends with it.
func (s *shell) sub(list []*syntax.Stmt) {
	at := s.at
	s.stmts(list)
	s.at = at
}

// branch walks list as code that may or may not run: the folder after it
// is any of those before and after.
func (s *shell) branch(list []*syntax.Stmt) {
	at := s.at
	s.stmts(list)
	s.at = at.union(s.at)
}

func (s *shell) stmt(st *syntax.Stmt) {
	if st.Background || st.Coprocess {
		at := s.at
		defer func() { s.at = at }()
	}
	stdin, piped := s.stdin, s.piped
	s.stdin, s.piped = "", false
	for _, r := range st.Redirs {
		s.redirect(r)
		if t, ok := hereText(r); ok {
			stdin, piped = t, true
		}
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			s.nested(a)
		}
		for _, w := range c.Args {
			s.nested(w)
		}
		if len(c.Args) > 0 {
			s.call(words(c.Args), stdin, piped)
		}
	case *syntax.Subshell:
		s.sub(c.Stmts)
	case *syntax.Block:
		s.stmts(c.Stmts)
	case *syntax.BinaryCmd:
		s.binary(c)
	case *syntax.IfClause:
		s.ifClause(c)
	case *syntax.WhileClause:
		s.branch(c.Cond)
		s.branch(c.Do)
	case *syntax.ForClause:
		s.nested(c.Loop)
		s.branch(c.Do)
	case *syntax.CaseClause:
		s.nested(c.Word)
		at, after := s.at, s.at
		for _, item := range c.Items {
			s.at = at
			s.stmts(item.Stmts)
			after = after.union(s.at)
		}
		s.at = after
	case *syntax.FuncDecl:
		// What a function writes is read where it is defined: the call
		// names only the function.
		s.sub([]*syntax.Stmt{c.Body})
	case *syntax.TimeClause:
		if c.Stmt != nil {
			s.stmt(c.Stmt)
		}
	case *syntax.CoprocClause:
		s.sub([]*syntax.Stmt{c.Stmt})
	case *syntax.DeclClause, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		s.nested(c)
	}
}

func (s *shell) ifClause(c *syntax.IfClause) {
	at := s.at
	s.stmts(c.Cond)
	cond := s.at
	s.stmts(c.Then)
	after := s.at
	s.at = cond
	if c.Else != nil {
		s.ifClause(c.Else)
	}
	s.at = after.union(s.at).union(at)
}

// binary walks x && y, x || y and x | y.
func (s *shell) binary(c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.AndStmt:
		s.stmt(c.X)
		at := s.at
		s.stmt(c.Y)
		s.at = s.at.union(at) // x may fail, and y not run
	case syntax.OrStmt:
		before := s.at
		s.stmt(c.X)
		x := s.at
		s.at = before.union(x)
		s.stmt(c.Y)
		s.at = x.union(s.at)
	default: // a pipeline: each command in a subshell of its own
		at := s.at
		s.stmt(c.X)
		s.at = at
		s.stdin, s.piped = pipedText(c.X), true
		s.stmt(c.Y)
		s.at = at
	}
}

// nested walks the commands inside node's words: command and process
// substitutions run in subshells of their own.
func (s *shell) nested(node syntax.Node) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			s.sub(n.Stmts)
			return false
		case *syntax.ProcSubst:
			s.sub(n.Stmts)
			return false
		}
		return true
	})
}

// hereText is the literal text a heredoc or here-string feeds the
// command; ok is false for other redirections.
func hereText(r *syntax.Redirect) (text string, ok bool) {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc == nil {
			return "", true
		}
		return wordOf(r.Hdoc).text, true
	case syntax.WordHdoc:
		return wordOf(r.Word).text + "\n", true
	}
	return "", false
}

// pipedText is the literal text a pipeline's first command prints, when
// it is printf, echo or cat of a heredoc: what `printf '%s' '…' |
// apply_patch` hands on.
func pipedText(st *syntax.Stmt) string {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	args := words(c.Args)
	switch args[0].text {
	case "printf", "echo":
		var b strings.Builder
		for _, a := range args[1:] {
			b.WriteString(a.text)
			b.WriteByte('\n')
		}
		return strings.ReplaceAll(b.String(), `\n`, "\n")
	case "cat":
		for _, r := range st.Redirs {
			if t, ok := hereText(r); ok {
				return t
			}
		}
	}
	return ""
}

// redirect records what a redirection writes, and walks the commands in
// its words and heredoc.
func (s *shell) redirect(r *syntax.Redirect) {
	s.nested(r.Word)
	if r.Hdoc != nil && !quotedHdoc(r) {
		s.nested(r.Hdoc)
	}
	if delim := wordOf(r.Word).text; r.Hdoc != nil && quotedHdoc(r) && delim != "" && strings.IndexByte("+- @", delim[0]) < 0 {
		// A patch's content lines start with one of these: none of
		// them ends this here-document.
		s.hdocPatches += patchCount(wordOf(r.Hdoc).text)
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob, syntax.AppClob,
		syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
	case syntax.DplOut:
		w := wordOf(r.Word)
		if w.lit && (w.text == "-" || strings.Trim(w.text, "0123456789") == "" || strings.TrimRight(w.text, "-") != w.text) {
			return // >&2, >&-, >&3-: a file descriptor
		}
	default:
		return
	}
	s.write(wordOf(r.Word), "a redirection")
}

// quotedHdoc reports whether the heredoc's delimiter is quoted: its
// body is then taken as written.
func quotedHdoc(r *syntax.Redirect) bool {
	if r.Word == nil || len(r.Word.Parts) == 0 {
		return false
	}
	for _, p := range r.Word.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return true
		}
	}
	return strings.Contains(r.Word.Parts[0].(*syntax.Lit).Value, `\`)
}

// devices are the files a write to which writes no project file.
func device(p string) bool {
	return p == "/dev/null" || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/")
}

// paths are w's path in each folder the shell may be in; why is set when
// w is relative and the folder unknown.
func (s *shell) paths(w string) (out []string, why string) {
	if filepath.IsAbs(w) {
		return []string{filepath.Clean(w)}, ""
	}
	if s.at.why != "" {
		return nil, s.at.why
	}
	for _, d := range s.at.dirs {
		out = append(out, filepath.Join(d, w))
	}
	return out, ""
}

// write records that the command writes the file w names. what names
// what writes it, for the reasons.
func (s *shell) write(w word, what string) {
	s.name(w, what, true, "")
}

// undecided records that the command names w without st knowing whether
// it writes it, and why.
func (s *shell) undecided(w word, why string) {
	s.name(w, "", false, why)
}

// name records w as written (decided) or as named with why.
func (s *shell) name(w word, what string, decided bool, why string) {
	if w.lit && w.text == "" {
		return
	}
	if !w.lit {
		// A path built from a variable or a substitution: only the
		// folder its literal start names is known.
		dir := w.pre
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			dir = dir[:i]
		} else {
			dir = ""
		}
		if dir == "" && !strings.HasPrefix(w.pre, "/") {
			if decided {
				s.eff.blind("st cannot tell which file " + what + " writes: its name holds a variable, a ~ or a command substitution")
			}
			return
		}
		if dir == "" {
			dir = "/"
		}
		w = word{text: dir + "/**", lit: true, glob: true}
		decided, why = false, "its name holds a variable, a ~ or a command substitution"
	}
	text, glob := w.text, w.glob
	if glob {
		text = w.pattern()
	}
	ps, unknown := s.paths(text)
	if unknown != "" {
		if decided {
			s.eff.blind("st cannot tell which folder " + what + " writes " + w.text + " in: " + unknown)
		}
		return
	}
	for _, p := range ps {
		if device(p) {
			continue
		}
		for _, q := range []string{p, s.through(p)} {
			if q == "" {
				continue
			}
			n := Named{Path: q, Glob: glob, Why: why}
			if decided {
				n.Why = ""
				s.eff.write(n)
			} else {
				s.eff.undecided(n)
			}
		}
	}
}

// link records that the command makes a link at w pointing to target (a
// symbolic one's relative target is read from the link's folder).
func (s *shell) link(w, target word, symbolic bool) {
	if !w.lit || !target.lit || w.glob || target.glob {
		return
	}
	ps, why := s.paths(w.text)
	if why != "" {
		return
	}
	for _, p := range ps {
		t := target.text
		switch {
		case filepath.IsAbs(t):
			t = filepath.Clean(t)
		case symbolic:
			t = filepath.Join(filepath.Dir(p), t)
		default:
			ts, why := s.paths(t)
			if why != "" || len(ts) != len(ps) {
				continue
			}
			t = ts[slices.Index(ps, p)]
		}
		if s.links == nil {
			s.links = map[string]string{}
		}
		s.links[p] = t
	}
}

// through is what a write of p reaches through a link the command made
// (the nearest, where links nest): the file a link points to, or the path
// under a linked folder; "" when p is under no such link.
func (s *shell) through(p string) string {
	at, out := "", ""
	for l, t := range s.links {
		if len(l) <= len(at) {
			continue
		}
		if p == l {
			at, out = l, t
		} else if rest, ok := strings.CutPrefix(p, l+"/"); ok {
			at, out = l, filepath.Join(t, rest)
		}
	}
	return out
}

// dirWord reports whether w names an existing folder in every folder the
// shell may be in (a trailing slash says so too).
func (s *shell) dirWord(w word) bool {
	if strings.HasSuffix(w.text, "/") {
		return true
	}
	if !w.lit || w.glob {
		return false
	}
	ps, why := s.paths(w.text)
	if why != "" || len(ps) == 0 {
		return false
	}
	for _, p := range ps {
		if !s.fs.isDir(p) {
			return false
		}
	}
	return true
}

// cd moves the shell to w (cd, pushd, env -C, git -C for its command).
// A folder that does not exist (yet) may make the cd fail: the shell is
// then in either folder.
func (s *shell) cd(w word, name string) {
	switch {
	case !w.lit:
		s.at = folder{why: "a " + name + " to a folder named with a variable, a ~ or a command substitution"}
		return
	case w.text == "-" || w.text == "":
		s.at = folder{why: "a `" + name + " " + w.text + "`"}
		return
	}
	ps, why := s.paths(w.text)
	if why != "" {
		return // still unknown
	}
	next, mayFail := folder{}, false
	for _, p := range ps {
		next = next.union(folder{dirs: []string{p}})
		mayFail = mayFail || !s.fs.isDir(p)
	}
	if mayFail {
		next = next.union(s.at) // the shell stays where it was
	}
	s.at = next
}
