package acpconn

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The fast path for text chunks gives exactly what the SDK's decoding
// gives, and leaves everything else to it.
func TestDecodeChunkMatchesSDKPath(t *testing.T) {
	cases := []struct {
		params string
		fast   bool
	}{
		{`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi \u001b[1mthere\u202e"}}}`, true},
		{`{"sessionId":"s","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"}}}`, true},
		{`{"sessionId":"s","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":""}}}`, true},
		{`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"AA==","mimeType":"image/png"}}}`, false},
		{`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text"}}}`, false},
		{`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x"}}`, false},
		{`{"sessionId":"s","update":{"sessionUpdate":"mystery"}}`, false},
	}
	for _, c := range cases {
		raw := json.RawMessage(c.params)
		fast, sid, ok := decodeChunk(raw)
		if ok && sid != "s" {
			t.Errorf("%s: session %q", c.params, sid)
		}
		if ok != c.fast {
			t.Errorf("%s: fast path taken %v, want %v", c.params, ok, c.fast)
		}
		sdk, sdkErr := decodeUpdateSDK(raw)
		// The fast path also keeps the text faithful for pipes; the SDK path
		// has only the displayed text.
		fast.Faithful = ""
		if ok && (sdkErr != nil || !reflect.DeepEqual(Event(fast), sdk)) {
			t.Errorf("%s:\nfast %#v\nSDK  %#v %v", c.params, fast, sdk, sdkErr)
		}
		got, sid2, err := decodeUpdate(raw)
		if mc, isChunk := got.(MessageChunk); isChunk {
			mc.Faithful = ""
			got = mc
		}
		if (err == nil) != (sdkErr == nil) || !reflect.DeepEqual(got, sdk) || sid2 != "s" {
			t.Errorf("%s: decodeUpdate %#v %v, SDK path %#v %v", c.params, got, err, sdk, sdkErr)
		}
	}
}
