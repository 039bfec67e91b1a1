package acpconn

import (
	"encoding/json"
	"reflect"
	"strings"
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

// oldDecodeUpdate is decodeUpdate without the one pass: what it must
// agree with.
func oldDecodeUpdate(params json.RawMessage) (Event, string, error) {
	if ev, sid, ok := decodeChunk(params); ok {
		return ev, sid, nil
	}
	var n struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(params, &n)
	ev, err := decodeUpdateSDK(params)
	return ev, n.SessionID, err
}

// exactDiscriminator reports whether the update names its kind only with
// the member sessionUpdate spelt exactly: the SDK's union reads that name
// exactly, encoding/json's struct decoding (both fast paths) in any case.
func exactDiscriminator(params []byte) bool {
	var p struct {
		Update map[string]json.RawMessage `json:"update"`
	}
	if json.Unmarshal(params, &p) != nil {
		return true
	}
	for k := range p.Update {
		if k != "sessionUpdate" && strings.EqualFold(k, "sessionUpdate") {
			return false
		}
	}
	return true
}

func checkWire(t *testing.T, params []byte) {
	t.Helper()
	if ev, sid, ok := scanChunk(params); ok {
		want, wantSID, wantOK := decodeChunk(params)
		if !wantOK || sid != wantSID || !reflect.DeepEqual(ev, want) {
			t.Fatalf("%s:\nscanChunk %#v %q\ndecodeChunk %#v %q %v", params, ev, sid, want, wantSID, wantOK)
		}
	}
	ev, sid, ok := decodeWire(params)
	if !ok || !exactDiscriminator(params) {
		return
	}
	want, wantSID, err := oldDecodeUpdate(params)
	if err != nil || sid != wantSID || !reflect.DeepEqual(ev, want) {
		t.Fatalf("%s:\none pass %#v %q\nold path %#v %q %v", params, ev, sid, want, wantSID, err)
	}
}

var wireCases = []string{
	`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"line \"one\"\n\u00e9"},"messageId":null,"_meta":{}},"x":[1]}`,
	`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a","Text":"b"}}}`,
	`{"sessionId":"s","sessionId":"t","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}`,
	`{"sessionId":null,"update":{"sessionUpdate":"agent_message_chunk","content":{"text":"a","type":"text","annotations":5}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x","kind":"read","status":"pending","locations":[{"path":"/a","line":3}],"content":[{"type":"content","content":{"type":"text","text":"hi"}},{"type":"diff","path":"p","oldText":"a","newText":"b"},{"type":"terminal","terminalId":"term"}],"rawInput":{"a":1},"_meta":{"x":1}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"completed","content":null}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","title":null,"kind":null}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","content":{"type":"text","text":"x"}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"AA==","mimeType":"image/png"}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"a"},"messageId":"m"}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"user_message_chunk","content":{"type":"resource_link","name":"n","uri":"u"}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"},"content":{"type":"text"}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":[]}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":null}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":5}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"n","description":"d","input":{"hint":"h"}}]}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"current_mode_update","currentModeId":"m"}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"config_option_update","configOptions":[{"type":"select","id":"i","name":"n","currentValue":"v","options":[{"value":"v","name":"vn"}]},{"type":"boolean","id":"b","name":"bn","currentValue":true}]}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"session_info_update","title":"t","updatedAt":"now"}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"usage_update","used":1,"size":2,"cost":{"amount":1.5,"currency":"USD"}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"usage_update","used":1.5}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"mystery","x":1}}`, `{"sessionId":"s","update":null}`, `{"sessionId":"s"}`,
	`{"sessionId":5,"update":{"sessionUpdate":"plan","entries":[]}}`, `{"update":{"sessionUpdate":"plan","entries":null,"_meta":5}}`,
	`{"sessionId":"s","update":{"SessionUpdate":"plan","entries":[]}}`,
	// The agents' _meta terminal extension, as claude-agent-acp and codex-acp send it, and odd shapes of it.
	`{"sessionId":"s","update":{"_meta":{"claudeCode":{"toolName":"Bash"},"terminal_info":{"terminal_id":"toolu_1"}},"toolCallId":"toolu_1","sessionUpdate":"tool_call","status":"pending","title":"Terminal","kind":"execute","content":[{"type":"terminal","terminalId":"toolu_1"}]}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","status":"in_progress","_meta":{"terminal_info":{"terminal_id":"c","cwd":"/x"}}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","_meta":{"terminal_output":{"terminal_id":"c","data":"line 2\n"}}}}`,
	`{"sessionId":"s","update":{"_meta":{"terminal_output_delta":{"terminal_id":"t","data":"a\u001b[31mb"}},"toolCallId":"t","sessionUpdate":"tool_call_update"}}`,
	`{"sessionId":"s","update":{"_meta":{"claudeCode":{"toolName":"Bash"},"terminal_exit":{"terminal_id":"t","exit_code":0,"signal":null}},"toolCallId":"t","sessionUpdate":"tool_call_update","status":"completed"}}`,
	`{"sessionId":"s","update":{"_meta":{"terminal_exit":{"terminal_id":"t","exit_code":null,"signal":"SIGTERM"}},"toolCallId":"t","sessionUpdate":"tool_call_update"}}`,
	`{"sessionId":"s","update":{"_meta":{"terminal_exit":{"terminal_id":"t","exit_code":1.5}},"toolCallId":"t","sessionUpdate":"tool_call_update"}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","status":"in_progress","_meta":{"claudeCode":{"toolName":"Bash","toolResponse":{"elapsedTimeSeconds":7.25}}}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"claudeCode":{"toolResponse":"text"},"terminal_info":"t","terminal_output":{"data":5},"terminal_exit":[]}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"Terminal_Info":{"terminal_id":"u"},"terminal_output_delta":null}}}`,
	`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":null}}`,
}

// The one pass gives what the SDK's path gives, for every update it reads.
func TestDecodeWireMatchesSDKPath(t *testing.T) {
	read := 0
	for _, c := range wireCases {
		checkWire(t, []byte(c))
		if _, _, ok := decodeWire([]byte(c)); ok {
			read++
		}
	}
	if read < 14 {
		t.Errorf("the one pass read only %d of the cases", read)
	}
}

func FuzzDecodeWire(f *testing.F) {
	for _, c := range wireCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, params []byte) { checkWire(t, params) })
}
