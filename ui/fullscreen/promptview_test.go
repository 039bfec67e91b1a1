package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"

	"github.com/charmbracelet/x/ansi"
)

// TestEmptyPromptCache checks that the cached empty prompt is what the
// textarea draws, and that it follows every change it depends on.
func TestEmptyPromptCache(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	same := func(what string) {
		t.Helper()
		if got, want := d.m.acp().promptView(), d.m.acp().input.View(); got != want {
			t.Fatalf("%s: the prompt drawn is\n%q\nwant\n%q", what, got, want)
		}
	}
	same("connected")
	same("drawn again")
	d.m.acp().input.Placeholder = "another placeholder"
	same("a new placeholder")
	if !strings.Contains(ansi.Strip(d.m.acp().promptView()), "nother placeholder") {
		t.Fatal("the new placeholder is not drawn")
	}
	d.m.acp().input.Blur()
	same("blurred")
	d.m.acp().input.Focus()
	d.m.acp().input.SetWidth(40)
	same("narrower")
	d.m.setTheme(false)
	d.m.acp().input.SetStyles(inputStyles(d.m.th))
	same("a light theme")
	d.typeText("hello")
	same("text typed")
	d.key("ctrl+u")
	same("cleared again")
}
