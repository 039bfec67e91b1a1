package urlconsent

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"rsc.io/qr"

	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
)

// remoteConsent is a consent over SSH at width×height.
func remoteConsent(url string, width, height int) *Consent {
	c := NewConsent(urlcheck.Analyze(url), Header{Agent: "agent"}, theme.New(true, true), 0, nil)
	c.SetRemote()
	c.SetSize(width, height)
	return c
}

// codeRows are the rows of a view drawn in half blocks.
func codeRows(view string) []string {
	var rows []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if t := strings.TrimSpace(l); t != "" && strings.Trim(t, "█▀▄ ") == "" {
			rows = append(rows, t)
		}
	}
	return rows
}

// Over SSH the QR view comes up at once and holds the whole code, quiet
// zone included, with the URL beneath, in the space it is given: at 80x24
// and 120x40 for a short link; at 120x40 for an OAuth link.
func TestQRViewHoldsTheWholeCode(t *testing.T) {
	oauth := "https://accounts.example.com/o/oauth2/auth?client_id=abc&redirect_uri=http%3A%2F%2Flocalhost%3A8080&state=xyz123&scope=openid+email"
	for _, c := range []struct {
		url  string
		w, h int
	}{{"https://example.com/login", 80, 24}, {"https://example.com/login", 120, 40}, {oauth, 120, 40}} {
		con := remoteConsent(c.url, c.w, c.h)
		if !con.QRShown() {
			t.Fatalf("%s: no QR view at once", c.url)
		}
		view := con.View()
		lines := strings.Split(view, "\n")
		if len(lines) > c.h {
			t.Errorf("%dx%d: %d rows drawn", c.w, c.h, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > c.w {
				t.Errorf("%dx%d: a row of %d columns", c.w, c.h, ansi.StringWidth(l))
			}
		}
		code, _ := qr.Encode(c.url, qr.L)
		n := code.Size + 2*quietZone
		rows := codeRows(view)
		if len(rows) != (n+1)/2 || len([]rune(rows[0])) != n {
			t.Errorf("%s at %dx%d: %d code rows of %d, want %d of %d", c.url, c.w, c.h, len(rows), len([]rune(rows[0])), (n+1)/2, n)
		}
		want, _ := qrCode(c.url, true)
		if strings.Join(rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("%dx%d: the code on screen is not the whole code", c.w, c.h)
		}
		if plain := ansi.Strip(view); !strings.Contains(strings.ReplaceAll(plain, "\n", ""), c.url) || !strings.Contains(plain, "esc back to the link") {
			t.Errorf("%dx%d: no URL or keys beneath:\n%s", c.w, c.h, plain)
		}
	}
}

// A code that does not fit is never cut: the view says what size it
// needs, and shows the URL.
func TestQRViewTooSmallSaysTheSize(t *testing.T) {
	oauth := "https://accounts.example.com/o/oauth2/auth?client_id=abc&redirect_uri=http%3A%2F%2Flocalhost%3A8080&state=xyz123&scope=openid+email"
	con := remoteConsent(oauth, 80, 24)
	view := ansi.Strip(con.View())
	flat := strings.Join(strings.Fields(view), " ")
	if len(codeRows(view)) != 0 || !strings.Contains(flat, "The QR code needs a terminal of at least ") || !strings.Contains(flat, "this one is 80×24") {
		t.Fatalf("view:\n%s", view)
	}
	if !strings.Contains(strings.ReplaceAll(view, "\n", ""), oauth) {
		t.Errorf("the URL is not shown:\n%s", view)
	}
	code, _ := qr.Encode(oauth, qr.L)
	var w, h int
	if _, err := fmtSscanf(flat, &w, &h); err != nil || w < code.Size+2*quietZone || h < (code.Size+2*quietZone+1)/2 {
		t.Errorf("needs %dx%d for a %d-module code (%v)", w, h, code.Size, err)
	}
	con.SetSize(w, h)
	if rows := codeRows(con.View()); len(rows) != (code.Size+2*quietZone+1)/2 {
		t.Errorf("at the size it asked for, %d code rows", len(rows))
	}
}

// A URL longer than any QR code holds says so, in the QR view and on the
// screen, instead of promising a code that cannot exist.
func TestQRTooLong(t *testing.T) {
	long := "https://example.com/?q=" + strings.Repeat("a", 4096)
	if _, err := qrCode(long, true); !errors.Is(err, errQRTooLong) {
		t.Fatalf("QR: %v", err)
	}
	con := remoteConsent(long, 120, 40)
	view := ansi.Strip(con.View())
	if !strings.Contains(view, "This URL is too long for a QR code (4119 bytes; the largest code holds 2953)") {
		t.Errorf("QR view:\n%.600s", view)
	}
	con.Update(press("esc"))
	if view := ansi.Strip(con.View()); !strings.Contains(strings.Join(strings.Fields(view), " "), "too long for a QR code") || strings.Contains(view, "scan its QR code") {
		t.Errorf("screen:\n%.2000s", view)
	}
	if _, err := qrCode(long[:qrCapacity], true); err != nil {
		t.Errorf("a URL of %d bytes: %v", qrCapacity, err)
	}
}

// A link with a high-severity warning shows its warnings first over SSH;
// the QR code comes after the second confirmation, never as an Open.
func TestQRViewAfterHighSeverityConfirmation(t *testing.T) {
	con := remoteConsent("https://xn--80ak6aa92e.com/login", 120, 40) // a whole-script lookalike
	if con.QRShown() {
		t.Fatal("the QR view came before the warnings")
	}
	con.Update(press("right"))
	con.Update(press("enter")) // the QR code button
	con.Update(press("right"))
	con.Update(press("enter")) // open anyway
	if _, done := con.Done(); done || !con.QRShown() {
		t.Fatalf("after confirming: done %v, QR view %v", done, con.QRShown())
	}
}

// Remote reads the SSH variables.
func TestRemote(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if Remote(env(nil)) || !Remote(env(map[string]string{"SSH_CONNECTION": "10.0.0.1 5555 10.0.0.2 22"})) || !Remote(env(map[string]string{"SSH_TTY": "/dev/pts/3"})) {
		t.Error("Remote")
	}
}

// fmtSscanf reads the size the view asks for.
func fmtSscanf(view string, w, h *int) (int, error) {
	i := strings.Index(view, "at least ")
	if i < 0 {
		return 0, errors.New("no size")
	}
	return fmt.Sscanf(view[i:], "at least %d×%d", w, h)
}
