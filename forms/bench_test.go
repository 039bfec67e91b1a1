package forms

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/theme"
)

// benchModel builds a Model the way the root model does (NewModel, Init,
// SetSize) and draws it once; the clock is past the grace period.
func benchModel(s *schema.Schema) *Model {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := NewModel(s, Header{Agent: "bench", Message: "Please answer."}, Options{Theme: theme.New(true, false), Now: c.now})
	m.Init()
	m.SetSize(100, 40)
	_ = m.View()
	c.t = c.t.Add(time.Second)
	return m
}

// BenchmarkNewModel50Fields is the form build alone: NewModel, Init and
// the first View for a parsed 50-field schema.
func BenchmarkNewModel50Fields(b *testing.B) {
	s := mustParse(b, string(testkit.SchemaWithFields(50)))
	for b.Loop() {
		benchModel(s)
	}
}

// BenchmarkParseAndBuild50Fields is a 50-field request from raw JSON to
// the first View: the "parses and builds in under 1 ms" target.
func BenchmarkParseAndBuild50Fields(b *testing.B) {
	raw := testkit.SchemaWithFields(50)
	for b.Loop() {
		s, err := schema.ParseSchema(raw)
		if err != nil {
			b.Fatal(err)
		}
		benchModel(s)
	}
}

// BenchmarkParseAndBuild5000Options is a one-select request with 5,000
// options from raw JSON to the first View.
func BenchmarkParseAndBuild5000Options(b *testing.B) {
	raw := []byte(selectSchema(5000))
	for b.Loop() {
		s, err := schema.ParseSchema(raw)
		if err != nil {
			b.Fatal(err)
		}
		benchModel(s)
	}
}

// BenchmarkFilterKeystroke5000Options is one keystroke in a 5,000-option
// select whose filter is open and matches every option ("op" of
// "option-N"), followed by the View that shows it. Keystrokes alternate
// between typing "t" and deleting it, so the filter stays the same size.
func BenchmarkFilterKeystroke5000Options(b *testing.B) {
	m := benchModel(mustParse(b, selectSchema(5000)))
	press(m, "/", "op")
	if !m.cur.isFiltering() {
		b.Fatal("the select is not filtering after /")
	}
	keys := [2]string{"t", "<backspace>"}
	i := 0
	for b.Loop() {
		press(m, keys[i&1])
		i++
		_ = m.View()
	}
	if v := m.View(); !strings.Contains(v, "option-") {
		b.Fatalf("the filtered list shows no option:\n%s", v)
	}
}

// selectSchema is one single-select property with n enum options.
func selectSchema(n int) string {
	opts := make([]string, n)
	for i := range opts {
		opts[i] = fmt.Sprintf("%q", fmt.Sprintf("option-%d", i))
	}
	return `{"type":"object","properties":{"pick":{"type":"string","enum":[` + strings.Join(opts, ",") + `]}}}`
}

func BenchmarkModelView5000Options(b *testing.B) {
	opts := make([]string, 5000)
	for i := range opts {
		opts[i] = fmt.Sprintf("%q", fmt.Sprintf("option-%d", i))
	}
	s := mustParse(b, `{"type":"object","properties":{"pick":{"type":"string","enum":[`+strings.Join(opts, ",")+`]}}}`)
	m := NewModel(s, Header{Agent: "bench"}, Options{})
	m.Init()
	m.SetSize(80, 30)
	for b.Loop() {
		_ = m.View()
	}
}
