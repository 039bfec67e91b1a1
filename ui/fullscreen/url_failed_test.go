package fullscreen

import (
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"

	"github.com/elicit-dev/elicit/urlconsent"
)

// failingOpener records what it was asked to open and fails, as a machine
// without a browser (or one reached over SSH) does.
type failingOpener struct {
	uitest.Recorder
	err error
}

func (f *failingOpener) Open(u string) error { f.Recorder.Open(u); return f.err }

// When the browser cannot be started the agent hears nothing: the consent
// comes back with the reason; "I opened it myself" then answers accept
// and the flow is pending. Over SSH the QR view comes up, Esc goes back.
func TestURLOpenFailsThenOpenedByUser(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no browser", errors.New("no browser: $BROWSER is not set and xdg-open was not found"), "xdg-open was not found"},
		{"ssh", urlconsent.ErrRemote, "Scan with your phone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := &failingOpener{err: tc.err}
			d := newDriver(t, Options{Agent: uitest.DemoConfig(t), Opener: op})
			d.connected()
			d.ask("/url")
			first := d.frontURL()
			d.focus()
			d.keys("right", "enter")
			d.waitText(tc.want)
			if tc.err == urlconsent.ErrRemote {
				d.key("esc") // from the QR view back to the link
			}
			if len(d.m.core.Flows()) != 0 {
				t.Fatal("a flow is pending although nothing was opened")
			}
			if d.m.queue.front() != first || !strings.Contains(d.screen(), "I opened it myself") {
				t.Fatalf("the consent did not come back:\n%s", d.screen())
			}
			d.keys("left", "enter") // the last button
			d.until("the flow pending", func() bool { return len(d.m.core.Flows()) == 1 })
			if n := len(op.Opened()); n != 1 {
				t.Errorf("the browser was asked %d times, want 1", n)
			}
		})
	}
}
