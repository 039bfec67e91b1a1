package hooks

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/elicit-dev/elicit/internal/config"
)

// TestExampleHook runs the README's example hook (testdata/example-hook.sh).
func TestExampleHook(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("the example hook needs jq")
	}
	abs, err := filepath.Abs("testdata/example-hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	r := New([]config.Hook{{Event: config.Elicitation, Command: []string{abs}}})
	tests := []struct {
		name     string
		in       Input
		decision Decision
		content  string
		reason   string
	}{
		{"branch", Input{Mode: "form", Message: "Which branch?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"branch":{"type":"string"}}}`)}, Answer, `{"branch":"main"}`, ""},
		{"production", Input{Mode: "form", Message: "Deploy to Production?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)}, Declined, "", "no production changes from this machine"},
		{"other", Input{Mode: "form", Message: "Name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}, Pass, "", ""},
		{"url", Input{Mode: "url", Message: "Sign in", URL: "https://example.com"}, Pass, "", ""},
	}
	for _, tt := range tests {
		tt.in.Agent = "claude"
		res, err := r.RunElicitation(context.Background(), tt.in)
		if err != nil || res.Decision != tt.decision || string(res.Content) != tt.content || res.Reason != tt.reason {
			t.Errorf("%s: %+v (content %s), %v", tt.name, res, res.Content, err)
		}
	}
}
