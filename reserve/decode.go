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
func decode(data []byte, r *Reservation) error {
	if decodeFlat(data, r) {
		return nil
	}
	*r = Reservation{}
	return json.Unmarshal(data, r)
}

// decodeFlat decodes {"key": "value", ...} with the keys of Reservation;
// ok is false for anything else, r then half-filled.
func decodeFlat(data []byte, r *Reservation) bool {
	p := 0
	ws := func() {
		for p < len(data) && (data[p] == ' ' || data[p] == '\n' || data[p] == '\t' || data[p] == '\r') {
			p++
		}
	}
	str := func() (string, bool) {
		if p >= len(data) || data[p] != '"' {
			return "", false
		}
		start := p
		p++
		plain := true
		for p < len(data) && data[p] != '"' {
			c := data[p]
			if c == '\\' {
				plain = false
				p++
			} else if c < 0x20 || c >= utf8.RuneSelf {
				plain = false
			}
			p++
		}
		if p >= len(data) {
			return "", false
		}
		p++
		if plain {
			return string(data[start+1 : p-1]), true
		}
		var s string
		if json.Unmarshal(data[start:p], &s) != nil {
			return "", false
		}
		return s, true
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
		k, ok := str()
		if !ok {
			return false
		}
		ws()
		if p >= len(data) || data[p] != ':' {
			return false
		}
		p++
		ws()
		v, ok := str()
		if !ok {
			return false
		}
		seen++
		var err error
		switch k {
		case "id":
			r.ID = v
		case "agent":
			r.Agent = v
		case "repo":
			r.Repo = v
		case "repo_id":
			r.RepoID = v
		case "repo_origin":
			r.Origin = v
		case "pattern":
			r.Pattern = v
		case "mode":
			r.Mode = v
		case "reason":
			r.Reason = v
		case "host":
			r.Host = v
		case "created":
			r.Created, err = time.Parse(time.RFC3339Nano, v)
		case "expires":
			r.Expires, err = time.Parse(time.RFC3339Nano, v)
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
