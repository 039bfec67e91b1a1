package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// qwen-code's questions, which come in a permission request, are a form
// on the full screen: a select with its options' descriptions, a
// multi-select, the "Other" text; qwen reads the answers beside its
// Submit option. Declining picks its Cancel option; Esc cancels.
func TestQwenQuestionsOnFullScreen(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys func(d *driver)
		want string
	}{
		{"send", func(d *driver) {
			d.keys("down", "down", "enter", "space", "down", "space", "enter") // Blue; Nuts and Jam
			d.typeText("honey")
			d.key("enter")
			d.waitText("Review your answers")
			d.key("enter")
		}, `qwen got {"answers":{"0":"Blue","1":"Nuts, Jam, honey"},"outcome":{"optionId":"proceed_once","outcome":"selected"}}`},
		{"decline", func(d *driver) { d.key("ctrl+x") }, `qwen got {"outcome":{"optionId":"cancel","outcome":"selected"}}`},
		{"cancel", func(d *driver) { d.key("esc") }, `qwen got {"outcome":{"outcome":"cancelled"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "qwen-ask")})
			d.connected()
			d.ask("ask me")
			d.frontForm()
			d.waitText("Which colour?")
			d.wantOnScreen("tool call: Ask user 2 questions", "Blue · cool", "Other…")
			tc.keys(d)
			d.waitText("done.")
			if got := strings.Join(strings.Fields(d.screen()), " "); !strings.Contains(got, tc.want) {
				t.Fatalf("want %s on screen:\n%s", tc.want, d.screen())
			}
		})
	}
}
