package forms

import (
	"strings"
	"testing"
)

// TestDraftText: nothing before the user changes something; then each
// non-empty field as "Label: value" in the form's order, a multi-select
// as a list, the agent's text made safe.
func TestDraftText(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"name":{"type":"string","title":"Name \u001b[31m"},
		"note":{"type":"string","title":"Note"},
		"tags":{"type":"array","title":"Tags","items":{"enum":["a","b"]},"default":["a","b"]}}}`)
	if d := m.DraftText(); d != "" {
		t.Fatalf("before any key: %q", d)
	}
	press(m, "Ada")
	d := m.DraftText()
	if !strings.HasPrefix(d, "\n  Name") || !strings.Contains(d, ": Ada") || !strings.Contains(d, "Tags: a, b") || strings.Contains(d, "Note") {
		t.Errorf("draft %q", d)
	}
	if strings.ContainsRune(d, 0x1b) {
		t.Errorf("the agent's title is not made safe: %q", d)
	}
}
