package main

import (
	"encoding/json"
	"testing"
)

func TestAnswerElicitation(t *testing.T) {
	tests := []struct {
		name, params, want string
	}{
		{"form defaults", `{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{
			"a":{"type":"string","default":"ok"},"n":{"type":"integer","default":3},"b":{"type":"boolean"}}}}`,
			`{"action":"accept","content":{"a":"ok","n":3}}`},
		{"form without defaults", `{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}}}`,
			`{"action":"accept"}`}, // the SDK's type omits empty content
		{"url", `{"mode":"url","message":"m","elicitationId":"e1","url":"https://example.com/"}`, `{"action":"decline"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, rerr := answerElicitation(json.RawMessage(tt.params))
			if rerr != nil {
				t.Fatal(rerr)
			}
			got, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, string(got), tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if _, rerr := answerElicitation(json.RawMessage(`[1]`)); rerr == nil {
		t.Error("malformed params were accepted")
	}
}

func TestRejectPermission(t *testing.T) {
	tests := []struct {
		name, options, want string
	}{
		{"first reject_once", `[{"optionId":"y","name":"Allow","kind":"allow_once"},{"optionId":"n","name":"Reject","kind":"reject_once"},{"optionId":"n2","name":"No","kind":"reject_once"}]`,
			`{"outcome":{"outcome":"selected","optionId":"n"}}`},
		{"no reject option", `[{"optionId":"y","name":"Allow","kind":"allow_once"}]`, `{"outcome":{"outcome":"cancelled"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := `{"sessionId":"s1","toolCall":{"toolCallId":"t1"},"options":` + tt.options + `}`
			resp, rerr := rejectPermission(json.RawMessage(params))
			if rerr != nil {
				t.Fatal(rerr)
			}
			got, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, string(got), tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// sameJSON compares two JSON texts by value.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}
