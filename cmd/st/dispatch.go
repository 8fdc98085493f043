package main

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/smalltalk-go/st/internal/stackstart"
	"github.com/smalltalk-go/st/internal/sterr"
)

// flatVerbs are the old top-level verbs that now live under message.
var flatVerbs = []string{"send", "ls", "read", "archive", "thread"}

// run executes one invocation and returns its exit code.
func run(a *app) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(a.stderr, "%s: internal error: %v\n", a.name, r)
			if a.env.Get("ST_DEBUG") != "" {
				_, _ = a.stderr.Write(debug.Stack()) // nowhere better to report it
			}
			code = exitError
		}
	}()
	return a.report(a.dispatch())
}

func (a *app) dispatch() error {
	args := a.args
	if len(args) == 0 {
		return &usageError{a.topUsage(), exitUsage}
	}
	if rendersDeep(args) {
		stackstart.GrowDeep()
	}
	switch args[0] {
	case "--help", "-h":
		return a.printTopHelp()
	case "help":
		return a.helpFor(args[1:])
	case "--version":
		fmt.Fprintf(a.stdout, "%s %s\n", a.name, version())
		return nil
	}
	if handled, err := a.fastHook(args); handled {
		return err
	}
	// A person's command says, once, if a hook could not write; the
	// dashboard shows that note on its pages instead, leaving it in place.
	if args[0] != "mcp" && args[0] != "hook" && args[0] != "dashboard" {
		a.storeProblem()
	}
	path, cmd, ok, err := a.directCommand(args)
	if !ok {
		path, cmd, err = a.grammarCommand(args)
	}
	if err != nil || cmd == nil {
		return err
	}
	return a.runCommand(path, cmd)
}

// directCommand fills the command args name without kong (direct.go);
// ok is false where it takes the grammar path instead.
func (a *app) directCommand(args []string) (path string, cmd runner, ok bool, err error) {
	d, ok := findDirect(args)
	if !ok {
		return "", nil, false, nil
	}
	canonical, help, err := scan(&d.spec, d.args)
	if err != nil {
		return "", nil, true, err
	}
	if help {
		return "", nil, true, a.helpFor(strings.Fields(d.path))
	}
	cmd, ok = d.fill(canonical)
	return d.path, cmd, ok, nil
}

// grammarCommand has kong parse args into their command, from a grammar
// of the commands args name. A nil command with a nil error means it
// printed help instead; an unknown verb runs as a plugin.
func (a *app) grammarCommand(args []string) (path string, cmd runner, err error) {
	grammar, ok := pathGrammar(args)
	if !ok {
		return "", nil, a.unknownVerb(args[0], args[1:])
	}
	parser, err := newParser(a, grammar)
	if err != nil {
		return "", nil, err
	}
	node := child(parser.Model.Node, args[0])
	return a.walk(parser, node, []string{node.Name}, args[1:])
}

func newParser(a *app, grammar any) (*kong.Kong, error) {
	return kong.New(grammar, kong.Name(a.name), kong.NoDefaultHelp(), helpDefaults(),
		kong.Exit(func(int) {}), kong.Writers(a.stdout, a.stderr))
}

// unknownVerb handles a first argument that is not a built-in verb: the
// old flat verbs get a pointer, anything else goes to a plugin.
func (a *app) unknownVerb(verb string, rest []string) error {
	if slices.Contains(flatVerbs, verb) {
		return &usageError{fmt.Sprintf("%s: unknown subcommand: %s. Did you mean `%s message %s`?\n\n%s",
			a.name, verb, a.name, verb, a.topUsage()), exitUsage}
	}
	if code, ok := a.runPlugin(verb, rest); ok {
		return exitCode(code)
	}
	hint := ""
	if root, err := fullModel(a); err == nil {
		if near := closestVerb(verb, root); near != "" {
			hint = fmt.Sprintf(". Did you mean `%s %s`?", a.name, near)
		}
	}
	return &usageError{fmt.Sprintf("%s: unknown subcommand: %s%s\n\n%s", a.name, verb, hint, a.topUsage()), exitUsage}
}

// walk descends from node through sub-verbs to a leaf command and parses
// it.
func (a *app) walk(parser *kong.Kong, node *kong.Node, path, args []string) (string, runner, error) {
	if node.Leaf() {
		return a.parseLeaf(parser, node, path, args)
	}
	g := groupFor(node.Name)
	if len(args) == 0 {
		if node.DefaultCmd != nil {
			return a.walk(parser, node.DefaultCmd, append(path, node.DefaultCmd.Name), args)
		}
		return "", nil, &usageError{a.helpText(node), g.noVerbCode}
	}
	if isHelpWord(args[0]) {
		return "", nil, a.printHelp(node)
	}
	next := child(node, args[0])
	if next == nil || next == node.DefaultCmd {
		if node.DefaultCmd != nil {
			return a.walk(parser, node.DefaultCmd, append(path, node.DefaultCmd.Name), args)
		}
		return "", nil, &usageError{withHint(g.unknown(a, args[0]), closestVerb(args[0], node), a.name+" "+commandPath(node)) + a.helpText(node), g.unknownCode}
	}
	return a.walk(parser, next, append(path, next.Name), args[1:])
}

// child finds the sub-command of n named or aliased name.
func child(n *kong.Node, name string) *kong.Node {
	for _, c := range n.Children {
		if c.Type == kong.CommandNode && (c.Name == name || slices.Contains(c.Aliases, name)) {
			return c
		}
	}
	return nil
}

// parseLeaf scans args the way upstream st does, then lets kong fill the
// command struct from the normalised arguments.
func (a *app) parseLeaf(parser *kong.Kong, node *kong.Node, path, args []string) (string, runner, error) {
	spec := specOf(node.Target.Type(), "")
	if node.Tag != nil {
		spec.loose, spec.extra = node.Tag.Has("loose"), node.Tag.Get("extra")
	}
	canonical, help, err := scan(&spec, args)
	if err != nil {
		return "", nil, err
	}
	if help {
		return "", nil, a.printHelp(node)
	}
	kctx, err := parser.Parse(append(path, canonical...))
	if err != nil {
		return "", nil, fmt.Errorf("internal error: %w", err)
	}
	return commandPath(node), realCommand(kctx.Selected().Target).(runner), nil
}

// runCommand runs the leaf command cmd, whose path is path ("message ls").
func (a *app) runCommand(path string, cmd runner) error {
	err := cmd.Run(a)
	if errors.Is(err, sterr.ErrIdentityRequired) {
		return agentRequired(a.name, path, reflect.TypeOf(cmd).Elem())
	}
	return err
}

// agentRequired is the one "agent required" error, naming the ways this
// verb takes an agent: the fields its grammar tags agent:"" (an argument
// or a flag such as --from).
func agentRequired(name, path string, cmd reflect.Type) error {
	var ways []string
	for i := range cmd.NumField() {
		f := cmd.Field(i)
		if _, ok := f.Tag.Lookup("agent"); !ok {
			continue
		}
		if _, isArg := f.Tag.Lookup("arg"); isArg {
			form := strings.NewReplacer("[<identity>]", "<agent>", "[", "", "]", "").Replace(f.Tag.Get("form"))
			ways = append(ways, "name it: "+name+" "+path+" "+form)
			continue
		}
		flag := f.Tag.Get("name")
		if flag == "" {
			flag = strings.ToLower(f.Name)
		}
		ways = append(ways, "pass --"+flag+" <agent>")
	}
	msg := "agent required — set $ST_AGENT (or the legacy $ST_IDENTITY)"
	if len(ways) > 0 {
		msg += " or " + strings.Join(ways, " or ")
	}
	return sterr.New(sterr.IdentityRequired, msg, nil)
}

// runner is every leaf command.
type runner interface{ Run(a *app) error }

// rendersDeep reports whether args ask for JSON or help, which go deeper
// than the 8 KiB the main goroutine starts with (stackstart): encoding/json
// and kong's help grew it there, copying some twenty frames. Grown by
// dispatch, three frames down, the copy is small. A word that only looks
// like one (a message reading "--json") costs that small copy, nothing else.
func rendersDeep(args []string) bool {
	if args[0] == "help" {
		return true
	}
	for _, arg := range args {
		switch arg {
		case "--help", "-h":
			return true
		case "--json":
			return args[0] != "hook" // a hook runs on goroutines of its own
		}
	}
	return false
}

// isHelpWord reports whether arg asks a group for its help.
func isHelpWord(arg string) bool { return arg == "help" || arg == "-h" || arg == "--help" }

// printHelp prints a command's help on stdout (st-compat.md Appendix A).
func (a *app) printHelp(node *kong.Node) error {
	_, err := fmt.Fprint(a.stdout, a.helpText(node))
	return err
}

// helpText renders node's help from the same command in the whole tree:
// node may come from the narrowed model, which has no help texts.
func (a *app) helpText(node *kong.Node) string {
	var path []string
	for n := node; n.Parent != nil; n = n.Parent {
		path = append([]string{n.Name}, path...)
	}
	if full := helpModel(a, path); full != nil {
		node = full
	}
	return verbHelp(a.name, node)
}

func (a *app) printTopHelp() error {
	root, err := fullModel(a)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(a.stdout, topHelp(a.name, root))
	return err
}

// topUsage is the top-level help, for usage errors.
func (a *app) topUsage() string {
	root, err := fullModel(a)
	if err != nil {
		return err.Error() + "\n"
	}
	return topHelp(a.name, root)
}

// helpFor answers `st help [<verb>...]`.
func (a *app) helpFor(path []string) error {
	if len(path) == 0 {
		return a.printTopHelp()
	}
	if len(path) == 1 && path[0] == "env" {
		_, err := io.WriteString(a.stdout, envHelp(a.name))
		return err
	}
	if n := helpModel(a, path); n != nil {
		_, err := fmt.Fprint(a.stdout, verbHelp(a.name, n))
		return err
	}
	// No such verb: the whole tree, for its nearest name and the list.
	root, err := fullModel(a)
	if err != nil {
		return err
	}
	hint := ""
	known := root
	for _, w := range path {
		c := child(known, w)
		if c == nil {
			if near := closestVerb(w, known); near != "" {
				hint = fmt.Sprintf(". Did you mean `%s help %s`?", a.name, strings.TrimSpace(commandPath(known)+" "+near))
			}
			break
		}
		known = c
	}
	return &usageError{fmt.Sprintf("%s: no such verb: %s%s\n\n%s", a.name, strings.Join(path, " "), hint, topHelp(a.name, root)), exitUsage}
}

// group says how a verb with sub-verbs reacts to a missing, help or
// unknown sub-verb; upstream differs per group.
type group struct {
	noVerbCode  int
	unknown     func(a *app, verb string) string // the line(s) before the usage
	unknownCode int
}

// groupFor is the group of the verb name; the zero group for a verb
// without sub-verbs. A switch over values set at compile time rather
// than a map filled by each file's init: every init is code and memory
// touched at each start, whatever the command.
func groupFor(name string) group {
	switch name {
	case "completions":
		return completionsGroup
	case "context":
		return contextGroup
	case "events":
		return eventsGroup
	case "gc":
		return gcGroup
	case "hook":
		return hookGroup
	case "hooks":
		return hooksGroup
	case "message":
		return messageGroup
	case "resource":
		return resourceGroup
	case "trace":
		return traceGroup
	}
	return group{}
}

// version is the module version and short VCS revision from build info.
func version() string {
	v := "0.3.0"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 7 {
			return v + "+" + strings.ToLower(s.Value[:7])
		}
	}
	return v
}
