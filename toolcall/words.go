package toolcall

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as st reads it.
type word struct {
	text string // the value with quotes and escapes removed; expansions left out
	lit  bool   // no expansion: text is the value the command gets
	glob bool   // an unquoted *, ? or [ makes it a pattern
	pre  string // the text before the first expansion (lit: all of it)
	src  string // the value as a shell reads it again (bash -c, eval): each expansion a variable of its own
}

// literal is a word st makes itself (an operand a command takes by
// default, a value cut out of an option): no expansion, its text as given.
func literal(text string) word { return word{text: text, lit: true, pre: text} }

// unknownVar stands for an expansion in a word parsed again: the inner
// parse sees a variable, which it cannot read either.
const unknownVar = "${_st_unknown}"

// script is the value of w as a shell parses it again.
func (w word) script() string {
	if w.lit {
		return w.text
	}
	return w.src
}

// wordOf reads w. A word with an expansion ($VAR, $(…), ~, `…`) is not
// literal: its value is only known when the shell runs.
func wordOf(w *syntax.Word) word {
	var b, src strings.Builder
	out := word{lit: true}
	expand := func() {
		if out.lit {
			out.pre = b.String()
		}
		out.lit = false
		src.WriteString(unknownVar)
	}
	text := func(s string) {
		b.WriteString(s)
		src.WriteString(s)
	}
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				expand()
			}
			if strings.ContainsAny(v, "*?[") || strings.Contains(v, "{") && strings.Contains(v, ",") {
				out.glob = true
			}
			text(unescape(v))
		case *syntax.SglQuoted:
			if p.Dollar {
				expand() // $'…' escapes: not followed
				continue
			}
			text(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					text(unescapeDouble(l.Value))
				} else {
					expand()
				}
			}
		default:
			expand()
		}
	}
	out.text, out.src = b.String(), src.String()
	if out.lit {
		out.pre = out.text
	}
	return out
}

// unescape removes the backslashes of an unquoted word part.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that escape inside double
// quotes: before $ ` " \ and a newline.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// pattern is a glob word in reserve's syntax: a character class or a
// brace list becomes *, which matches at least what it did.
func (w word) pattern() string {
	var b strings.Builder
	s := w.text
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			if j := strings.IndexByte(s[i+1:], ']'); j >= 0 {
				i += j + 1
				b.WriteByte('*')
				continue
			}
		case '{':
			if j := strings.IndexByte(s[i+1:], '}'); j >= 0 && strings.Contains(s[i:i+j+1], ",") {
				i += j + 1
				b.WriteByte('*')
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// words reads every word of ws.
func words(ws []*syntax.Word) []word {
	out := make([]word, len(ws))
	for i, w := range ws {
		out[i] = wordOf(w)
	}
	return out
}

// isFlag reports whether w is an option (a literal starting with '-',
// not "-" alone).
func (w word) isFlag() bool { return w.lit && len(w.text) > 1 && w.text[0] == '-' }
