package forms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question"
)

// submitAll presses Enter until the form is done (at most 20 times) and
// returns the content as the JSON an agent receives.
func submitAll(t *testing.T, m *Model) string {
	t.Helper()
	for range 20 {
		if _, done := m.Done(); done {
			break
		}
		press(m, "<enter>")
	}
	out, done := m.Done()
	if !done || out.Action != question.Accept {
		t.Fatalf("outcome %+v done %v; view:\n%s", out, done, ansi.Strip(m.View()))
	}
	b, _ := json.Marshal(out.Content)
	return string(b)
}

// The review lists exactly the JSON values that are sent: numbers in JSON's
// spelling, strings quoted, a select's title beside its value, and a
// written-in "Other" answer on its question's line.
func TestReviewIsWhatIsSent(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"n":{"type":"number","title":"N"},
		"h":{"type":"number","title":"Half"},
		"i":{"type":"integer","title":"I"},
		"c":{"type":"string","title":"Colour","oneOf":[{"const":"#f00","title":"Red"}]},
		"q":{"type":"string","title":"Library","enum":["a","b"]},
		"q_custom":{"type":"string","title":"Own"}}}`)
	press(m, "8e3", "<enter>", ".5", "<enter>", "3.0e1", "<enter>", "<down>", "<enter>", "<up>", "<enter>", "luxon", "<enter>")
	if !m.reviewing {
		t.Fatalf("no review:\n%s", ansi.Strip(m.View()))
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{`N: 8000`, `Half: 0.5`, `I: 30`, `Colour: "#f00" (Red)`, `Library: "luxon" (your own answer, sent as q_custom)`} {
		if !strings.Contains(view, want) {
			t.Errorf("review lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "(no answer") || strings.Contains(view, "8e3") {
		t.Errorf("review shows what is not sent:\n%s", view)
	}
	if got, want := submitAll(t, m), `{"c":"#f00","h":0.5,"i":30,"n":8000,"q_custom":"luxon"}`; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
}

// An unedited default is sent exactly, beyond float64's precision and
// beyond int64.
func TestDefaultsSentExactly(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"a":{"type":"integer","default":9007199254740993},
		"b":{"type":"integer","default":12345678901234567890},
		"c":{"type":"number","default":0.1}}}`)
	if got, want := submitAll(t, m), `{"a":9007199254740993,"b":12345678901234567890,"c":0.1}`; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
}

// A default carrying a bidi override or a zero-width space is shown made
// visible in the focused input, and sent as it is when left unedited; an
// edit sends what was typed.
func TestHostileDefaultShownVisibleSentAsIs(t *testing.T) {
	const src = `{"type":"object","properties":{"s":{"type":"string","default":"ab\u202ecd\u200b"}}}`
	m := newTestModel(t, src)
	view := m.View()
	if strings.ContainsAny(view, "\u202e\u200b") {
		t.Fatalf("raw bidi or zero-width character in the view: %q", view)
	}
	if !strings.Contains(ansi.Strip(view), "ab<U+202E>cd<U+200B>") {
		t.Fatalf("default not made visible:\n%s", ansi.Strip(view))
	}
	if got, want := submitAll(t, m), `{"s":"ab`+"\u202e"+`cd`+"\u200b"+`"}`; got != want {
		t.Fatalf("sent %q, want %q", got, want)
	}
	m = newTestModel(t, src)
	press(m, "<ctrl+u>", "plain")
	if got := submitAll(t, m); got != `{"s":"plain"}` {
		t.Fatalf("edited: sent %s", got)
	}
}

// Readline's keys edit every text field: an input, a number, a list's text
// area and a long list's filter.
func TestReadlineKeysInTextFields(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"s":{"type":"string"},"n":{"type":"number"},
		"l":{"type":"array","items":{"type":"string"}}}}`)
	press(m, "hello big world", "<ctrl+w>", "<alt+b>", "<ctrl+k>", "<ctrl+a>", "X", "<ctrl+e>", "Y", "<alt+b>", "<alt+f>", "Z")
	if d := m.Draft()["s"]; d != "Xhello YZ" {
		t.Fatalf("input after readline keys: %q", d)
	}
	press(m, "<tab>", "12345", "<ctrl+a>", "<ctrl+d>", "<ctrl+e>", "<backspace>")
	if d := m.Draft()["n"]; d != json.Number("234") {
		t.Fatalf("number after ctrl+a ctrl+d ctrl+e backspace: %#v", d)
	}
	press(m, "<tab>", "one two", "<ctrl+w>", "<ctrl+u>", "three", "<enter>", "four", "<ctrl+a>", "<ctrl+k>", "five")
	if d := m.Draft()["l"]; !reflect.DeepEqual(d, []string{"three", "five"}) {
		t.Fatalf("list after readline keys: %#v", d)
	}
	if !m.Typing() {
		t.Fatal("Typing is false in a text field")
	}
	if _, done := m.Done(); done {
		t.Fatal("a readline key ended the form")
	}
}

// A filter shows its query, and one Enter picks the hovered match and
// moves on.
func TestSelectFilterOneEnter(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"w":{"type":"string","enum":["alpha","bravo","charlie","delta","echo","foxtrot","golf","hotel","india"]},
		"x":{"type":"string"}},"required":["w"]}`)
	press(m, "/", "hot")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "/hot") {
		t.Fatalf("the query is not shown:\n%s", v)
	}
	press(m, "<enter>")
	if m.cur.f.Key != "x" {
		t.Fatalf("one Enter did not pick and move on: focus on %q", m.cur.f.Key)
	}
	if got := submitAll(t, m); got != `{"w":"hotel"}` {
		t.Fatalf("sent %s", got)
	}
}

// Reaching maxLength says why typing stops.
func TestMaxLengthSaysWhy(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{"code":{"type":"string","maxLength":3}}}`)
	press(m, "ab")
	if strings.Contains(ansi.Strip(m.View()), "the most this field takes") {
		t.Fatal("limit shown before it is reached")
	}
	press(m, "cd")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "3 of 3 characters: the most this field takes") || m.Draft()["code"] != "abc" {
		t.Fatalf("draft %#v; view:\n%s", m.Draft()["code"], v)
	}
}

// A const is shown and sent as is; a required nullable field left empty is
// sent as null; a list sends one value a line.
func TestConstNullableAndList(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"kind":{"type":"string","const":"booking","title":"Kind"},
		"nick":{"type":["string","null"]},
		"tags":{"type":"array","items":{"type":"string"}}},"required":["nick","kind"]}`)
	if m.cur.f.Key != "nick" {
		t.Fatalf("focus on %q, want the first field that takes input", m.cur.f.Key)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, `"booking" (fixed)`) {
		t.Fatalf("const not shown:\n%s", v)
	}
	press(m, "<enter>", "a", "<enter>", "b", "<enter>", "<enter>")
	if !m.reviewing {
		t.Fatalf("no review:\n%s", ansi.Strip(m.View()))
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "nick: null") || !strings.Contains(v, `tags: ["a","b"]`) {
		t.Fatalf("review:\n%s", v)
	}
	if got, want := submitAll(t, m), `{"kind":"booking","nick":null,"tags":["a","b"]}`; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
}
