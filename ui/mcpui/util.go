package mcpui

import (
	"encoding/json"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/mcpconn"
)

// tabTool is a tool of the list.
type tabTool = mcpconn.Tool

// jsonObject is a form's content as the tool's arguments.
func jsonObject(content map[string]any) ([]byte, error) {
	if content == nil {
		content = map[string]any{}
	}
	return json.Marshal(content)
}

// wrapText wraps s to width (words, and words longer than a line), never
// cutting it.
func wrapText(s string, width int) string { return ansi.Wrap(s, max(width, 10), "") }

// drafts keeps what was typed in the JSON editor per tool, so esc loses
// nothing.
func (m *Model) drafts() map[string]string {
	if m.editorDrafts == nil {
		m.editorDrafts = map[string]string{}
	}
	return m.editorDrafts
}
