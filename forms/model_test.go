package forms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
)

// clock is a fake time source the tests move by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// newTestModel builds a Model for schema with a fake clock already past the
// grace period.
func newTestModel(t *testing.T, schema string) *Model {
	t.Helper()
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := NewModel(mustParse(t, schema), Header{Agent: "Demo", Message: "Please answer."},
		Options{Theme: theme.New(true, true), Now: c.now})
	m.Init()
	c.t = c.t.Add(time.Second)
	return m
}

// keyMsg turns a key name into the message bubbletea v2 would deliver.
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"tab":       {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"enter":     {Code: tea.KeyEnter},
		"esc":       {Code: tea.KeyEscape},
		"backspace": {Code: tea.KeyBackspace},
		"up":        {Code: tea.KeyUp},
		"down":      {Code: tea.KeyDown},
		"left":      {Code: tea.KeyLeft},
		"right":     {Code: tea.KeyRight},
		"space":     {Code: tea.KeySpace, Text: " "},
		"pgup":      {Code: tea.KeyPgUp},
		"pgdown":    {Code: tea.KeyPgDown},
		"home":      {Code: tea.KeyHome},
		"end":       {Code: tea.KeyEnd},
		"ctrl+d":    {Code: 'd', Mod: tea.ModCtrl},
		"ctrl+x":    {Code: 'x', Mod: tea.ModCtrl},
		"ctrl+a":    {Code: 'a', Mod: tea.ModCtrl},
		"ctrl+e":    {Code: 'e', Mod: tea.ModCtrl},
		"ctrl+k":    {Code: 'k', Mod: tea.ModCtrl},
		"ctrl+u":    {Code: 'u', Mod: tea.ModCtrl},
		"ctrl+w":    {Code: 'w', Mod: tea.ModCtrl},
		"ctrl+g":    {Code: 'g', Mod: tea.ModCtrl},
		"alt+b":     {Code: 'b', Mod: tea.ModAlt},
		"alt+f":     {Code: 'f', Mod: tea.ModAlt},
		"delete":    {Code: tea.KeyDelete},
		"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
	}
	if k, ok := special[name]; ok {
		return k
	}
	r := []rune(name)
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// press sends keys: names in angle brackets are special keys, anything
// else is typed rune by rune.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		if strings.HasPrefix(k, "<") && strings.HasSuffix(k, ">") {
			m.Update(keyMsg(k[1 : len(k)-1]))
			continue
		}
		for _, r := range k {
			m.Update(keyMsg(string(r)))
		}
	}
}

const formSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","minLength":2},
	"age":{"type":"integer","title":"Age","minimum":0,"maximum":150},
	"score":{"type":"number","title":"Score"},
	"agree":{"type":"boolean","title":"Agree"},
	"color":{"type":"string","title":"Colour","enum":["red","green","blue"]},
	"tags":{"type":"array","title":"Tags","items":{"enum":["a","b","c"]},"maxItems":2},
	"note":{"type":"string","title":"Note"}
},"required":["name","age","agree"]}`

func TestModelFillAndSubmit(t *testing.T) {
	m := newTestModel(t, formSchema)
	press(m,
		"Jane", "<enter>", // name
		"42", "<tab>", // age
		"<tab>",        // score left empty: omitted
		"y", "<enter>", // agree
		"<down>", "<down>", "<enter>", // colour: (no answer) -> red -> green
		"<space>", "<down>", "<down>", "<space>", "<enter>", // tags a, c
		"<enter>", // note empty, last field: review
	)
	if !m.reviewing {
		t.Fatalf("not reviewing; view:\n%s", ansi.Strip(m.View()))
	}
	press(m, "<enter>")
	out, done := m.Done()
	if !done || out.Action != question.Accept {
		t.Fatalf("outcome %+v, done %v", out, done)
	}
	want := map[string]any{"name": "Jane", "age": json.Number("42"), "agree": true, "color": "green", "tags": []string{"a", "c"}}
	if !reflect.DeepEqual(out.Content, want) {
		t.Fatalf("content %#v\nwant %#v", out.Content, want)
	}
}

func TestModelIntegerRefusesFraction(t *testing.T) {
	m := newTestModel(t, formSchema)
	press(m, "Jane", "<enter>", "1.5", "<enter>")
	if m.cur.f.Key != "score" {
		t.Fatalf("focus on %q", m.cur.f.Key)
	}
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "✗ not a whole number") {
		t.Fatalf("no error shown on leaving the field:\n%s", view)
	}
	// Going on to the end: submit lists every error and goes to the first.
	press(m, "<enter>", "<enter>", "<enter>", "<enter>", "<enter>")
	if m.reviewing {
		t.Fatal("review opened with an invalid field")
	}
	if m.cur.f.Key != "age" || !strings.Contains(ansi.Strip(m.View()), "1 field needs attention") {
		t.Fatalf("focus %q; view:\n%s", m.cur.f.Key, ansi.Strip(m.View()))
	}
	press(m, "<backspace>", "<backspace>", "<backspace>", "7", "<enter>")
	press(m, "<enter>", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>")
	out, done := m.Done()
	if !done || out.Content["age"] != json.Number("7") {
		t.Fatalf("outcome %+v", out)
	}
}

func TestModelGrace(t *testing.T) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := NewModel(mustParse(t, formSchema), Header{}, Options{Now: c.now, Grace: 400 * time.Millisecond})
	m.Init()
	c.t = c.t.Add(100 * time.Millisecond)
	press(m, "x", "<ctrl+d>", "<esc>")
	m.Update(tea.PasteMsg{Content: "pasted"})
	if _, done := m.Done(); done || m.Dirty() {
		t.Fatal("keys inside the grace period were not ignored")
	}
	c.t = c.t.Add(400 * time.Millisecond)
	m.Update(tea.PasteMsg{Content: "pasted"})
	if d := m.Draft(); d["name"] != "pasted" {
		t.Fatalf("paste after the grace period ignored: %#v", d)
	}
}

func TestModelDecline(t *testing.T) {
	tests := []struct {
		name string
		keys []string
	}{
		{"ctrl+x on an untouched form", []string{"<ctrl+x>"}},
		{"ctrl+d on an untouched form (an empty field: readline's end of input)", []string{"<ctrl+d>"}},
		{"ctrl+x after typing asks first", []string{"ab", "<ctrl+x>", "y"}},
		{"ctrl+d in review asks first", []string{"Jane", "<enter>", "1", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>", "<ctrl+d>", "y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, formSchema)
			press(m, tt.keys[:len(tt.keys)-1]...)
			if _, done := m.Done(); done && len(tt.keys) > 1 {
				t.Fatalf("declined before the last key %q", tt.keys[len(tt.keys)-1])
			}
			press(m, tt.keys[len(tt.keys)-1])
			out, done := m.Done()
			if !done || out.Action != question.Decline || out.Content != nil {
				t.Errorf("outcome %+v done %v", out, done)
			}
		})
	}
}

// Ctrl+D in a text field with text deletes forward, as in readline, and
// never declines; the discard question names what y will do.
func TestModelCtrlDDeletesInText(t *testing.T) {
	m := newTestModel(t, formSchema)
	press(m, "Jane", "<home>", "<ctrl+d>")
	if _, done := m.Done(); done {
		t.Fatal("ctrl+d in a text field with text declined")
	}
	if d := m.Draft()["name"]; d != "ane" {
		t.Fatalf("ctrl+d did not delete forward: %#v", d)
	}
	press(m, "<ctrl+x>")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Discard what you typed and decline?") {
		t.Fatalf("no question:\n%s", v)
	}
	press(m, "n")
	if _, done := m.Done(); done || m.confirming || m.Draft()["name"] != "ane" {
		t.Fatal("n did not go back with the text kept")
	}
}

func TestModelEscConfirm(t *testing.T) {
	// Untouched form: Esc cancels at once.
	m := newTestModel(t, formSchema)
	press(m, "<esc>")
	if out, done := m.Done(); !done || out.Action != question.Cancel {
		t.Fatalf("clean Esc: %+v %v", out, done)
	}
	// Typed something: Esc asks; n goes back; Esc then y cancels.
	m = newTestModel(t, formSchema)
	press(m, "Jo", "<esc>")
	if _, done := m.Done(); done || !m.confirming {
		t.Fatal("Esc on a dirty form did not ask")
	}
	if !strings.Contains(ansi.Strip(m.View()), "Discard what you typed and cancel?") {
		t.Fatalf("no question shown:\n%s", ansi.Strip(m.View()))
	}
	press(m, "n")
	if _, done := m.Done(); done || m.confirming {
		t.Fatal("n did not go back")
	}
	press(m, "<esc>", "y")
	if out, done := m.Done(); !done || out.Action != question.Cancel {
		t.Fatalf("Esc y: %+v %v", out, done)
	}
	if d := m.Draft(); d["name"] != "Jo" {
		t.Fatalf("draft lost: %#v", d)
	}
}

func TestModelReviewBackToEdit(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`)
	press(m, "one", "<enter>", "two", "<enter>")
	if !m.reviewing {
		t.Fatal("no review")
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{"Review your answers", `a: "one"`, `b: "two"`, "enter send"} {
		if !strings.Contains(view, want) {
			t.Fatalf("review lacks %q:\n%s", want, view)
		}
	}
	press(m, "<shift+tab>")
	if m.reviewing || m.cur.f.Key != "b" {
		t.Fatal("shift+tab did not return to the last field")
	}
	press(m, "<backspace>", "<backspace>", "<backspace>", "<shift+tab>", "!", "<enter>", "<enter>")
	press(m, "<backspace>") // back from review once more, then forward again
	if m.reviewing {
		t.Fatal("backspace did not leave the review")
	}
	press(m, "<enter>", "<enter>")
	out, _ := m.Done()
	want := map[string]any{"a": "one!"}
	if out.Action != question.Accept || !reflect.DeepEqual(out.Content, want) {
		t.Fatalf("outcome %+v", out)
	}
}

func TestModelDefaultsPrefilled(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"name":{"type":"string","default":"John Doe"},
		"age":{"type":"integer","default":30},
		"score":{"type":"number","default":95.5},
		"status":{"type":"string","enum":["active","inactive","pending"],"default":"pending"},
		"verified":{"type":"boolean","default":true},
		"tags":{"type":"array","items":{"enum":["x","y"]},"default":["y"]}}}`)
	if m.Dirty() {
		t.Fatal("defaults count as typed")
	}
	press(m, "<enter>", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>", "<enter>")
	out, _ := m.Done()
	want := map[string]any{"name": "John Doe", "age": json.Number("30"), "score": json.Number("95.5"), "status": "pending", "verified": true, "tags": []string{"y"}}
	if out.Action != question.Accept || !reflect.DeepEqual(out.Content, want) {
		t.Fatalf("content %#v", out.Content)
	}
}

func TestModelOtherShape(t *testing.T) {
	schema := `{"type":"object","properties":{
		"question_0":{"type":"string","title":"Library?","oneOf":[{"const":"date-fns","title":"date-fns"},{"const":"dayjs","title":"dayjs"}]},
		"question_0_custom":{"type":"string","title":"Other"}}}`
	tests := []struct {
		name string
		keys []string
		want map[string]any
	}{
		{"pick an option", []string{"<down>", "<enter>", "<enter>"}, map[string]any{"question_0": "date-fns"}},
		{"write your own", []string{"<up>", "<enter>", "luxon", "<enter>", "<enter>"}, map[string]any{"question_0_custom": "luxon"}},
		{"no answer", []string{"<enter>", "<enter>"}, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, schema)
			press(m, tt.keys...)
			out, done := m.Done()
			if !done || out.Action != question.Accept || !reflect.DeepEqual(out.Content, tt.want) {
				t.Fatalf("outcome %+v done %v; view:\n%s", out, done, ansi.Strip(m.View()))
			}
		})
	}
	// With the agent's own "other" option, it is sent along with the text.
	m := newTestModel(t, `{"type":"object","properties":{
		"color":{"type":"string","oneOf":[{"const":"red"},{"const":"other","title":"Other (please specify)"}]},
		"color_custom":{"type":"string"}},"required":["color"]}`)
	press(m, "<down>", "<enter>", "<enter>")
	if m.reviewing || m.cur.f.Key != "color_custom" {
		t.Fatal("empty companion accepted")
	}
	press(m, "teal", "<enter>", "<enter>")
	out, _ := m.Done()
	if want := map[string]any{"color": "other", "color_custom": "teal"}; !reflect.DeepEqual(out.Content, want) {
		t.Fatalf("content %#v", out.Content)
	}
}

func TestModelRequiredSelectAndFilter(t *testing.T) {
	var opts []string
	for _, c := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"} {
		opts = append(opts, `"`+c+`"`)
	}
	m := newTestModel(t, `{"type":"object","properties":{"w":{"type":"string","enum":[`+strings.Join(opts, ",")+`]}},"required":["w"]}`)
	press(m, "/", "hot", "<enter>")
	if m.cur.isFiltering() {
		t.Fatal("enter did not end filtering")
	}
	press(m, "<enter>", "<enter>")
	out, _ := m.Done()
	if out.Content["w"] != "hotel" {
		t.Fatalf("content %#v; view:\n%s", out.Content, ansi.Strip(m.View()))
	}
	// Esc while filtering clears the filter instead of cancelling.
	m = newTestModel(t, `{"type":"object","properties":{"w":{"type":"string","enum":[`+strings.Join(opts, ",")+`]}}}`)
	press(m, "/", "x", "<esc>")
	if _, done := m.Done(); done {
		t.Fatal("esc while filtering cancelled the form")
	}
}

func TestModelOptionalBoolean(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{"b":{"type":"boolean"},"c":{"type":"boolean"}}}`)
	press(m, "<down>", "<down>", "<enter>", "<enter>", "<enter>")
	out, _ := m.Done()
	if want := map[string]any{"b": false}; !reflect.DeepEqual(out.Content, want) {
		t.Fatalf("content %#v", out.Content)
	}
}

func TestModelNoFields(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{}}`)
	press(m, "<enter>", "<enter>")
	out, done := m.Done()
	if !done || out.Action != question.Accept || len(out.Content) != 0 {
		t.Fatalf("outcome %+v", out)
	}
}

// The "N fields need attention" line follows the user's fixes: it counts
// down as fields are corrected and goes away with the last one.
func TestModelAttentionLineCountsDown(t *testing.T) {
	m := newTestModel(t, `{"type":"object","properties":{
		"a":{"type":"string","title":"A"},"b":{"type":"string","title":"B"}},"required":["a","b"]}`)
	press(m, "<enter>", "<enter>")
	if !strings.Contains(ansi.Strip(m.View()), "2 fields need attention") {
		t.Fatalf("view:\n%s", ansi.Strip(m.View()))
	}
	press(m, "x")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "1 field needs attention") {
		t.Fatalf("after fixing one:\n%s", v)
	}
	press(m, "<enter>", "y")
	if v := ansi.Strip(m.View()); strings.Contains(v, "need attention") || strings.Contains(v, "needs attention") {
		t.Fatalf("after fixing both:\n%s", v)
	}
}
