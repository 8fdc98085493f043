package main

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/alecthomas/kong"

	"github.com/smalltalk-go/st/internal/lazyre"
)

// Every help text, the completion scripts and docs/cli.md are rendered
// from the kong tree in cli.go and the command structs it names; nothing
// else describes a verb. What a command declares (see ARCHITECTURE.md,
// "Adding a verb"):
//
//   - help:"…" on its field: the one-line purpose (lower case, no period);
//   - help:"…" on every flag and argument, stating the default if any;
//     placeholder:"…" names a flag's value, form:"…" an argument's shape
//     ("[<identity>] <filename>"), predict:"…" its closed set of values
//     or @agent / @message / @agent-message for names read from the store;
//   - reads:"VAR VAR" on its field: the environment variables it reads;
//   - a Help() string method (kong's HelpProvider) for a paragraph;
//   - an examples() []example method with at least two examples.

// example is one entry of a verb's Examples section: cmd runs "st" (the
// invoked name replaces it, and {NAME} in file names); what says in a few
// words what it does.
type example struct{ what, cmd string }

// stWord matches "st" where an example runs it. Compiled on first use
// only: help is rare, start-up is not.
var stWord = lazyre.Regexp{Expr: `(^|[\s(|;&])st(\s|$)`}

// exampler is implemented by every verb.
type exampler interface{ examples() []example }

// helpTarget finds the node whose help to print for path (a list of verb
// names and aliases) in the whole tree; nil when path names no command.
func helpTarget(root *kong.Node, path []string) *kong.Node {
	n := root
	for _, name := range path {
		c := child(n, name)
		if c == nil {
			return nil
		}
		n = c
	}
	return n
}

// helpModel is the node of the command path names, from a model of that
// command alone (helpGrammar) that carries its help texts; nil when path
// names no command.
func helpModel(a *app, path []string) *kong.Node {
	grammar, ok := helpGrammar(path)
	if !ok {
		return nil
	}
	p, err := newParser(a, grammar)
	if err != nil {
		return nil
	}
	return helpTarget(p.Model.Node, path)
}

// fullModel is the whole command tree, for help, usage errors and
// completions (verbs themselves build only their own branch, see
// pathGrammar). It is built once a run: `st help status` and a usage
// error asked for it twice, and each build cost more than a verb's start.
func fullModel(a *app) (*kong.Node, error) {
	if a.model != nil {
		return a.model, nil
	}
	p, err := newParser(a, &cli{})
	if err != nil {
		return nil, err
	}
	a.model = p.Model.Node
	return a.model, nil
}

// commandPath is the verbs from the top down to n ("message send").
func commandPath(n *kong.Node) string {
	var names []string
	for ; n != nil && n.Parent != nil; n = n.Parent {
		if n.Hidden && n.Parent.DefaultCmd == n {
			continue // a hidden default verb is typed as its parent
		}
		names = append(names, n.Name)
	}
	slices.Reverse(names)
	return strings.Join(names, " ")
}

// helpNode is the node whose text describes n: a hidden default verb is
// described by its group, which lists the group's other verbs too.
func helpNode(n *kong.Node) *kong.Node {
	if n.Parent != nil && n.Parent.DefaultCmd == n && n.Hidden {
		return n.Parent
	}
	return n
}

// verbHelp renders the help of a command (a verb or a group).
func verbHelp(name string, n *kong.Node) string {
	n = helpNode(n)
	var b strings.Builder
	leaf := effectiveLeaf(n)
	for i, u := range usageLines(name, n) {
		lead := "       "
		if i == 0 {
			lead = "usage: "
		}
		writeUsage(&b, lead, u)
	}
	b.WriteString("\n" + sentence(n.Help) + "\n")
	if n.Detail != "" {
		b.WriteString("\n" + strings.TrimRight(named(n.Detail, name), "\n") + "\n")
	}
	if verbs := visibleChildren(n); len(verbs) > 0 {
		b.WriteString("\nVerbs:\n")
		var rows [][2]string
		for _, c := range verbs {
			rows = append(rows, [2]string{c.Name + aliasNote(c), c.Help})
		}
		writeTable(&b, rows)
	}
	if leaf != nil {
		if rows := argRows(leaf); len(rows) > 0 {
			b.WriteString("\nArguments:\n")
			writeTable(&b, rows)
		}
		b.WriteString("\nFlags:\n")
		writeTable(&b, flagRows(leaf))
	}
	if vars := envVars(n); len(vars) > 0 {
		b.WriteString("\nEnvironment:\n")
		var rows [][2]string
		for _, v := range vars {
			rows = append(rows, [2]string{v, envMeaning(v)})
		}
		writeTable(&b, rows)
	}
	if ex := nodeExamples(n); len(ex) > 0 {
		b.WriteString("\nExamples:\n")
		for i, e := range ex {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "  # %s\n  %s\n", e.what, exampleCmd(name, e.cmd))
		}
	}
	if len(visibleChildren(n)) > 0 {
		fmt.Fprintf(&b, "\nRun `%s %s <verb> --help` for a verb's flags and examples.\n", name, commandPath(n))
	}
	return b.String()
}

// effectiveLeaf is the node whose flags and arguments n takes: n itself
// when it is a leaf, its default verb for a group that has one, else nil.
func effectiveLeaf(n *kong.Node) *kong.Node {
	if n.Leaf() {
		return n
	}
	if n.DefaultCmd != nil {
		return n.DefaultCmd
	}
	return nil
}

// visibleChildren are the verbs of n a user types by name.
func visibleChildren(n *kong.Node) []*kong.Node {
	var out []*kong.Node
	for _, c := range n.Children {
		if c.Type == kong.CommandNode && !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

func aliasNote(n *kong.Node) string {
	if len(n.Aliases) == 0 {
		return ""
	}
	return " (" + strings.Join(n.Aliases, ", ") + ")"
}

// usageLines are the synopsis lines of n: one for a leaf, the default
// verb's and each sub-verb's for a group.
func usageLines(name string, n *kong.Node) []string {
	if n.Leaf() {
		return []string{synopsis(name, n)}
	}
	var lines []string
	if n.DefaultCmd != nil {
		lines = append(lines, synopsis(name, n.DefaultCmd))
	} else {
		lines = append(lines, strings.TrimSpace(name+" "+commandPath(n))+" <verb> [args...]")
	}
	for _, c := range visibleChildren(n) {
		sub := usageLines(name, c)
		if !c.Leaf() && c.DefaultCmd == nil {
			sub = sub[1:] // the group's own "<verb> [args...]" line
		}
		lines = append(lines, sub...)
	}
	return lines
}

// writeUsage writes one usage line after lead, wrapped at 80 columns
// between bracketed flags, which line up under the first one.
func writeUsage(b *strings.Builder, lead, line string) {
	parts := usageParts(line)
	head := lead
	i := 0
	for ; i < len(parts) && !strings.HasPrefix(parts[i], "[-"); i++ {
		head += parts[i] + " "
	}
	indent := strings.Repeat(" ", min(len(head), 40))
	cur := strings.TrimRight(head, " ")
	for _, p := range parts[i:] {
		if len(cur)+1+len(p) > 80 && strings.TrimSpace(cur) != "" && cur != strings.TrimRight(head, " ") {
			b.WriteString(cur + "\n")
			cur = indent + p
			continue
		}
		cur += " " + p
	}
	b.WriteString(cur + "\n")
}

// usageParts splits a usage line into words, keeping each [...] whole.
func usageParts(line string) []string {
	var parts []string
	depth, start := 0, -1
	for i, r := range line {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		}
		if r == ' ' && depth == 0 {
			if start >= 0 {
				parts = append(parts, line[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		parts = append(parts, line[start:])
	}
	return parts
}

// synopsis is a leaf's usage line: path, arguments, then every flag.
func synopsis(name string, n *kong.Node) string {
	parts := []string{name, commandPath(n)}
	for _, p := range n.Positional {
		parts = append(parts, argForm(p))
	}
	for _, f := range visibleFlags(n) {
		parts = append(parts, "["+flagForm(f, "|")+"]")
	}
	return strings.Join(parts, " ")
}

func visibleFlags(n *kong.Node) []*kong.Flag {
	var out []*kong.Flag
	for _, f := range n.Flags {
		if !f.Hidden {
			out = append(out, f)
		}
	}
	return out
}

// argForm is how an argument is written in a usage line.
func argForm(p *kong.Positional) string {
	if p.Tag != nil {
		if f := p.Tag.Get("form"); f != "" {
			return f
		}
	}
	return "<" + p.Name + ">"
}

// flagForm is "-m|--message BODY" (sep "|") or "-m, --message BODY".
func flagForm(f *kong.Flag, sep string) string {
	s := "--" + f.Name
	if f.Short != 0 {
		s = "-" + string(f.Short) + sep + s
	}
	if !f.IsBool() {
		s += " " + flagValue(f)
	}
	return s
}

// flagValue names a flag's value: its closed set, its placeholder, or
// its name in capitals.
func flagValue(f *kong.Flag) string {
	if p := f.Tag.Get("predict"); p != "" && !strings.HasPrefix(p, "@") {
		return strings.ReplaceAll(p, ",", "|")
	}
	if f.PlaceHolder != "" {
		return f.PlaceHolder
	}
	return strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
}

func argRows(n *kong.Node) [][2]string {
	var rows [][2]string
	for _, p := range n.Positional {
		rows = append(rows, [2]string{argForm(p), p.Help})
	}
	return rows
}

func flagRows(n *kong.Node) [][2]string {
	var rows [][2]string
	for _, f := range visibleFlags(n) {
		left := flagForm(f, ", ")
		if f.Short == 0 {
			left = "    " + left
		}
		rows = append(rows, [2]string{left, f.Help})
	}
	return append(rows, [2]string{"-h, --help", "print this help"})
}

// envVars are the variables a command declares in its reads:"…" tag.
func envVars(n *kong.Node) []string {
	if n.Tag == nil {
		return nil
	}
	return strings.Fields(n.Tag.Get("reads"))
}

// nodeExamples are n's own examples; a group without any shows its
// verbs' first examples.
func nodeExamples(n *kong.Node) []example {
	if ex := ownExamples(n); len(ex) > 0 {
		return ex
	}
	if leaf := effectiveLeaf(n); leaf != nil && leaf != n {
		if ex := ownExamples(leaf); len(ex) > 0 {
			return ex
		}
	}
	var out []example
	for _, c := range visibleChildren(n) {
		if ex := nodeExamples(c); len(ex) > 0 {
			out = append(out, ex[0])
		}
	}
	return out
}

func ownExamples(n *kong.Node) []example {
	if !n.Target.IsValid() {
		return nil
	}
	if e, ok := n.Target.Addr().Interface().(exampler); ok {
		return e.examples()
	}
	return nil
}

// exampleCmd puts the invoked name wherever an example runs "st".
func exampleCmd(name, cmd string) string {
	cmd = named(cmd, name)
	if name == "st" {
		return cmd
	}
	return stWord.Get().ReplaceAllString(cmd, "${1}"+name+"$2")
}

// sentence capitalises a one-line help and ends it with a period.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return strings.TrimSuffix(string(r), ".") + "."
}

// writeTable writes two-column rows, the second column aligned and the
// whole row wrapped at 80 columns.
func writeTable(b *strings.Builder, rows [][2]string) {
	w := 0
	for _, r := range rows {
		w = max(w, len(r[0]))
	}
	w = min(w, 28)
	for _, r := range rows {
		left := "  " + r[0]
		if len(r[0]) > w {
			b.WriteString(left + "\n")
			left = ""
		}
		writeWrapped(b, fmt.Sprintf("%-*s", w+4, left), r[1], w+4)
	}
}

// writeWrapped writes prefix then text wrapped at 80 columns, continuation
// lines indented by indent.
func writeWrapped(b *strings.Builder, prefix, text string, indent int) {
	line := prefix
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len(line)+1+len(word) > 80 {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line, empty = strings.Repeat(" ", indent), true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
}

// topHelp renders `st --help`: every verb, grouped as cli.go groups them,
// one line each.
func topHelp(name string, root *kong.Node) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s <subcommand> [args...]\n       %s --help | --version\n       %s help <subcommand>\n\n", name, name, name)
	b.WriteString("st keeps AI coding agents' durable state in plain folders: messages between\n" +
		"agents, statuses, restart context and published URLs, plus the hooks that wire\n" +
		"them into Claude Code and Codex.\n")
	var groups []string
	rows := map[string][][2]string{}
	for _, c := range visibleChildren(root) {
		g := "Other"
		if c.Group != nil {
			g = c.Group.Title
		}
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
		rows[g] = append(rows[g], topRows(c)...)
	}
	for _, g := range groups {
		b.WriteString("\n" + g + ":\n")
		writeTable(&b, rows[g])
	}
	var aliases []string
	walkCommands(root, func(n *kong.Node) {
		for _, al := range n.Aliases {
			aliases = append(aliases, fmt.Sprintf("%s = %s", strings.TrimSpace(commandPath(n.Parent)+" "+al), commandPath(n)))
		}
	})
	if len(aliases) > 0 {
		b.WriteString("\nAliases: " + strings.Join(aliases, ", ") + "\n")
	}
	b.WriteString("\nEnvironment:\n")
	writeTable(&b, [][2]string{
		{"ST_AGENT", "your agent name (required by most verbs and by the hooks)"},
		{"ST_ROOT", "the store (default ~/.local/state/smalltalk)"},
	})
	fmt.Fprintf(&b, "  `%s help env` lists every variable and config.yaml key.\n", name)
	fmt.Fprintf(&b, "\nRun `%s help <verb>` or `%s <verb> --help` for a verb's flags, environment\nand examples, e.g. `%s message send --help`. Other verbs run `%s-<verb>` from $PATH.\n", name, name, name, name)
	return b.String()
}

// topRows lists a top-level verb: itself when it is run directly, and
// every verb below it.
func topRows(n *kong.Node) [][2]string {
	var rows [][2]string
	if effectiveLeaf(n) != nil {
		rows = append(rows, [2]string{commandPath(n), n.Help})
	}
	for _, c := range visibleChildren(n) {
		rows = append(rows, topRows(c)...)
	}
	return rows
}

// walkCommands calls fn for every command node below n, depth first.
func walkCommands(n *kong.Node, fn func(*kong.Node)) {
	for _, c := range n.Children {
		if c.Type == kong.CommandNode {
			fn(c)
			walkCommands(c, fn)
		}
	}
}

// named replaces the {NAME} placeholders of a text with the invoked name.
func named(text, name string) string { return strings.ReplaceAll(text, "{NAME}", name) }
