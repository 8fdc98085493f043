package main

import (
	"reflect"
	"slices"
	"strings"
)

// pathGrammar returns a kong grammar holding only the commands that args
// name, so that each start-up reflects over the one command it runs
// rather than the whole tree (building the full model costs about a
// millisecond, most of st's budget). Where a group's sub-verb is missing
// or unknown, the whole group is kept, so its usage errors still work;
// ok is false when args[0] is not a command at all.
//
// The kept commands carry only the tags that parsing reads: help texts,
// examples and completion hints are for help.go, which builds the whole
// tree, and kong would otherwise parse and interpolate every one of them
// at each start. The leaf command becomes a shadow struct with the same
// fields (see shadowLeaf); runLeaf copies it back into the real command.
func pathGrammar(args []string) (grammar any, ok bool) {
	t, ok := narrow(reflect.TypeFor[cli](), args, false)
	if !ok {
		return nil, false
	}
	return reflect.New(t).Interface(), true
}

// helpGrammar returns a kong grammar holding only the command path names
// and the commands under it, every tag kept, so that one verb's help
// builds the model of that verb rather than of all of them (with the
// whole tree, `st help status` took 2.7 times an empty program). ok is
// false when path names no command.
func helpGrammar(path []string) (grammar any, ok bool) {
	t, ok := narrow(reflect.TypeFor[cli](), path, true)
	if !ok {
		return nil, false
	}
	return reflect.New(t).Interface(), true
}

// narrow keeps of t the command args names, down the path; withHelp
// keeps every tag and the leaf's own type, and never falls back to a
// default command, as help names commands exactly.
func narrow(t reflect.Type, args []string, withHelp bool) (reflect.Type, bool) {
	if len(args) == 0 {
		return t, false
	}
	var fallback *reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if _, isCmd := f.Tag.Lookup("cmd"); !isCmd {
			continue
		}
		if commandName(f) == args[0] || isAlias(f, args[0]) {
			if withHelp && len(args) == 1 && describedByGroup(f) {
				return t, false // helpNode: its group's help, which lists the group's verbs
			}
			return keepOnly(f, args[1:], withHelp), true
		}
		if !withHelp && f.Tag.Get("default") == "withargs" {
			fallback = &f
		}
	}
	if fallback != nil {
		return keepOnly(*fallback, args, false), true
	}
	return t, false
}

// keepOnly returns a struct type with the single command field f, itself
// narrowed to the rest of the path (withHelp: as narrow).
func keepOnly(f reflect.StructField, rest []string, withHelp bool) reflect.Type {
	if sub, ok := narrow(f.Type, rest, withHelp); ok {
		f.Type = sub
	} else if !withHelp && isLeafType(f.Type) {
		f.Type = shadowLeaf(f.Type)
	}
	if !withHelp {
		f.Tag = parseTags(f.Tag)
	}
	f.Index, f.Offset = nil, 0
	return reflect.StructOf([]reflect.StructField{f})
}

// describedByGroup reports whether the command field f is a hidden
// default verb, whose help is its group's (helpNode).
func describedByGroup(f reflect.StructField) bool {
	_, hidden := f.Tag.Lookup("hidden")
	return hidden && f.Tag.Get("default") != ""
}

// isLeafType reports whether t is a command without sub-commands.
func isLeafType(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		if _, ok := t.Field(i).Tag.Lookup("cmd"); ok {
			return false
		}
	}
	return true
}

// shadow is the name of the one extra field of a shadow leaf: its zero
// value's type is the real command's.
const shadowField = "XShadowOf"

// shadowLeaf is t with parse-only tags, plus a field recording t.
func shadowLeaf(t reflect.Type) reflect.Type {
	fields := make([]reflect.StructField, 0, t.NumField()+1)
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			if f.Anonymous {
				return t // kong flattens embedded structs; keep the real type
			}
			continue
		}
		f.Tag = parseTags(f.Tag)
		f.Index, f.Offset = nil, 0
		fields = append(fields, f)
	}
	fields = append(fields, reflect.StructField{Name: shadowField, Type: reflect.PointerTo(t), Tag: `kong:"-"`})
	return reflect.StructOf(fields)
}

// realCommand returns the command kong filled: target itself, or for a
// shadow leaf a real command holding the same field values.
func realCommand(target reflect.Value) any {
	sf, ok := target.Type().FieldByName(shadowField)
	if !ok {
		return target.Addr().Interface()
	}
	real := reflect.New(sf.Type.Elem()).Elem()
	for i := range target.NumField() {
		name := target.Type().Field(i).Name
		if name == shadowField {
			continue
		}
		real.FieldByName(name).Set(target.Field(i))
	}
	return real.Addr().Interface()
}

// parseTags keeps the tags that parsing reads (kong's and scan.go's).
// Tags are parsed as reflect.StructTag.Lookup does.
func parseTags(tag reflect.StructTag) reflect.StructTag {
	s := string(tag)
	var out []byte
	for s != "" {
		i := 0
		for i < len(s) && s[i] == ' ' {
			i++
		}
		s = s[i:]
		if s == "" {
			break
		}
		i = 0
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' && s[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			break
		}
		key := s[:i]
		s = s[i+1:]
		i = 1
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(s) {
			break
		}
		value := s[:i+1]
		s = s[i+1:]
		switch key {
		case "cmd", "arg", "optional", "name", "short", "aliases", "default", "hidden", "sep",
			"missing", "digits", "loose", "extra":
			if len(out) > 0 {
				out = append(out, ' ')
			}
			out = append(out, key...)
			out = append(out, ':')
			out = append(out, value...)
		}
	}
	return reflect.StructTag(out)
}

func isAlias(f reflect.StructField, name string) bool {
	aliases := f.Tag.Get("aliases")
	return aliases != "" && slices.Contains(strings.Split(aliases, ","), name)
}

// commandName is kong's name for a command field: its name tag, else
// its field name's words dashed (SessionStart → session-start).
func commandName(f reflect.StructField) string {
	if n := f.Tag.Get("name"); n != "" {
		return n
	}
	return kongName(f.Name)
}
