package main

import (
	"reflect"
	"strings"
)

// A command's flags and arguments as scan reads them, taken from the
// tags of the command's struct: the grammar stays the one place they are
// declared, and kong's model of them is built only where kong parses
// (TestLeafSpecsAsKong checks that both read the tags alike).

// flagSpec is one flag of a command.
type flagSpec struct {
	name    string // the long name, without "--"
	short   byte   // the short name, or 0
	aliases []string
	isBool  bool
	missing string // missing:"…", the error for a value flag given last
	digits  string // digits:"…", the error for a value that is not all digits
	field   int    // the index of its field in the command's struct
}

// leafSpec is what scan needs to know of a command without sub-verbs.
type leafSpec struct {
	flags       []flagSpec
	positionals []int // the fields of its arguments, in order
	unlimited   bool  // the last argument is a list that takes the rest
	loose       bool  // loose:"", unknown flags and extra arguments ignored
	extra       string
}

// specOf reads the spec of the command struct t, declared by a field
// tagged declared.
func specOf(t reflect.Type, declared reflect.StructTag) leafSpec {
	_, loose := declared.Lookup("loose")
	s := leafSpec{loose: loose, extra: declared.Get("extra")}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("kong") == "-" {
			continue
		}
		if _, isArg := f.Tag.Lookup("arg"); isArg {
			s.positionals = append(s.positionals, i)
			s.unlimited = s.unlimited || f.Type.Kind() == reflect.Slice
			continue
		}
		flag := flagSpec{name: f.Tag.Get("name"), isBool: f.Type.Kind() == reflect.Bool,
			missing: f.Tag.Get("missing"), digits: f.Tag.Get("digits"), field: i}
		if flag.name == "" {
			flag.name = kongName(f.Name)
		}
		if short := f.Tag.Get("short"); short != "" {
			flag.short = short[0]
		}
		if aliases := f.Tag.Get("aliases"); aliases != "" {
			flag.aliases = strings.Split(aliases, ",")
		}
		s.flags = append(s.flags, flag)
	}
	return s
}

// find is the flag typed as arg ("--name", "-n" or "--alias"), or nil.
func (s *leafSpec) find(arg string) *flagSpec {
	for i := range s.flags {
		f := &s.flags[i]
		if arg == "--"+f.name || f.short != 0 && len(arg) == 2 && arg[0] == '-' && arg[1] == f.short {
			return f
		}
		for _, alias := range f.aliases {
			if arg == "--"+alias {
				return f
			}
		}
	}
	return nil
}

// kongName is kong's name for a command or flag field without a name
// tag: the field's camel-case words, dashed and in lower case
// (InReplyTo → in-reply-to, JSONOut → json-out, Max2 → max-2).
func kongName(field string) string {
	var b strings.Builder
	for i := range len(field) {
		if i > 0 && startsWord(field, i) {
			b.WriteByte('-')
		}
		c := field[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// startsWord reports whether s[i] begins a camel-case word: where the
// kind of character changes, except a lower-case letter after a capital,
// and the last capital of a run when a lower-case letter follows it.
func startsWord(s string, i int) bool {
	prev, this := charClass(s[i-1]), charClass(s[i])
	if prev != this {
		return !(prev == upperClass && this == lowerClass)
	}
	return this == upperClass && i+1 < len(s) && charClass(s[i+1]) == lowerClass
}

const (
	lowerClass = iota
	upperClass
	digitClass
	otherClass
)

func charClass(c byte) int {
	switch {
	case 'a' <= c && c <= 'z':
		return lowerClass
	case 'A' <= c && c <= 'Z':
		return upperClass
	case '0' <= c && c <= '9':
		return digitClass
	}
	return otherClass
}
