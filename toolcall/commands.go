package toolcall

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// invocation is one simple command being read: its name (the base name
// of what runs), its arguments, and the literal text it gets on stdin
// (from a heredoc, a here-string or a pipe st can read) when known.
type invocation struct {
	s     *shell
	name  string
	args  []word
	stdin string
	piped bool // stdin is redirected or piped: stdin holds it when st could read it
}

// rule reads what one command writes.
type rule func(in invocation)

// rules are the commands st knows that write files, or run other
// commands, each with its own argument rule; docs/reservations.md lists
// them. A command in neither rules nor readers is unknown: the paths it
// names are undecided. Both tables are built at the first shell command
// read, not at start-up: only the pre-tool hooks need them.
var (
	rules     map[string]rule
	readers   map[string]bool
	tableOnce sync.Once
)

func buildTables() {
	rules = map[string]rule{
		"tee":  func(in invocation) { in.writeAll(optSpec{}.parse(in.args).ops) },
		"sed":  sedRule,
		"perl": perlRule,
		"cp":   copyRule(false, copySpec),
		"mv":   copyRule(true, copySpec),
		"ln":   copyRule(false, copySpec),
		"install": func(in invocation) {
			if o := installSpec.parse(in.args); o.any("d", "directory") {
				in.writeAll(o.ops)
				return
			}
			copyRule(false, installSpec)(in)
		},
		"rsync":  rsyncRule,
		"scp":    scpRule,
		"docker": containerRule,
		"ruff":   ruffRule,
		"cargo":  cargoRule,
		"podman": containerRule,
		"zip":    zipRule,
		"dd":     ddRule,
		"truncate": func(in invocation) {
			in.writeAll(optSpec{value: "sr", long: []string{"size", "reference"}}.parse(in.args).ops)
		},
		"rm":     removeRule,
		"rmdir":  removeRule,
		"unlink": removeRule,
		"shred":  removeRule,
		"touch": func(in invocation) {
			in.writeAll(optSpec{value: "rtd", long: []string{"reference", "date"}}.parse(in.args).ops)
		},
		"mkdir": func(in invocation) { in.writeAll(optSpec{value: "m", long: []string{"mode"}}.parse(in.args).ops) },
		"chmod": modeRule,
		"chown": modeRule,
		"chgrp": modeRule,
		"sort": func(in invocation) {
			in.writeAll(optSpec{value: "oktST", long: []string{"output", "key", "field-separator", "buffer-size", "temporary-directory"}}.parse(in.args).values("o", "output"))
		},
		"uniq": func(in invocation) {
			if o := (optSpec{value: "fsw"}).parse(in.args); len(o.ops) > 1 {
				in.s.write(o.ops[1], "uniq")
			}
		},
		"curl": func(in invocation) {
			in.writeAll(optSpec{value: "oHdXuAeFTwxrbcEKm", long: []string{"output", "header", "data", "request", "user", "form", "upload-file"}}.parse(in.args).values("o", "output"))
		},
		"wget": func(in invocation) {
			in.writeAll(optSpec{value: "OoPaUe", long: []string{"output-document"}}.parse(in.args).values("O", "output-document"))
		},
		"gofmt":       fmtRule,
		"goimports":   fmtRule,
		"patch":       patchRule,
		"apply_patch": applyPatchRule,
		"applypatch":  applyPatchRule,
		"git":         gitRule,
		"go":          goRule,
		"tar":         tarRule,
		"unzip":       unzipRule,
		"7z":          sevenZipRule,
		"7za":         sevenZipRule,
		"find":        findRule,
		"xargs":       xargsRule,
		"cd":          cdRule,
		"pushd":       cdRule,
		"popd":        func(in invocation) { in.s.at = folder{why: "a popd"} },
		"source":      sourceRule,
		".":           sourceRule,
		"eval":        evalRule,
		"env":         envRule,
		"awk":         awkRule,
		"gawk":        awkRule,
		"mawk":        awkRule,
		"nawk":        awkRule,
	}
	for _, sh := range []string{"bash", "sh", "zsh", "dash", "ksh"} {
		rules[sh] = shellRule
	}
	for name, flags := range interpreters() {
		rules[name] = func(in invocation) { interpreterRule(in, flags) }
	}
	for name, sp := range wrappers() {
		rules[name] = func(in invocation) { wrapperRule(in, sp) }
	}
	for name, f := range formatters() {
		rules[name] = func(in invocation) { formatterRule(in, f) }
	}

	// readers are commands that write no file of their own (a
	// redirection of their output is read apart): they pass whatever
	// they name.
	readers = map[string]bool{}
	for _, n := range strings.Fields(`cat tac less more head tail grep egrep fgrep rg ag ack ls tree wc diff diff3 sdiff
		cmp comm stat file echo printf true false test [ [[ pwd which type whereis realpath readlink basename dirname
		date sleep nl od hexdump xxd strings md5sum sha1sum sha256sum sha512sum cksum b2sum du df ps kill jq yq column fold
		fmt expand unexpand paste join rev seq yes id whoami uname hostname uptime printenv locale tput clear exit return
		shift wait read export unset alias unalias umask ulimit trap set shopt history jobs fg bg hash local declare
		typeset readonly getopts break continue : cut tr nproc free lsof man info bat fd locate dirs let disown
		shasum column tsort look cmp iconv base64 base32 numfmt expr bc dc factor sum cal env-print staticcheck
		golangci-lint errcheck gopls shellcheck hyperfine pgrep pidof ss netstat ip ping host dig nslookup
		pytest mypy pyright flake8 pylint pyflakes cloc tokei scc pip pip3 code open xdg-open`) {
		readers[n] = true
	}
}

// call reads one simple command.
func (s *shell) call(args []word, stdin string, piped bool) {
	name := args[0]
	if !name.lit {
		s.unknown(args[1:], "st cannot tell which command runs: its name holds a variable or a substitution")
		return
	}
	base := filepath.Base(name.text)
	if strings.HasSuffix(name.text, "/") {
		base = name.text
	}
	in := invocation{s: s, name: base, args: args[1:], stdin: stdin, piped: piped}
	if r, ok := rules[base]; ok {
		r(in)
		return
	}
	if readers[base] {
		return
	}
	s.unknown(args[1:], "st does not know what `"+base+"` writes")
}

// unknown records every operand of a command st does not know, and the
// value of each --option=value, as undecided; a folder with everything
// under it, as such a command may act on all of it (black ., prettier
// --write .).
func (s *shell) unknown(args []word, why string) {
	for _, a := range args {
		if a.isFlag() {
			_, v, ok := strings.Cut(a.text, "=")
			if !ok || v == "" {
				continue
			}
			a = literal(v)
		}
		s.undecidedTree(a, why)
	}
}

// undecidedTree records w as undecided and, when it names a folder,
// everything under it.
func (s *shell) undecidedTree(w word, why string) {
	s.undecided(w, why)
	if s.dirWord(w) {
		t := strings.TrimSuffix(w.text, "/") + "/**"
		s.undecided(word{text: t, lit: true, glob: true, pre: t}, why)
	}
}

// writeAll records every word of ws as written by the command.
func (in invocation) writeAll(ws []word) {
	for _, w := range ws {
		in.s.write(w, "`"+in.name+"`")
	}
}

// writeTree records w, and everything under it when it is a folder or
// may be one, as written.
func (in invocation) writeTree(w word, folder bool) {
	in.s.write(w, "`"+in.name+"`")
	if folder && w.lit {
		t := strings.TrimSuffix(w.text, "/") + "/**"
		in.s.write(word{text: t, lit: true, glob: true, pre: t}, "`"+in.name+"`")
	}
}

func sedRule(in invocation) {
	o := optSpec{value: "efl", optional: "i", long: []string{"expression", "file", "line-length"}}.parse(in.args)
	if !o.any("i", "in-place") {
		return
	}
	files := o.ops
	if !o.any("e", "f", "expression", "file") && len(files) > 0 {
		files = files[1:] // the script
	}
	in.writeAll(files)
}

func perlRule(in invocation) {
	o := optSpec{value: "eE", optional: "i0lxIMmdDCFV"}.parse(in.args)
	if !o.any("i") {
		interpreterRule(in, "eE")
		return
	}
	files := o.ops
	if !o.any("e", "E") && len(files) > 0 {
		files = files[1:]
	}
	in.writeAll(files)
}

var (
	copySpec    = optSpec{value: "tS", long: []string{"target-directory", "suffix"}}
	installSpec = optSpec{value: "mogtS", long: []string{"mode", "owner", "group", "target-directory", "suffix"}}
	scpSpec     = optSpec{value: "cDFiJlPoS"}
)

// copyRule reads cp, mv, ln and install: the destination is written (in
// it, when it is a folder, the sources' names); mv also removes its
// sources.
func copyRule(moves bool, spec optSpec) rule {
	return func(in invocation) {
		o := spec.parse(in.args)
		srcs, dst := o.ops, word{}
		if t := o.values("t", "target-directory"); len(t) > 0 {
			dst = t[len(t)-1]
		} else if len(srcs) > 0 {
			dst, srcs = srcs[len(srcs)-1], srcs[:len(srcs)-1]
		}
		if dst.text == "" && dst.lit {
			return
		}
		recursive := moves || o.any("r", "R", "a", "recursive", "archive")
		intoDir := !o.any("T", "no-target-directory") && (len(srcs) > 1 || len(o.values("t", "target-directory")) > 0 || in.s.dirWord(dst))
		links := in.name == "ln" || in.name == "cp" && o.any("l", "s", "link", "symbolic-link")
		symbolic := in.name == "ln" && o.any("s", "symbolic") || in.name == "cp" && o.any("s", "symbolic-link")
		if !intoDir {
			in.writeTree(dst, recursive && in.s.dirWord(dst))
			if links && len(srcs) == 1 {
				in.s.link(dst, srcs[0], symbolic)
			}
		}
		for _, src := range srcs {
			if links && !symbolic {
				// A later command can write it through the second name,
				// where no path names it.
				in.s.undecided(src, "a hard link gives it a second name to be written through")
			}
			if intoDir {
				if !src.lit || !dst.lit {
					in.s.write(dst, "`"+in.name+"`") // the folder: its files are not known
				} else {
					t := strings.TrimSuffix(dst.text, "/") + "/" + path.Base(strings.TrimSuffix(src.text, "/"))
					in.writeTree(word{text: t, lit: true, glob: src.glob, pre: t}, recursive)
					if links {
						in.s.link(literal(t), src, symbolic)
					}
				}
			}
			if moves {
				in.writeTree(src, in.s.dirWord(src))
			}
		}
	}
}

func rsyncRule(in invocation) {
	o := optSpec{value: "eTfM", long: []string{"rsh", "exclude", "include", "filter", "temp-dir", "rsync-path", "files-from"}}.parse(in.args)
	if len(o.ops) < 2 {
		return
	}
	dst, srcs := o.ops[len(o.ops)-1], o.ops[:len(o.ops)-1]
	if !remote(dst) {
		in.writeTree(dst, true)
	}
	if o.any("remove-source-files") {
		for _, src := range srcs {
			if !remote(src) {
				in.writeTree(src, true)
			}
		}
	}
}

// remote reports whether w names a path on another host (host:path), as
// rsync and scp read it.
func remote(w word) bool {
	i := strings.IndexByte(w.text, ':')
	return i > 0 && !strings.Contains(w.text[:i], "/")
}

// scpRule: a local destination is written as cp writes it.
func scpRule(in invocation) {
	if o := scpSpec.parse(in.args); len(o.ops) > 1 && !remote(o.ops[len(o.ops)-1]) {
		copyRule(false, scpSpec)(in)
	}
}

// containerRule: building an image reads its context folder; the other
// docker and podman commands are unknown, and a folder they bind into a
// container (-v HOST:PATH, --mount source=HOST) may be written anywhere.
func containerRule(in invocation) {
	if i := slices.IndexFunc(in.args, func(w word) bool { return !w.isFlag() }); i >= 0 && in.args[i].lit && in.args[i].text == "build" {
		return
	}
	why := "st does not know what `" + in.name + "` writes"
	o := optSpec{value: "v", long: []string{"volume", "mount"}}.parse(in.args)
	for _, v := range o.values("v", "volume", "mount") {
		host, _, _ := strings.Cut(v.text, ":")
		if strings.Contains(v.text, "=") {
			host = ""
			for _, f := range strings.Split(v.text, ",") {
				if k, val, ok := strings.Cut(f, "="); ok && (k == "source" || k == "src") {
					host = val
				}
			}
		}
		switch {
		case !v.lit:
			in.s.eff.blind("st cannot tell which folder `" + in.name + "` lets a container write: its name holds a variable, a ~ or a command substitution")
		case strings.HasPrefix(host, "/") || strings.HasPrefix(host, "."):
			in.s.undecidedTree(literal(host), why)
		}
	}
	in.s.unknown(in.args, why)
}

// zipRule: the archive, the first operand, is written; the rest is read.
func zipRule(in invocation) {
	if o := (optSpec{value: "bnt", long: []string{"temp-path", "suffixes"}}).parse(in.args); len(o.ops) > 0 {
		in.s.write(o.ops[0], "`zip`")
	}
}

func ddRule(in invocation) {
	for _, a := range in.args {
		if v, ok := strings.CutPrefix(a.text, "of="); ok {
			in.s.write(word{text: v, lit: a.lit, glob: a.glob, pre: strings.TrimPrefix(a.pre, "of=")}, "dd")
		}
	}
}

func removeRule(in invocation) {
	o := optSpec{}.parse(in.args)
	recursive := o.any("r", "R", "recursive")
	for _, w := range o.ops {
		in.writeTree(w, recursive)
	}
}

// modeRule reads chmod, chown and chgrp: the first operand is the mode
// or owner unless --reference gives it.
func modeRule(in invocation) {
	o := optSpec{}.parse(in.args)
	files := o.ops
	if !o.any("reference") && len(files) > 0 {
		files = files[1:]
	}
	for _, w := range files {
		in.writeTree(w, o.any("R", "recursive"))
	}
}

func fmtRule(in invocation) {
	o := optSpec{}.parse(in.args)
	if !o.any("w") {
		return
	}
	for _, w := range o.ops {
		in.writeTree(w, in.s.dirWord(w))
	}
}

// patchRule reads patch: the file it is given, or else the files its
// diff names when the diff is written in the command.
func patchRule(in invocation) {
	o := optSpec{value: "pioDdBrVYzFgx", long: []string{"input", "output", "directory", "strip", "reject-file"}}.parse(in.args)
	in.writeAll(o.values("o", "output"))
	if d := o.values("d", "directory"); len(d) > 0 {
		at := in.s.at
		defer func() { in.s.at = at }()
		in.s.cd(d[len(d)-1], "patch -d")
	}
	if len(o.ops) > 0 {
		in.s.write(o.ops[0], "`patch`")
		return
	}
	if len(o.values("i", "input")) > 0 || in.stdin == "" {
		in.s.eff.blind("st cannot see which files this `patch` changes: the diff is not written in the command")
		return
	}
	strip := 0
	if p := o.values("p", "strip"); len(p) > 0 {
		strip = atoi(p[len(p)-1].text)
	}
	in.diffWrites(in.stdin, strip)
}

// diffWrites records the files a unified diff names on its ---/+++
// lines, less strip leading folders, as written.
func (in invocation) diffWrites(diff string, strip int) {
	for line := range strings.Lines(diff) {
		var p string
		if rest, ok := strings.CutPrefix(line, "+++ "); ok {
			p = rest
		} else if rest, ok := strings.CutPrefix(line, "--- "); ok {
			p = rest
		} else {
			continue
		}
		p, _, _ = strings.Cut(strings.TrimRight(p, "\r\n"), "\t")
		if p == "/dev/null" || p == "" {
			continue
		}
		segs := strings.Split(p, "/")
		if strip >= len(segs) {
			continue
		}
		p = strings.Join(segs[strip:], "/")
		in.s.write(literal(p), "this diff")
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// applyPatchRule reads Codex's apply_patch: the patch is its operand,
// its heredoc or here-string, or what a printf, echo or cat piped in.
func applyPatchRule(in invocation) {
	text := in.stdin
	if o := (optSpec{}).parse(in.args); len(o.ops) > 0 {
		text = o.ops[0].text
	}
	paths := PatchPaths(text)
	if len(paths) == 0 {
		in.s.eff.blind("st cannot see which files this apply_patch changes: the patch is not written in the command")
		return
	}
	for _, p := range paths {
		in.s.write(literal(p), "this apply_patch")
	}
}

// cdRule moves the shell's folder.
func cdRule(in invocation) {
	o := optSpec{}.parse(in.args)
	switch len(o.ops) {
	case 0:
		in.s.at = folder{why: "a " + in.name + " to the home folder"}
	case 1:
		in.s.cd(o.ops[0], in.name)
	default:
		in.s.at = folder{why: "a " + in.name + " with more than one argument"}
	}
}

func sourceRule(in invocation) {
	in.s.at = folder{why: "`" + in.name + "` runs a script that may change the folder"}
}

// evalRule parses its words again, in the same shell.
func evalRule(in invocation) {
	var parts []string
	for _, a := range in.args {
		parts = append(parts, a.script())
	}
	in.s.script(strings.Join(parts, " "))
}

// envRule reads env [-i] [-u NAME] [-C DIR] [NAME=VALUE …] COMMAND …
func envRule(in invocation) {
	args := in.args
	var dir *word
	for len(args) > 0 {
		a := args[0]
		switch {
		case a.lit && (a.text == "-u" || a.text == "-C" || a.text == "--unset" || a.text == "--chdir") && len(args) > 1:
			if a.text == "-C" || a.text == "--chdir" {
				dir = &args[1]
			}
			args = args[2:]
			continue
		case a.lit && strings.HasPrefix(a.text, "--chdir="):
			d := literal(strings.TrimPrefix(a.text, "--chdir="))
			dir = &d
		case a.lit && strings.HasPrefix(a.text, "-C") && len(a.text) > 2:
			d := literal(a.text[2:])
			dir = &d
		case a.isFlag() || strings.Contains(a.text, "=") && !strings.HasPrefix(a.text, "="):
		default:
			in.run(args, dir, "env -C")
			return
		}
		args = args[1:]
	}
}

// run reads args as a command run by a wrapper, in folder dir when one is
// given.
func (in invocation) run(args []word, dir *word, how string) {
	if len(args) == 0 {
		return
	}
	if dir != nil {
		at := in.s.at
		defer func() { in.s.at = at }()
		in.s.cd(*dir, how)
	}
	in.s.call(args, in.stdin, in.piped)
}

// wrapper is a command that runs the command after its options (and,
// for timeout and taskset, skip more operands).
type wrapper struct {
	spec optSpec
	skip int
}

// wrappers are the wrappers st follows.
func wrappers() map[string]wrapper {
	return map[string]wrapper{
		"nice":     {optSpec{value: "n"}, 0},
		"nohup":    {optSpec{}, 0},
		"time":     {optSpec{}, 0},
		"timeout":  {optSpec{value: "sk", long: []string{"signal", "kill-after"}}, 1},
		"stdbuf":   {optSpec{value: "ioe"}, 0},
		"sudo":     {optSpec{value: "ugChpTUrt", long: []string{"user", "group"}}, 0},
		"doas":     {optSpec{value: "uC"}, 0},
		"command":  {optSpec{}, 0},
		"builtin":  {optSpec{}, 0},
		"exec":     {optSpec{value: "a"}, 0},
		"ionice":   {optSpec{value: "cnp"}, 0},
		"setsid":   {optSpec{}, 0},
		"chronic":  {optSpec{}, 0},
		"unbuffer": {optSpec{}, 0},
		"taskset":  {optSpec{}, 1},
		"npx":      {optSpec{value: "p", long: []string{"package"}}, 0},
		"bunx":     {optSpec{value: "p", long: []string{"package"}}, 0},
	}
}

// formatter is when a formatter or linter writes the files it is given:
// only with one of write, or unless one of check; cwd when, given none,
// it works on the folder it runs in.
type formatter struct {
	write, check []string
	cwd          bool
}

// formatters are read by their flags: without a way of writing they only
// read (prettier --check .); writing, they are unknown commands, their
// operands undecided. Built with the rules, at the first shell command.
func formatters() map[string]formatter {
	return map[string]formatter{
		"prettier":     {write: []string{"write", "w"}},
		"eslint":       {write: []string{"fix"}, cwd: true},
		"clang-format": {write: []string{"i"}},
		"shfmt":        {write: []string{"w", "write"}},
		"yapf":         {write: []string{"i", "in-place"}},
		"autopep8":     {write: []string{"i", "in-place"}},
		"black":        {check: []string{"check", "diff"}},
		"isort":        {check: []string{"check", "check-only", "c", "diff"}},
		"rustfmt":      {check: []string{"check"}},
		"stylua":       {check: []string{"check", "c"}},
	}
}

// formatterRule reads a formatter by its flags.
func formatterRule(in invocation, f formatter) {
	o := optSpec{}.parse(in.args)
	if len(f.write) > 0 && !o.any(f.write...) || len(f.check) > 0 && o.any(f.check...) {
		return
	}
	args := in.args
	if f.cwd && len(o.ops) == 0 {
		args = []word{literal(".")}
	}
	in.s.unknown(args, "`"+in.name+"` may rewrite the files it is given")
}

// ruffRule: ruff format writes unless --check or --diff, ruff check
// with --fix; either works on the folder it runs in when given no path.
func ruffRule(in invocation) {
	if len(in.args) == 0 {
		return
	}
	sub, rest := in.args[0].text, in.args[1:]
	switch sub {
	case "format":
		formatterRule(invocation{s: in.s, name: "ruff format", args: rest}, formatter{check: []string{"check", "diff"}, cwd: true})
	case "check":
		formatterRule(invocation{s: in.s, name: "ruff check", args: rest}, formatter{write: []string{"fix"}, cwd: true})
	}
}

// cargoRule: cargo fmt (but --check), cargo fix and cargo clippy --fix
// may rewrite any file of the crate; for the others (build, test, run,
// writing under target/) the paths they name are undecided.
func cargoRule(in invocation) {
	if len(in.args) == 0 {
		return
	}
	sub, rest := in.args[0].text, in.args[1:]
	o := optSpec{}.parse(rest)
	in.name = "cargo " + sub
	if sub == "fmt" && !o.any("check") || sub == "fix" || sub == "clippy" && o.any("fix") {
		in.s.wholeTree(in.name, nil)
		return
	}
	in.s.unknown(rest, "st does not know what `"+in.name+"` writes")
}

func wrapperRule(in invocation, w wrapper) {
	if in.name == "command" && len(in.args) > 0 && (in.args[0].text == "-v" || in.args[0].text == "-V") {
		return // command -v: a look-up
	}
	// The options end at the first operand: what follows is the
	// command's own.
	i := 0
	for i < len(in.args) && in.args[i].isFlag() {
		c := in.args[i].text
		i++
		if c == "--" {
			break
		}
		if len(c) == 2 && strings.Contains(w.spec.value, c[1:]) || strings.HasPrefix(c, "--") && !strings.Contains(c, "=") && contains(w.spec.long, c[2:]) {
			i++
		}
	}
	i += w.skip
	if i < len(in.args) {
		in.run(in.args[i:], nil, "")
	}
}

// shellRule reads bash -c 'STRING' (parsed again, as a child shell) and
// bash SCRIPT (unknown: its operands are undecided).
func shellRule(in invocation) {
	o := optSpec{value: "oO"}.parse(in.args)
	if o.any("c") {
		if len(o.ops) > 0 {
			at := in.s.at
			in.s.script(o.ops[0].script())
			in.s.at = at
		}
		return
	}
	if len(o.ops) == 0 {
		if in.stdin != "" {
			at := in.s.at
			in.s.script(in.stdin)
			in.s.at = at
		}
		return
	}
	in.s.unknown(o.ops[1:], "st cannot tell what the script "+o.ops[0].text+" writes")
}

// interpreters are the languages whose inline code st cannot read, with
// the options that take the code.
func interpreters() map[string]string {
	return map[string]string{
		"python": "c", "python2": "c", "python3": "c", "node": "ep", "nodejs": "ep", "ruby": "e", "php": "r",
		"lua": "e", "Rscript": "e", "deno": "", "bun": "e", "tsx": "e", "ts-node": "e", "osascript": "e", "pwsh": "c",
	}
}

// interpreterRule: the paths the code and the operands name are
// undecided.
func interpreterRule(in invocation, codeFlags string) {
	o := optSpec{value: codeFlags + "mWXI"}.parse(in.args)
	why := "st cannot tell what the " + in.name + " code run here does with it"
	var code []string
	for _, c := range codeFlags {
		for _, w := range o.vals[string(c)] {
			code = append(code, w.text)
		}
	}
	if m := o.vals["m"]; len(m) > 0 && readers[m[len(m)-1].text] {
		return // python3 -m pytest: a reader run as a module
	}
	rest := in.args // what the code or script gets: its operands and options
	switch {
	case len(code) > 0 || len(o.vals["m"]) > 0:
		rest = o.ops
	case len(o.ops) > 0 && o.ops[0].lit && o.ops[0].text == "-": // the program comes on stdin
		i := slices.IndexFunc(in.args, func(w word) bool { return w.lit && w.text == "-" })
		rest = in.args[i+1:]
		if in.stdin != "" {
			code = append(code, in.stdin)
		}
	case len(o.ops) > 0:
		why = "st cannot tell what the script " + o.ops[0].text + " writes"
		i := slices.IndexFunc(in.args, func(w word) bool { return w.text == o.ops[0].text && !w.isFlag() })
		rest = in.args[i+1:]
	case in.stdin != "":
		code = append(code, in.stdin)
		rest = nil
	}
	for _, c := range code {
		for _, t := range pathTokens(c) {
			in.s.undecided(literal(t), why)
		}
	}
	in.s.unknown(rest, why)
}

// maxTokens bounds the words of inline code read as paths.
const maxTokens = 10000

// pathTokens are the words of code that look like paths: runs of path
// characters holding a '/' or a '.'.
func pathTokens(code string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(code, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./-~+@", r))
	}) {
		if strings.ContainsAny(t, "/.") && strings.Trim(t, "./") != "" && !strings.HasPrefix(t, "~") {
			out = append(out, t)
			if len(out) == maxTokens {
				break
			}
		}
	}
	return out
}

// awkRule: a program without output redirection or system() only reads;
// gawk's inplace extension (-i inplace) rewrites every file operand; a
// program or library from a file may do anything with them.
func awkRule(in invocation) {
	o := optSpec{value: "fvFEeilW", long: []string{"file", "assign", "field-separator", "exec", "source", "include", "load"}}.parse(in.args)
	progs, files := o.values("e", "source"), o.ops
	fromFile := o.values("f", "file", "E", "exec")
	if len(progs) == 0 && len(fromFile) == 0 && len(files) > 0 {
		progs, files = files[:1], files[1:]
	}
	libs := o.values("i", "include", "l", "load")
	isInplace := func(w word) bool { return w.text == "inplace" || w.text == "inplace.awk" }
	inplace := slices.ContainsFunc(libs, isInplace)
	if inplace {
		in.writeAll(files)
	}
	for _, w := range append(fromFile, libs...) {
		if !isInplace(w) {
			in.s.unknown(files, "st cannot tell what the awk code in "+w.text+" writes")
			return
		}
	}
	why := "st cannot tell what the awk program run here does with it"
	for _, p := range progs {
		if !strings.ContainsAny(p.text, ">|") && !strings.Contains(p.text, "system") {
			continue
		}
		for _, t := range pathTokens(p.text) {
			in.s.undecided(literal(t), why)
		}
		if !inplace {
			in.s.unknown(files, why)
		}
	}
}

// goRule reads the go command: the files its -o and profile flags name,
// go.mod and go.sum for mod/get/work, and the packages fmt, fix and
// generate may rewrite.
func goRule(in invocation) {
	if len(in.args) == 0 {
		return
	}
	sub, rest := in.args[0].text, in.args[1:]
	in.name = "go " + sub
	outFlags := []string{"-o", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir"}
	for i, a := range rest {
		name, val, eq := strings.Cut(a.text, "=")
		if !a.lit || !contains(outFlags, strings.Replace(name, "--", "-", 1)) {
			continue
		}
		if eq {
			in.s.write(literal(val), "`"+in.name+"`")
		} else if i+1 < len(rest) {
			in.s.write(rest[i+1], "`"+in.name+"`")
		}
	}
	switch sub {
	case "mod", "get", "work":
		in.writeAll([]word{{text: "go.mod", lit: true}, {text: "go.sum", lit: true}})
	case "fmt", "fix", "generate":
		why := "`" + in.name + "` may rewrite any file of the packages it names"
		pkgs := optSpec{value: "r", long: []string{"run", "skip"}}.parse(rest).ops
		if len(pkgs) == 0 {
			pkgs = []word{literal(".")}
		}
		for _, p := range pkgs {
			t := p.text
			if r, ok := strings.CutSuffix(t, "..."); ok {
				t = strings.TrimSuffix(r, "/") + "/**"
			} else {
				t = strings.TrimSuffix(t, "/") + "/*"
			}
			if !p.lit {
				in.s.undecided(p, why)
				continue
			}
			in.s.undecided(word{text: t, lit: true, glob: true, pre: t}, why)
		}
	}
}

// tarRule: extracting writes files st cannot list in the folder it
// extracts to; creating writes the archive.
func tarRule(in invocation) {
	args := in.args
	if len(args) > 0 && args[0].lit && !strings.HasPrefix(args[0].text, "-") {
		first := args[0]
		first.text = "-" + first.text
		args = append([]word{first}, args[1:]...)
	}
	o := optSpec{value: "fCbHKLNTVX", long: []string{"file", "directory"}}.parse(args)
	switch {
	case o.any("x", "extract", "get"):
		dir := literal(".")
		if d := o.values("C", "directory"); len(d) > 0 {
			dir = d[len(d)-1]
		}
		in.extracts(dir)
	case o.any("c", "r", "u", "create", "append", "update"):
		in.writeAll(o.values("f", "file"))
	}
}

// sevenZipRule: 7z x and 7z e extract into -oDIR, else the folder they
// run in.
func sevenZipRule(in invocation) {
	if len(in.args) == 0 || in.args[0].text != "x" && in.args[0].text != "e" {
		return
	}
	dir := literal(".")
	for _, a := range in.args[1:] {
		if v, ok := strings.CutPrefix(a.text, "-o"); ok && a.lit && v != "" {
			dir = literal(v)
		}
	}
	in.extracts(dir)
}

func unzipRule(in invocation) {
	o := optSpec{value: "dx"}.parse(in.args)
	if o.any("l", "t", "v", "Z") {
		return
	}
	dir := literal(".")
	if d := o.vals["d"]; len(d) > 0 {
		dir = d[len(d)-1]
	}
	in.extracts(dir)
}

// extracts records that the command writes files st cannot list under
// dir.
func (in invocation) extracts(dir word) {
	why := "`" + in.name + "` extracts files st cannot list under " + dir.text
	if !dir.lit {
		in.s.undecided(dir, why)
		return
	}
	t := strings.TrimSuffix(dir.text, "/") + "/**"
	in.s.undecided(word{text: t, lit: true, glob: true, pre: t}, why)
}

// findRule: -delete, and -exec of a command that is not a reader, touch
// what find finds under its start folders; -fprint writes its file.
func findRule(in invocation) {
	var starts []word
	i := 0
	for ; i < len(in.args); i++ {
		a := in.args[i]
		if a.lit && (strings.HasPrefix(a.text, "-") || a.text == "(" || a.text == "!") {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []word{literal(".")}
	}
	touches := ""
	for ; i < len(in.args); i++ {
		switch a := in.args[i].text; a {
		case "-delete":
			touches = "find -delete"
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 < len(in.args) && !readers[filepath.Base(in.args[i+1].text)] {
				touches = "find " + a + " " + in.args[i+1].text
			}
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(in.args) {
				in.s.write(in.args[i+1], "find "+a)
			}
		}
	}
	if touches == "" {
		return
	}
	for _, d := range starts {
		why := "`" + touches + "` changes the files it finds under " + d.text
		if !d.lit {
			in.s.undecided(d, why)
			continue
		}
		t := strings.TrimSuffix(d.text, "/") + "/**"
		in.s.undecided(word{text: t, lit: true, glob: true, pre: t}, why)
	}
}

// xargsRule: a reader run by xargs reads; another command gets paths st
// cannot see.
func xargsRule(in invocation) {
	o := optSpec{value: "aEdILnPs", optional: "eil", long: []string{"arg-file", "delimiter", "max-args", "max-procs", "replace"}}.parse(in.args)
	if len(o.ops) == 0 || o.ops[0].lit && readers[filepath.Base(o.ops[0].text)] {
		return
	}
	in.s.eff.blind("st cannot tell which files `xargs " + o.ops[0].text + "` changes: they come from its input")
}
