package mcp

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/mcp/front"
)

// The front writes the tidy check's frame itself, without the SDK; its
// bytes are the ones this server writes for the same frame.
func TestFrontNotificationIsTheSDKs(t *testing.T) {
	f := front.TidyFrame("alice", "Tidy check (drift detected):\n- inbox: <1> & \u2028 é")
	got, err := front.Notification(front.ChannelMethod, f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := jsstr.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := jsonrpc.EncodeMessage(&jsonrpc.Request{Method: front.ChannelMethod, Params: raw})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want)+"\n" {
		t.Errorf("front:\n%s\nSDK:\n%s", got, want)
	}
}
