// Package jsonobj decodes and encodes JSON while keeping the order of
// object keys, so a tool can merge one entry into a config file people
// also edit by hand (.mcp.json, .claude/settings.json) and write it back
// with everything else where it was.
//
// Decoded values are *Object, []any, string, bool, nil and, for numbers,
// float64 (Parse) or json.Number (ParseKeepNumbers). Encoding follows
// JavaScript's JSON.stringify: a float64 prints the way JavaScript prints
// it, a json.Number prints its text as written, strings are escaped as
// jsstr.Marshal does. Like JSON.parse, a repeated key keeps its first
// position and its last value.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// Object is a JSON object that remembers the order of its keys.
type Object struct {
	keys []string
	vals map[string]any
}

// New returns an empty object.
func New() *Object { return &Object{vals: map[string]any{}} }

// Keys returns the keys in order.
func (o *Object) Keys() []string { return append([]string(nil), o.keys...) }

// Len returns the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// Set replaces the value of key in place, or appends key last.
func (o *Object) Set(key string, v any) *Object {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	return o
}

// Delete removes key; the other keys keep their order.
func (o *Object) Delete(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return k == key })
}

// MarshalJSON encodes the object compactly, keys in order.
func (o *Object) MarshalJSON() ([]byte, error) { return Marshal(o) }

// Marshal encodes v compactly like JSON.stringify(v).
func Marshal(v any) ([]byte, error) { return marshal(v, "") }

// MarshalIndent encodes v like JSON.stringify(v, null, 2).
func MarshalIndent(v any) ([]byte, error) { return marshal(v, "  ") }

func marshal(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	if err := encode(&buf, v, indent, "\n"); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encode writes v; with a non-empty indent each element goes on its own
// line, nl being the line break and the indentation of v's own line.
func encode(buf *bytes.Buffer, v any, indent, nl string) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case float64:
		buf.WriteString(FormatNumber(v))
	case json.Number:
		buf.WriteString(v.String())
	case int:
		buf.WriteString(strconv.Itoa(v))
	case string:
		b, err := jsstr.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(b)
	case []string:
		arr := make([]any, len(v))
		for i, s := range v {
			arr[i] = s
		}
		return encode(buf, arr, indent, nl)
	case []any:
		return encodeList(buf, '[', ']', len(v), indent, nl, func(i int, inner string) error {
			return encode(buf, v[i], indent, inner)
		})
	case *Object:
		return encodeList(buf, '{', '}', len(v.keys), indent, nl, func(i int, inner string) error {
			if err := encode(buf, v.keys[i], indent, inner); err != nil {
				return err
			}
			buf.WriteByte(':')
			if indent != "" {
				buf.WriteByte(' ')
			}
			return encode(buf, v.vals[v.keys[i]], indent, inner)
		})
	default:
		return fmt.Errorf("jsonobj: cannot encode %T", v)
	}
	return nil
}

// encodeList writes n elements between start and end, each written by
// elem; an empty list stays on one line, as JSON.stringify prints it.
func encodeList(buf *bytes.Buffer, start, end byte, n int, indent, nl string, elem func(i int, nl string) error) error {
	buf.WriteByte(start)
	inner := nl + indent
	for i := range n {
		if i > 0 {
			buf.WriteByte(',')
		}
		if indent != "" {
			buf.WriteString(inner)
		}
		if err := elem(i, inner); err != nil {
			return err
		}
	}
	if indent != "" && n > 0 {
		buf.WriteString(nl)
	}
	buf.WriteByte(end)
	return nil
}

// FormatNumber prints f as JavaScript's Number.prototype.toString does
// (JSON.stringify prints non-finite numbers as null).
func FormatNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0" // also -0
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	// Exponent form: Go writes "1.5e-07", JavaScript "1.5e-7".
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

// ErrNotObject is returned by ParseObject for valid JSON that is not an
// object; its text is the one st has always printed.
var ErrNotObject = errors.New("top-level value is not an object")

// ParseObject decodes data, which must hold exactly one JSON object, as
// Parse does.
func ParseObject(data []byte) (*Object, error) {
	v, err := Parse(data)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, ErrNotObject
	}
	return o, nil
}

// Parse decodes data, which must hold exactly one JSON value. Numbers
// become float64, as JSON.parse makes them, so that encoding prints them
// the way JavaScript does ("1.50" comes back as "1.5").
func Parse(data []byte) (any, error) { return parse(data, false) }

// ParseKeepNumbers decodes data as Parse does but keeps each number as a
// json.Number, so that encoding prints it as it was written.
func ParseKeepNumbers(data []byte) (any, error) { return parse(data, true) }

func parse(data []byte, keepNumbers bool) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, keepNumbers)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, fmt.Errorf("unexpected data after the top-level value at offset %d", dec.InputOffset())
		}
		return nil, err
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, keepNumbers bool) (any, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, errors.New("unexpected end of JSON input")
	}
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := New()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, eof(err)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string at offset %d", dec.InputOffset())
				}
				v, err := decodeValue(dec, keepNumbers)
				if err != nil {
					return nil, err
				}
				o.Set(key, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, eof(err)
			}
			return o, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec, keepNumbers)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, eof(err)
			}
			return arr, nil
		default:
			return nil, fmt.Errorf("unexpected %q at offset %d", t, dec.InputOffset())
		}
	case json.Number:
		if keepNumbers {
			return t, nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return f, nil
	default:
		return t, nil // string, bool, nil
	}
}

func eof(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("unexpected end of JSON input")
	}
	return err
}
