package demoagent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// propertyOrder reads the keys of schema.properties in the order they appear in the raw JSON.
func propertyOrder(t *testing.T, schema json.RawMessage) []string {
	t.Helper()
	var top struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		t.Fatalf("schema: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(top.Properties))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("properties is not an object: %s", top.Properties)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// wantForms is the /form tour: each form's property keys in order.
var wantForms = []struct {
	name string
	keys []string
}{
	{"defaults", []string{"name", "age", "score", "status", "verified"}},
	{"enums", []string{"color", "size", "region", "toppings", "languages"}},
	{"strings", []string{"email", "website", "birthday", "meeting", "username", "bio"}},
	{"numbers", []string{"quantity", "rating", "temperature", "retries"}},
	{"confirm", []string{"confirm", "reason"}},
	{"other", []string{"question_0", "question_0_custom"}},
}

type sentForm struct {
	SessionId       acp.SessionId   `json:"sessionId"`
	ToolCallId      *acp.ToolCallId `json:"toolCallId"`
	Message         string          `json:"message"`
	Mode            string          `json:"mode"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

func TestFormTour(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	c.setInstant()
	c.mustPrompt("/form", acp.StopReasonEndTurn)
	updates, elicitations, _ := c.snapshot()
	if len(elicitations) != len(wantForms) {
		t.Fatalf("got %d elicitations, want %d", len(elicitations), len(wantForms))
	}
	toolCalls := map[acp.ToolCallId]bool{}
	for _, u := range updates {
		if tc := u.Update.ToolCall; tc != nil {
			toolCalls[tc.ToolCallId] = true
		}
	}
	for i, want := range wantForms {
		var got sentForm
		if err := json.Unmarshal(elicitations[i], &got); err != nil {
			t.Fatalf("form %s: %v", want.name, err)
		}
		if got.SessionId != c.sid || got.Mode != "form" || got.Message == "" {
			t.Errorf("form %s: scope/mode/message = %q %q %q", want.name, got.SessionId, got.Mode, got.Message)
		}
		if keys := propertyOrder(t, got.RequestedSchema); fmt.Sprint(keys) != fmt.Sprint(want.keys) {
			t.Errorf("form %s: keys %v, want %v", want.name, keys, want.keys)
		}
		scoped := got.ToolCallId != nil
		if scoped != (want.name == "confirm") {
			t.Errorf("form %s: toolCallId = %v", want.name, got.ToolCallId)
		}
		if scoped && !toolCalls[*got.ToolCallId] {
			t.Errorf("form %s: toolCallId %q names no tool call sent before", want.name, *got.ToolCallId)
		}
	}
	text := c.messageText()
	for _, want := range []string{`"name": "John Doe"`, `"age": 30`, `"score": 95.5`, `"status": "active"`, `"verified": true`, "```json"} {
		if !strings.Contains(text, want) {
			t.Errorf("reply misses %q", want)
		}
	}
}

func TestDefaultsFormValues(t *testing.T) {
	f, ok := formByName("defaults")
	if !ok {
		t.Fatal("no defaults form")
	}
	var schema struct {
		Properties map[string]map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal([]byte(f.schema), &schema); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"name": `"John Doe"`, "age": `30`, "score": `95.5`, "status": `"active"`, "verified": `true`}
	for k, v := range want {
		if got := string(schema.Properties[k]["default"]); got != v {
			t.Errorf("%s default = %s, want %s", k, got, v)
		}
	}
	if got := string(schema.Properties["age"]["type"]); got != `"integer"` {
		t.Errorf("age type = %s", got)
	}
	if got := string(schema.Properties["status"]["enum"]); got != `["active", "inactive", "pending"]` {
		t.Errorf("status enum = %s", got)
	}
}

func TestCatalogSchemasAreRestrictedObjects(t *testing.T) {
	all := append(formCatalog(), formSpec{name: "small", schema: smallFormSchema})
	for _, f := range all {
		t.Run(f.name, func(t *testing.T) {
			var s struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal([]byte(f.schema), &s); err != nil {
				t.Fatalf("invalid JSON: %v", err)
			}
			if s.Type != "object" || len(s.Properties) == 0 {
				t.Errorf("type %q with %d properties", s.Type, len(s.Properties))
			}
			for _, r := range s.Required {
				if _, ok := s.Properties[r]; !ok {
					t.Errorf("required %q is not a property", r)
				}
			}
			for k, p := range s.Properties {
				var prop struct {
					Type string `json:"type"`
				}
				if err := json.Unmarshal(p, &prop); err != nil || prop.Type == "object" || prop.Type == "" {
					t.Errorf("property %q has type %q", k, prop.Type)
				}
			}
		})
	}
}

func TestFormByNameAndConfirm(t *testing.T) {
	tests := []struct {
		name       string
		answer     func(json.RawMessage) (any, *acp.RequestError)
		toolStatus acp.ToolCallStatus
	}{
		{"accept ticked", func(json.RawMessage) (any, *acp.RequestError) {
			return map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}, nil
		}, acp.ToolCallStatusCompleted},
		{"accept unticked", acceptDefaults, acp.ToolCallStatusFailed},
		{"decline", answerAction(actionDecline), acp.ToolCallStatusFailed},
		{"error", func(json.RawMessage) (any, *acp.RequestError) {
			return nil, acp.NewInvalidParams(map[string]any{"error": "nope"})
		}, acp.ToolCallStatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startAgent(t, bothModes, Options{})
			c.setInstant()
			c.onElicit = tt.answer
			c.mustPrompt("/form confirm", acp.StopReasonEndTurn)
			updates, elicitations, _ := c.snapshot()
			if len(elicitations) != 1 {
				t.Fatalf("got %d elicitations, want 1", len(elicitations))
			}
			statuses, kinds := toolStatuses(t, updates)
			for id, st := range statuses {
				if kinds[id] == acp.ToolKindDelete && st[len(st)-1] != tt.toolStatus {
					t.Errorf("delete tool statuses = %v, want final %s", st, tt.toolStatus)
				}
			}
		})
	}
}

func TestFormWithoutCapability(t *testing.T) {
	for _, caps := range []clientCaps{{}, {url: true}} {
		c := startAgent(t, caps, Options{})
		c.setInstant()
		for _, p := range []string{"/form", "/forms 3"} {
			c.mustPrompt(p, acp.StopReasonEndTurn)
		}
		if _, elicitations, _ := c.snapshot(); len(elicitations) != 0 {
			t.Errorf("caps %+v: sent %d form requests", caps, len(elicitations))
		}
		if !strings.Contains(c.messageText(), "did not declare `elicitation.form`") {
			t.Errorf("caps %+v: reply does not explain:\n%s", caps, c.messageText())
		}
	}
}

func TestFormsBench(t *testing.T) {
	c := startAgent(t, bothModes, Options{})
	var n atomic.Int32
	c.onElicit = func(json.RawMessage) (any, *acp.RequestError) {
		if n.Add(1)%2 == 0 {
			return map[string]any{"action": actionDecline}, nil
		}
		return map[string]any{"action": actionAccept, "content": map[string]any{"answer": "ok"}}, nil
	}
	c.mustPrompt("/forms 50", acp.StopReasonEndTurn)
	if _, elicitations, _ := c.snapshot(); len(elicitations) != 50 {
		t.Errorf("got %d forms, want 50", len(elicitations))
	}
	if text := c.messageText(); !strings.Contains(text, "Accepted 25 of 50 forms (declined 25, cancelled 0, errors 0)") {
		t.Errorf("reply = %q", text)
	}
}
