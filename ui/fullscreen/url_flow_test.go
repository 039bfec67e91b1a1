package fullscreen

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// frontURL waits until a URL consent for a new elicitation (not one of
// seen) is the front modal, and returns it; the grace period is not over.
func (d *driver) frontURL(seen ...string) *urlModal {
	d.t.Helper()
	var u *urlModal
	d.until("a URL consent in front", func() bool {
		var ok bool
		u, ok = d.m.queue.front().(*urlModal)
		return ok && !slices.Contains(seen, u.q.ElicitationID)
	})
	d.showFront()
	return u
}

// flowIDs lists the elicitation ids of the pending URL flows.
func (d *driver) flowIDs() []string {
	var ids []string
	for _, f := range d.m.core.Flows() {
		ids = append(ids, f.Q.ElicitationID)
	}
	return ids
}

var approveField = regexp.MustCompile(`<form method="post" action="/approve"><input type="hidden" name="id" value="([^"]+)">`)

// approvePage does what a browser does on the demo agent's page: it loads the
// page and submits its Approve form.
func approvePage(t *testing.T, page string) {
	t.Helper()
	hc := &http.Client{Timeout: testkit.Hang} // a hang catcher only
	resp, err := hc.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v\n%s", page, resp.StatusCode, err, body)
	}
	m := approveField.FindSubmatch(body)
	if m == nil {
		t.Fatalf("no Approve form on %s:\n%s", page, body)
	}
	target, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	target = target.ResolveReference(&url.URL{Path: "/approve"})
	resp, err = hc.PostForm(target.String(), url.Values{"id": {string(m[1])}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Approved.") {
		t.Fatalf("POST %s: %d\n%s", target, resp.StatusCode, body)
	}
}

// TestURLConsentAndPendingFlows runs /url: nothing opens before o, o opens
// exactly the URL, the flow stays pending until the agent's page is
// approved, and the second flow is cancelled from the ctrl+g panel.
func TestURLConsentAndPendingFlows(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/url")
	first := d.frontURL()
	d.waitText(first.q.URL)

	d.keys("o", "enter") // typed while it docks: goes to the prompt
	d.focus()
	d.keys("enter", "space", "x", "o", "enter") // none of these opens; the space is typing, so it docks
	if d.m.queue.front() != first || len(d.open.Opened()) != 0 || len(d.m.core.Flows()) != 0 {
		t.Fatalf("opened %v, flows %v, front %T before o", d.open.Opened(), d.flowIDs(), d.m.queue.front())
	}

	d.focus()
	d.keys("right", "enter")
	d.until("the browser asked", func() bool { return len(d.open.Opened()) > 0 })
	d.until("the flow pending", func() bool { return len(d.m.core.Flows()) > 0 }) // after the hand-off
	if got := d.open.Opened(); len(got) != 1 || got[0] != first.q.URL {
		t.Fatalf("opened %q, want exactly [%q]", got, first.q.URL)
	}
	if ids := d.flowIDs(); !slices.Equal(ids, []string{first.q.ElicitationID}) {
		t.Fatalf("pending flows %v after consent, want [%s]", ids, first.q.ElicitationID)
	}
	second := d.frontURL(first.q.ElicitationID)
	if !strings.Contains(d.m.statusView(100), "1 URL flow") {
		t.Errorf("status bar: %s", d.m.statusView(100))
	}
	d.waitText("ctrl+g lists pending flows") // the note of the opened URL names the key

	// Unknown and repeated completions are ignored.
	d.m.acp().apply(question.FlowComplete{ElicitationID: "elicit-unknown"})
	if len(d.m.core.Flows()) != 1 {
		t.Fatalf("an unknown id changed the flows: %v", d.flowIDs())
	}

	approvePage(t, first.q.URL)
	d.until("the flow completed", func() bool { return len(d.m.core.Flows()) == 0 })
	d.waitText("the agent reports the flow on 127.0.0.1 is complete")
	d.m.acp().apply(question.FlowComplete{ElicitationID: first.q.ElicitationID})
	if strings.Count(d.screen(), "the agent reports the flow on") != 1 {
		t.Errorf("a repeated completion was not ignored:\n%s", d.screen())
	}

	d.focus()
	d.keys("right", "enter")
	d.until("the second flow pending", func() bool { return len(d.m.core.Flows()) == 1 })
	d.until("the browser asked again", func() bool { return len(d.open.Opened()) == 2 })
	if got := d.open.Opened()[1]; got != second.q.URL {
		t.Errorf("opened %q, want %q", got, second.q.URL)
	}
	d.idle()

	d.key("ctrl+g")
	if !d.m.showFlows {
		t.Fatal("ctrl+g did not open the pending-flows panel")
	}
	d.wantOnScreen("Pending URL flows", "1 waiting for the agent", "id "+second.q.ElicitationID[:23])
	d.key("x")
	if len(d.m.core.Flows()) != 0 || d.m.showFlows {
		t.Fatalf("after x: flows %v, panel shown %v", d.flowIDs(), d.m.showFlows)
	}
	d.waitText("stopped waiting for the flow on 127.0.0.1")
	if s := d.m.statusView(100); strings.Contains(s, "URL flow") {
		t.Errorf("status bar still counts flows: %s", s)
	}
	if n := len(d.open.Opened()); n != 2 {
		t.Errorf("the browser was asked %d times, want 2", n)
	}
}

// TestURLDeclineOpensNothing declines and cancels URL consents: nothing is
// opened and no flow is pending.
func TestURLDeclineOpensNothing(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/url")
	first := d.frontURL()
	d.focus()
	d.key("d")
	d.frontURL(first.q.ElicitationID)
	d.focus()
	d.key("esc")
	d.idle()
	d.waitText(`"action": "cancel"`)
	d.wantOnScreen(`"action": "decline"`)
	if got := d.open.Opened(); len(got) != 0 {
		t.Errorf("opened %q", got)
	}
	if len(d.m.core.Flows()) != 0 {
		t.Errorf("pending flows %v", d.flowIDs())
	}
}

// TestAllQueuesThreeModals runs /all: a form, a URL consent and a
// permission arrive together, wait in the queue ("1 of 3"), and each is
// answered in turn.
func TestAllQueuesThreeModals(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/all")
	d.until("three questions queued", func() bool { return len(d.m.queue.items) == 3 })
	d.waitText("3 waiting") // docked under the prompt: the user was typing
	d.showFront()
	d.waitText("1 of 3")
	answered := map[string]bool{}
	for n := 3; n > 0; n-- {
		front := d.m.queue.front()
		if n > 1 {
			d.wantOnScreen(fmt.Sprintf("1 of %d", n))
		} else if strings.Contains(d.screen(), "1 of 1") {
			t.Errorf("a lone question shows a count:\n%s", d.screen())
		}
		d.key("esc") // typed as the front one comes up: it stays
		if d.m.queue.front() != front {
			t.Fatalf("a key typed as it came up answered %T", front)
		}
		d.focus()
		switch md := front.(type) {
		case *formModal:
			answered["form"] = true
			d.keys("enter", "enter", "enter", "enter", "enter")
			d.waitText("Review your answers")
			d.key("enter")
		case *urlModal:
			answered["url"] = true
			d.key("d")
		case *permModal:
			answered["permission"] = true
			d.keys("1", "enter")
		default:
			t.Fatalf("unexpected modal %T", md)
		}
		d.until("the question answered", func() bool { return d.m.queue.front() != front })
		if len(d.m.queue.items) != n-1 {
			t.Fatalf("%d questions left, want %d", len(d.m.queue.items), n-1)
		}
	}
	if len(answered) != 3 {
		t.Fatalf("answered %v", answered)
	}
	d.idle()
	d.wantOnScreen("### Form", `"action": "accept"`, `"age": 30,`, "### URL", `"action": "decline"`, "### Permission", "You picked")
	if len(d.open.Opened()) != 0 {
		t.Errorf("opened %q", d.open.Opened())
	}
}

// TestPendingFlowsPanelKeys opens the ctrl+g panel over one pending flow
// (the demo's flow that never completes) and presses each of its keys.
func TestPendingFlowsPanelKeys(t *testing.T) {
	tests := []struct {
		key     string
		pending int    // flows left
		panel   bool   // the panel still shown
		opened  int    // browser calls in all (1: the consent's own)
		notice  string // in the transcript
	}{
		{key: "o", pending: 1, panel: false, opened: 2},
		{key: "c", pending: 1, panel: true, opened: 1, notice: "copied the URL to the clipboard"},
		{key: "d", pending: 0, panel: false, opened: 1, notice: "marked the flow on 127.0.0.1 done"},
		{key: "x", pending: 0, panel: false, opened: 1, notice: "stopped waiting for the flow on 127.0.0.1"},
		{key: "esc", pending: 1, panel: false, opened: 1},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
			d.connected()
			d.ask("/url")
			first := d.frontURL()
			d.focus()
			d.key("d") // decline the flow that completes
			d.frontURL(first.q.ElicitationID)
			d.focus()
			d.keys("right", "enter")
			d.until("one pending flow", func() bool { return len(d.m.core.Flows()) == 1 && len(d.open.Opened()) == 1 })
			d.idle()
			d.key("ctrl+g")
			d.waitText("Pending URL flows")
			d.key(tc.key)
			if tc.key == "o" { // reopening asks again
				d.waitText("Open in browser")
				d.keys("right", "enter")
			}
			d.until(fmt.Sprintf("%d browser calls", tc.opened), func() bool { return len(d.open.Opened()) == tc.opened })
			if len(d.m.core.Flows()) != tc.pending || d.m.showFlows != tc.panel {
				t.Errorf("after %s: %d flows (want %d), panel %v (want %v)", tc.key, len(d.m.core.Flows()), tc.pending, d.m.showFlows, tc.panel)
			}
			if tc.notice != "" {
				d.waitText(tc.notice)
			}
			if tc.opened == 2 && d.open.Opened()[1] != d.open.Opened()[0] {
				t.Errorf("reopened %q, want %q", d.open.Opened()[1], d.open.Opened()[0])
			}
		})
	}
}
