package hooks

import (
	"os"
	"path/filepath"
	"strings"
)

// The shell forms of apply_patch. Codex runs a shell command that calls
// apply_patch in the shell's current folder, so the folder a patch's
// relative paths start from is wherever the commands before it left the
// shell. patchFolder follows the forms whose folder is certain: cd and
// pushd with a plain folder, joined by &&, ; or newlines, in subshells or
// not, and other commands that cannot move the shell. For anything else
// it says why it cannot tell, and the hook refuses the call rather than
// check the wrong folder.

// shTok is one token of a shell command: a word or an operator.
type shTok struct {
	op    string // "&&", "||", ";", "\n", "|", "&", "(", ")", "<<", "<" …; "" for a word
	word  string // the word with its quotes removed
	plain bool   // the word's value is its text: no expansion, glob or tilde
}

// shDirWords are first words that run in the shell itself and may move
// it, or hide what runs (a word st does not follow).
var shDirWords = map[string]bool{
	"popd": true, "source": true, ".": true, "eval": true, "exec": true, "builtin": true, "command": true,
	"alias": true, "function": true, "shopt": true, "set": true, "export": true, "declare": true,
	"typeset": true, "local": true, "readonly": true, "unset": true, "enable": true, "trap": true,
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "for": true, "while": true,
	"until": true, "do": true, "done": true, "case": true, "esac": true, "select": true, "{": true,
	"}": true, "[[": true, "!": true, "coproc": true, "time": true, "dirs": true,
}

// isPatchCommand reports whether a word names the apply_patch command.
func isPatchCommand(w shTok) bool {
	return w.op == "" && w.plain && (w.word == "apply_patch" || w.word == "applypatch")
}

// shLex splits s into tokens, stopping at the first apply_patch in a
// command's first place (included) so that what follows (its heredoc,
// the patch) is never read as shell. why is set when s uses a form the
// lexer does not follow (command substitution, an unterminated quote).
func shLex(s string) (toks []shTok, why string) {
	first := true // the next word starts a command
	skip := false // the next word is a redirection's target
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
			continue
		case c == '#' && (i == 0 || strings.IndexByte(" \t\r\n;&|()", s[i-1]) >= 0):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		}
		if op := shOp(s[i:]); op != "" {
			toks = append(toks, shTok{op: op})
			i += len(op)
			switch op {
			case "<", ">", ">>", ">&", "<&", "&>", ">|", "<>", "<<", "<<-", "<<<":
				skip = true
			case ")":
				first = false
			default:
				first = true
			}
			continue
		}
		w, n, bad := shWord(s[i:])
		if bad != "" {
			return toks, bad
		}
		toks = append(toks, w)
		i += n
		if skip {
			skip = false
			continue
		}
		if first && isPatchCommand(w) {
			return toks, ""
		}
		first = false
	}
	return toks, ""
}

// shOp returns the operator s starts with, or "".
func shOp(s string) string {
	for _, op := range []string{"&&", "||", ";;", "<<<", "<<-", "<<", ">>", ">&", "<&", "&>", ">|", "<>", "|&", ";", "\n", "|", "&", "(", ")", "<", ">"} {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// shWord reads one word at the start of s: its unquoted value, its
// length in s, and why it cannot be read when it uses command
// substitution or an unterminated quote.
func shWord(s string) (w shTok, n int, why string) {
	var b strings.Builder
	w.plain = true
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\r\n;&|()<>", c) >= 0:
			w.word = b.String()
			return w, i, ""
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return w, i, "an unterminated quote"
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return w, i, "an unterminated quote"
			}
			in := s[i+1 : i+1+j]
			if strings.ContainsAny(in, "`\\") || strings.Contains(in, "$(") {
				return w, i, "a command substitution or escape inside double quotes"
			}
			if strings.Contains(in, "$") {
				w.plain = false
			}
			b.WriteString(in)
			i += j + 2
		case c == '`' || c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			return w, i, "a command substitution or ${…} expansion"
		case c == '\\':
			if i+1 >= len(s) {
				return w, i, "a trailing backslash"
			}
			w.plain = false // an escaped character: follow no such word
			b.WriteByte(s[i+1])
			i += 2
		default:
			if c == '$' || c == '*' || c == '?' || c == '[' || c == '{' || c == '~' && i == 0 {
				w.plain = false
			}
			b.WriteByte(c)
			i++
		}
	}
	w.word = b.String()
	return w, i, ""
}

// shList is the state of one &&-list (commands joined by && or ||) in
// one shell: the cd and pushd it ran, and whether another command came
// before one of them.
type shList struct {
	cds     []string // folders of the list's cd/pushd, each resolved against the one before
	other   bool     // a command other than cd/pushd ran in the list
	otherCd bool     // a cd came after another command: whether it runs is unknown
	or      bool     // the list has ||
}

// shFrame is one shell: the top-level one or a ( … ) subshell.
type shFrame struct {
	dir  string // the folder after the finished lists
	list shList
}

// cur is the folder the frame's shell is in if the list so far ran:
// each cd of an &&-list runs only after the ones before succeeded.
func (f *shFrame) cur() string {
	if n := len(f.list.cds); n > 0 {
		return f.list.cds[n-1]
	}
	return f.dir
}

// endList ends the frame's current list at a ; newline & or ): a cd that
// failed (no such folder) leaves the shell where it was and skips the
// rest of the list. why is set when the outcome depends on a command st
// does not run.
func (f *shFrame) endList(isDir func(string) bool) (why string) {
	l := f.list
	f.list = shList{}
	if len(l.cds) == 0 {
		return ""
	}
	if l.otherCd || l.or {
		return "a cd or pushd runs only if another command succeeds"
	}
	for _, d := range l.cds {
		if !isDir(d) {
			break // cd fails: the rest of the list does not run
		}
		f.dir = d
	}
	return ""
}

// patchFolder returns the folder the apply_patch of the shell command
// head runs in, when cwd is the folder the command starts in. head is
// the command up to the patch. found is false when no apply_patch starts
// a command in head; why says what keeps st from telling the folder.
func patchFolder(head, cwd string) (dir string, found bool, why string) {
	return patchFolderWith(head, cwd, func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	})
}

func patchFolderWith(head, cwd string, isDir func(string) bool) (dir string, found bool, why string) {
	toks, bad := shLex(head)
	if n := len(toks); n == 0 || !isPatchCommand(toks[n-1]) {
		return "", false, bad
	}
	frames := []shFrame{{dir: cwd}}
	var cmd []shTok   // the words of the command being read
	var joined string // the operator before it: "", "&&", "||" or "|"
	// finish classifies the command just read, before the operator op.
	finish := func(op string) (why string) {
		f := &frames[len(frames)-1]
		words := cmd
		cmd = nil
		if len(words) == 0 {
			return ""
		}
		name := words[0]
		switch {
		case shDirWords[name.word]:
			return "`" + name.word + "` before the patch, which may change the folder"
		case op == "(":
			return "a function definition before the patch"
		case !name.plain:
			return "a command whose name st cannot read"
		case strings.Contains(name.word, "="):
			return "a variable set before the patch"
		case name.word == "cd" || name.word == "pushd":
			if joined == "|" || op == "|" || op == "&" || op == "|&" {
				return "a " + name.word + " in a pipeline or in the background"
			}
			to, why := shCdTarget(name.word, words[1:])
			if why != "" {
				return why
			}
			if !filepath.IsAbs(to) {
				if f.cur() == "" {
					return "a relative " + name.word + " with no working folder"
				}
				to = filepath.Join(f.cur(), to)
			}
			f.list.cds = append(f.list.cds, filepath.Clean(to))
			if f.list.other {
				f.list.otherCd = true
			}
		default:
			f.list.other = true
		}
		return ""
	}
	for i := 0; i < len(toks)-1; i++ {
		t := toks[i]
		switch t.op {
		case "":
			cmd = append(cmd, t)
			continue
		case "<", ">", ">>", ">&", "<&", "&>", ">|", "<>":
			if len(cmd) > 0 && (cmd[0].word == "cd" || cmd[0].word == "pushd") {
				return "", true, "a redirection on a " + cmd[0].word
			}
			i++ // the redirection's target is not an argument
			continue
		case "<<", "<<-", "<<<":
			return "", true, "a heredoc before the patch's own"
		case ";;":
			return "", true, "a case statement"
		}
		if why := finish(t.op); why != "" {
			return "", true, why
		}
		f := &frames[len(frames)-1]
		switch t.op {
		case "&&":
			joined = "&&"
		case "||":
			f.list.or = true
			joined = "||"
		case "|", "|&":
			joined = "|"
		case ";", "\n", "&":
			if why := f.endList(isDir); why != "" {
				return "", true, why
			}
			joined = ""
		case "(":
			frames = append(frames, shFrame{dir: f.cur()})
			joined = ""
		case ")":
			if len(frames) == 1 {
				return "", true, "an unmatched )"
			}
			// The subshell's cd ends with it; to the list around it, it
			// was one more command.
			frames = frames[:len(frames)-1]
			frames[len(frames)-1].list.other = true
		}
	}
	if joined == "||" || joined == "|" {
		return "", true, "an apply_patch after || or in a pipeline"
	}
	// apply_patch runs only if every command of its &&-list succeeded: the
	// list's cd all ran.
	return frames[len(frames)-1].cur(), true, ""
}

// shCdTarget returns the folder a cd or pushd with args moves to, or why
// it cannot tell.
func shCdTarget(name string, args []shTok) (dir, why string) {
	switch {
	case len(args) == 0:
		return "", "a " + name + " with no folder"
	case len(args) > 1:
		return "", "a " + name + " with more than one argument"
	case !args[0].plain:
		return "", "a " + name + " to a folder named with a variable, a ~ or a wildcard"
	case args[0].word == "-" || strings.HasPrefix(args[0].word, "-") || strings.HasPrefix(args[0].word, "+"):
		return "", "a " + name + " " + args[0].word
	case args[0].word == "":
		return "", "a " + name + " to an empty name"
	}
	return args[0].word, ""
}
