package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"
)

// A command typed by its verbs' names, with flags and arguments of the
// kinds st's grammar uses (bool, string and *string flags; string,
// *string and []string arguments), is filled straight from its struct:
// kong building the command's model cost a verb about a quarter of an
// empty Go program's start (`st status alice` 1.85× against `st status`
// 1.61×, docs/performance.md). A verb's --help prints the help of its
// path (helpFor). Everything else takes the grammar path: a group's
// usage or unknown sub-verb, a required argument left out, a repeatable
// flag. TestDirectAsKong checks that both paths give
// the same command, or the same error, for every command.

// direct is a command found by its verbs' names.
type direct struct {
	path string       // its verbs as help names them ("message send")
	typ  reflect.Type // its struct
	spec leafSpec
	args []string // what follows its verbs
}

// findDirect follows args down the grammar as walk does, by the
// commands' names, aliases and a group's default verb.
func findDirect(args []string) (direct, bool) {
	if len(args) == 0 {
		return direct{}, false
	}
	next, ok := commandField(reflect.TypeFor[cli](), args[0])
	args = args[1:]
	var names []string
	for ok {
		if !describedByGroup(next) {
			names = append(names, commandName(next)) // help names a hidden default verb by its group
		}
		if isLeafType(next.Type) {
			return direct{path: strings.Join(names, " "), typ: next.Type, spec: specOf(next.Type, next.Tag), args: args}, true
		}
		next, args, ok = subCommand(next.Type, args)
	}
	return direct{}, false
}

// subCommand is the verb of group t that args pick, as walk picks it: the
// one args[0] names, else the group's default verb, which takes all of
// args (even its own name). A help word asks for the group's help.
func subCommand(t reflect.Type, args []string) (reflect.StructField, []string, bool) {
	if len(args) > 0 && isHelpWord(args[0]) {
		return reflect.StructField{}, nil, false
	}
	fallback, hasDefault := defaultField(t)
	if len(args) > 0 {
		if f, ok := commandField(t, args[0]); ok && !(hasDefault && f.Name == fallback.Name) {
			return f, args[1:], true
		}
	}
	return fallback, args, hasDefault
}

// commandField is the command of group t named or aliased name.
func commandField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if _, isCmd := f.Tag.Lookup("cmd"); isCmd && (commandName(f) == name || isAlias(f, name)) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// defaultField is group t's default verb, which takes the arguments when
// the first names no other.
func defaultField(t reflect.Type) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("default") == "withargs" {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// fill makes the command from scan's canonical arguments ("--flag",
// "--flag=value", "--", then the arguments), or reports false where
// kong's parse is needed: a value of another kind, a required argument
// missing.
func (d direct) fill(canonical []string) (runner, bool) {
	cmd := reflect.New(d.typ)
	v := cmd.Elem()
	i := 0
	for ; i < len(canonical) && canonical[i] != "--"; i++ {
		name, value, _ := strings.Cut(strings.TrimPrefix(canonical[i], "--"), "=")
		f := d.spec.find("--" + name)
		if f == nil || !set(v.Field(f.field), value, f.isBool) {
			return nil, false
		}
	}
	positionals := canonical[min(i+1, len(canonical)):]
	for _, field := range d.spec.positionals {
		target := v.Field(field)
		switch {
		case target.Kind() == reflect.Slice && target.Type().Elem().Kind() == reflect.String:
			for _, p := range positionals {
				target.Set(reflect.Append(target, reflect.ValueOf(asKong(p))))
			}
			positionals = nil
		case len(positionals) > 0:
			if !set(target, positionals[0], false) {
				return nil, false
			}
			positionals = positionals[1:]
		default:
			if _, optional := d.typ.Field(field).Tag.Lookup("optional"); !optional {
				return nil, false
			}
		}
	}
	r, ok := cmd.Interface().(runner)
	return r, ok && len(positionals) == 0
}

// set gives a bool, string or *string field its value.
func set(field reflect.Value, value string, isBool bool) bool {
	switch {
	case isBool && field.Kind() == reflect.Bool:
		field.SetBool(true)
	case field.Kind() == reflect.String:
		field.SetString(asKong(value))
	case field.Kind() == reflect.Pointer && field.Type().Elem().Kind() == reflect.String:
		value = asKong(value)
		field.Set(reflect.ValueOf(&value))
	default:
		return false
	}
	return true
}

// asKong is value as kong stores it. Kong passes each value through
// encoding/json, which turns every byte that is not UTF-8 into U+FFFD, so
// a value that is not UTF-8 takes the same round trip here.
func asKong(value string) string {
	if utf8.ValidString(value) {
		return value
	}
	data, _ := json.Marshal(value) // a string always marshals
	var coerced string
	if json.Unmarshal(data, &coerced) != nil {
		return value
	}
	return coerced
}
