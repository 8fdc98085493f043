package reserve

import (
	"encoding/json"
	"time"
	"unicode/utf8"
)

// decode reads a reservation file. The files st writes are one flat
// object of strings, which decodeFlat reads in a fraction of
// encoding/json's time (a listing decodes every file); anything else
// (numbers, nesting, a stray key, another spacing) goes to
// encoding/json, which decides.
func decode(data []byte, r *Reservation, in *interner) error {
	if decodeFlat(data, r, in) {
		return nil
	}
	*r = Reservation{}
	return json.Unmarshal(data, r)
}

// interner shares one copy of the strings many reservations repeat
// (agent, repository, mode, host): a listing holds them all at once. A
// nil interner copies.
type interner map[string]string

// text is a value str read: its raw bytes, or the decoded string.
func text(raw []byte, s string) string {
	if raw != nil {
		return string(raw)
	}
	return s
}

// text is the package's text for a value many records repeat: one copy
// for all.
func (in *interner) text(raw []byte, s string) string {
	if raw == nil {
		return in.get(s)
	}
	if in != nil && *in != nil {
		if v, ok := (*in)[string(raw)]; ok {
			return v
		}
	}
	return in.get(string(raw))
}

func (in *interner) get(s string) string {
	if in == nil {
		return s
	}
	if *in == nil {
		*in = map[string]string{}
	}
	if v, ok := (*in)[s]; ok {
		return v
	}
	(*in)[s] = s
	return s
}

// decodeFlat decodes {"key": "value", ...} with the keys of Reservation;
// ok is false for anything else, r then half-filled.
func decodeFlat(data []byte, r *Reservation, in *interner) bool {
	p := 0
	ws := func() {
		for p < len(data) && (data[p] == ' ' || data[p] == '\n' || data[p] == '\t' || data[p] == '\r') {
			p++
		}
	}
	// str reads a string; plain is the raw text when it holds no escape
	// and nothing but printable ASCII, which needs no decoding.
	str := func() (plain []byte, s string, ok bool) {
		if p >= len(data) || data[p] != '"' {
			return nil, "", false
		}
		start := p
		p++
		simple := true
		for p < len(data) && data[p] != '"' {
			c := data[p]
			if c == '\\' {
				simple = false
				p++
			} else if c < 0x20 || c >= utf8.RuneSelf {
				simple = false
			}
			p++
		}
		if p >= len(data) {
			return nil, "", false
		}
		p++
		if simple {
			return data[start+1 : p-1], "", true
		}
		s, ok = unquote(data[start:p])
		return nil, s, ok
	}
	ws()
	if p >= len(data) || data[p] != '{' {
		return false
	}
	p++
	seen := 0
	for {
		ws()
		if p < len(data) && data[p] == '}' && seen == 0 {
			p++
			break
		}
		k, _, ok := str()
		if !ok || k == nil {
			return false // an escaped key: encoding/json decides
		}
		ws()
		if p >= len(data) || data[p] != ':' {
			return false
		}
		p++
		ws()
		vb, vs, ok := str()
		if !ok {
			return false
		}
		seen++
		var err error
		switch string(k) { // no copy: a switch on a conversion
		case "id":
			r.ID = text(vb, vs)
		case "agent":
			r.Agent = in.text(vb, vs)
		case "repo":
			r.Repo = in.text(vb, vs)
		case "repo_id":
			r.RepoID = in.text(vb, vs)
		case "repo_origin":
			r.Origin = in.text(vb, vs)
		case "pattern":
			r.Pattern = text(vb, vs)
		case "mode":
			r.Mode = in.text(vb, vs)
		case "reason":
			r.Reason = text(vb, vs)
		case "host":
			r.Host = in.text(vb, vs)
		case "created":
			r.Created, err = time.Parse(time.RFC3339Nano, text(vb, vs))
		case "expires":
			r.Expires, err = time.Parse(time.RFC3339Nano, text(vb, vs))
		default:
			return false
		}
		if err != nil {
			return false
		}
		ws()
		if p < len(data) && data[p] == ',' {
			p++
			continue
		}
		if p < len(data) && data[p] == '}' {
			p++
			break
		}
		return false
	}
	ws()
	return p == len(data)
}

// unquote decodes a JSON string with escapes or non-ASCII text.
func unquote(q []byte) (string, bool) {
	var s string
	if json.Unmarshal(q, &s) != nil {
		return "", false
	}
	return s, true
}
