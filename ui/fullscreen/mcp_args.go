package fullscreen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/theme"
)

// argsForm is a tool's arguments as a form: the same forms as the
// server's elicitations, built from the tool's inputSchema when it is in
// the restricted subset.
type argsForm struct {
	tool mcpconn.Tool
	form *forms.Model
	th   *theme.Theme
}

// newArgsForm builds the form, or says why the schema needs the JSON
// editor instead.
func newArgsForm(t mcpconn.Tool, th *theme.Theme) (*argsForm, error) {
	s, err := schema.ParseSchema(t.InputSchema)
	if err != nil {
		return nil, err
	}
	msg := "The arguments for " + t.Display() + "."
	if t.Description != "" {
		msg += "\n" + t.Description
	}
	h := forms.Header{Agent: "elicit", ToolCall: t.Display(), Message: msg, Index: 1, Total: 1}
	return &argsForm{tool: t, th: th, form: forms.NewModel(s, h, forms.Options{Theme: th, Grace: noGrace})}, nil
}

func (a *argsForm) update(msg tea.Msg) tea.Cmd { return a.form.Update(msg) }

func (a *argsForm) view(width, height int) string {
	a.form.SetSize(width-4, height-2)
	return a.th.Modal.Width(width).Render(a.form.View())
}

// jsonEditor is a tool's arguments as JSON, for schemas richer than a
// form (nested objects, arrays of objects…): checked against the tool's
// inputSchema before it is sent, every error shown at once.
type jsonEditor struct {
	tool     mcpconn.Tool
	ta       textarea.Model
	resolved *jsonschema.Resolved // nil when the schema itself does not resolve
	why      string               // why not a form
	errs     []string
	th       *theme.Theme
}

func newJSONEditor(t mcpconn.Tool, why string, draft string, th *theme.Theme) *jsonEditor {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "  "
	ta.CharLimit = 1 << 20
	ta.MaxHeight = 0
	if draft == "" {
		draft = skeleton(t.InputSchema)
	}
	ta.SetValue(draft)
	ta.Focus()
	e := &jsonEditor{tool: t, ta: ta, why: why, th: th}
	// The validator recurses along the schema's $ref without a bound: a
	// loop would overflow the stack, which no recover catches. The schema
	// is walked first (with bounds and a visited set).
	if err := schema.CheckRefs(t.InputSchema); err != nil {
		e.errs = []string{"the tool's schema cannot be checked, so the arguments are checked as JSON only: " + sanitize.Summary(err.Error(), 200)}
		return e
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(t.InputSchema, &s); err == nil {
		if r, err := s.Resolve(nil); err == nil {
			e.resolved = r
		} else {
			e.errs = []string{"the tool's schema does not resolve, so the arguments are checked as JSON only: " + sanitize.Summary(err.Error(), 200)}
		}
	}
	return e
}

func (e *jsonEditor) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	return cmd
}

// check returns the arguments when they are a JSON object that meets the
// schema; otherwise it keeps the errors to show.
func (e *jsonEditor) check() (json.RawMessage, bool) {
	text := strings.TrimSpace(e.ta.Value())
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		e.errs = []string{"not valid JSON: " + err.Error()}
		return nil, false
	}
	if dec.More() {
		e.errs = []string{"not valid JSON: more after the object"}
		return nil, false
	}
	if _, ok := v.(map[string]any); !ok {
		e.errs = []string{"the arguments must be a JSON object"}
		return nil, false
	}
	if e.resolved != nil {
		var plain any
		_ = json.Unmarshal([]byte(text), &plain) // the validator reads float64 numbers
		if err := e.resolved.Validate(plain); err != nil {
			e.errs = strings.Split(sanitize.Text(err.Error()), "\n")
			return nil, false
		}
	}
	e.errs = nil
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(text)); err != nil {
		e.errs = []string{err.Error()}
		return nil, false
	}
	return json.RawMessage(b.Bytes()), true
}

func (e *jsonEditor) view(width, height int) string {
	th := e.th
	inner := max(width-4, 10)
	head := []string{
		th.ModalTitle.Render("Arguments for " + e.tool.Display() + " (JSON)"),
		th.Muted.Render(wrap("Not a form: "+e.why+". Edit the JSON; it is checked against the tool's schema before it is sent.", inner)),
	}
	var foot []string
	for _, er := range e.errs {
		foot = append(foot, th.Danger.Render(wrap("✗ "+er, inner)))
	}
	foot = append(foot, th.Key.Render("ctrl+s")+th.KeyHelp.Render(" check and run · ")+th.Key.Render("esc")+th.KeyHelp.Render(" back (the draft is kept)"))
	used := lineCount(head) + lineCount(foot) + 2
	e.ta.SetWidth(inner)
	e.ta.SetHeight(max(height-used-2, 3))
	body := strings.Join(head, "\n") + "\n\n" + e.ta.View() + "\n\n" + strings.Join(foot, "\n")
	return th.Modal.Width(width).Render(body)
}

func lineCount(ls []string) int {
	n := 0
	for _, l := range ls {
		n += strings.Count(l, "\n") + 1
	}
	return n
}

// skeleton is a starting object: each top-level property in the schema's
// order, with its default or an empty value of its type.
func skeleton(raw json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type    any             `json:"type"`
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil || len(s.Properties) == 0 {
		return "{}"
	}
	var b strings.Builder
	b.WriteString("{\n")
	order := propertyOrder(raw)
	for i, k := range order {
		p := s.Properties[k]
		val := string(p.Default)
		if val == "" {
			switch fmt.Sprint(p.Type) {
			case "string":
				val = `""`
			case "object":
				val = "{}"
			case "array":
				val = "[]"
			case "boolean":
				val = "false"
			case "number", "integer":
				val = "0"
			default:
				val = "null"
			}
		}
		key, _ := json.Marshal(k)
		fmt.Fprintf(&b, "  %s: %s", key, val)
		if i < len(order)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}")
	return b.String()
}

// propertyOrder lists the keys of the schema's top-level "properties" in
// the order the server wrote them (a Go map would lose it).
func propertyOrder(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		if k, _ := t.(string); k != "properties" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil
		}
		var keys []string
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return keys
			}
			k, _ := t.(string)
			keys = append(keys, k)
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return keys
			}
		}
		return keys
	}
	return nil
}

// mcpTool is a tool of the server's list.
type mcpTool = mcpconn.Tool

// wrap wraps s to width (words, and words longer than a line), never
// cutting it.
func wrap(s string, width int) string { return ansi.Wrap(s, max(width, 10), "") }
