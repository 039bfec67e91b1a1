package forms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

const sharedSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name"},
	"age":{"type":"integer","title":"Age"},
	"color":{"type":"string","title":"Colour","enum":["red","blue"]},
	"color_custom":{"type":"string"},
	"tags":{"type":"array","title":"Tags","items":{"enum":["a","b","c"]}},
	"ok":{"type":"boolean","title":"OK"},
	"notes":{"type":"array","title":"Notes","items":{"type":"string"}}
},"required":["name"]}`

// Values set from outside read back through Value and Draft, the widget
// built anew around them, whether or not the field was ever shown.
func TestSetValueFromOutside(t *testing.T) {
	m := newTestModel(t, sharedSchema)
	if m.Focused() != "name" {
		t.Fatalf("focused %q", m.Focused())
	}
	set := map[string]any{"name": "Ada", "age": json.Number("36"), "color_custom": "teal",
		"tags": []string{"a", "c"}, "ok": true, "notes": []string{"x", "y"}}
	for k, v := range set {
		if err := m.SetValue(k, v); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	for k, v := range set {
		if got := m.Value(k); !reflect.DeepEqual(got, v) {
			t.Errorf("%s: %#v, want %#v", k, got, v)
		}
	}
	if m.Value("color") != nil {
		t.Errorf("writing in Other left a choice: %#v", m.Value("color"))
	}
	if !strings.Contains(ansi.Strip(m.View()), "Ada") {
		t.Errorf("the focused field does not show the new value:\n%s", ansi.Strip(m.View()))
	}
	press(m, "!")
	if got := m.Value("name"); got != "Ada!" {
		t.Errorf("typing after SetValue gives %q", got)
	}
	if err := m.SetValue("nope", "x"); err != ErrNoField {
		t.Errorf("unknown key: %v", err)
	}
	m.SetValue("age", nil)
	if m.Value("age") != nil {
		t.Errorf("nil did not empty the field: %#v", m.Value("age"))
	}
}

func TestSetEditingMark(t *testing.T) {
	m := newTestModel(t, sharedSchema)
	m.SetEditing("age", "bob\x1b[31m")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "Age ✎ bob") || strings.Contains(v, "\x1b[31m") {
		t.Fatalf("mark missing or unsanitized:\n%q", v)
	}
	m.SetEditing("age", "")
	if strings.Contains(ansi.Strip(m.View()), "✎") {
		t.Fatal("the mark stayed")
	}
}
