package fullscreen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/uitest"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// fitDriver is a model connected to the demo agent, at w×h.
func fitDriver(t *testing.T, w, h int) *driver {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.feed(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// openDialog puts md in front, as a dialog the user asked for, and returns the
// screen's lines after checking that it fits the terminal.
func (d *driver) openDialog(md modal) []string {
	d.t.Helper()
	d.run(d.m.push(md, true))
	d.focus()
	return d.fits()
}

// fits returns the screen's lines and fails when it is taller or wider
// than the terminal.
func (d *driver) fits() []string {
	d.t.Helper()
	lines := strings.Split(d.screen(), "\n")
	if len(lines) > d.m.height {
		d.t.Fatalf("%dx%d: %d lines:\n%s", d.m.width, d.m.height, len(lines), d.screen())
	}
	return lines
}

// mustShow fails unless every text is on the screen.
func mustShow(t *testing.T, lines []string, what string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if !has(lines, s) {
			t.Fatalf("%s: %q not on screen:\n%s", what, s, strings.Join(lines, "\n"))
		}
	}
}

func testQuestion(t *testing.T, kind question.Kind, raw string) *question.Question {
	t.Helper()
	q := &question.Question{Kind: kind, From: question.From{Tool: "Deploy"}}
	q.Message = "I need a few details before I go on. " + strings.Repeat("This message is long. ", 6)
	if kind == question.URL {
		q.ElicitationID, q.URL = "e1", raw
		q.Report = urlcheck.Analyze(raw)
		return q
	}
	s, err := schema.ParseSchema([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	q.Schema = s
	return q
}

// wideForm is a schema of n optional string fields f0 … f(n-1).
func wideForm(n int) string {
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"f%d":{"type":"string","title":"Field %d","default":"v%d"}`, i, i, i))
	}
	return `{"type":"object","title":"Hundred","properties":{` + strings.Join(props, ",") + `}}`
}

func manySettings(n int) acpconn.SessionState {
	o := acpconn.ConfigOption{ID: "level", Name: "Level", Current: "l0"}
	for i := range n - 1 { // and the pause entry
		o.Values = append(o.Values, acpconn.Choice{ID: fmt.Sprintf("l%d", i), Name: fmt.Sprintf("level %d", i)})
	}
	return acpconn.SessionState{Options: []acpconn.ConfigOption{o}}
}

// TestEveryDialogFits opens each kind of dialog at 120x40, 80x24 and
// 60x16 and checks that its title, who asks and its key line are on the
// screen, and that the screen is no taller than the terminal.
func TestEveryDialogFits(t *testing.T) {
	for _, sz := range frameSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			d := fitDriver(t, sz[0], sz[1])
			th := d.m.th
			cases := []struct {
				name  string
				md    modal
				texts []string
			}{
				{"form", newFormModal(testQuestion(t, question.Form, wideForm(12)), "Demo agent", th, noGrace, nil), []string{"Demo agent asks", "Deploy", "Hundred", "› Field 0", "ctrl+x decline"}},
				{"url", newURLModal(testQuestion(t, question.URL, "https://accounts.google.com/o/oauth2/auth?client_id=abc&redirect_uri="+strings.Repeat("x", 60)), "Demo agent", th, false, noGrace, nil),
					[]string{"Open a link?", "Agent: Demo agent", "accounts.google.com/o/oauth2", "Site    google.com", "Open in browser", "esc cancel"}},
				{"permission", editPermission(), []string{"Permission", "Demo Agent · Edit notes.txt", "Reject", "esc cancel"}},
				{"settings", newSettingsModal(manySettings(25), false, th), []string{"Session settings · elicit", "> 1 Level: level 0", "esc dismiss"}},
				{"exit", newExitModal("Demo agent", "exit status 2", th), []string{"The agent stopped · Demo agent", "> look at the transcript", "esc dismiss"}},
				{"auth", newSignInModal("Demo agent", "not signed in", []acpconn.AuthMethod{{ID: "a", Name: "Sign in with a browser", Description: strings.Repeat("a long description ", 8)}}, false, th),
					[]string{"Sign in", "Demo agent", "> ", "Sign in with a browser", "esc dismisses"}},
				{"retry", newRetryModal(strings.Repeat("a long prompt ", 40), th), []string{"Retry the prompt? · elicit", "> not now", "esc dismiss"}},
				{"help", newHelpModal(d.m.helpGroups(), th), []string{"Keys · elicit", "esc or enter closes"}},
			}
			for _, c := range cases {
				lines := d.openDialog(c.md)
				mustShow(t, lines, c.name, c.texts...)
				d.run(d.m.remove(c.md))
			}
		})
	}
}

// TestSettingsCursorStaysInView moves the cursor down through 25 settings
// at every size: its row is always on screen, and the last entry is
// reached (no cap on the entries shown).
func TestSettingsCursorStaysInView(t *testing.T) {
	for _, sz := range frameSizes {
		d := fitDriver(t, sz[0], sz[1])
		s := newSettingsModal(manySettings(25), false, d.m.th)
		d.openDialog(s)
		for i := range 25 {
			lines := d.fits()
			want := "> " + string(choiceKeys[i]) + " "
			mustShow(t, lines, fmt.Sprintf("%v cursor on %d", sz, i), want, "Session settings", "esc dismiss")
			d.key("down")
		}
		// The last entry, with the cursor on it, after a page up and down.
		d.key("up")
		d.feed(tea.KeyPressMsg{Code: tea.KeyPgUp})
		d.key("down")
		d.key("up")
		mustShow(t, d.fits(), fmt.Sprintf("%v back on the last", sz), "> p pause questions")
	}
}

// TestHundredFieldFormAndReview walks a 100-field form to its end and its
// review: the focused field is always visible, and the review scrolls to
// its last field, the title and the keys staying on screen.
func TestHundredFieldFormAndReview(t *testing.T) {
	for _, sz := range frameSizes {
		d := fitDriver(t, sz[0], sz[1])
		f := newFormModal(testQuestion(t, question.Form, wideForm(100)), "Demo agent", d.m.th, noGrace, nil)
		d.openDialog(f)
		for i := range 100 {
			mustShow(t, d.fits(), fmt.Sprintf("%v field %d", sz, i), "Demo agent asks", "Hundred", fmt.Sprintf("› Field %d", i), "ctrl+x decline")
			d.key("enter")
		}
		lines := d.fits()
		mustShow(t, lines, fmt.Sprintf("%v review", sz), "Review your answers", "Field 0:", "Demo agent asks", "enter send")
		if has(lines, "Field 99:") {
			t.Fatalf("%v: all 100 answers on one screen?\n%s", sz, strings.Join(lines, "\n"))
		}
		seen := map[string]bool{}
		for range 200 {
			for _, l := range d.fits() {
				if i := strings.Index(l, "Field "); i >= 0 {
					seen[strings.Fields(l[i:])[1]] = true
				}
			}
			d.key("down")
		}
		mustShow(t, d.fits(), fmt.Sprintf("%v review end", sz), "Field 99:", "Demo agent asks", "Hundred", "enter send")
		if len(seen) != 100 {
			t.Fatalf("%v: the review showed %d of 100 answers", sz, len(seen))
		}
	}
}
