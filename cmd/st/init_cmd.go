package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sterr"
)

// initCmd writes or merges the st entry of .mcp.json in a folder, so a
// Claude Code session there loads the smalltalk MCP server.
type initCmd struct {
	NoChannel bool    `help:"register the server without --channel (the client polls instead)"`
	Print     bool    `help:"print the entry instead of writing the file"`
	Force     bool    `help:"replace a different existing st entry without asking"`
	For       *string `missing:"--for requires a value" predict:"claude-code,codex,gemini" help:"the client (default ${default_client}); codex writes the [mcp_servers.st] table of $CODEX_HOME/config.toml, gemini the mcpServers.st entry of ~/.gemini/settings.json"`
	Dir       string  `arg:"" optional:"" form:"[<dir>]" help:"the project folder (default: the current folder)"`
}

// mcpFile is the file init writes in the target folder.
const mcpFile = ".mcp.json"

func (c *initCmd) Run(a *app) error {
	family, err := checkFamily(c.For, installFamilies())
	if err != nil {
		return err
	}
	switch family {
	case hooks.Codex:
		return a.initCodex(c.Print)
	case hooks.Gemini:
		return a.initGemini(c.Print)
	}
	server := a.mcpServer(!c.NoChannel)
	entry := jsonobj.New().Set("type", "stdio").Set("command", server.Command).
		Set("args", server.JSONArgs()).Set("env", jsonobj.New())
	if c.Print {
		return writeJSONIndent(a.stdout, jsonobj.New().Set("mcpServers", jsonobj.New().Set("st", entry)))
	}
	dir := c.Dir
	if dir == "" {
		dir = "."
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return sterr.Msg("st init: target directory does not exist: %s", dir)
	}
	path := filepath.Join(dir, mcpFile)
	doc, existed, err := readMCPJSON(path)
	if err != nil {
		return err
	}
	servers, ok := objGet[*jsonobj.Object](doc, "mcpServers")
	if !ok {
		servers = jsonobj.New()
	}
	prior, hasPrior := servers.Get("st")
	outcome := "st init: wrote %s\n"
	switch {
	case hasPrior && sameJSON(prior, entry):
		fmt.Fprintf(a.stderr, "st init: %s already has matching st entry — no changes.\n", path)
		return nil
	case hasPrior:
		if !c.Force && !a.askYesNo(fmt.Sprintf("st init: %s has a different st entry. Overwrite? [y/N] ", path)) {
			fmt.Fprintln(a.stderr, "st init: skipped — existing st entry preserved.")
			return nil
		}
		outcome = "st init: overwrote divergent st entry in %s\n"
	case existed:
		outcome = "st init: added st entry to existing %s\n"
	}
	servers.Set("st", entry)
	doc.Set("mcpServers", servers)
	data, err := jsonobj.MarshalIndent(doc)
	if err != nil {
		return err
	}
	t, err := fsutil.Open(dir)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := t.WriteAtomic(mcpFile, append(data, '\n')); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, outcome, path)
	return nil
}

// readMCPJSON reads an existing .mcp.json, which must hold a JSON
// object. A missing file is an empty object.
func readMCPJSON(path string) (doc *jsonobj.Object, existed bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return jsonobj.New(), false, nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, true, sterr.Msg("st init: could not read %s: %v", path, err)
	}
	doc, err = jsonobj.ParseObject(data)
	if err != nil {
		return nil, true, sterr.Msg("st init: %s is not valid JSON: %v. Refusing to overwrite.", path, err)
	}
	return doc, true, nil
}

// objGet returns o[key] when it holds a T.
func objGet[T any](o *jsonobj.Object, key string) (T, bool) {
	v, _ := o.Get(key)
	t, ok := v.(T)
	return t, ok
}

// sameJSON compares two values by their compact JSON, as upstream does.
func sameJSON(a, b any) bool {
	ja, errA := jsonobj.Marshal(a)
	jb, errB := jsonobj.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

func writeJSONIndent(w io.Writer, v any) error {
	data, err := jsonobj.MarshalIndent(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// askYesNo asks a yes/no question on stderr. On a terminal it reads one
// line; otherwise it reads all of stdin. Only an answer starting with y
// (after trimming, any case) is a yes.
func (a *app) askYesNo(prompt string) bool {
	fmt.Fprint(a.stderr, prompt)
	var answer string
	if isTerminal(a.stdin) {
		line, _ := bufio.NewReader(a.stdin).ReadString('\n')
		answer = line
	} else {
		data, _ := io.ReadAll(a.stdin)
		answer = string(data)
	}
	return strings.HasPrefix(strings.ToLower(jsstr.TrimSpace(answer)), "y")
}

// Help is init's paragraph.
func (initCmd) Help() string {
	return `Adds an st entry to <dir>/.mcp.json so Claude Code started there loads st's
tools; other entries are kept, and an identical st entry is left alone.
With --for codex it adds st's [mcp_servers.st] table to $CODEX_HOME/config.toml
(default ~/.codex), or updates the one there, keeping the rest of the file
byte for byte; running it again changes nothing. With --for gemini it adds
or updates the mcpServers.st entry of Gemini CLI's ~/.gemini/settings.json,
keeping every other setting. The entry runs {NAME}-mcp, the server itself,
when it is installed next to {NAME} (the client then starts one program, not
two), else {NAME} mcp.`
}

func (initCmd) examples() []example {
	return []example{
		{"register st in the current project", "st init"},
		{"see the entry for another project without writing it", "st init ../api --print"},
		{"add or update st's table in Codex's config.toml", "st init --for codex"},
		{"add st's server to Gemini CLI's settings", "st init --for gemini"},
	}
}
