package hooks

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// LargeRead is the advisory for a Read of a whole large file: path has
// size bytes, more than limit, and the call gives neither offset nor
// limit. It returns "" when the read is fine. It never decides the
// permission: a bare allow would approve the read silently.
func LargeRead(toolName string, in ToolInput, size, limit int64) string {
	if toolName != "Read" || in.FilePath == "" || size <= limit || in.Offset != nil || in.Limit != nil {
		return ""
	}
	return fmt.Sprintf("%s is %d bytes (about %d tokens). Reading it whole puts all of that into the context; "+
		"if you need only part of it, read a range with offset and limit, or locate the lines with Grep first.",
		in.FilePath, size, (size+3)/4)
}

// FileSize returns the size of the regular file at path, or -1.
func FileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	return fi.Size()
}

// compiledRule is a DenyRule ready to match.
type compiledRule struct {
	tools  []string // nil: any tool
	re     *regexp.Regexp
	reason string
	rule   DenyRule
}

// DenyRules are the config's deny rules, compiled. Rules with an invalid
// pattern are dropped (fail open) and listed in Bad.
type DenyRules struct {
	rules []compiledRule
	Bad   []DenyRule
}

// CompileDeny compiles the config's deny rules.
func CompileDeny(rules []DenyRule) DenyRules {
	var d DenyRules
	for _, r := range rules {
		re, err := regexp.Compile(r.Pattern)
		if err != nil || r.Pattern == "" {
			d.Bad = append(d.Bad, r)
			continue
		}
		var tools []string
		if t := strings.TrimSpace(r.Tool); t != "" && t != "*" {
			for _, name := range strings.Split(t, "|") {
				tools = append(tools, strings.TrimSpace(name))
			}
		}
		d.rules = append(d.rules, compiledRule{tools: tools, re: re, reason: r.Reason, rule: r})
	}
	return d
}

// Match returns the reason of the first rule that refuses the call, and
// whether one did.
func (d DenyRules) Match(toolName string, in ToolInput) (reason string, denied bool) {
	target := in.Target()
	if target == "" {
		return "", false
	}
	for _, r := range d.rules {
		if r.tools != nil && !contains(r.tools, toolName) {
			continue
		}
		if !r.re.MatchString(target) {
			continue
		}
		if r.reason != "" {
			return r.reason, true
		}
		tool := r.rule.Tool
		if tool == "" {
			tool = "*"
		}
		return fmt.Sprintf("Denied by an st deny rule (tool: %s; pattern: %s).", tool, r.rule.Pattern), true
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
