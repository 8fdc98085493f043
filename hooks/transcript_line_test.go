package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// realTranscriptLines are the lines of the transcript Claude Code wrote in
// e2e/claudecode that carry a usage record.
func realTranscriptLines(t testing.TB) [][]byte {
	data, err := os.ReadFile("../e2e/claudecode/testdata/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	for line := range bytes.Lines(data) {
		if bytes.Contains(line, []byte(`"usage"`)) {
			lines = append(lines, bytes.TrimSuffix(line, []byte("\n")))
		}
	}
	if len(lines) < 3 {
		t.Fatalf("the recorded transcript has %d lines with a usage record", len(lines))
	}
	return lines
}

// Every line Claude Code wrote is read by the walk, not left to
// encoding/json: otherwise no hook gains anything from it.
func TestScanTranscriptLineReadsClientLines(t *testing.T) {
	for _, line := range realTranscriptLines(t) {
		tl, ok, sure := scanTranscriptLine(line)
		if !sure {
			t.Errorf("left to encoding/json: %.200s", line)
			continue
		}
		sameAsUnmarshal(t, line, tl, ok)
	}
}

func TestScanTranscriptLine(t *testing.T) {
	tests := []struct {
		name string
		line string
		sure bool
	}{
		{"a reply", `{"isSidechain":false,"message":{"model":"m","usage":{"input_tokens":1,"cache_creation_input_tokens":2,"cache_read_input_tokens":3},"content":[{"type":"text","text":"hi"}]}}`, true},
		{"spaces everywhere", " { \"message\" : { \"usage\" : { \"input_tokens\" : 7 } , \"content\" : \"x\" } } ", true},
		{"a subagent's", `{"isSidechain":true,"message":{"usage":{"input_tokens":1}}}`, true},
		{"null members change nothing", `{"isSidechain":null,"message":{"model":null,"usage":{"input_tokens":null}}}`, true},
		{"a null usage clears it", `{"message":{"usage":{"input_tokens":1},"usage":null}}`, true},
		{"a repeated message adds to the first", `{"message":{"usage":{"input_tokens":1}},"message":{"model":"m","usage":{"cache_read_input_tokens":2}}}`, true},
		{"a null message keeps the first", `{"message":{"model":"m"},"message":null}`, true},
		{"content of every kind", `{"message":{"content":null,"usage":{}}}`, true},
		{"nested values skipped", `{"a":{"b":[1,{"c":"}\"]"}],"d":-1.5e3},"message":{"x":[[]],"usage":{"input_tokens":4,"other":{"input_tokens":9}}}}`, true},
		{"invalid JSON", `{"message":{"usage":{"input_tokens":1}}`, true},
		{"not an object", `[{"message":{}}]`, false},
		{"null", `null`, false},
		{"a key in another case", `{"Message":{"usage":{"input_tokens":1}}}`, false},
		{"a usage key in another case", `{"message":{"usage":{"Input_Tokens":1}}}`, false},
		{"an escaped key", `{"message":{"us\u0061ge":{"input_tokens":1}}}`, false},
		{"a key outside ASCII", `{"message":{"usage":{"input_tokens":1}},"méssage":1}`, false},
		{"an escaped model", `{"message":{"model":"m\n","usage":{"input_tokens":1}}}`, false},
		{"a fraction of a token", `{"message":{"usage":{"input_tokens":1.5}}}`, false},
		{"a token count too large", `{"message":{"usage":{"input_tokens":9223372036854775808}}}`, false},
		{"a string for a count", `{"message":{"usage":{"input_tokens":"1"}}}`, false},
		{"a number for the flag", `{"isSidechain":1,"message":{}}`, false},
		{"a string for the message", `{"message":"m"}`, false},
		{"a list for usage", `{"message":{"usage":[1]}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, ok, sure := scanTranscriptLine([]byte(tt.line))
			if sure != tt.sure {
				t.Fatalf("sure = %v, want %v", sure, tt.sure)
			}
			if sure {
				sameAsUnmarshal(t, []byte(tt.line), tl, ok)
			}
			got, gotOK := decodeTranscriptLine([]byte(tt.line))
			sameAsUnmarshal(t, []byte(tt.line), got, gotOK)
		})
	}
}

// FuzzTranscriptLine holds the walk to json.Unmarshal wherever it is
// sure of a line.
func FuzzTranscriptLine(f *testing.F) {
	for _, line := range realTranscriptLines(f) {
		f.Add(line)
	}
	f.Add([]byte(`{"message":{"usage":{"input_tokens":1},"usage":null,"content":[1,"a\"}"]}}`))
	f.Add([]byte(`{"isSidechain":true,"message":null,"message":{"model":"x"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if tl, ok, sure := scanTranscriptLine(line); sure {
			sameAsUnmarshal(t, line, tl, ok)
		}
	})
}

// sameAsUnmarshal fails unless tl and ok are what json.Unmarshal makes
// of line.
func sameAsUnmarshal(t *testing.T, line []byte, tl transcriptLine, ok bool) {
	t.Helper()
	var want transcriptLine
	wantOK := json.Unmarshal(line, &want) == nil
	if ok != wantOK {
		t.Fatalf("ok = %v, json.Unmarshal's %v, for %.300s", ok, wantOK, line)
	}
	if ok && !reflect.DeepEqual(tl, want) {
		t.Fatalf("read %+v (usage %+v), json.Unmarshal %+v (usage %+v), for %.300s", tl, tl.Message.Usage, want, want.Message.Usage, line)
	}
}

// BenchmarkTranscriptLine reads a usage line with a reply of 32 KiB, as
// the walk and as json.Unmarshal.
func BenchmarkTranscriptLine(b *testing.B) {
	text, _ := json.Marshal(strings.Repeat("a reply line, with \"quotes\" and \\ escapes\n", 800))
	line := []byte(`{"isSidechain":false,"message":{"model":"m","usage":{"input_tokens":1,"cache_creation_input_tokens":2,"cache_read_input_tokens":3},"content":[{"type":"text","text":` + string(text) + `}]}}`)
	b.Run("walk", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if _, ok, sure := scanTranscriptLine(line); !ok || !sure {
				b.Fatal("not read")
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			var tl transcriptLine
			if json.Unmarshal(line, &tl) != nil {
				b.Fatal("not read")
			}
		}
	})
}
