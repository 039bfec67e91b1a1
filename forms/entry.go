package forms

import (
	"encoding/json"
	"strconv"
	"strings"

	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/schema"
)

// Sentinel choice values for the synthetic entries of a select. They start
// with NUL, which no agent's option value in a terminal form would carry;
// buildEntry checks anyway and falls back to a longer sentinel.
const (
	noAnswer    = "\x00no-answer"
	otherChoice = "\x00other"
)

// filterAbove is the option count above which a list is shown scrolled and
// the help line offers "/" to filter.
const filterAbove = 8

// entry is one question of the form: the schema field, the variables that
// hold its answer and the widget that edits them. The widget is built when
// the field is first focused (see widget.go): the values live here, so an
// entry that was never focused still has its default, its draft and its
// content.
type entry struct {
	f      *schema.Field
	widget huh.Field // nil until built, and for a list drawn by bigList
	list   *bigList  // a select or multi-select over filterAbove entries
	width  int       // the width last given to the widget
	height int       // the height a list widget was made, 0 for its own
	km     *huh.KeyMap
	hth    huh.Theme // what the widget was built with, to build it anew

	text string // Input: string, number, integer; Text: list
	// shown and raw: a default with characters that must not reach the
	// terminal is prefilled made visible (shown); left as it is, the
	// default itself (raw) is sent.
	shown, raw string
	suggest    []string // recent answers to a field of this name (history), newest first
	remembered bool     // prefilled from last time's answer, not the default
	choice     string   // Select: select, optional boolean
	picks      []string // MultiSelect
	yes        bool     // Confirm: required or defaulted boolean

	other     *entry // the companion text entry of an "Other" select
	companion bool   // this entry is an "Other" companion, drawn under its select
	err       error  // shown under the field
}

// buildEntries makes one entry per field, prefilled with its default;
// "Other" companions are attached to their select instead of standing
// alone. No widget is built yet.
func buildEntries(s *schema.Schema) []*entry {
	byKey := map[string]*entry{}
	var out []*entry
	for _, f := range s.Fields {
		e := &entry{f: f}
		byKey[f.Key] = e
		if f.OtherOf != "" {
			e.companion = true
		} else {
			out = append(out, e)
		}
	}
	for _, f := range s.Fields {
		if f.OtherKey != "" {
			byKey[f.Key].other = byKey[f.OtherKey]
		}
	}
	for _, f := range s.Fields {
		byKey[f.Key].prefill()
	}
	return out
}

// prefill sets the entry's variables to the field's default.
func (e *entry) prefill() { e.prefillFrom(e.f.Default, e.f.HasDefault) }

// prefillFrom sets the entry's variables to v (has: there is a value).
func (e *entry) prefillFrom(v any, has bool) {
	f := e.f
	switch {
	case f.Kind == schema.KindBoolean && (f.Required || f.HasDefault): // a yes/no (Confirm)
		if b, ok := v.(bool); ok {
			e.yes = b
		}
	case f.Kind == schema.KindBoolean: // no answer, yes or no (a three-way Select)
		e.choice = noAnswer
		if b, ok := v.(bool); ok && has {
			e.choice = strconv.FormatBool(b)
		}
	case f.Kind == schema.KindSelect:
		if has {
			e.choice, _ = v.(string)
		} else if items := e.selectItems(); len(items) > 0 {
			e.choice = items[0].value
		}
	case f.Kind == schema.KindMultiSelect:
		def, _ := v.([]string)
		e.picks = append([]string(nil), def...)
	case f.Kind == schema.KindList:
		def, _ := v.([]string)
		e.setDefault(strings.Join(def, "\n"), sanitize.Text)
	case f.Kind == schema.KindConst:
	default:
		if has {
			e.setDefault(defaultText(v), sanitize.Line)
		}
	}
}

// setDefault prefills the text with def, made safe to draw by clean; when
// that changed it, the unedited text stands for def itself.
func (e *entry) setDefault(def string, clean func(string) string) {
	e.text = clean(def)
	if e.text != def {
		e.shown, e.raw = e.text, def
	}
}

// input is the text the entry's value is read from: the default itself
// while the made-visible default is left as it was.
func (e *entry) input() string {
	if e.shown != "" && e.text == e.shown {
		return e.raw
	}
	return e.text
}

// selectItems are the entries of a select's list: "(no answer)" when it is
// optional, the options, and "Other…" when the select has a companion but
// no option of its own that means other.
func (e *entry) selectItems() []listItem {
	f := e.f
	items := make([]listItem, 0, len(f.Options)+2)
	if !f.Required {
		items = append(items, listItem{label: "(no answer)", value: noAnswer})
	}
	for _, o := range f.Options {
		label := optionLabel(o)
		if e.other != nil && o.Value == f.OtherValue {
			label += " — write your own below"
		}
		items = append(items, listItem{label: label, value: o.Value})
	}
	if e.other != nil && f.OtherValue == "" {
		items = append(items, listItem{label: "Other…", value: otherChoice})
	}
	return items
}

// multiItems are the entries of a multi-select's list.
func (e *entry) multiItems() []listItem {
	items := make([]listItem, len(e.f.Options))
	for i, o := range e.f.Options {
		items[i] = listItem{label: optionLabel(o), value: o.Value}
	}
	return items
}

// optionLabel is what a list shows for an option: the title, and the
// description after a dot when there is one, on one sanitized line.
func optionLabel(o schema.Option) string {
	l := sanitize.Line(o.Title)
	if o.Description != "" {
		l += " · " + sanitize.Line(o.Description)
	}
	return l
}

func placeholder(f *schema.Field) string {
	switch f.Format {
	case schema.FormatDate:
		return "YYYY-MM-DD"
	case schema.FormatDateTime:
		return "2026-05-01T09:30:00Z"
	case schema.FormatEmail:
		return "name@example.com"
	case schema.FormatURI:
		return "https://"
	}
	return ""
}

func defaultText(v any) string {
	switch d := v.(type) {
	case string:
		return d
	case json.Number:
		return d.String()
	}
	return ""
}

func contains(l []string, v string) bool {
	for _, s := range l {
		if s == v {
			return true
		}
	}
	return false
}

// otherPicked reports whether the select's current choice reveals its
// companion text input.
func (e *entry) otherPicked() bool {
	if e.other == nil {
		return false
	}
	return e.choice == otherChoice || (e.f.OtherValue != "" && e.choice == e.f.OtherValue)
}

// value returns the entry's typed value (nil: leave the key out) or the
// reason it is not acceptable.
func (e *entry) value() (any, error) {
	f := e.f
	switch {
	case f.Kind == schema.KindBoolean && (f.Required || f.HasDefault):
		return e.yes, nil
	case f.Kind == schema.KindBoolean:
		switch e.choice {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, nil
	case f.Kind == schema.KindSelect:
		switch e.choice {
		case noAnswer, otherChoice, "":
			if f.Required {
				return nil, schema.ErrRequired
			}
			return nil, nil
		}
		return f.Normalize(e.choice)
	case f.Kind == schema.KindMultiSelect:
		if len(e.picks) == 0 {
			if !f.Required {
				return nil, nil
			}
			if f.MinItems == nil {
				return nil, schema.ErrRequired
			}
		}
		return f.Normalize(append([]string(nil), e.picks...))
	case f.Kind == schema.KindList:
		if f.Required && len(schema.Lines(e.input())) == 0 {
			return nil, schema.ErrRequired
		}
	}
	return f.ParseInput(e.input())
}

// draft is the entry's value if it is valid, else what was typed.
func (e *entry) draft() any {
	if v, err := e.value(); err == nil {
		return v
	}
	switch e.f.Kind {
	case schema.KindString, schema.KindNumber, schema.KindInteger, schema.KindList:
		if strings.TrimSpace(e.text) != "" {
			return e.input()
		}
	}
	return nil
}

// check validates the entry and its visible companion and records the
// errors to show.
func (e *entry) check() bool {
	_, e.err = e.value()
	ok := e.err == nil
	if e.other != nil {
		e.other.err = nil
		if e.otherPicked() {
			if _, err := e.other.value(); err != nil {
				e.other.err = err
				ok = false
			} else if strings.TrimSpace(e.other.text) == "" {
				e.other.err = schema.ErrRequired
				ok = false
			}
		}
	}
	return ok
}

// takesText reports whether the entry is edited as text (an input or a
// list's text area), where readline's keys apply.
func (e *entry) takesText() bool {
	switch e.f.Kind {
	case schema.KindString, schema.KindNumber, schema.KindInteger, schema.KindList:
		return true
	}
	return false
}

// atBlankLine reports whether a list's text is empty or ends in an empty
// line, where Enter moves on instead of starting another line.
func (e *entry) atBlankLine() bool {
	return strings.TrimSpace(e.text) == "" || strings.HasSuffix(e.text, "\n")
}

// trimBlankLine drops the empty line Enter left at the end of a list.
func (e *entry) trimBlankLine() {
	if e.f.Kind == schema.KindList {
		e.text = strings.TrimRight(e.text, "\n")
		if ta, ok := e.widget.(*huh.Text); ok {
			ta.Value(&e.text)
		}
	}
}
