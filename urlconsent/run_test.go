package urlconsent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// runKeys runs Run as a real bubbletea program reading keys from input
// (raw terminal bytes) with no grace period.
func runKeys(t *testing.T, url, input string, o Opener) (question.Outcome, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	a, err := Run(ctx, url, RunOptions{Opener: o, In: strings.NewReader(input), Out: io.Discard, Grace: -1})
	if ctx.Err() != nil {
		t.Fatalf("Run did not end: %v", ctx.Err())
	}
	return a, err
}

const (
	keyRight = "\x1b[C"
	keyLeft  = "\x1b[D"
	keyEnter = "\r"
)

func TestRunOpensOnlyWithConsent(t *testing.T) {
	for _, tc := range []struct {
		name, url, input string
		want             question.Action
		opened           []string
	}{
		// → selects "Open in browser", Enter presses it.
		{"open", "https://Example.com/a b", keyRight + keyEnter, question.Accept, []string{"https://example.com/a%20b"}},
		// A high-severity URL asks again: → Enter opens only after → Enter.
		{"open lookalike", "https://xn--80ak6aa92e.com/login", keyRight + keyEnter + keyRight + keyEnter, question.Accept, []string{"https://xn--80ak6aa92e.com/login"}},
		// Prose typed at the screen opens nothing: letters, then Enter on no button; Esc cancels.
		{"prose", "https://example.com/", "hello there" + keyEnter + "\x1b", question.Cancel, nil},
		{"decline", "https://example.com/", "d", question.Decline, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &recordingOpener{}
			a, err := runKeys(t, tc.url, tc.input, o)
			if err != nil || a.Action != tc.want {
				t.Fatalf("Run = %q, %v; want %q", a.Action, err, tc.want)
			}
			if got := o.calls(); strings.Join(got, " ") != strings.Join(tc.opened, " ") {
				t.Errorf("opened %q, want %q", got, tc.opened)
			}
		})
	}
}

func TestRunRefusesWhatCannotOpen(t *testing.T) {
	for _, url := range []string{"javascript:alert(1)", "file:///etc/passwd", "http://[::1"} {
		o := &recordingOpener{}
		a, err := runKeys(t, url, keyRight+keyEnter, o)
		if !errors.Is(err, ErrNotOpenable) || a.Action != question.Cancel {
			t.Errorf("Run(%q) = %q, %v; want cancel and ErrNotOpenable", url, a.Action, err)
		}
		if len(o.calls()) != 0 {
			t.Errorf("Run(%q) opened %q", url, o.calls())
		}
	}
}

func TestRunEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	in, w := io.Pipe() // keys that never come
	defer w.Close()
	done := make(chan question.Outcome, 1)
	go func() {
		a, _ := Run(ctx, "https://example.com/", RunOptions{Opener: &recordingOpener{}, In: in, Out: io.Discard})
		done <- a
	}()
	cancel()
	if a := testkit.Recv(t, done, "end of Run with its context"); a.Action != question.Cancel {
		t.Errorf("Run = %q after ctx ended, want cancel", a.Action)
	}
}

// TestRunOpenFailed drives Run's program message by message (the order a
// real program sees them in): a browser that fails brings the screen back
// with the reason (for a high-risk URL too, whose confirmation step is
// over), keys are ignored while the browser starts, and "I opened it
// myself" then ends it with Accept, the browser not started again.
func TestRunOpenFailed(t *testing.T) {
	for _, url := range []string{"https://example.com/", "https://xn--pypal-4ve.com/signin"} {
		t.Run(url, func(t *testing.T) { runOpenFailed(t, url) })
	}
}

func runOpenFailed(t *testing.T, url string) {
	o := &recordingOpener{err: errors.New("no display")}
	p := &consentProgram{c: NewConsent(urlcheck.Analyze(url), Header{}, nil, 0, nil), opener: o}
	send := func(msg tea.Msg) tea.Cmd {
		t.Helper()
		_, cmd := p.Update(msg)
		return cmd
	}
	send(tea.KeyPressMsg{Code: tea.KeyRight})
	open := send(press("enter"))
	if p.c.confirming { // high severity: → Enter once more
		send(tea.KeyPressMsg{Code: tea.KeyRight})
		open = send(press("enter"))
	}
	if open == nil || !p.opening {
		t.Fatal("Open did not start the browser")
	}
	if cmd := send(press("d")); cmd != nil || p.ended {
		t.Fatal("a key while the browser starts was taken")
	}
	send(open()) // OpenedMsg with the error
	if p.ended || !strings.Contains(p.c.View(), "no display") || !strings.Contains(p.c.View(), "I opened it myself") {
		t.Fatalf("the screen did not come back with the reason:\n%s", p.c.View())
	}
	send(tea.KeyPressMsg{Code: tea.KeyLeft}) // from no button to the last: "I opened it myself"
	if cmd := send(press("enter")); cmd == nil || !p.ended || p.result.Action != question.Accept || p.c.OpensBrowser() {
		t.Fatalf("result %q, want accept (opened by the user) and quit", p.result.Action)
	}
	if got := o.calls(); len(got) != 1 {
		t.Errorf("opened %q, want one attempt", got)
	}
	if b, _ := json.Marshal(p.result); string(b) != `{"action":"accept"}` {
		t.Errorf("the reply is %s, want accept with no content", b)
	}
}

// Once the URL opened, Run's program is quitting: a message still on its
// way (a late key, a terminal's report) opens nothing again. It did: the
// outcome still said "open" and the program was no longer opening, so
// under load CI saw a lookalike opened twice.
func TestRunOpensOnce(t *testing.T) {
	o := &recordingOpener{}
	p := &consentProgram{c: NewConsent(urlcheck.Analyze("https://example.com/"), Header{}, nil, 0, nil), opener: o}
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	p.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	_, open := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if open == nil {
		t.Fatal("Enter on Open in browser opened nothing")
	}
	p.Update(open())
	if !p.ended {
		t.Fatal("the program did not end once the URL opened")
	}
	for _, late := range []tea.Msg{tea.KeyPressMsg{Code: tea.KeyEnter}, tea.FocusMsg{}} {
		if _, cmd := p.Update(late); cmd != nil {
			t.Errorf("%T after the URL opened gave a command", late)
		}
	}
	if got := o.calls(); len(got) != 1 {
		t.Errorf("opened %q, want once", got)
	}
}
