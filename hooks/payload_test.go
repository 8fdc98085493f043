package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every field of Payload with a JSON name is decoded: a field added to
// the struct but not to Payload.field would stay empty.
func TestPayloadFieldsDecoded(t *testing.T) {
	samples := map[reflect.Kind]string{reflect.String: `"x"`, reflect.Bool: `true`, reflect.Float64: `1.5`, reflect.Slice: `{"a":1}`}
	typ := reflect.TypeFor[Payload]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || name == "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			sample, ok := samples[f.Type.Kind()]
			if !ok {
				t.Fatalf("no sample for a %s field", f.Type)
			}
			p, ok := ParsePayload([]byte(`{"` + name + `":` + sample + `}`))
			if !ok || reflect.ValueOf(p).Field(i).IsZero() {
				t.Errorf("ParsePayload left %s (%s) empty", f.Name, name)
			}
		})
	}
}

// structDecode is how ParsePayload used to decode: the whole into the
// struct.
func structDecode(data []byte) (p Payload, ok bool) {
	if json.Unmarshal(data, &p) != nil {
		return Payload{}, false
	}
	p.Raw = data
	return p, true
}

// foldedKeys reports whether data is an object with a key that names a
// field only when matched without case, where the struct decode and
// ParsePayload part on purpose.
func foldedKeys(data []byte) bool {
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		return false
	}
	typ := reflect.TypeFor[Payload]()
	for key := range members {
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if key != name && strings.EqualFold(key, name) {
				return true
			}
		}
	}
	return false
}

// ParsePayload decodes as the struct decode does, on the clients' real
// payloads and on any input.
func FuzzParsePayload(f *testing.F) {
	for _, dir := range []string{"../e2e/claudecode/testdata/payloads", "../e2e/codex/testdata/payloads", "../e2e/gemini/testdata/payloads"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, name := range names {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
	for _, s := range []string{`null`, `[]`, `"x"`, `{"session_id":1}`, `{"tool_input":null,"is_interrupt":false}`,
		`{"duration_ms":"5"}`, `{"session_id":"a","session_id":"b"}`, `{"Session_ID":"a"}`, `{"error":"boom","x":{"y":[1,2]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if foldedKeys(data) {
			return
		}
		got, gotOK := ParsePayload(data)
		want, wantOK := structDecode(data)
		if gotOK != wantOK {
			t.Fatalf("ParsePayload(%q) ok %v, the struct decode %v", data, gotOK, wantOK)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ParsePayload(%q) = %+v, the struct decode %+v", data, got, want)
		}
	})
}

// The seed corpus reaches the real payloads: the fuzz target's
// comparison is not over empty inputs only.
func TestFuzzParsePayloadSeesRealPayloads(t *testing.T) {
	data, err := os.ReadFile("../e2e/claudecode/testdata/payloads/PreToolUse.json")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ParsePayload(data)
	if !ok || p.ToolName == "" || len(p.ToolInput) == 0 || !bytes.Equal(p.Raw, data) {
		t.Fatalf("ParsePayload(PreToolUse.json) = %+v, %v", p, ok)
	}
}

// recordedPayload is Claude Code's recorded payload of event with its
// transcript_path set to transcript and every other member as recorded.
func recordedPayload(t *testing.T, event, transcript string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../e2e/claudecode/testdata/payloads", event+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		t.Fatal(err)
	}
	if _, ok := members["transcript_path"]; !ok {
		t.Fatalf("%s.json has no transcript_path", event)
	}
	members["transcript_path"], _ = json.Marshal(transcript)
	var out bytes.Buffer
	if err := json.NewEncoder(&out).Encode(members); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
