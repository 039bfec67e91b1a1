package fullscreen

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/ui/attach"
	"github.com/elicit-dev/elicit/ui/internal/focus"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
	"github.com/elicit-dev/elicit/ui/serve"
)

// Two real screens: the full screen of `elicit serve` (the demo agent, its
// questions shared through a real host on a loopback port) and an attach
// model dialing that host, each driven the way tea.Program drives it:
// every Update on the test goroutine, commands on goroutines.

// program drives one root model. The programs of a test share one
// queue (world), so waiting on one drives the others too, as their own
// processes would meanwhile.
type program struct {
	t    *testing.T
	name string
	m    tea.Model
	w    world
}

// world carries every program's messages, each with its program.
type world chan addressed

type addressed struct {
	p   *program
	msg tea.Msg
}

func newProgram(t *testing.T, w world, name string, m tea.Model) *program {
	p := &program{t: t, name: name, m: m, w: w}
	p.feed(tea.WindowSizeMsg{Width: 100, Height: 40})
	p.run(m.Init())
	return p
}

func (p *program) run(cmd tea.Cmd) {
	if cmd != nil {
		go func() { p.w <- addressed{p, cmd()} }()
	}
}

func (p *program) feed(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, tea.QuitMsg:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			p.run(c)
		}
		return
	}
	if fmt.Sprintf("%T", msg) == "tea.sequenceMsg" {
		return
	}
	_, cmd := p.m.Update(msg)
	p.run(cmd)
}

// until handles every program's messages until cond holds, checking it
// after each message and every 20 ms (for what no message of theirs
// announces, as the host's state); Hang bounds it.
func (p *program) until(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.NewTimer(testkit.Hang)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case a := <-p.w:
			a.p.feed(a.msg)
		case <-tick.C:
		case <-deadline.C:
			p.t.Fatalf("%s: no %s after %v: it hangs; screen:\n%s", p.name, what, testkit.Hang, p.screen())
		}
	}
}

func (p *program) screen() string { return ansi.Strip(p.m.View().Content) }

func (p *program) waitText(texts ...string) {
	p.t.Helper()
	p.until(fmt.Sprintf("%q on screen", texts), func() bool {
		s := p.screen()
		for _, x := range texts {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	})
}

func (p *program) press(names ...string) {
	for _, n := range names {
		if n == "ctrl+u" {
			p.feed(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
			continue
		}
		p.feed(keyMsg(n))
	}
}

func (p *program) typeText(s string) {
	for _, r := range s {
		p.feed(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// servingScreen is `elicit serve`'s full screen over the demo agent, and
// its host's URL and token.
func servingScreen(t *testing.T, w world) (*program, *clock, *serve.Served) {
	sv, err := serve.Start(serve.Options{Title: "Demo agent", Name: "serve:desk"})
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	fs := New(Options{Agent: uitest.DemoConfig(t), Share: sv.Share, ShareLine: "shared: elicit attach " + sv.Server.URL(),
		Now: clk.now, NoColor: true, Opener: &uitest.Recorder{}})
	t.Cleanup(func() { fs.Close(); sv.Close() })
	return newProgram(t, w, "the serving screen", fs), clk, sv
}

// attachScreen is the attach screen over a client of the host.
func attachScreen(t *testing.T, w world, sv *serve.Served, id string) (*program, *Model) {
	c := dialTo(t, sv.Server.URL(), sv.Token, id)
	m := NewAttach(attach.NewSource(c, attach.SourceOptions{Title: c.Title()}), Options{Grace: -1, Width: 100, Height: 40, NoColor: true})
	t.Cleanup(m.Close)
	return newProgram(t, w, "the attached screen", m), m
}

func testContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), testkit.Hang)
}

// focusForm lets the serving screen's form take the keys, as a person
// pausing before answering.
func focusForm(p *program, clk *clock) {
	clk.advance(focus.TypingWindow)
	p.feed(focus.TickMsg{})
	clk.advance(focus.Grace)
}

func hostText(sv *serve.Served, req, q string) string {
	in := sv.Host.Inputs()
	e := in.Find(req)
	if e == nil || e.Request.Answers[q].Value == nil {
		return ""
	}
	v := e.Request.Answers[q].Value
	if v.Kind == ahp.ValueNumber {
		return string(v.Number)
	}
	return v.Text
}

// A client that only passed through a field does not publish it: the
// serving screen types "Server Draft" in Name and leaves it; the attached
// client, whose cursor sits in Name but who typed nothing there, leaves it
// too. The serving screen keeps "Server Draft" (before, the attached
// client's untouched default "John Doe" went out as its draft and replaced
// it, with no notice), and the attached client shows the serving screen's
// draft in place of its untouched default.
func TestPassingThroughAFieldPublishesNothing(t *testing.T) {
	w := make(world, 4096)
	srv, clk, sv := servingScreen(t, w)
	att, am := attachScreen(t, w, sv, "alice")
	srv.waitText("Demo agent")
	srv.typeText("/form defaults")
	srv.press("enter")
	srv.waitText("asks a form question") // docked until the keyboard is idle
	focusForm(srv, clk)
	srv.waitText("Check your profile")
	att.waitText("Check your profile")
	if !regexp.MustCompile(`(?m)^\W*Profile\W*$`).MatchString(att.screen()) {
		t.Errorf("the attached form lacks its title (Profile):\n%s", att.screen())
	}

	srv.press("ctrl+u")
	srv.typeText("Server Draft")
	srv.press("tab") // leaving Name sends it
	srv.until("the serving screen's draft at the host", func() bool { return hostText(sv, "q1", "name") == "Server Draft" })
	att.until("the serving screen's draft in the attached form", func() bool {
		return strings.Contains(att.screen(), "Server Draft") || strings.Contains(att.screen(), `changed "Name"`)
	})
	if got := am.queue.front().(*formModal).form.Value("name"); got != "Server Draft" {
		t.Errorf("the attached client's untouched Name holds %q, not the newer draft", got)
	}

	att.press("tab") // the cursor leaves Name, where nothing was typed
	att.press("ctrl+u")
	att.typeText("31") // then a real change in Age, which goes out after a pause
	att.until("the attached client's Age at the host", func() bool { return hostText(sv, "q1", "age") == "31" })
	if got := hostText(sv, "q1", "name"); got != "Server Draft" {
		t.Fatalf("the host's Name became %q: a field passed through was published", got)
	}
	srv.until("the attached client's Age on the serving screen", func() bool {
		s := srv.screen()
		return strings.Contains(s, `alice changed "Age"`) || strings.Contains(s, "31")
	})
	if s := srv.screen(); !strings.Contains(s, "Server Draft") || strings.Contains(s, "John Doe") {
		t.Fatalf("the serving screen lost its draft:\n%s", s)
	}
}

// The serving screen says in its transcript when a client attaches and
// when it leaves; a connection that only lists the sessions is no one
// attaching.
func TestServingScreenSaysWhoAttachesAndLeaves(t *testing.T) {
	w := make(world, 4096)
	srv, _, sv := servingScreen(t, w)
	srv.waitText("Demo agent")
	ctx, cancel := testContext()
	defer cancel()
	if _, err := ahp.ListSessions(ctx, ahp.ClientOptions{URL: sv.Server.URL(), Token: sv.Token, ClientID: "lister"}); err != nil {
		t.Fatal(err)
	}
	c, err := ahp.Dial(ctx, ahp.ClientOptions{URL: sv.Server.URL(), Token: sv.Token, ClientID: "bob@laptop"})
	if err != nil {
		t.Fatal(err)
	}
	srv.waitText("bob@laptop attached to this session")
	c.Close()
	srv.waitText("bob@laptop left this session")
	if strings.Contains(srv.screen(), "lister") {
		t.Fatalf("listing the sessions is not attaching:\n%s", srv.screen())
	}
}
