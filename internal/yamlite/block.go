package yamlite

import "strings"

// blockScalar reads a literal (|) or folded (>) block scalar whose header
// is h and whose parent key or dash sits at column ind.
func (p *parser) blockScalar(h string, ind int) (*Node, error) {
	style, chomp := h[0], byte(0)
	h = h[1:]
	if h != "" && (h[0] == '-' || h[0] == '+') {
		chomp, h = h[0], h[1:]
	}
	if h != "" {
		return nil, ErrUnsupported // indentation indicators, comments
	}
	var lines []string // indentation removed; "" for an empty line
	terminated := true
	bi := -1
	for !p.eof() {
		l := p.lines[p.i]
		if strings.TrimLeft(l, " ") == "" {
			if l != "" {
				return nil, ErrUnsupported // spaces-only lines have intricate rules
			}
			p.i++
			if p.i < len(p.lines) { // the last "" is no line: the file ended with \n
				lines = append(lines, "")
			}
			continue
		}
		in := indentOf(l)
		if bi < 0 {
			if in <= ind {
				break
			}
			bi = in
		}
		if in < bi {
			break
		}
		lines = append(lines, l[bi:])
		p.i++
		terminated = p.i < len(p.lines)
	}
	if bi < 0 {
		return nil, ErrUnsupported
	}
	var text string
	if style == '|' {
		text = strings.Join(lines, "\n")
	} else if text = folded(lines); text == "\x00" {
		return nil, ErrUnsupported
	}
	if terminated {
		text += "\n"
	}
	switch body := strings.TrimRight(text, "\n"); chomp {
	case '-':
		text = body
	case 0:
		if body != text {
			text = body + "\n"
		}
	}
	return &Node{Kind: Scalar, Tag: StrTag, Value: text}, nil
}

// folded joins the lines of a folded block scalar: a line break between
// two text lines becomes a space, and each empty line a line break. It
// returns "\x00" for more-indented lines, whose rules differ.
func folded(lines []string) string {
	var b strings.Builder
	empty, text := 0, false
	for _, l := range lines {
		if l == "" {
			empty++
			continue
		}
		if l[0] == ' ' {
			return "\x00"
		}
		if text && empty == 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.Repeat("\n", empty))
		b.WriteString(l)
		empty, text = 0, true
	}
	b.WriteString(strings.Repeat("\n", empty)) // trailing empty lines
	return b.String()
}
