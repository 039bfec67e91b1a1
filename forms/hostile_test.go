package forms

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// hostile is text an agent might send to take over a terminal: an OSC 52
// clipboard write, a screen clear, a C1 CSI, a bell, a bidi override, a
// zero-width space and a tag character.
const hostile = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u009b31m\a\u202eevil\u200b\U000E0041"

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkSafe fails when out has anything but the form's own colours that a
// terminal would act on: an escape sequence other than SGR, a control
// character, a bidi control or an invisible character.
func checkSafe(t *testing.T, where, out string) {
	t.Helper()
	for _, r := range sgr.ReplaceAllString(out, "") {
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || sanitize.Visible(r) {
			t.Errorf("%s: U+%04X reaches the terminal:\n%q", where, r, out)
			return
		}
	}
}

func hostileSchema() string {
	h, _ := json.Marshal(hostile)
	hs, in := string(h), strings.Trim(string(h), `"`)
	return `{"type":"object","title":` + hs + `,"description":` + hs + `,"properties":{
		"s":{"type":"string","title":` + hs + `,"description":` + hs + `,"pattern":"^(?=a)` + in + `$","default":` + hs + `},
		"n":{"type":"integer","title":` + hs + `,"default":"` + in + `"},
		"e":{"type":"string","enum":[` + hs + `,"b"]},
		"e_custom":{"type":"string","title":` + hs + `},
		"m":{"type":"array","items":{"anyOf":[{"const":` + hs + `,"title":` + hs + `}]}},
		"l":{"type":"array","items":{"type":"string"},"default":[` + hs + `]},
		"c":{"const":` + hs + `,"title":` + hs + `}
	},"required":["s"]}`
}

// Every screen of a hostile form (each field focused, its errors, the
// pattern shown on request, the review, the discard question), the
// accessible transcript and `elicit form --answers` errors draw the
// agent's text made safe.
func TestHostileFormNeverRaw(t *testing.T) {
	src := hostileSchema()
	m := newTestModel(t, src)
	m.SetHeader(Header{Agent: hostile, ToolCall: hostile, Message: hostile, Index: 1, Total: 2})
	checkSafe(t, "start", m.View())
	press(m, "<ctrl+g>")
	if !strings.Contains(m.View(), "required format") {
		t.Fatal("ctrl+g did not show the pattern")
	}
	checkSafe(t, "pattern shown", m.View())
	for range 8 {
		press(m, "<enter>")
		checkSafe(t, "field "+m.cur.f.Key, m.View())
	}
	press(m, "<down>", "<enter>", hostile, "<enter>", "<enter>", "<enter>", "<enter>")
	checkSafe(t, "review or errors", m.View())
	press(m, "<esc>")
	checkSafe(t, "discard question", m.View())

	var out strings.Builder
	if _, err := RunAccessible(mustParse(t, src), Header{Agent: hostile, Message: hostile}, strings.NewReader("x\nabc\n\n\n\n\n\n1\n"), &out); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "accessible", out.String())

	h, _ := json.Marshal(hostile)
	hx, _ := json.Marshal(hostile + "x")
	answers := map[string]json.RawMessage{"s": h, "n": h, "e": hx, "m": json.RawMessage("[" + string(hx) + "]")}
	filled, err := Fill(mustParse(t, src), answers)
	if filled.Action != question.Cancel || err == nil { // cancelled: nobody said no
		t.Fatalf("hostile answers not refused: %v %v", filled.Action, err)
	}
	checkSafe(t, "Fill's reason (elicit form --answers prints it)", err.Error())
}
