package forms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/theme"
)

// An optional yes/no field with no default is a three-way choice (no
// answer, yes, no): a remembered answer to it is prefilled, shown and
// sent, like any other field's (issue 35, item 8).
func TestPrefillOptionalBoolean(t *testing.T) {
	const s = `{"type":"object","properties":{"ok":{"type":"boolean","title":"Proceed?"}}}`
	for _, want := range []bool{true, false} {
		c := &clock{t: time.Unix(1_700_000_000, 0)}
		m := NewModel(mustParse(t, s), Header{Agent: "Demo"}, Options{
			Theme: theme.New(true, true), Now: c.now,
			Prefill: map[string]json.RawMessage{"ok": json.RawMessage(map[bool]string{true: "true", false: "false"}[want])},
		})
		m.Init()
		c.t = c.t.Add(time.Second)
		view := ansi.Strip(m.View())
		if !strings.Contains(view, "↺ from last time") || !strings.Contains(view, "> "+yesNo(want)) {
			t.Fatalf("remembered %v not shown as picked:\n%s", want, view)
		}
		press(m, "<enter>", "<enter>")
		out, done := m.Done()
		if !done || out.Action != question.Accept || !reflect.DeepEqual(out.Content, map[string]any{"ok": want}) {
			t.Fatalf("remembered %v: outcome %+v done %v; view:\n%s", want, out, done, ansi.Strip(m.View()))
		}
	}
}

// The note beside a remembered answer names the default as the form shows
// such a value: a yes/no as Yes or No (it read "default " with nothing
// after it), a number and a string as written.
func TestRememberedNoteNamesTheDefault(t *testing.T) {
	const s = `{"type":"object","properties":{
		"ok":{"type":"boolean","title":"Verified","default":true},
		"age":{"type":"integer","title":"Age","default":30}},"required":["ok"]}`
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := NewModel(mustParse(t, s), Header{Agent: "Demo"}, Options{
		Theme: theme.New(true, true), Now: c.now,
		Prefill: map[string]json.RawMessage{"ok": json.RawMessage("false"), "age": json.RawMessage("42")},
	})
	m.Init()
	c.t = c.t.Add(time.Second)
	view := ansi.Strip(m.View())
	for _, want := range []string{"Verified * ↺ from last time · default Yes", "Age ↺ from last time · default 30"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in the form:\n%s", want, view)
		}
	}
}
