package main

import "fmt"

// contextCmd groups the restart-context verbs.
type contextCmd struct {
	Read   contextReadCmd   `cmd:"" help:"print now.md, the decisions log, or both"`
	Write  contextWriteCmd  `cmd:"" help:"replace now.md from stdin"`
	Append contextAppendCmd `cmd:"" help:"append one entry to decisions/"`
}

func init() {
	groups["context"] = group{
		usage:       contextUsage,
		helpWords:   []string{"-h", "--help"},
		noVerbCode:  exitUsage,
		unknown:     func(_ *app, v string) string { return fmt.Sprintf("st context: unknown subcommand: %s\n\n", v) },
		unknownCode: exitUsage,
	}
}

func contextUsage(a *app) string {
	return named(`usage: {NAME} context <verb> [args...]

  read [<identity>] [--decisions | --full]
                           print now.md (default), decisions/ log, or both.
                           Absent files print nothing (exit 0) so the
                           SessionStart hook can `+"`cat`"+` unconditionally.
  write [<identity>]       whole-file rewrite of now.md from stdin.
                           Creates the context/ folder if absent.
  append [<identity>] --decision "<text>" --why "<text>"
                           append one entry to decisions/ as a new file
                           named <unix-ms>-<rand6>.md. No file rewrites.

  Layout: $ST_ROOT/<identity>/context/
           ├── now.md            whole-file, last-write-wins snapshot
           └── decisions/        one file per entry
               └── <unix-ms>-<rand6>.md
  brief-024 (context/ v1): the in-context-state leg of lossless-restart.
`, a.name)
}

// The verbs' own --help prints the group usage (upstream rejects it).
func (c *contextReadCmd) help(a *app) string   { return contextUsage(a) }
func (c *contextWriteCmd) help(a *app) string  { return contextUsage(a) }
func (c *contextAppendCmd) help(a *app) string { return contextUsage(a) }
