package urlconsent

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
)

// DefaultGrace is how long a new consent screen ignores keys, so that a
// keystroke meant for the prompt cannot answer it.
const DefaultGrace = 400 * time.Millisecond

// Header says who asks: the agent, the tool call (when scoped to one), the
// agent's message, and the position in the modal queue (Index of Total,
// counted from 1; Total 0 or 1 shows no count).
type Header struct {
	Agent, ToolCall, Message string
	// Visits says how often the user opened this site before ("first time
	// you open this site"); "" when history is off.
	Visits       string
	Index, Total int
}

// Consent is the URL consent screen: a plain child model that the root
// model hosts in its modal queue, calling Update, View and SetSize, and
// reading Done.
type Consent struct {
	report     urlcheck.Report
	header     Header
	th         *theme.Theme
	grace      time.Duration
	now        func() time.Time
	shownAt    time.Time
	width      int
	height     int
	confirming bool // a high-severity URL waits for the second confirmation
	sure       bool // on the confirmation: "Open anyway" is selected
	sel        int  // the selected button, -1 for none
	copied     bool
	confirmed  bool   // the terminal read the copied URL back
	failure    string // why the browser could not open it ("" before)
	remote     bool   // over SSH: no browser here; show the QR code
	qr         bool   // the QR view is up (qr_view.go)
	pending    tea.Cmd
	refused    bool // o was pressed on a URL that cannot open
	waiting    bool // Enter was pressed with no button selected (the view says why nothing happened)
	out        question.Outcome
	self       bool // the user opened it themselves: the host opens nothing
	done       bool
	fr         *dialog.Frame // scrolls what does not fit (consent_view.go)
}

// NewConsent builds the screen for r. Keys arriving within grace of its
// creation (or of the last Focus) are ignored; now is the clock (time.Now
// when nil).
func NewConsent(r urlcheck.Report, h Header, th *theme.Theme, grace time.Duration, now func() time.Time) *Consent {
	if now == nil {
		now = time.Now
	}
	if th == nil {
		th = theme.New(true, theme.NoColor())
	}
	return &Consent{report: r, header: h, th: th, grace: grace, now: now, shownAt: now(), width: 80, height: 24, sel: -1}
}

// Focus restarts the grace period; call it when the screen comes to the
// front of the modal queue, and run the command it returns (see Init).
func (c *Consent) Focus() tea.Cmd {
	c.shownAt = c.now()
	return c.Init()
}

// Init returns the tick that redraws the screen when its grace period
// ends: until then the key help is not shown, so what a person sees
// says when keys start to count (nil without a grace period).
func (c *Consent) Init() tea.Cmd {
	left := c.grace - c.now().Sub(c.shownAt)
	if left <= 0 {
		return nil
	}
	return tea.Tick(left, func(time.Time) tea.Msg { return graceOver{c} })
}

// graceOver is Init's tick: the keys of consent c count from now on.
type graceOver struct{ c *Consent }

// inGrace reports whether the screen came up too recently to take keys.
func (c *Consent) inGrace() bool { return c.now().Sub(c.shownAt) < c.grace }

// Report returns the analysis the screen shows.
func (c *Consent) Report() urlcheck.Report { return c.report }

// URL returns the URL that Open opens (the analysed one, host in ASCII).
func (c *Consent) URL() string { return c.report.URL }

// SetHeader replaces the header, for example when the queue position
// changes.
func (c *Consent) SetHeader(h Header) { c.header = h }

// SetSize sets the space the screen may use.
func (c *Consent) SetSize(w, h int) { c.width, c.height = w, h }

// Done reports the outcome once the user has chosen: Accept when they
// consented (see OpensBrowser), Decline for an explicit no, Cancel for
// Esc. Copying is not an outcome: the screen stays up.
func (c *Consent) Done() (question.Outcome, bool) { return c.out, c.done }

// OpensBrowser reports whether the outcome asks the host to open the URL
// (with OpenCmd) before it answers the agent accept: true for "Open in
// browser", false once the user said they opened it themselves (the
// browser could not start here: over SSH, or it failed) and for every
// other outcome.
func (c *Consent) OpensBrowser() bool { return c.done && c.out.Action == question.Accept && !c.self }

// The buttons of the screen, in order. No button is selected at first;
// ←/→ select one and Enter presses it, so typing prose (letters and
// Enter) never opens a URL. c copies and d declines at once: neither gives
// anything away.
const (
	btnOpen = iota
	btnCopy
	btnDecline
	btnCancel
	btnMine // "I opened it myself": only once the browser could not open it
	btnCount
)

var buttonLabels = [btnCount]string{"Open in browser", "Copy URL", "Decline", "Cancel", "I opened it myself"}

// buttons is how many buttons the screen shows now.
func (c *Consent) buttons() int {
	if c.failure != "" || c.remote {
		return btnCount
	}
	return btnMine
}

// Update handles a key press. ←/→ choose a button and Enter
// presses it; c copies the URL (OSC 52), d declines, Esc cancels. A high-severity URL asks again, with "Go back" selected: only
// → then Enter opens it.
func (c *Consent) Update(msg tea.Msg) tea.Cmd {
	kp, ok := msg.(tea.KeyPressMsg)
	if cm, isClip := msg.(tea.ClipboardMsg); isClip && c.copied {
		c.confirmed = copyConfirms(cm, c.copyText())
		return nil
	}
	if !ok || c.done || c.inGrace() {
		return nil
	}
	if c.qr {
		c.qrKey(kp)
		cmd := c.pending
		c.pending = nil
		return cmd
	}
	if c.confirming {
		switch {
		case key.Matches(kp, keyChoose): // not Tab: see below
			c.sure = !c.sure
		case key.Matches(kp, keyConfirm):
			switch {
			case !c.sure:
				c.confirming = false
			case c.remote: // no browser here: the QR code is how it opens
				c.confirming, c.qr = false, true
			default:
				c.finish(question.Accept)
			}
		case key.Matches(kp, keyGoBack):
			c.confirming, c.sure = false, false
		}
		return nil
	}
	if key.Matches(kp, keyScroll) && c.scroll(kp.String()) {
		return nil
	}
	c.refused = false
	// Buttons move with ←/→ only. Tab is the key that gives a docked
	// question the keys ("tab to answer"), so pressed once more it must not
	// select Open (Tab then Enter would open the URL).
	switch k := kp.String(); {
	case key.Matches(kp, keyChoose) && k == "left":
		c.sel = (max(c.sel, 0) + c.buttons() - 1) % c.buttons()
	case key.Matches(kp, keyChoose):
		c.sel = (c.sel + 1) % c.buttons()
	case key.Matches(kp, keyPress):
		c.waiting = c.sel < 0
		return c.press(c.sel)
	case key.Matches(kp, keyCopy):
		return c.press(btnCopy)
	case key.Matches(kp, keyDecline):
		c.finish(question.Decline)
	case key.Matches(kp, keyCancel):
		c.finish(question.Cancel)
	}
	return nil
}

// press acts on button b.
func (c *Consent) press(b int) tea.Cmd {
	switch b {
	case btnMine:
		c.self = true
		c.finish(question.Accept)
	case btnOpen:
		if !c.report.Openable() {
			c.refused = true
			return nil
		}
		if c.report.MaxSeverity() >= urlcheck.High {
			c.confirming, c.sure = true, false
			return nil
		}
		if c.remote {
			c.qr = true
			return nil
		}
		c.finish(question.Accept)
	case btnCopy:
		if u := c.copyText(); u != "" {
			c.copied, c.confirmed = true, false
			return copyCmd(u)
		}
	case btnDecline:
		c.finish(question.Decline)
	case btnCancel:
		c.finish(question.Cancel)
	}
	return nil
}

func (c *Consent) finish(a question.Action) { c.out, c.done = question.Outcome{Action: a}, true }

// OpenFailed shows the screen again after the browser could not open the
// URL: the reason, the "I opened it myself" button, and (over SSH, remote)
// the QR view (see SetRemote). A high-risk URL's confirmation is over: the
// screen comes back with no button selected, so opening again takes both
// steps again.
func (c *Consent) OpenFailed(reason string, remote bool) {
	c.failure, c.done, c.out, c.self, c.sel, c.waiting = reason, false, question.Outcome{}, false, -1, false
	c.confirming, c.sure = false, false
	if remote {
		c.SetRemote()
	}
}

// copyText is what c copies: the analysed URL, or the input made visible
// when it is not a URL.
func (c *Consent) copyText() string {
	if c.report.URL != "" {
		return c.report.URL
	}
	return urlcheck.Visible(c.report.Input)
}
