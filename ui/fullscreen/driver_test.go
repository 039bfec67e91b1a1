package fullscreen

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/focus"
	"github.com/elicit-dev/elicit/ui/internal/uitest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestMain(m *testing.M) { uitest.Main(m) }

// clock is a test clock; the model reads it through Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// driver runs the root model the way tea.Program would, without a
// terminal: every Update on the test goroutine, commands on goroutines.
type driver struct {
	t    *testing.T
	m    *Model
	clk  *clock
	open *uitest.Recorder
	msgs chan tea.Msg
	quit bool
}

func newDriver(t *testing.T, o Options) *driver {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	rec := &uitest.Recorder{}
	o.Now = clk.now
	if o.Opener == nil {
		o.Opener = rec
	}
	o.NoColor = true
	if o.Exec == nil { // a terminal command runs here, with no screen to suspend
		o.Exec = func(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd { return func() tea.Msg { return fn(c.Run()) } }
	}
	d := &driver{t: t, m: New(o), clk: clk, open: rec, msgs: make(chan tea.Msg, 4096)}
	d.feed(tea.WindowSizeMsg{Width: 100, Height: 40})
	d.run(d.m.Init())
	t.Cleanup(func() {
		if d.m.acp().conn != nil {
			d.m.acp().conn.Close()
		}
	})
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { d.msgs <- cmd() }()
}

func (d *driver) feed(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
		return
	case tea.QuitMsg:
		d.quit = true
		return
	}
	if fmt.Sprintf("%T", msg) == "tea.sequenceMsg" {
		return
	}
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// until processes messages, as they come, until cond holds: cond is
// checked after each, and every 50 ms for what changes off the loop (a
// file written in the background), as testkit.Until does. testkit.Hang
// ends a wait for what never comes.
func (d *driver) until(what string, cond func() bool) {
	d.t.Helper()
	hang := time.NewTimer(testkit.Hang)
	defer hang.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.feed(msg)
		case <-tick.C:
		case <-hang.C:
			d.t.Fatalf("no %s after %v: it hangs; screen:\n%s", what, testkit.Hang, d.screen())
		}
	}
}

// screen is the current view with escape codes stripped.
func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

func (d *driver) waitText(s string) {
	d.t.Helper()
	d.until(fmt.Sprintf("%q on screen", s), func() bool { return strings.Contains(d.screen(), s) })
}

// key sends one key press, named as tea prints it ("enter", "ctrl+c", "a").
func (d *driver) key(name string) {
	d.feed(keyMsg(name))
}

func (d *driver) typeText(s string) {
	for _, r := range s {
		d.feed(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyMsg(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "f1":
		return tea.KeyPressMsg{Code: tea.KeyF1}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	if strings.HasPrefix(name, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(name[len(name)-1]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// focus lets the keyboard go idle, as a person pausing before answering:
// the front question takes the keys and its grace period passes.
func (d *driver) focus() {
	d.clk.advance(focus.TypingWindow)
	d.feed(dockTickMsg{})
	d.clk.advance(focus.Grace)
}

// showFront lets the front question take the keys, as a pause in typing
// does, without passing its grace period: keys pressed now are typing.
func (d *driver) showFront() {
	d.clk.advance(focus.TypingWindow)
	d.feed(dockTickMsg{})
}

// answered says whether md was answered: it left the queue.
func (d *driver) answered(md modal) bool { return !slices.Contains(d.m.queue.items, md) }

// acp is the screen's agent panel.
func (m *Model) acp() *agentPanel { return m.src.(*agentPanel) }
