package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// completionsCmd prints a completion script. The shells are sub-verbs,
// so the group rules give upstream's errors and the shells themselves
// are completed like any other verb. Upstream reads only the first
// argument, so after the shell everything is ignored except -h and
// --help, which print the help rather than a script nobody asked for.
type completionsCmd struct {
	Fish completionsFishCmd `cmd:"" help:"print the fish completion script" loose:""`
	Bash completionsBashCmd `cmd:"" help:"print the bash completion script" loose:""`
	Zsh  completionsZshCmd  `cmd:"" help:"print the zsh completion script" loose:""`
	// Words is what the scripts run to list names from the store.
	Words completionsWordsCmd `cmd:"" hidden:"" reads:"ST_ROOT ST_AGENT" help:"print the agent names or message filenames a completion offers"`
}

// completionsGroup is how `st completions` reacts to a missing or unknown sub-verb.
var completionsGroup = group{
	noVerbCode: exitUsage,
	unknown: func(a *app, v string) string {
		return fmt.Sprintf("%s completions: unknown shell: %s\n\n", a.name, v)
	},
	unknownCode: exitUsage,
}

type (
	completionsFishCmd struct{}
	completionsBashCmd struct{}
	completionsZshCmd  struct{}
)

func (c *completionsFishCmd) Run(a *app) error { return a.printCompletions(fishScript) }
func (c *completionsBashCmd) Run(a *app) error { return a.printCompletions(bashScript) }
func (c *completionsZshCmd) Run(a *app) error  { return a.printCompletions(zshScript) }

// printCompletions generates a script from the live command tree, so the
// completions can never fall behind the verbs and flags st really has.
func (a *app) printCompletions(gen func(*compTree) string) error {
	parser, err := newParser(a, &cli{}) // the whole tree, not the narrowed one
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(a.stdout, gen(newCompTree(parser.Model.Node)))
	return err
}

// compTree is the command tree reduced to what completion needs: for
// every command path ("" for the top, "message send"…) its sub-verbs,
// flags and closed positional values.
type compTree struct {
	paths []*compCmd // depth-first, parents before children
}

type compCmd struct {
	path     string
	help     string
	children []compChild
	flags    []compFlag
	// positional[i] is the closed set of values of positional i (nil:
	// free-form).
	positional [][]string
}

// compWord is a word that can follow a command: a child command (name,
// then aliases) or a flag (--long, --alias, -s), with its help.
type compWord struct {
	names []string
	help  string
}

func (w compWord) word() compWord { return w }

// worded is compChild or compFlag.
type worded interface{ word() compWord }

type compChild struct {
	compWord
	path string
}

type compFlag struct {
	compWord
	value   bool     // takes a value
	predict []string // closed values, from the predict:"…" tag
}

func newCompTree(root *kong.Node) *compTree {
	t := &compTree{}
	t.add(root, "")
	// Top-level switches handled before the tree.
	top := t.paths[0]
	top.flags = append(top.flags,
		compFlag{compWord: compWord{names: []string{"--help", "-h"}, help: "print the usage"}},
		compFlag{compWord: compWord{names: []string{"--version"}, help: "print the version"}})
	return t
}

func (t *compTree) add(n *kong.Node, path string) {
	c := &compCmd{path: path, help: n.Help}
	t.paths = append(t.paths, c)
	// A group with a default verb (message archive <fn>) takes that
	// verb's flags and positionals as its own.
	leaf := n
	if n.DefaultCmd != nil {
		leaf = n.DefaultCmd
	}
	if leaf.Leaf() {
		for _, f := range leaf.Flags {
			if f.Hidden {
				continue
			}
			cf := compFlag{compWord: compWord{names: []string{"--" + f.Name}, help: f.Help}, value: !f.IsBool()}
			for _, al := range f.Aliases {
				cf.names = append(cf.names, "--"+al)
			}
			if f.Short != 0 {
				cf.names = append(cf.names, "-"+string(f.Short))
			}
			if p := f.Tag.Get("predict"); p != "" {
				cf.predict = strings.Split(p, ",")
			}
			c.flags = append(c.flags, cf)
		}
		for _, p := range leaf.Positional {
			var values []string
			if v := p.Tag.Get("predict"); v != "" {
				values = strings.Split(v, ",")
			}
			c.positional = append(c.positional, values)
		}
	}
	for _, ch := range n.Children {
		if ch.Type != kong.CommandNode || ch.Hidden || ch == n.DefaultCmd {
			continue
		}
		childPath := strings.TrimSpace(path + " " + ch.Name)
		c.children = append(c.children, compChild{
			compWord: compWord{names: append([]string{ch.Name}, ch.Aliases...), help: ch.Help}, path: childPath})
		t.add(ch, childPath)
	}
}

// Every generated script runs the same walk over the words typed so far:
// words naming a sub-verb descend (only before any positional), a value
// flag swallows the next word, other flags are skipped, anything else is
// a positional. The word under the cursor then completes as the value of
// the flag before it, a flag of the command, a sub-verb, or a closed
// positional value.

// bashScript generates the bash completion script; the zsh one is the
// same function in zsh dialect.
func bashScript(t *compTree) string {
	var b strings.Builder
	b.WriteString("# bash completion for st — generated by `st completions bash` from st's command tree.\n")
	b.WriteString("# Install: st completions bash > /etc/bash_completion.d/st\n")
	b.WriteString(shWordsFunc)
	b.WriteString("_st() {\n")
	b.WriteString("  local cur=\"${COMP_WORDS[COMP_CWORD]}\" p=\"\" npos=0 pw0=\"\" skip=0 vflag=\"\" cands=\"\" i w\n")
	b.WriteString("  _st_cmd=\"${COMP_WORDS[0]}\"\n")
	b.WriteString("  for ((i = 1; i < COMP_CWORD; i++)); do\n    w=\"${COMP_WORDS[i]}\"\n")
	shWalk(&b, t)
	shCandidates(&b, t)
	b.WriteString("  COMPREPLY=($(compgen -W \"$cands\" -- \"$cur\"))\n  return 0\n}\n")
	b.WriteString("complete -o bashdefault -o default -F _st st\n")
	return b.String()
}

func zshScript(t *compTree) string {
	var b strings.Builder
	b.WriteString("#compdef st\n")
	b.WriteString("# zsh completion for st — generated by `st completions zsh` from st's command tree.\n")
	b.WriteString("# Install: st completions zsh > \"${fpath[1]}/_st\"\n")
	b.WriteString(shWordsFunc)
	b.WriteString("_st() {\n")
	b.WriteString("  local cur=\"${words[CURRENT]}\" p=\"\" npos=0 pw0=\"\" skip=0 vflag=\"\" cands=\"\" i w\n")
	b.WriteString("  _st_cmd=\"${words[1]}\"\n")
	b.WriteString("  for ((i = 2; i < CURRENT; i++)); do\n    w=\"${words[i]}\"\n")
	shWalk(&b, t)
	shCandidates(&b, t)
	b.WriteString("  [[ -n \"$cands\" ]] && compadd -- ${=cands}\n  return 0\n}\n")
	b.WriteString("if [[ \"${zsh_eval_context[-1]}\" == loadautofunc ]]; then\n  _st \"$@\"\nelse\n  compdef _st st\nfi\n")
	return b.String()
}

// shWalk writes the loop body shared by bash and zsh.
func shWalk(b *strings.Builder, t *compTree) {
	b.WriteString("    if ((skip)); then skip=0; continue; fi\n")
	b.WriteString("    case \"$p|$w\" in\n")
	for _, c := range t.paths {
		var pats []string
		for _, f := range c.flags {
			if f.value {
				pats = append(pats, patterns(c.path, f.names, shq)...)
			}
		}
		if len(pats) > 0 {
			fmt.Fprintf(b, "      %s) skip=1; vflag=\"$w\"; continue ;;\n", strings.Join(pats, "|"))
		}
	}
	b.WriteString("      *\\|-*) continue ;;\n    esac\n")
	b.WriteString("    if ((npos == 0)); then\n      case \"$p|$w\" in\n")
	for _, c := range t.paths {
		for _, ch := range c.children {
			pats := patterns(c.path, ch.names, shq)
			fmt.Fprintf(b, "        %s) p=%s; continue ;;\n", strings.Join(pats, "|"), shq(ch.path))
		}
	}
	b.WriteString("      esac\n    fi\n    ((npos == 0)) && pw0=\"$w\"\n    npos=$((npos + 1))\n  done\n")
}

// shCandidates writes the choice of candidates for the cursor word.
func shCandidates(b *strings.Builder, t *compTree) {
	b.WriteString("  if ((skip)); then\n    case \"$p|$vflag\" in\n")
	for _, c := range t.paths {
		for _, f := range c.flags {
			if len(f.predict) == 0 {
				continue
			}
			pats := patterns(c.path, f.names, shq)
			fmt.Fprintf(b, "      %s) cands=%s ;;\n", strings.Join(pats, "|"), shValues(f.predict, false))
		}
	}
	b.WriteString("    esac\n  elif [[ \"$cur\" == -* ]]; then\n    case \"$p\" in\n")
	for _, c := range t.paths {
		if names := allNames(c.flags); len(names) > 0 {
			fmt.Fprintf(b, "      %s) cands=%s ;;\n", shq(c.path), shq(strings.Join(names, " ")))
		}
	}
	b.WriteString("    esac\n  else\n    case \"$p\" in\n")
	for _, c := range t.paths {
		if names := allNames(c.children); len(names) > 0 {
			fmt.Fprintf(b, "      %s) cands=%s ;;\n", shq(c.path), shq(strings.Join(names, " ")))
		}
	}
	b.WriteString("    esac\n    case \"$p|$npos\" in\n")
	for _, c := range t.paths {
		for i, values := range c.positional {
			if len(values) > 0 {
				fmt.Fprintf(b, "      %s) cands=\"$cands \"%s ;;\n", shq(fmt.Sprintf("%s|%d", c.path, i)), shValues(values, false))
			}
			if slices.Equal(values, []string{"@agent-message"}) {
				fmt.Fprintf(b, "      %s) cands=\"$cands \"%s ;;\n", shq(fmt.Sprintf("%s|%d", c.path, i+1)), shValues(values, true))
			}
		}
	}
	b.WriteString("    esac\n  fi\n")
}

// allNames lists the names of words, aliases included.
func allNames[W worded](words []W) []string {
	var names []string
	for _, w := range words {
		names = append(names, w.word().names...)
	}
	return names
}

// fishDescribed writes a fish case for path that prints each name of
// words with its help; nothing when there are no words.
func fishDescribed[W worded](b *strings.Builder, path string, words []W) {
	if len(words) == 0 {
		return
	}
	fmt.Fprintf(b, "            case %s\n", fishq(path))
	for _, w := range words {
		for _, n := range w.word().names {
			fmt.Fprintf(b, "                printf '%%s\\t%%s\\n' %s %s\n", fishq(n), fishq(w.word().help))
		}
	}
}

// patterns quotes "<path>|<name>" for each name: the case patterns that
// match the word name typed after the words of path.
func patterns(path string, names []string, quote func(string) string) []string {
	pats := make([]string, len(names))
	for i, n := range names {
		pats[i] = quote(path + "|" + n)
	}
	return pats
}

// shq quotes s for bash and zsh.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fishScript generates the fish script: one function that prints the
// candidates (with descriptions) for the command line, using the same
// walk as bash and zsh.
func fishScript(t *compTree) string {
	var b strings.Builder
	b.WriteString("# fish completion for st — generated by `st completions fish` from st's command tree.\n")
	b.WriteString("# Install: st completions fish > ~/.config/fish/completions/st.fish\n")
	b.WriteString("function __st_words\n    command $__st_cmd completions words $argv 2>/dev/null\nend\n")
	b.WriteString("function __st_complete\n")
	b.WriteString("    set -l tokens (commandline -opc)\n    set -l cur (commandline -ct)\n")
	b.WriteString("    set -g __st_cmd $tokens[1]\n")
	b.WriteString("    set -l p ''\n    set -l npos 0\n    set -l pw0 ''\n    set -l skip 0\n    set -l vflag ''\n")
	b.WriteString("    for w in $tokens[2..-1]\n")
	b.WriteString("        if test $skip = 1\n            set skip 0\n            continue\n        end\n")
	b.WriteString("        switch \"$p|$w\"\n")
	for _, c := range t.paths {
		var pats []string
		for _, f := range c.flags {
			if f.value {
				pats = append(pats, patterns(c.path, f.names, fishq)...)
			}
		}
		if len(pats) > 0 {
			fmt.Fprintf(&b, "            case %s\n                set skip 1\n                set vflag $w\n                continue\n", strings.Join(pats, " "))
		}
	}
	b.WriteString("        end\n        if string match -q -- '-*' $w\n            continue\n        end\n")
	b.WriteString("        if test $npos = 0\n            switch \"$p|$w\"\n")
	for _, c := range t.paths {
		for _, ch := range c.children {
			pats := patterns(c.path, ch.names, fishq)
			fmt.Fprintf(&b, "                case %s\n                    set p %s\n                    continue\n", strings.Join(pats, " "), fishq(ch.path))
		}
	}
	b.WriteString("            end\n        end\n        if test $npos = 0\n            set pw0 $w\n        end\n        set npos (math $npos + 1)\n    end\n")
	b.WriteString("    if test $skip = 1\n        switch \"$p|$vflag\"\n")
	for _, c := range t.paths {
		for _, f := range c.flags {
			if len(f.predict) == 0 {
				continue
			}
			pats := patterns(c.path, f.names, fishq)
			fmt.Fprintf(&b, "            case %s\n%s", strings.Join(pats, " "), fishValues(f.predict, false))
		}
	}
	b.WriteString("        end\n    else if string match -q -- '-*' \"$cur\"\n        switch \"$p\"\n")
	for _, c := range t.paths {
		fishDescribed(&b, c.path, c.flags)
	}
	b.WriteString("        end\n    else\n        switch \"$p\"\n")
	for _, c := range t.paths {
		fishDescribed(&b, c.path, c.children)
	}
	b.WriteString("        end\n        switch \"$p|$npos\"\n")
	for _, c := range t.paths {
		for i, values := range c.positional {
			if len(values) > 0 {
				fmt.Fprintf(&b, "            case %s\n%s", fishq(fmt.Sprintf("%s|%d", c.path, i)), fishValues(values, false))
			}
			if slices.Equal(values, []string{"@agent-message"}) {
				fmt.Fprintf(&b, "            case %s\n%s", fishq(fmt.Sprintf("%s|%d", c.path, i+1)), fishValues(values, true))
			}
		}
	}
	b.WriteString("        end\n    end\nend\n")
	b.WriteString("complete -c st -e\ncomplete -c st -f -a '(__st_complete)'\n")
	return b.String()
}

// fishq quotes s for fish: single quotes, with \ and ' escaped.
// Wildcards in a case pattern are quoted too, so they match literally.
func fishq(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// shWordsFunc lists names from the store through the same st binary.
const shWordsFunc = "_st_words() { \"${_st_cmd:-st}\" completions words \"$@\" 2>/dev/null; }\n"

// shValues is the bash/zsh expression for the values of a flag or an
// argument: the closed words quoted, and for @agent, @message and
// @agent-message the names read from the store when completing. second
// is the filename slot of [<identity>] <filename>.
func shValues(values []string, second bool) string {
	var static, dynamic []string
	for _, v := range values {
		switch v {
		case "@agent":
			dynamic = append(dynamic, "$(_st_words agent)")
		case "@message":
			dynamic = append(dynamic, "$(_st_words message)")
		case "@agent-message":
			if second {
				dynamic = append(dynamic, "$(_st_words message \"$pw0\")")
			} else {
				dynamic = append(dynamic, "$(_st_words agent) $(_st_words message)")
			}
		default:
			static = append(static, v)
		}
	}
	expr := ""
	if len(static) > 0 {
		expr = shq(strings.Join(static, " "))
	}
	if len(dynamic) > 0 {
		if expr != "" {
			expr += "\" \""
		}
		expr += "\"" + strings.Join(dynamic, " ") + "\""
	}
	return expr
}

// fishValues is the fish body that prints the values (see shValues).
func fishValues(values []string, second bool) string {
	var b strings.Builder
	var static []string
	for _, v := range values {
		switch v {
		case "@agent":
			b.WriteString("                __st_words agent\n")
		case "@message":
			b.WriteString("                __st_words message\n")
		case "@agent-message":
			if second {
				b.WriteString("                __st_words message $pw0\n")
			} else {
				b.WriteString("                __st_words agent\n                __st_words message\n")
			}
		default:
			static = append(static, v)
		}
	}
	if len(static) > 0 {
		return "                printf '%s\\n' " + fishWords(static) + "\n" + b.String()
	}
	return b.String()
}

func fishWords(words []string) string {
	q := slices.Clone(words)
	for i, w := range q {
		q[i] = fishq(w)
	}
	return strings.Join(q, " ")
}

// Help is completions' paragraph.
func (completionsCmd) Help() string {
	return `The scripts complete verbs, flags and their values, agent names from the
store and message filenames from the inbox. They are generated from the
same command tree as this help, so they always match this build.`
}

func (completionsFishCmd) examples() []example {
	return []example{
		{"install for fish", "st completions fish > ~/.config/fish/completions/{NAME}.fish"},
		{"try it in the current fish session", "st completions fish | source"},
	}
}

func (completionsBashCmd) examples() []example {
	return []example{
		{"install for bash, system-wide", "st completions bash > /etc/bash_completion.d/{NAME}"},
		{"load it in the current bash session", "source <(st completions bash)"},
	}
}

func (completionsZshCmd) examples() []example {
	return []example{
		{"install for zsh", "st completions zsh > \"${fpath[1]}/_{NAME}\""},
		{"load it in the current zsh session", "source <(st completions zsh)"},
	}
}
