package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Over SSH a URL question's QR code comes up at once, in a view that takes
// the whole terminal (no transcript, no status bar); Esc goes back to the
// consent, whose first button shows the code again; the browser is never
// asked.
func TestSSHQRViewTakesTheTerminal(t *testing.T) {
	t.Setenv("SSH_CONNECTION", "10.0.0.1 50000 10.0.0.2 22")
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/url")
	d.frontURL()
	d.focus()
	d.waitText("Scan with your phone")
	scr := d.screen()
	if strings.Contains(scr, "mode Ask") || strings.Contains(scr, "connected to") || !strings.Contains(scr, "▀▀▀▀") {
		t.Fatalf("not a view of its own:\n%s", scr)
	}
	if n := len(strings.Split(scr, "\n")); n != 40 {
		t.Errorf("%d rows, want the terminal's 40", n)
	}
	d.key("esc")
	d.waitText("I opened it myself")
	d.waitText("QR code")
	d.keys("right", "enter")
	d.waitText("Scan with your phone")
	if n := len(d.open.Opened()); n != 0 {
		t.Errorf("the browser was asked %d times over SSH", n)
	}
}
