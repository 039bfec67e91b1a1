package mcpui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/internal/focus"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
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
// terminal: every Update on the test goroutine, commands on goroutines,
// against the test binary as a real MCP server over real pipes.
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
	lc := &procgroup.Lifecycle{}
	t.Cleanup(lc.Shutdown)
	o.Server = uitest.MCPConfig(t)
	o.Server.Lifecycle = lc
	o.Now, o.Opener, o.NoColor, o.Theme = clk.now, rec, true, "dark"
	d := &driver{t: t, m: New(o), clk: clk, open: rec, msgs: make(chan tea.Msg, 4096)}
	d.feed(tea.WindowSizeMsg{Width: 100, Height: 40})
	d.run(d.m.Init())
	t.Cleanup(d.m.Close)
	d.waitText("[Tools (9)]")
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

func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

func (d *driver) waitText(s string) {
	d.t.Helper()
	d.until(fmt.Sprintf("%q on screen", s), func() bool { return strings.Contains(d.screen(), s) })
}

func (d *driver) key(name string) { d.feed(keyMsg(name)) }

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
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	if strings.HasPrefix(name, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(name[len(name)-1]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// focus lets the keyboard go idle: the front question takes the keys and
// its grace passes.
func (d *driver) focus() {
	d.clk.advance(focus.TypingWindow)
	d.feed(focus.TickMsg{})
	d.clk.advance(focus.Grace)
}

// pick selects the tool named name in the list.
func (d *driver) pick(name string) {
	d.t.Helper()
	for range d.m.count(tabTools) {
		if d.m.tools[d.m.sel[tabTools]].Name == name {
			return
		}
		d.key("down")
	}
	d.t.Fatalf("no tool %s", name)
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func displayWidth(s string) int { return ansi.StringWidth(s) }
