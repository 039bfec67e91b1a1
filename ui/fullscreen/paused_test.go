package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Pausing the agent's questions is the person's standing "not now", not a
// no to questions they never saw: a form that arrives while they are
// paused is answered cancel, never decline (an agent reads decline as a
// person's refusal, and acts on it). The demo agent reports what it got.
func TestPausedQuestionsAreCancelled(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.key("ctrl+o")
	d.waitText("Session settings")
	d.focus()
	s, ok := d.m.queue.front().(*settingsModal)
	if !ok {
		t.Fatal("no settings dialog in front")
	}
	pause := ""
	for _, c := range s.choices {
		if strings.HasPrefix(c.label, "pause questions") {
			pause = c.key
		}
	}
	if pause == "" {
		t.Fatalf("no pause among the settings: %+v", s.choices)
	}
	d.key(pause)
	d.until("questions paused", d.m.core.Paused)
	d.ask("/form defaults")
	d.idle()
	if _, asked := d.m.queue.front().(*formModal); asked {
		t.Fatal("a form was shown while questions are paused")
	}
	d.waitText("You chose **cancel**")
	d.waitText(`cancelled form "Check your profile.`)
	if strings.Contains(d.screen(), "declined form") || strings.Contains(d.screen(), "You chose **decline**") {
		t.Errorf("a paused form was declined:\n%s", d.screen())
	}
}
