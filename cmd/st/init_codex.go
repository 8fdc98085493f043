package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/wiring"
)

// initCodex adds or updates st's [mcp_servers.st] table in
// $CODEX_HOME/config.toml in place (wiring.SetCodexMCP), or prints the
// table with --print.
func (a *app) initCodex(print bool) error {
	if print {
		fmt.Fprint(a.stdout, wiring.CodexMCPFragment(a.mcpServer(false)))
		return nil
	}
	path := filepath.Join(a.codexHome(), "config.toml")
	data, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return sterr.Msg("st init: could not read %s: %v", path, bareErr(err))
	}
	out, err := wiring.SetCodexMCP(path, data, a.mcpServer(false))
	if err != nil {
		return sterr.Msg("st init: %v; %s not changed", err, path)
	}
	if existed && string(out) == string(data) {
		fmt.Fprintf(a.stderr, "st init: %s already has st's [mcp_servers.st] table — no changes.\n", path)
		return nil
	}
	backup, err := wiring.WriteSettings(&wiring.Settings{Path: path, Exists: existed, Raw: data}, out)
	if err != nil {
		return err
	}
	if backup != "" {
		fmt.Fprintf(a.stderr, "st init: wrote st's [mcp_servers.st] table in %s (previous file kept as %s)\n", path, backup)
	} else {
		fmt.Fprintf(a.stderr, "st init: wrote %s\n", path)
	}
	return nil
}

// bareErr is err without the path the message already names.
func bareErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
