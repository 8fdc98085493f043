package events

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// parsePlain decodes line as encoding/json would into a zeroed e, for the
// lines Marshal writes when no string needs an escape: a flat object with
// no whitespace, every key one of Event's names as spelled, every value a
// string without escapes or control characters, an integer, true or
// false. ok is false for any other line, which then goes to
// encoding/json; FuzzParsePlain holds the two to the same result.
//
// Why by hand: encoding/json reflects over Event's 30 fields the first
// time it decodes one, in every process, and a hook is a process of a
// few milliseconds whose every new page is a page fault. Decoding the
// log's lines was 44 of `st hook user-prompt-submit`'s 369 page faults
// (perf record -e page-faults, 3 runs alike), about 12 %.
func parsePlain(line []byte, e *Event) bool {
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return false
	}
	rest := line[1 : len(line)-1]
	for len(rest) > 0 {
		key, after, ok := plainString(rest)
		if !ok || len(after) == 0 || after[0] != ':' {
			return false
		}
		rest = after[1:]
		field := e.field(key)
		var end int
		switch f := field.(type) {
		case *string:
			s, after, ok := plainString(rest)
			if !ok {
				return false
			}
			*f, end = string(s), len(rest)-len(after)
		case *int64:
			n, size, ok := plainInt(rest, 64)
			if !ok {
				return false
			}
			*f, end = n, size
		case *int:
			n, size, ok := plainInt(rest, strconv.IntSize)
			if !ok {
				return false
			}
			*f, end = int(n), size
		case *bool:
			switch {
			case bytes.HasPrefix(rest, []byte("true")):
				*f, end = true, 4
			case bytes.HasPrefix(rest, []byte("false")):
				*f, end = false, 5
			default:
				return false
			}
		default: // a key that is not one of Event's names as spelled
			return false
		}
		rest = rest[end:]
		if len(rest) > 0 {
			if rest[0] != ',' || len(rest) == 1 {
				return false
			}
			rest = rest[1:]
		}
	}
	return true
}

// plainString reads a JSON string at the start of b that holds no escape,
// no control character and only valid UTF-8 (what encoding/json decodes
// to its bytes unchanged), and returns its bytes and what follows it.
func plainString(b []byte) (s, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, nil, false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 {
		return nil, nil, false
	}
	body := b[1 : 1+end]
	for _, c := range body {
		if c < 0x20 || c == '\\' {
			return nil, nil, false
		}
	}
	if !utf8.Valid(body) {
		return nil, nil, false
	}
	return body, b[2+end:], true
}

// plainInt reads a JSON integer at the start of b (no fraction, no
// exponent, no leading zero) that fits bits, and returns it and its
// length.
func plainInt(b []byte, bits int) (n int64, size int, ok bool) {
	for size < len(b) && (b[size] == '-' && size == 0 || b[size] >= '0' && b[size] <= '9') {
		size++
	}
	digits := b[:size]
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 1 && digits[0] == '0' {
		return 0, 0, false
	}
	if size < len(b) && (b[size] == '.' || b[size] == 'e' || b[size] == 'E') {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(string(b[:size]), 10, bits)
	return n, size, err == nil
}

// field is the field a key names, spelled as Event's JSON names are; nil
// for any other key. TestFieldNamesEveryField checks it against the
// struct's tags.
func (e *Event) field(key []byte) any {
	switch string(key) { // no copy: Go compares the bytes in place
	case "ts":
		return &e.TS
	case "event":
		return &e.Event
	case "session":
		return &e.Session
	case "agent_id":
		return &e.AgentID
	case "agent_type":
		return &e.AgentType
	case "tool":
		return &e.Tool
	case "path":
		return &e.Path
	case "command":
		return &e.Command
	case "input":
		return &e.Input
	case "bytes":
		return &e.Bytes
	case "tool_ms":
		return &e.ToolMS
	case "error":
		return &e.Error
	case "interrupt":
		return &e.Interrupt
	case "type":
		return &e.Type
	case "title":
		return &e.Title
	case "message":
		return &e.Message
	case "advice":
		return &e.Advice
	case "attempt":
		return &e.Attempt
	case "retry_at":
		return &e.RetryAt
	case "ctx_tokens":
		return &e.CtxTokens
	case "ctx_window":
		return &e.CtxWindow
	case "model":
		return &e.Model
	case "transcript":
		return &e.Transcript
	case "cwd":
		return &e.Cwd
	case "host":
		return &e.Host
	case "pane":
		return &e.Pane
	case "via":
		return &e.Via
	case "judge":
		return &e.Judge
	case "hook_us":
		return &e.HookUS
	}
	return nil
}
