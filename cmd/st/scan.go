package main

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sterr"
)

// scan reads args with upstream st's hand-rolled rules and returns them
// in a form kong parses unambiguously ("--flag=value" and positionals
// after "--"):
//
//   - flags and positionals mix in any order; --flag=value gives a value
//     flag its value, "--" ends the flags (not for loose commands, which
//     ignore what they do not know) and "-" is a positional (stdin where
//     a body is meant); there is no short-flag bundling;
//   - a value flag takes the next argument verbatim, even "-x";
//   - a value flag given last is "not given", unless it has a missing tag;
//   - -h/--help stops the scan: earlier errors win, later args are unread;
//   - any other "-…" is an unknown flag, one positional too many is an
//     unexpected arg (or the command's extra:"…" text, %s = the arg).
func scan(spec *leafSpec, args []string) (canonical []string, help bool, err error) {
	var positionals []string
	rest := false // after "--" every argument is a positional
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !rest && arg == "--" && !spec.loose {
			rest = true
			continue
		}
		if !rest && (arg == "-h" || arg == "--help") {
			return nil, true, nil
		}
		if rest || arg == "-" || !strings.HasPrefix(arg, "-") {
			if !spec.unlimited && len(positionals) >= len(spec.positionals) {
				if spec.loose {
					continue
				}
				if msg := spec.extra; msg != "" {
					return nil, false, sterr.Msg("%s", strings.ReplaceAll(msg, "%s", arg))
				}
				return nil, false, sterr.Msg("unexpected arg: %s", arg)
			}
			positionals = append(positionals, arg)
			continue
		}
		name, value, inline := strings.Cut(arg, "=")
		if !inline || !strings.HasPrefix(arg, "--") {
			name, inline = arg, false
		}
		f := spec.find(name)
		if f == nil {
			if spec.loose {
				continue
			}
			return nil, false, sterr.Msg("unknown flag: %s", arg)
		}
		if f.isBool {
			if inline {
				return nil, false, sterr.Msg("%s takes no value", name)
			}
			canonical = append(canonical, "--"+f.name)
			continue
		}
		if inline { // --flag=value
			if msg := f.digits; msg != "" && !jsstr.IsDigits(value) {
				return nil, false, sterr.Msg("%s", msg)
			}
			canonical = append(canonical, fmt.Sprintf("--%s=%s", f.name, value))
			continue
		}
		if i+1 >= len(args) {
			if msg := f.missing; msg != "" {
				return nil, false, sterr.Msg("%s", strings.ReplaceAll(msg, "%s", arg))
			}
			continue
		}
		i++
		if msg := f.digits; msg != "" && !jsstr.IsDigits(args[i]) {
			return nil, false, sterr.Msg("%s", msg)
		}
		canonical = append(canonical, fmt.Sprintf("--%s=%s", f.name, args[i]))
	}
	canonical = append(canonical, "--")
	return append(canonical, positionals...), false, nil
}
