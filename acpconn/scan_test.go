package acpconn

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// scanCases are lines the hand-written pass must read exactly as the
// SDK's envelope decode does, or leave to it.
var scanCases = []string{
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}`,
	`{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{}}`,
	` { "id" : 1.50e+3 , "result" : { "a" : [ 1 , -0.5 , true , false , null , "x" ] } } ` + "\r\n",
	`{"id":"3","result":null}`, `{"id":null,"method":"m"}`, `{"id":1,"id":null,"method":"m"}`,
	`{"id":null,"id":-0,"method":"m"}`, `{"method":"a","method":null}`, `{"method":"a","method":"b"}`,
	`{"METHOD":"x"}`, `{"Id":1}`, `{"ſesult":1,"id":1}`, `{"\u0069d":1}`, `{"m\u0065thod":"x"}`,
	`{"method":"sess\u0069on/update"}`, "{\"method\":\"a\xffb\"}", "{\"x\xff\":1,\"id\":2}",
	`{"method":5}`, `{"jsonrpc":2}`, `{"jsonrpc":null,"method":"m"}`, `{"error":null,"id":1}`,
	`{"error":{"code":1,"message":"m"},"id":1}`, `{"error":{"code":1.5},"id":1}`, `{"error":"x","id":1}`,
	`{"params":null,"method":"m"}`, `{"result":1,"result":[2],"id":1}`, `{}`, `[]`, `null`, `"x"`, `5`,
	`{"id":1}x`, `{"id":1}}`, `{"id":01}`, `{"id":1.}`, `{"id":.5}`, `{"id":1e}`, `{"id":-}`, `{"id":+1}`,
	`{"id":tru}`, `{"id":nul}`, `{"a":"\x01"}`, `{"a":"\q"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, `{"a":"\uD800"}`,
	`{"a":[1,]}`, `{"a":{,}}`, `{"a":{"b"}}`, `{"a":{"b":1,}}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":1,}`,
	`{`, `{"a`, `{"a":`, `{"a":"`, `{"a":"\`, `{"a":[`, "", " \n", `{"id":[` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `]}`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

// TestScanFrameMatchesSDK compares the one pass with the SDK's envelope
// decode on the cases above.
func TestScanFrameMatchesSDK(t *testing.T) {
	for _, c := range scanCases {
		checkScan(t, []byte(c))
	}
	// Real lines: each kind the agent sends.
	for _, l := range benchLines {
		if _, ok := fastFrame([]byte(l)); !ok {
			t.Errorf("%s: left to encoding/json", l)
		}
	}
}

// FuzzScanFrame checks the hand-written pass against encoding/json on
// arbitrary lines: where it answers, it answers as the SDK's decode does.
func FuzzScanFrame(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	for _, l := range benchLines {
		f.Add([]byte(l))
	}
	for _, s := range hostileSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkScan(t, line) })
}

func checkScan(t *testing.T, line []byte) {
	t.Helper()
	var env wireEnvelope
	wantErr := json.Unmarshal(line, &env)
	got, err := scanFrame(line)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: scan error %v, encoding/json %v", line, err, wantErr)
	}
	if err != nil {
		if err.Error() != wantErr.Error() {
			t.Fatalf("%q: scan error %v, encoding/json %v", line, err, wantErr)
		}
		return
	}
	var wantID json.RawMessage
	if env.ID != nil {
		wantID = *env.ID
	}
	switch {
	case !bytes.Equal(got.id, wantID) || (got.id == nil) != (wantID == nil):
		t.Fatalf("%q: id %q, want %q", line, got.id, wantID)
	case got.method != env.Method:
		t.Fatalf("%q: method %q, want %q", line, got.method, env.Method)
	case got.hasParams != (env.Params != nil) || got.hasResult != (env.Result != nil) || got.hasError != (env.Error != nil):
		t.Fatalf("%q: params/result/error %v %v %v", line, got.hasParams, got.hasResult, got.hasError)
	case !bytes.Equal(got.result, env.Result):
		t.Fatalf("%q: result %q, want %q", line, got.result, env.Result)
	}
}
