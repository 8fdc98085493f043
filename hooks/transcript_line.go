package hooks

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// decodeTranscriptLine decodes one transcript line into a transcriptLine
// as json.Unmarshal does; ok is false where json.Unmarshal fails.
//
// The lines Claude Code writes are read by scanTranscriptLine, which
// walks the line for the few members lastReply needs, and json.Unmarshal
// reads any line it is not sure of. Every PostToolUse, prompt and Stop
// reads one line, the first of the process: json.Unmarshal of a 1.2 KB
// line took 0.13–0.15 ms there (encoding/json and strconv code the hook
// had not run before), the walk 0.02–0.04 ms (a throwaway build timing
// each step of `st hook post-tool-use`, medians of 40 runs); on a 37 KB
// line, warm, 193 against 125 µs (BenchmarkTranscriptLine).
// FuzzTranscriptLine holds the walk to json.Unmarshal.
func decodeTranscriptLine(line []byte) (tl transcriptLine, ok bool) {
	if tl, ok, sure := scanTranscriptLine(line); sure {
		return tl, ok
	}
	tl = transcriptLine{}
	return tl, json.Unmarshal(line, &tl) == nil
}

// scanTranscriptLine is decodeTranscriptLine for the lines whose members
// it is sure json.Unmarshal decodes as it does. It is sure of a line that
// is not valid JSON (ok is false); it is not sure of valid JSON that is
// not an object, nor of a line with a member of the three objects it
// reads that it leaves to encoding/json (a key with an escape, outside
// ASCII, or matching a field's name only when case is ignored; a value of
// an unexpected type; a model name that is not plain printable ASCII).
func scanTranscriptLine(line []byte) (tl transcriptLine, ok, sure bool) {
	if !json.Valid(line) {
		return tl, false, true // json.Unmarshal checks the whole line first
	}
	s := jsonWalk{data: line}
	if s.skipSpace(); s.peek() != '{' {
		return tl, false, false
	}
	sure = s.members(func(key string) bool {
		switch key {
		case "isSidechain":
			switch lit := s.literal(); lit {
			case "true", "false":
				tl.IsSidechain = lit == "true"
			case "null":
			default:
				return false
			}
		case "message":
			if s.null() {
				return true // null leaves a struct as it is
			}
			return s.peek() == '{' && s.members(func(key string) bool { return scanMessage(&s, key, &tl) })
		default:
			if foldsTo(key, "isSidechain", "message") {
				return false
			}
			s.skipValue()
		}
		return true
	})
	return tl, sure, sure
}

// scanMessage reads the member key of a transcript line's message.
func scanMessage(s *jsonWalk, key string, tl *transcriptLine) bool {
	m := &tl.Message
	switch key {
	case "model":
		if s.null() {
			return true
		}
		v, plain := s.plainString()
		m.Model = v
		return plain
	case "usage":
		if s.null() {
			m.Usage = nil
			return true
		}
		if s.peek() != '{' {
			return false
		}
		if m.Usage == nil {
			m.Usage = &usage{}
		}
		u := m.Usage
		return s.members(func(key string) bool {
			switch key {
			case "input_tokens":
				return s.int64Into(&u.InputTokens)
			case "cache_creation_input_tokens":
				return s.int64Into(&u.CacheCreationInputTokens)
			case "cache_read_input_tokens":
				return s.int64Into(&u.CacheReadInputTokens)
			}
			if foldsTo(key, "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens") {
				return false
			}
			s.skipValue()
			return true
		})
	case "content":
		start := s.i
		s.skipValue()
		m.Content = append(json.RawMessage(nil), s.data[start:s.i]...)
	default:
		if foldsTo(key, "model", "usage", "content") {
			return false
		}
		s.skipValue()
	}
	return true
}

// foldsTo reports whether key is one of names when case is ignored, the
// way encoding/json also matches a member to a field.
func foldsTo(key string, names ...string) bool {
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}

// jsonWalk steps through JSON text that json.Valid accepted.
type jsonWalk struct {
	data []byte
	i    int
}

func (s *jsonWalk) skipSpace() {
	for s.i < len(s.data) && (s.data[s.i] == ' ' || s.data[s.i] == '\t' || s.data[s.i] == '\n' || s.data[s.i] == '\r') {
		s.i++
	}
}

// peek is the next byte, 0 at the end.
func (s *jsonWalk) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// members calls member with each key of the object at s (a plain ASCII
// key without escapes), s standing on its value and member reading it;
// false as soon as a key is not plain or member returns false.
func (s *jsonWalk) members(member func(key string) bool) bool {
	s.i++ // {
	for {
		s.skipSpace()
		switch s.peek() {
		case '}':
			s.i++
			s.skipSpace()
			return true
		case ',':
			s.i++
			s.skipSpace()
		}
		key, plain := s.plainString()
		if !plain {
			return false
		}
		s.skipSpace()
		s.i++ // :
		s.skipSpace()
		if !member(key) {
			return false
		}
		s.skipSpace()
	}
}

// plainString reads the string at s; plain is false for one holding an
// escape or a byte outside printable ASCII, which encoding/json may read
// differently (escapes, invalid UTF-8), or for a value that is not a
// string.
func (s *jsonWalk) plainString() (v string, plain bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.i + 1
	for j := start; j < len(s.data); j++ {
		switch c := s.data[j]; {
		case c == '"':
			s.i = j + 1
			return string(s.data[start:j]), true
		case c == '\\' || c < 0x20 || c > 0x7e:
			return "", false
		}
	}
	return "", false
}

// null reads a null at s, if there is one.
func (s *jsonWalk) null() bool {
	if bytes.HasPrefix(s.data[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// literal reads the number, true, false or null at s ("" for anything
// else, which it leaves unread).
func (s *jsonWalk) literal() string {
	start := s.i
	for s.i < len(s.data) {
		c := s.data[s.i]
		if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '{' || c == '[' {
			break
		}
		s.i++
	}
	return string(s.data[start:s.i])
}

// int64Into reads the number or null at s into *n as encoding/json does
// for an int64 field: a null changes nothing, and a number must parse
// as a base-10 int64.
func (s *jsonWalk) int64Into(n *int64) bool {
	lit := s.literal()
	if lit == "null" {
		return true
	}
	v, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		return false
	}
	*n = v
	return true
}

// skipValue steps over the value at s.
func (s *jsonWalk) skipValue() {
	depth := 0
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case '"':
			s.i++
			for s.i < len(s.data) && s.data[s.i] != '"' {
				if s.data[s.i] == '\\' {
					s.i++
				}
				s.i++
			}
			s.i++
		case '{', '[':
			depth++
			s.i++
			continue
		case '}', ']':
			if depth == 0 {
				return
			}
			depth--
			s.i++
		case ',':
			if depth == 0 {
				return
			}
			s.i++
			continue
		default:
			if depth == 0 {
				s.literal()
				return
			}
			s.i++
			continue
		}
		if depth == 0 {
			return
		}
	}
}
