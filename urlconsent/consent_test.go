package urlconsent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
)

// recordingOpener is the fake Opener: it records every URL it is asked to
// open and opens nothing.
type recordingOpener struct {
	mu   sync.Mutex
	urls []string
	err  error
}

func (o *recordingOpener) Open(url string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.urls = append(o.urls, url)
	return o.err
}

func (o *recordingOpener) calls() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.urls...)
}

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func press(s string) tea.KeyPressMsg {
	switch s {
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// host plays the lead's root model: it feeds keys to the screen and, when
// the user consents, runs OpenCmd with the opener.
func host(t *testing.T, c *Consent, o Opener, keys ...string) []tea.Cmd {
	t.Helper()
	var cmds []tea.Cmd
	for _, k := range keys {
		if cmd := c.Update(press(k)); cmd != nil {
			cmds = append(cmds, cmd)
		}
		if c.OpensBrowser() {
			msg := OpenCmd(o, c.URL())()
			if m, ok := msg.(OpenedMsg); !ok || m.Err != nil {
				t.Fatalf("open: %#v", msg)
			}
			break
		}
	}
	return cmds
}

func TestConsentKeys(t *testing.T) {
	tests := []struct {
		name     string
		url      string
		keys     []string
		want     question.Action
		done     bool
		opened   bool
		clipSent bool
	}{
		{"open needs a button and enter", "https://example.com/", []string{"right", "enter"}, question.Accept, true, true, false},
		{"prose opens nothing", "https://example.com/", []string{"o", "p", "e", "n", "enter", "y", "space", "o", "enter"}, "", false, false, false},
		{"decline", "https://example.com/", []string{"d"}, question.Decline, true, false, false},
		{"decline button", "https://example.com/", []string{"left", "left", "enter"}, question.Decline, true, false, false},
		{"cancel", "https://example.com/", []string{"esc"}, question.Cancel, true, false, false},
		{"copy is not an outcome", "https://example.com/", []string{"c"}, "", false, false, true},
		{"high needs a second step", "http://paypal.com@evil.example/", []string{"right", "enter", "enter"}, "", false, false, false},
		{"high with confirmation", "http://paypal.com@evil.example/", []string{"right", "enter", "right", "enter"}, question.Accept, true, true, false},
		{"high, prose after open", "http://paypal.com@evil.example/", []string{"right", "enter", "o", "y", "enter"}, "", false, false, false},
		{"high, stepping back", "http://paypal.com@evil.example/", []string{"right", "enter", "esc", "d"}, question.Decline, true, false, false},
		{"lookalike needs confirmation", "https://xn--80ak6aa92e.com/", []string{"right", "enter"}, "", false, false, false},
		{"bad scheme never opens", "javascript:alert(1)", []string{"right", "enter", "enter"}, "", false, false, false},
		{"invalid never opens", "https://ex\u202eample.com", []string{"right", "enter", "enter"}, "", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &recordingOpener{}
			c := NewConsent(urlcheck.Analyze(tt.url), Header{Agent: "demo"}, theme.New(true, true), 0, nil)
			cmds := host(t, c, o, tt.keys...)
			a, done := c.Done()
			if a.Action != tt.want || done != tt.done {
				t.Errorf("Done() = %q, %v; want %q, %v", a.Action, done, tt.want, tt.done)
			}
			if got := len(o.calls()) > 0; got != tt.opened {
				t.Errorf("opened %v (%q), want %v", got, o.calls(), tt.opened)
			}
			if (len(cmds) > 0) != tt.clipSent {
				t.Errorf("commands %d, want clipboard %v", len(cmds), tt.clipSent)
			}
		})
	}
}

func TestConsentCopyUsesOSC52(t *testing.T) {
	u := "https://example.com/a?b=c"
	c := NewConsent(urlcheck.Analyze(u), Header{}, nil, 0, nil)
	if cmd := c.Update(press("c")); cmd == nil {
		t.Fatal("no command")
	}
	// Until the terminal reads the URL back, the screen does not claim
	// the copy worked.
	if v := ansi.Strip(c.View()); !strings.Contains(v, "may have been") {
		t.Errorf("view claims an unconfirmed copy:\n%s", v)
	}
	c.Update(tea.ClipboardMsg{Content: u})
	if v := ansi.Strip(c.View()); !strings.Contains(v, "terminal confirms") {
		t.Errorf("view does not say the copy was confirmed:\n%s", v)
	}
}

// Over SSH the browser cannot start: the QR view comes up, Esc goes back
// to the screen, which offers "I opened it myself", which answers accept
// without opening.
func TestConsentRemoteShowsQR(t *testing.T) {
	c := NewConsent(urlcheck.Analyze("https://example.com/login"), Header{}, nil, 0, nil)
	c.OpenFailed(ErrRemote.Error(), true)
	if v := ansi.Strip(c.View()); !c.QRShown() || !strings.Contains(v, "▀") {
		t.Fatalf("no QR view:\n%s", v)
	}
	c.Update(press("esc"))
	v := ansi.Strip(c.View())
	if c.QRShown() || !strings.Contains(v, "I opened it myself") || !strings.Contains(v, "QR code") {
		t.Fatalf("no way to say it was opened:\n%s", v)
	}
	c.Update(press("left")) // the last button
	c.Update(press("enter"))
	if a, done := c.Done(); !done || a.Action != question.Accept || c.OpensBrowser() {
		t.Fatalf("Done() = %q, %v (opens: %v)", a.Action, done, c.OpensBrowser())
	}
}

func TestConsentGrace(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	o := &recordingOpener{}
	c := NewConsent(urlcheck.Analyze("https://example.com/"), Header{}, nil, DefaultGrace, clock.now)
	host(t, c, o, "right", "enter", "d", "esc")
	if _, done := c.Done(); done || len(o.calls()) != 0 {
		t.Fatal("keys within the grace period were not ignored")
	}
	clock.t = clock.t.Add(DefaultGrace)
	host(t, c, o, "right", "enter")
	if a, _ := c.Done(); a.Action != question.Accept || len(o.calls()) != 1 {
		t.Fatalf("after grace: %q, calls %q", a.Action, o.calls())
	}
	// Focus restarts the grace period.
	c2 := NewConsent(urlcheck.Analyze("https://example.com/"), Header{}, nil, DefaultGrace, clock.now)
	clock.t = clock.t.Add(time.Hour)
	c2.Focus()
	c2.Update(press("d"))
	if _, done := c2.Done(); done {
		t.Fatal("key right after Focus was not ignored")
	}
}

func TestConsentIgnoresAfterDone(t *testing.T) {
	o := &recordingOpener{}
	c := NewConsent(urlcheck.Analyze("https://example.com/"), Header{}, nil, 0, nil)
	c.Update(press("d"))
	host(t, c, o, "right", "enter")
	if a, _ := c.Done(); a.Action != question.Decline || len(o.calls()) != 0 {
		t.Fatalf("outcome changed after done: %q, %q", a.Action, o.calls())
	}
}

func TestOpenCmd(t *testing.T) {
	o := &recordingOpener{}
	msg := OpenCmd(o, "https://EXAMPLE.com:443/x")().(OpenedMsg)
	if msg.Err != nil || len(o.calls()) != 1 || o.calls()[0] != "https://example.com/x" {
		t.Fatalf("OpenCmd: %+v %q", msg, o.calls())
	}
	for _, u := range []string{"javascript:alert(1)", "file:///etc/passwd", "https://exa mple.com/", "ftp://example.com/"} {
		if msg := OpenCmd(o, u)().(OpenedMsg); !errors.Is(msg.Err, ErrNotOpenable) {
			t.Errorf("%s: err %v", u, msg.Err)
		}
	}
	if len(o.calls()) != 1 {
		t.Errorf("refused URLs reached the opener: %q", o.calls())
	}
	o.err = errors.New("no browser")
	if msg := OpenCmd(o, "https://example.com/")().(OpenedMsg); msg.Err == nil {
		t.Error("opener error lost")
	}
	if err := (BrowserOpener{}).Open("javascript:alert(1)"); !errors.Is(err, ErrNotOpenable) {
		t.Errorf("BrowserOpener accepted javascript: %v", err)
	}
}

// TestConsentGolden compares views, escape codes stripped, with golden files
// (go test -update rewrites them).
func TestConsentGolden(t *testing.T) {
	hdr := Header{Agent: "Demo \x1b[31mAgent\x1b[0m", ToolCall: "Connect GitHub\u202e", Message: "Sign in so I can read your repositories.\nThe link goes to the agent's connect page.", Index: 1, Total: 2}
	tests := []struct {
		name, url string
		keys      []string
		width     int
	}{
		{"lookalike", "https://xn--80ak6aa92e.com/login?next=/account/settings/security&client_id=0123456789abcdef", nil, 64},
		{"lookalike_confirm", "https://xn--80ak6aa92e.com/login", []string{"right", "enter"}, 64},
		{"userinfo", "http://paypal.com@evil.example/", nil, 72},
		{"clean", "https://accounts.google.com/o/oauth2/auth?client_id=abc", nil, 60},
		{"bidi", "https://ex\u202eample.com/", nil, 60},
		{"backslash", "https://example.com\\@evil.com", []string{"c"}, 60},
		{"enter_unselected", "https://example.com/", []string{"enter"}, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewConsent(urlcheck.Analyze(tt.url), hdr, theme.New(true, false), 0, nil)
			c.SetSize(tt.width, 40)
			for _, k := range tt.keys {
				c.Update(press(k))
			}
			view := c.View()
			got := ansi.Strip(view)
			for _, l := range strings.Split(got, "\n") {
				if w := ansi.StringWidth(l); w > tt.width {
					t.Errorf("line wider than %d: %q", tt.width, l)
				}
			}
			if strings.ContainsRune(got, '\u202e') || strings.Contains(got, "\x1b[31m") {
				t.Error("view shows a raw bidi control or an agent escape")
			}
			path := filepath.Join("testdata", "consent_"+tt.name+".golden")
			if testkit.Updating() { // go test -update rewrites the golden files
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("view differs from %s:\n%s", path, got)
			}
		})
	}
}

func TestConsentSetHeader(t *testing.T) {
	c := NewConsent(urlcheck.Analyze("https://example.com/"), Header{Agent: "a", Index: 1, Total: 1}, nil, 0, nil)
	if strings.Contains(ansi.Strip(c.View()), " of ") {
		t.Fatal("single request shows a count")
	}
	c.SetHeader(Header{Agent: "a", Index: 2, Total: 3})
	if !strings.Contains(ansi.Strip(c.View()), "(2 of 3)") {
		t.Error("view does not show the new queue position")
	}
}

// TestTabNeverOpens: Tab is the key that gives a docked question the keys
// ("tab to answer"); pressed again on a consent screen that already has
// them, then Enter, it must not open the URL (it used to select Open),
// nor, on a high-severity URL, step onto "Open anyway".
func TestTabNeverOpens(t *testing.T) {
	tab, stab, enter := tea.KeyPressMsg{Code: tea.KeyTab}, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, tea.KeyPressMsg{Code: tea.KeyEnter}
	for _, u := range []string{"https://example.com/login", "https://xn--80ak6aa92e.com/login"} {
		for _, keys := range [][]tea.KeyPressMsg{{tab, enter}, {tab, tab, enter}, {stab, enter}, {tab, tab, tab, tab, enter}} {
			c := NewConsent(urlcheck.Analyze(u), Header{}, nil, 0, nil)
			for _, k := range keys {
				c.Update(k)
			}
			if a, done := c.Done(); done && a.Action == question.Accept {
				t.Errorf("%s: %v opened it", u, keys)
			}
		}
		// After → onto Open and Enter, a high-severity URL asks again with
		// Go back selected: Tab must not step onto Open anyway.
		c := NewConsent(urlcheck.Analyze(u), Header{}, nil, 0, nil)
		for _, k := range []tea.KeyPressMsg{{Code: tea.KeyRight}, enter, tab, enter} {
			c.Update(k)
		}
		if c.OpensBrowser() && strings.Contains(u, "xn--") {
			t.Errorf("%s: tab stepped onto Open anyway", u)
		}
	}
}

// TestConsentUses: the screen uses c and d (q in the QR view) and every key
// that is not text; other text, and every letter while it asks again for a
// high-severity URL, is the user typing elsewhere.
func TestConsentUses(t *testing.T) {
	text := func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }
	check := func(c *Consent, state string, keys map[tea.KeyPressMsg]bool) {
		t.Helper()
		for k, want := range keys {
			if got := c.Uses(k); got != want {
				t.Errorf("%s: Uses(%q) = %v, want %v", state, k.String(), got, want)
			}
		}
	}
	enter, left := tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyLeft}
	c := NewConsent(urlcheck.Analyze("https://example.com/"), Header{}, nil, 0, nil)
	check(c, "buttons", map[tea.KeyPressMsg]bool{text('c'): true, text('D'): true, text('o'): false, text('y'): false,
		text(' '): false, text('q'): false, enter: true, left: true})

	h := NewConsent(urlcheck.Analyze("http://paypal.com@evil.example/"), Header{}, nil, 0, nil)
	host(t, h, &recordingOpener{}, "right", "enter")
	check(h, "asking again", map[tea.KeyPressMsg]bool{text('c'): false, text('d'): false, enter: true, left: true})

	r := NewConsent(urlcheck.Analyze("https://example.com/login"), Header{}, nil, 0, nil)
	r.OpenFailed(ErrRemote.Error(), true)
	check(r, "QR view", map[tea.KeyPressMsg]bool{text('q'): true, text('c'): true, text('d'): false, enter: true})
}

// TestConsentSaysWhyEnterWaits: Enter with no button selected does
// nothing (typed prose must not open a URL), and the screen says why and
// what to do; the line goes once a button is chosen.
func TestConsentSaysWhyEnterWaits(t *testing.T) {
	c := NewConsent(urlcheck.Analyze("https://example.com/"), Header{}, theme.New(true, true), 0, nil)
	c.SetSize(80, 30)
	const hint = "No button is selected, so Enter does nothing: choose one with ←/→ first."
	if strings.Contains(ansi.Strip(c.View()), hint) {
		t.Fatal("the hint shows before Enter")
	}
	c.Update(press("enter"))
	if _, done := c.Done(); done || !strings.Contains(ansi.Strip(c.View()), hint) {
		t.Fatalf("after Enter: done %v, view:\n%s", done, ansi.Strip(c.View()))
	}
	c.Update(press("right"))
	if strings.Contains(ansi.Strip(c.View()), hint) {
		t.Error("the hint stays once a button is selected")
	}
}
