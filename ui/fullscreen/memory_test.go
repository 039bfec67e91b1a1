package fullscreen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui"
	"github.com/elicit-dev/elicit/ui/internal/uitest"

	"github.com/elicit-dev/elicit/internal/config"
	histstore "github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/session/hooks"
)

// An accepted form is remembered; the next time the same form is asked it
// starts from those answers, marked, and is not submitted by itself.
func TestFormPrefilledFromLastTime(t *testing.T) {
	h, err := histstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Memory: ui.Memory{History: h, Agent: "demo"}})
	d.connected()
	d.ask("/form numbers")
	d.frontForm()
	d.keys("ctrl+u", "7", "tab", "3")
	d.keys("enter", "enter", "enter") // temperature, retries, the review
	d.waitText("Review your answers")
	d.key("enter")
	d.idle()
	d.until("remembered", func() bool {
		sum, _ := h.List()
		return len(sum.Agents) == 1
	})
	d.ask("/form numbers")
	f := d.frontForm()
	d.waitText("answers from last time")
	d.waitText("↺ from last time · default 1")
	if got := fmt.Sprint(f.form.Draft()["quantity"]); got != "7" {
		t.Fatalf("quantity starts at %v, want the remembered 7", got)
	}
	if f.form.Dirty() {
		t.Error("a prefilled form counts as typed")
	}
}

// An Elicitation hook answers before the screen: no form is shown and the
// agent receives the hook's content.
func TestHookAnswersBeforeTheScreen(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "hook.sh")
	os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\",\"content\":{\"quantity\":3,\"rating\":2}}}'\n"), 0o755)
	r := hooks.New([]config.Hook{{Event: config.Elicitation, Command: []string{script}}})
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Memory: ui.Memory{Hooks: r, Agent: "demo"}})
	d.connected()
	d.ask("/form numbers")
	d.idle()
	if d.m.queue.front() != nil {
		t.Fatal("a form was shown although a hook answered")
	}
	d.waitText(`"quantity": 3`)
	if !strings.Contains(d.screen(), "(hook)") {
		t.Errorf("the decision line does not say a hook answered:\n%s", d.screen())
	}
}

// Text fields offer what was answered to a field of the same name before.
func TestTextFieldSuggestsRecentAnswers(t *testing.T) {
	h, err := histstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Memory: ui.Memory{History: h, Agent: "demo"}})
	d.connected()
	d.ask("/form defaults")
	d.frontForm()
	d.keys("ctrl+u")
	d.typeText("Ada Lovelace")
	d.keys("enter", "enter", "enter", "enter", "enter") // age, score, status, verified, the review
	d.waitText("Review your answers")
	d.key("enter")
	d.idle()
	d.until("remembered", func() bool { s, _ := h.Suggestions("demo", "name", 5); return len(s) > 0 })
	d.ask("/form defaults")
	d.frontForm()
	d.waitText("recent: Ada Lovelace")
}
