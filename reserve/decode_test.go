package reserve

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestDecode(t *testing.T) {
	r := Reservation{ID: "x", Agent: "bob", Repo: "/home/b/proj", RepoID: "root:ab", Pattern: "src/**", Mode: Exclusive,
		Reason: "a \"quoted\" reason — ünï", Host: "h", Created: time.UnixMilli(1_800_000_000_123).UTC(),
		Expires: time.UnixMilli(1_800_003_600_000).UTC()}
	data, _ := json.MarshalIndent(r, "", "  ")
	var got Reservation
	if !decodeFlat(data, &got, nil) {
		t.Fatalf("decodeFlat refused st's own file:\n%s", data)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("decodeFlat = %+v, want %+v", got, r)
	}
	for _, s := range []string{`{"agent":"bob","expires":1}`, `{"Agent":"bob"}`, `[]`, `{"agent":"bob",}`, `{"agent":"bob"} x`, ``} {
		var r Reservation
		if decodeFlat([]byte(s), &r, nil) {
			t.Errorf("decodeFlat(%q) took it", s)
		}
	}
}

// FuzzDecode: whatever decodeFlat takes, encoding/json reads the same.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"id":"a","agent":"bob","pattern":"src/**","mode":"exclusive","reason":"x\ny","created":"2027-01-15T08:00:00Z","expires":"2027-01-15T09:00:00.5Z"}`))
	f.Add([]byte(`{"agent":"b\u00e9\ud800","repo":"\xff"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast Reservation
		if !decodeFlat(data, &fast, new(interner)) {
			return
		}
		var slow Reservation
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("decodeFlat took %q, encoding/json refuses it: %v", data, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("decodeFlat(%q) = %+v, encoding/json %+v", data, fast, slow)
		}
	})
}
