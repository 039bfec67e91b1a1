package forms

import (
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// DraftText is what the user entered, one "\n  Label: value" line per
// field in the form's order (empty fields left out), safe to print; ""
// when nothing was typed or changed. A host that closes a form from
// outside (the agent withdrew it, the turn ended, another client answered)
// shows it, so nothing typed is lost unseen.
func (m *Model) DraftText() string {
	if !m.Dirty() {
		return ""
	}
	values := m.Draft()
	var b strings.Builder
	for _, f := range m.schema.Fields {
		v, ok := values[f.Key]
		if !ok || v == nil || v == "" {
			continue
		}
		text := fmt.Sprint(v)
		if list, ok := v.([]string); ok {
			text = strings.Join(list, ", ")
		}
		fmt.Fprintf(&b, "\n  %s: %s", sanitize.Line(f.Label()), sanitize.Line(text))
	}
	return b.String()
}
