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
	NoChannel bool    `help:"write args without --channel (pull-only host)"`
	Print     bool    `help:"print the JSON entry to stdout; do not write"`
	Force     bool    `help:"overwrite a divergent existing entry without prompting"`
	For       *string `missing:"--for requires a value" predict:"claude-code,codex" help:"claude-code (default) or codex"`
	Dir       string  `arg:"" optional:"" help:"target folder (default: cwd)"`
}

func (c *initCmd) help(a *app) string {
	return named(`usage: {NAME} init [<dir>] [--no-channel] [--print] [--force]

  Write or merge `+"`.mcp.json`"+` in <dir> (default: cwd) so a Claude
  Code session in that directory loads the smalltalk MCP server.

  --no-channel   Write args without `+"`--channel`"+` (pull-only host).
  --print        Print the JSON entry to stdout; do not write.
  --force        Overwrite a divergent existing entry without
                 prompting. (A byte-identical entry is always a
                 no-op; unrelated entries are preserved.)
  --for codex    Print the [mcp_servers.st] table to add to
                 ~/.codex/config.toml (Codex reads TOML); do not write.
`, a.name)
}

// mcpFile is the file init writes in the target folder.
const mcpFile = ".mcp.json"

func (c *initCmd) Run(a *app) error {
	family, err := checkFamily(c.For, installFamilies)
	if err != nil {
		return err
	}
	if family == hooks.Codex {
		fmt.Fprint(a.stdout, hooks.CodexMCPFragment(a.selfPath()))
		return nil
	}
	args := []any{"mcp", "--channel"}
	if c.NoChannel {
		args = []any{"mcp"}
	}
	entry := jsonobj.New().Set("type", "stdio").Set("command", a.selfPath()).
		Set("args", args).Set("env", jsonobj.New())
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
