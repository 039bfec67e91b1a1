package fullscreen

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/attach"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// The attach screen (NewAttach) against a real host behind the real
// server, its client over a real socket.

const token = "attach-test-token-0123"

func host(t *testing.T) (*ahp.Host, string)               { return uitest.AHPHost(t, token) }
func client(t *testing.T, url, id string) *ahp.Client     { return uitest.AHPClient(t, url, token, id) }
func completion(t *testing.T, h *ahp.Host) ahp.Completion { return uitest.Completion(t, h) }
func dialTo(t *testing.T, url, tok, id string) *ahp.Client {
	return uitest.AHPClient(t, url, tok, id)
}

// newHostScreen is the attach screen of a client of the host at url;
// its questions take keys at once (no grace).
func newHostScreen(t *testing.T, url, id string, o Options) *driver {
	return hostDriver(t, client(t, url, id), "demo", o)
}

func hostDriver(t *testing.T, c *ahp.Client, title string, o Options) *driver {
	if o.Grace == 0 {
		o.Grace = -1
	}
	return hostGraceDriver(t, c, title, o)
}

// hostGraceDriver is hostDriver with o.Grace as it is (0: the widgets'
// own grace).
func hostGraceDriver(t *testing.T, c *ahp.Client, title string, o Options) *driver {
	return sourceDriver(t, attach.NewSource(c, attach.SourceOptions{Title: title}), o)
}

// sourceDriver is the attach screen of src.
func sourceDriver(t *testing.T, src *attach.Source, o Options) *driver {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	rec := &uitest.Recorder{}
	o.Now, o.Opener, o.NoColor = clk.now, rec, true
	d := &driver{t: t, m: NewAttach(src, o), clk: clk, open: rec, msgs: make(chan tea.Msg, 4096)}
	d.feed(tea.WindowSizeMsg{Width: 100, Height: 40})
	d.run(d.m.Init())
	t.Cleanup(d.m.Close)
	return d
}

// form is the form in front, nil when none is.
func (d *driver) form() *formModal {
	f, _ := d.m.queue.front().(*formModal)
	return f
}

func (d *driver) hasForm() bool { return d.form() != nil }

// pause ends the typing pause at once (what the debounce tick does).
func (d *driver) pause() {
	if f := d.form(); f != nil {
		d.feed(shareTypedMsg{f: f, gen: f.typing})
	}
}

func hostAnswer(h *ahp.Host, req, q string) string {
	in := h.Inputs()
	e := in.Find(req)
	if e == nil || e.Request.Answers[q].Value == nil {
		return ""
	}
	return e.Request.Answers[q].Value.Text
}

// waitHost waits until ok holds of h's state, checked after each change
// h applies; testkit.Hang ends a wait for what never comes.
func waitHost(t *testing.T, h *ahp.Host, what string, ok func() bool) {
	t.Helper()
	next, stop := h.Watch() // before the first check: no change is missed
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	for !ok() {
		if _, more := next(ctx); !more {
			t.Fatalf("no %s (the host closed, or it hangs)", what)
		}
	}
}
