package msgbreak

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// The cases of the rule: a step is a chunk's id, "|" for a permission
// request (an Interrupt), "tool:ID" for a tool call or an update to one,
// or "user" for a user message; want marks the chunks that start a new
// message.
func TestRule(t *testing.T) {
	cases := []struct {
		name  string
		steps []string
		want  []bool
	}{
		{"one message", []string{"a", "a", "a"}, []bool{false, false, false}},
		{"id changes", []string{"a", "b"}, []bool{false, true}},
		{"id to none (Claude Code's warning)", []string{"a", "a", ""}, []bool{false, false, true}},
		{"none to id", []string{"", "a"}, []bool{false, true}},
		{"no ids, no tool call", []string{"", ""}, []bool{false, false}},
		{"no ids, a tool call between (codex-acp)", []string{"", "|", ""}, []bool{false, true}},
		{"same id across a tool call", []string{"a", "|", "a"}, []bool{false, false}},
		{"a tool call before any text", []string{"|", "", ""}, []bool{false, false}},
		{"no ids, a new tool call between", []string{"", "tool:c1", ""}, []bool{false, true}},
		{"no ids, updates to it before the text", []string{"", "tool:c1", "tool:c1", ""}, []bool{false, true}},
		{"no ids, a late update to a finished call (codex-acp)", []string{"", "tool:c1", "", "tool:c1", ""}, []bool{false, true, false}},
		{"no ids, an update that came before its call", []string{"tool:c1", "", "tool:c2", ""}, []bool{false, true}},
		{"no ids, a user message between (-p)", []string{"", "user", ""}, []bool{false, true}},
		{"same id across a user message", []string{"a", "user", "a"}, []bool{false, true}},
		{"a user message before any text", []string{"user", "", ""}, []bool{false, false}},
	}
	for _, c := range cases {
		var r Rule
		var got []bool
		for _, s := range c.steps {
			switch id, tool := strings.CutPrefix(s, "tool:"); {
			case s == "|":
				r.Interrupt()
				continue
			case s == "user":
				r.Apart()
				continue
			case tool:
				r.Tool(id)
				continue
			}
			got = append(got, r.Chunk(s))
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: %v", c.name, got)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: chunk %d: break %v, want %v", c.name, i, got[i], c.want[i])
			}
		}
	}
	var r Rule
	r.Chunk("a")
	r.Reset()
	if r.Chunk("b") {
		t.Error("a break at the first chunk after Reset")
	}
	r.Tool("c1")
	r.Reset() // a new turn: the call is still known
	r.Chunk("")
	r.Tool("c1")
	if r.Chunk("") {
		t.Error("a late update to the last turn's call broke the message")
	}
}

// The tool call ids remembered are bounded: past the bound they are
// forgotten, and an update to a forgotten call counts as a new one.
func TestRuleForgets(t *testing.T) {
	var r Rule
	for i := range maxTools + 1 {
		r.Tool(fmt.Sprint(i))
	}
	if len(r.tools) > maxTools {
		t.Fatalf("%d ids kept", len(r.tools))
	}
	r.Chunk("")
	r.Tool("0")
	if !r.Chunk("") {
		t.Error("an update to a forgotten call was not a break")
	}
}

// A paragraph is one empty line after whatever came before.
func TestWriterParagraph(t *testing.T) {
	for _, c := range []struct{ before, want string }{
		{"", ""},
		{"text", "text\n\n"},
		{"text\n", "text\n\n"},
		{"text\n\n", "text\n\n"},
		{"\n", "\n\n"},
	} {
		var b strings.Builder
		w := &Writer{W: &b}
		io.WriteString(w, c.before)
		w.Paragraph()
		if b.String() != c.want {
			t.Errorf("after %q: %q, want %q", c.before, b.String(), c.want)
		}
	}
}
