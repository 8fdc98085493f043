package front

import (
	"bytes"
	"encoding/json"
	"strings"
)

// request is a line the front may answer.
type request struct {
	id     []byte // as written, which is how the SDK writes it back; nil in a notification
	method string
	params json.RawMessage
}

// parse reads line as a JSON-RPC 2.0 request or notification with no
// member but the four, each plainly written: keys as they are spelled,
// an integer or printable ASCII id. ok is false for anything else, which
// is left to the SDK's decoder.
func parse(line []byte) (r request, ok bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil || string(fields["jsonrpc"]) != `"2.0"` {
		return r, false
	}
	for k, v := range fields {
		switch k {
		case "jsonrpc":
		case "id":
			if !plainID(v) {
				return r, false
			}
			r.id = v
		case "method":
			if json.Unmarshal(v, &r.method) != nil {
				return r, false
			}
		case "params":
			r.params = v
		default:
			return r, false
		}
	}
	return r, true
}

// plainID reports whether id is one the SDK writes back byte for byte:
// an integer in canonical form that a float64 holds exactly, or a string
// of printable ASCII with nothing escaped.
func plainID(id []byte) bool {
	if len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' {
		for _, b := range id[1 : len(id)-1] {
			if b < 0x20 || b > 0x7e || b == '"' || b == '\\' {
				return false
			}
		}
		return true
	}
	digits := bytes.TrimPrefix(id, []byte("-"))
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(id) > 1) {
		return false
	}
	for _, b := range digits {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// OfferedVersion is the protocolVersion of initialize's params when they
// hold nothing the SDK could answer differently or refuse: only the three
// fields of the handshake, each of a shape the SDK's types take.
// Otherwise it is "", which leaves the request to the SDK. The front
// links no SDK, so it judges the shapes itself, erring towards "": what
// it is unsure of goes to the SDK, which answers it as it would anyway.
func OfferedVersion(params json.RawMessage) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(params, &fields) != nil {
		return ""
	}
	var version string
	for k, v := range fields {
		ok := true
		switch k {
		case "protocolVersion":
			ok = json.Unmarshal(v, &version) == nil
		case "capabilities":
			ok = plainCapabilities(v)
		case "clientInfo":
			ok = plainClientInfo(v)
		default:
			return ""
		}
		if !ok {
			return ""
		}
	}
	return version
}

// plainCapabilities reports whether caps is null or an object the SDK's
// ClientCapabilities takes for sure: experimental and extensions hold
// any object, and every other capability is an object whose members are
// empty objects or, under the name listChanged, booleans. Go matches
// member names without regard to case, so keys must be ASCII and are
// compared folded.
func plainCapabilities(caps json.RawMessage) bool {
	if string(caps) == "null" {
		return true
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(caps, &fields) != nil {
		return false
	}
	for k, v := range fields {
		if !ascii(k) {
			return false
		}
		var inner map[string]json.RawMessage
		if json.Unmarshal(v, &inner) != nil {
			return false
		}
		switch strings.ToLower(k) {
		case "experimental", "extensions":
			continue
		}
		for ik, iv := range inner {
			var ok bool
			switch {
			case !ascii(ik):
			case strings.EqualFold(ik, "listChanged"):
				var b bool
				ok = json.Unmarshal(iv, &b) == nil
			default:
				ok = string(bytes.Join(bytes.Fields(iv), nil)) == "{}"
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// plainClientInfo reports whether info is null or an object the SDK's
// Implementation takes for sure: its named fields strings, no icons.
func plainClientInfo(info json.RawMessage) bool {
	if string(info) == "null" {
		return true
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(info, &fields) != nil {
		return false
	}
	for k, v := range fields {
		if !ascii(k) || strings.EqualFold(k, "icons") {
			return false
		}
		switch strings.ToLower(k) {
		case "name", "title", "description", "version", "websiteurl":
			var s string
			if json.Unmarshal(v, &s) != nil {
				return false
			}
		}
	}
	return true
}

// ascii reports whether s holds only ASCII: Go folds two other letters
// (ſ, K) onto ASCII ones when it matches member names.
func ascii(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// plainListParams reports whether a tools/list's params ask for nothing
// but the first page: none, or only a _meta object (Codex sends a
// progress token with every request). A cursor, or anything else, is the
// SDK's.
func plainListParams(params json.RawMessage) bool {
	switch string(params) {
	case "", "null", "{}":
		return true
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(params, &fields) != nil || len(fields) != 1 {
		return false
	}
	meta, ok := fields["_meta"]
	var inner map[string]json.RawMessage
	return ok && json.Unmarshal(meta, &inner) == nil && inner != nil
}
