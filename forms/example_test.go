package forms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question/schema"
)

// params are an elicitation/create's params as an ACP or MCP agent sends
// them: a message and a restricted schema.
const params = `{
  "mode": "form",
  "message": "Where should I deploy?",
  "requestedSchema": {
    "type": "object",
    "properties": {
      "env": {"type": "string", "title": "Environment", "enum": ["staging", "production"]},
      "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 9, "default": 2}
    },
    "required": ["env", "replicas"]
  }
}`

// A new Go program that shows a validated form from a schema: the form on
// stderr, the keys from stdin, the response JSON on stdout.
func Example() {
	s, h, err := forms.ParseRequest([]byte(params)) // elicitation/create params, or a bare schema
	if err != nil {
		log.Fatal(err) // a *schema.SchemaError names the property: answer -32602
	}
	out, err := forms.Run(context.Background(), s, h, forms.RunOptions{})
	if err != nil {
		log.Fatal(err) // no terminal
	}
	json.NewEncoder(os.Stdout).Encode(out) // {"action":"accept","content":{"env":"staging","replicas":2}}
}

// The accessible form: line-based prompts, one field at a time, for screen
// readers. Here the answers are scripted: "12" is refused (under the
// minimum), "42" is taken, and "1" sends.
func ExampleRun_accessible() {
	s, h, err := forms.ParseRequest([]byte(`{"message": "How old are you?", "requestedSchema": {"type": "object",
		"properties": {"age": {"type": "integer", "title": "Age", "minimum": 18}}, "required": ["age"]}}`))
	if err != nil {
		log.Fatal(err)
	}
	var screen strings.Builder
	out, err := forms.Run(context.Background(), s, h, forms.RunOptions{
		Accessible: true, In: strings.NewReader("12\n42\n1\n"), Out: &screen,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(screen.String(), "\n") {
		if strings.Contains(line, "✗") || strings.HasPrefix(line, "  Age") {
			fmt.Println(line)
		}
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	// Output:
	// ✗ below minimum 18
	//   Age: 42
	// {"action":"accept","content":{"age":42}}
}

// host is someone else's bubbletea program with a form in it: the form is
// a plain child model that the host calls.
type host struct{ form *forms.Model }

func (h host) Init() tea.Cmd { return h.form.Init() }

func (h host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		h.form.SetSize(ws.Width, ws.Height)
	}
	cmd := h.form.Update(msg)
	if _, done := h.form.Done(); done {
		return h, tea.Quit // a real host would go back to what it was doing
	}
	return h, cmd
}

func (h host) View() tea.View { return tea.NewView(h.form.View()) }

// A form inside another bubbletea program, fed by a real program reading
// keys: "12" then Enter is refused (Enter on the last field reviews only a
// valid form), two backspaces and "42" fix it, Enter reviews and Enter
// sends. Content is typed as the schema says: 42 is a JSON integer.
func ExampleNewModel() {
	s, err := schema.ParseSchema([]byte(`{"type": "object",
		"properties": {"age": {"type": "integer", "title": "Age", "minimum": 18}}, "required": ["age"]}`))
	if err != nil {
		log.Fatal(err)
	}
	form := forms.NewModel(s, forms.Header{Agent: "my-agent"}, forms.Options{Grace: -1}) // no grace: scripted keys
	keys := strings.NewReader("12\r\x7f\x7f42\r\r")
	p := tea.NewProgram(host{form}, tea.WithInput(keys), tea.WithOutput(io.Discard))
	if _, err := p.Run(); err != nil {
		log.Fatal(err)
	}
	out, done := form.Done()
	b, _ := json.Marshal(out)
	fmt.Println(done, string(b))
	// Output:
	// true {"action":"accept","content":{"age":42}}
}

// Driving Update with key messages directly, as a host's Update does: the
// form shows why a value is refused, and sends only a valid one.
func ExampleModel_Update() {
	s, err := schema.ParseSchema([]byte(`{"type": "object",
		"properties": {"age": {"type": "integer", "title": "Age", "minimum": 18}}, "required": ["age"]}`))
	if err != nil {
		log.Fatal(err)
	}
	m := forms.NewModel(s, forms.Header{Agent: "my-agent"}, forms.Options{Grace: -1})
	m.Init()
	press := func(keys ...tea.KeyPressMsg) {
		for _, k := range keys {
			m.Update(k) // a host would return the tea.Cmd
		}
	}
	enter, backspace := tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyBackspace}
	press(tea.KeyPressMsg{Code: '1', Text: "1"}, tea.KeyPressMsg{Code: '2', Text: "2"}, enter)
	_, done := m.Done()
	for _, line := range strings.Split(m.View(), "\n") {
		if strings.Contains(line, "✗") {
			fmt.Println("done:", done, "shown:", strings.TrimSpace(ansi.Strip(line)))
		}
	}
	press(backspace, backspace, tea.KeyPressMsg{Code: '4', Text: "4"}, tea.KeyPressMsg{Code: '2', Text: "2"}, enter, enter)
	out, done := m.Done()
	fmt.Println("done:", done, "outcome:", out.Action, out.Content)
	// Output:
	// done: false shown: ✗ below minimum 18
	// done: true outcome: accept map[age:42]
}

// Fill answers a form without a person (a script, a CI run): each field
// from the answers, then its default; what does not fit is cancelled with
// the reason (nobody said no).
func ExampleFill() {
	s, _, err := forms.ParseRequest([]byte(params))
	if err != nil {
		log.Fatal(err)
	}
	out, err := forms.Fill(s, map[string]json.RawMessage{"env": json.RawMessage(`"staging"`)})
	b, _ := json.Marshal(out)
	fmt.Println(string(b), err)

	out, err = forms.Fill(s, map[string]json.RawMessage{"env": json.RawMessage(`"moon"`), "replicas": json.RawMessage(`12`)})
	b, _ = json.Marshal(out)
	fmt.Println(string(b), err)
	// Output:
	// {"action":"accept","content":{"env":"staging","replicas":2}} <nil>
	// {"action":"cancel"} "env": "moon" is not one of the options; "replicas": above maximum 9
}

// A schema outside the restricted subset is refused with an error naming
// the property, for the -32602 answer.
func ExampleParseRequest() {
	_, _, err := forms.ParseRequest([]byte(`{"type": "object",
		"properties": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}}}`))
	var se *schema.SchemaError
	fmt.Println(errors.As(err, &se), se.Property, "-", err)
	// Output:
	// true address - property "address": nested objects are not supported
}
