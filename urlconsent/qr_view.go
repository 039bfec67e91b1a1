package urlconsent

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Over SSH a browser started here would open on the remote machine: the
// screen offers the link as a QR code for a phone instead, in a view of
// its own that takes the whole space SetSize gives it (the host gives it
// the whole terminal): the code in half blocks inside its quiet zone, the
// site, and the URL beneath, wrapped, never cut. A code that does not fit
// is never cut either: the view says what size it needs. A URL longer
// than any code holds says so.

// SetRemote tells the screen it runs over SSH (see Remote): no browser
// opens here. The first button shows the QR code instead of opening, the
// screen offers "I opened it myself" from the start, and the QR view
// comes up at once, unless the URL has a high-severity warning (then the
// warnings come first, and the QR code after the second confirmation).
func (c *Consent) SetRemote() {
	c.remote = true
	c.qr = c.report.Openable() && c.report.MaxSeverity() < urlcheck.High
}

// QRShown says whether the QR view is up: the host should give the screen
// the whole terminal (SetSize) while it is.
func (c *Consent) QRShown() bool { return c.qr }

// Remote says whether elicit runs over SSH (SSH_CONNECTION or SSH_TTY
// set), where a browser must not be started; getenv nil is os.Getenv.
func Remote(getenv func(string) string) bool {
	if getenv == nil {
		getenv = osGetenv
	}
	return getenv("SSH_CONNECTION") != "" || getenv("SSH_TTY") != ""
}

// qrKey handles a key in the QR view: Esc, Enter or Tab go back to the
// consent screen, c copies. No key answers the question here.
func (c *Consent) qrKey(k tea.KeyPressMsg) {
	switch {
	case key.Matches(k, keyQRBack):
		c.qr = false
	case key.Matches(k, keyQRCopy):
		if u := c.copyText(); u != "" {
			c.copied, c.confirmed = true, false
			c.pending = copyCmd(u)
		}
	}
}

// qrNote is what the consent screen says over SSH, for a URL the QR view
// can show or one too long for any code.
func (c *Consent) qrNote() string {
	if _, err := qrCode(c.report.URL, true); errors.Is(err, errQRTooLong) {
		return fmt.Sprintf("Over SSH no browser opens here, and this URL is too long for a QR code (%d bytes; the largest code holds %d): copy it (c), open it yourself, then choose “I opened it myself”.", len(c.report.URL), qrCapacity)
	}
	return "Over SSH no browser opens here: show its QR code to scan with a phone, or copy it (c); open it yourself, then choose “I opened it myself”."
}

// qrView draws the QR view in c.width × c.height.
func (c *Consent) qrView() string {
	th := c.th
	w, h := max(c.width, 10), max(c.height, 3)
	r := c.report
	head := "Scan with your phone to open the link"
	if site := r.Site(); site != "" {
		head += " · " + th.Highlight.Render(site)
	}
	if n := len(r.Warnings); n > 0 {
		head += th.Warning.Render(fmt.Sprintf(" · %d warning%s: esc shows them", n, map[bool]string{true: "", false: "s"}[n == 1]))
	}
	keys := strings.Join(c.keyItems(c.Keys()), th.KeyHelp.Render("  ·  "))
	switch {
	case c.copied && c.confirmed:
		keys = th.Success.Render(copyConfirmed) + "\n" + keys
	case c.copied:
		keys = th.Warning.Render(copyUnconfirmed) + "\n" + keys
	}
	before, site, after := urlcheck.UrlParts(r)
	url := func(width int) []string {
		return strings.Split(ansi.Hardwrap(before+th.Highlight.Render(site)+after, width, true), "\n")
	}
	headLines := strings.Split(ansi.Wrap(head, w, " "), "\n")
	keyLines := strings.Split(ansi.Wrap(keys, w, " "), "\n")
	code, err := qrCode(r.URL, th.NoColor)
	if err != nil {
		msg := "This link cannot be shown as a QR code: " + err.Error() + "."
		if errors.Is(err, errQRTooLong) {
			msg = fmt.Sprintf("This URL is too long for a QR code (%d bytes; the largest code holds %d). Copy it (c) and open it yourself.", len(r.URL), qrCapacity)
		}
		return c.qrText(headLines, th.Danger.Render(ansi.Wrap(msg, w, " ")), url(w), keyLines)
	}
	if th.NoColor && !th.IsDark {
		code = invertBlocks(code) // dark modules in the text colour, on a light screen
	}
	codeW := ansi.StringWidth(code[0])
	urlLines := url(w)
	need := len(headLines) + len(code) + len(urlLines) + len(keyLines)
	if codeW > w || need > h {
		needW := max(codeW, w)
		needH := len(headLines) + len(code) + len(url(needW)) + len(keyLines)
		msg := fmt.Sprintf("The QR code needs a terminal of at least %d×%d (columns × rows); this one is %d×%d. Enlarge the window or make the font smaller, or copy the URL (c).", needW, needH, c.width, c.height)
		return c.qrText(headLines, th.Warning.Render(ansi.Wrap(msg, w, " ")), urlLines, keyLines)
	}
	pad := strings.Repeat(" ", (w-codeW)/2)
	var out []string
	out = append(out, headLines...)
	for _, l := range code {
		out = append(out, pad+l)
	}
	out = append(out, urlLines...)
	for len(out)+len(keyLines) < h {
		out = append(out, "")
	}
	return strings.Join(append(out, keyLines...), "\n")
}

// qrText is the QR view without its code: the reason, then the URL.
func (c *Consent) qrText(head []string, msg string, url, keys []string) string {
	out := append(append(append([]string(nil), head...), "", msg, ""), url...)
	for len(out)+len(keys) < c.height {
		out = append(out, "")
	}
	return strings.Join(append(out, keys...), "\n")
}

// invertBlocks swaps the light and dark modules of drawn code lines.
func invertBlocks(lines []string) []string {
	swap := strings.NewReplacer("█", " ", " ", "█", "▀", "▄", "▄", "▀")
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = swap.Replace(l)
	}
	return out
}
