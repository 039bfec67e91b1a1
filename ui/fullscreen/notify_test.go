package fullscreen

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"

	tea "charm.land/bubbletea/v2"
)

// A question that arrives while the terminal is in the background rings
// the bell and sends OSC 9 / OSC 777; in the foreground it does not, and
// the window title counts the waiting questions.
func TestQuestionNotifiesWhenUnfocused(t *testing.T) {
	for _, blurred := range []bool{false, true} {
		d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
		d.connected()
		if blurred {
			d.feed(tea.BlurMsg{})
		}
		var raw []string
		d.m.opts.Notify = NotifyUnfocused
		d.ask("/form numbers")
		d.until("the form", func() bool { return d.m.queue.front() != nil })
		q := d.m.queue.front().question()
		if cmd := d.m.notifyCmd(q); cmd != nil {
			if r, ok := cmd().(tea.RawMsg); ok {
				raw = append(raw, fmt.Sprint(r.Msg))
			}
		}
		if got := len(raw) > 0; got != blurred {
			t.Fatalf("blurred=%v: notified %v", blurred, got)
		}
		if blurred && (!strings.Contains(raw[0], "\a") || !strings.Contains(raw[0], "\x1b]9;Demo agent asks a form question\a") || !strings.Contains(raw[0], "\x1b]777;notify;elicit;")) {
			t.Errorf("notification bytes %q", raw[0])
		}
		if title := d.m.View().WindowTitle; !strings.HasPrefix(title, "(1 question) elicit") {
			t.Errorf("window title %q", title)
		}
	}
}

// The config file's theme wins over the terminal's background.
func TestConfiguredThemeWins(t *testing.T) {
	m := New(Options{Agent: uitest.DemoConfig(t), Theme: "light"})
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	if m.th.IsDark {
		t.Fatal("a dark background overrode theme = light")
	}
	auto := New(Options{Agent: uitest.DemoConfig(t)})
	auto.Update(tea.BackgroundColorMsg{Color: color.White})
	if auto.th.IsDark {
		t.Fatal("auto did not follow a light background")
	}
}
