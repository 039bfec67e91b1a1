package urlconsent

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
)

// TestConsentFitsShortScreens: at 120x38, 80x22 and 60x14 (the room the
// full screen gives a dialog at 40, 24 and 16 rows) the screen fits; the
// title, who asks, the whole URL, its site, the buttons and the keys are
// in view; the message and the warnings scroll, down to the last one.
func TestConsentFitsShortScreens(t *testing.T) {
	u := "http://user@аррӏе.com:8443/login?next=/account/settings/security&client_id=0123456789abcdef"
	r := urlcheck.Analyze(u)
	words := strings.Fields(urlcheck.SortedWarnings(r.Warnings)[len(r.Warnings)-1].Message)
	last := words[len(words)-1] // the end of the last warning
	for _, sz := range [][2]int{{120, 38}, {80, 22}, {60, 14}} {
		c := NewConsent(r, Header{Agent: "Demo Agent", ToolCall: "Sign in", Message: strings.Repeat("Sign in so I can read your repositories. ", 5)}, theme.New(true, true), 0, nil)
		c.SetSize(sz[0], sz[1])
		view := func() string {
			t.Helper()
			v := ansi.Strip(c.View())
			if n := len(strings.Split(v, "\n")); n > sz[1] {
				t.Fatalf("%v: %d lines:\n%s", sz, n, v)
			}
			joined := strings.NewReplacer("│", "", " ", "", "\n", "").Replace(v)
			for _, want := range []string{"Open a link?", "Agent: Demo Agent", "Site", "xn--80ak6aa92e.com", "Open in browser", "esc cancel",
				strings.NewReplacer(" ", "").Replace(r.URL)} {
				if !strings.Contains(v, want) && !strings.Contains(joined, strings.ReplaceAll(want, " ", "")) {
					t.Fatalf("%v: no %q:\n%s", sz, want, v)
				}
			}
			return v
		}
		view()
		c.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
		if v := view(); !strings.Contains(strings.NewReplacer("│", "", " ", "", "\n", "").Replace(v), last) || regexp.MustCompile(`↓ \d+ more`).MatchString(v) {
			t.Fatalf("%v: the last warning %s is not reached:\n%s", sz, last, v)
		}
	}
}
