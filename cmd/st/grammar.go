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
func pathGrammar(args []string) (grammar any, ok bool) {
	t, ok := narrow(reflect.TypeFor[cli](), args)
	if !ok {
		return nil, false
	}
	return reflect.New(t).Interface(), true
}

func narrow(t reflect.Type, args []string) (reflect.Type, bool) {
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
			return keepOnly(f, args[1:]), true
		}
		if f.Tag.Get("default") == "withargs" {
			fallback = &f
		}
	}
	if fallback != nil {
		return keepOnly(*fallback, args), true
	}
	return t, false
}

// keepOnly returns a struct type with the single command field f, itself
// narrowed to the rest of the path.
func keepOnly(f reflect.StructField, rest []string) reflect.Type {
	if sub, ok := narrow(f.Type, rest); ok {
		f.Type = sub
	}
	f.Index, f.Offset = nil, 0
	return reflect.StructOf([]reflect.StructField{f})
}

func isAlias(f reflect.StructField, name string) bool {
	aliases := f.Tag.Get("aliases")
	return aliases != "" && slices.Contains(strings.Split(aliases, ","), name)
}

// commandName is kong's name for a command field: its name tag, else the
// field name in lower case (st's command fields are single words).
func commandName(f reflect.StructField) string {
	if n := f.Tag.Get("name"); n != "" {
		return n
	}
	return strings.ToLower(f.Name)
}
