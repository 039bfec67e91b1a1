package fullscreen

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// An agent's single line breaks survive the markdown render; lists, code
// and headings keep their own syntax.
func TestAgentLineBreaksKept(t *testing.T) {
	md := newMarkdown(true, true)
	got := ansi.Strip(strings.Join(md.render("Name: Ada\nRole: admin\n\n- one\n- two\n\n```\na\nb\n```", 60), "\n"))
	for _, want := range []string{"Name: Ada\n", "Role: admin", "• one", "• two"} {
		if !strings.Contains(got, want) {
			t.Errorf("render lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Name: Ada Role") {
		t.Errorf("two lines were joined:\n%s", got)
	}
}
