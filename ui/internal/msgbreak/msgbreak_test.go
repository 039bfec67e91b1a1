package msgbreak

import (
	"io"
	"strings"
	"testing"
)

// The cases of the rule: a step is a chunk's id, or "|" for a tool call;
// want marks the chunks that start a new message.
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
	}
	for _, c := range cases {
		var r Rule
		var got []bool
		for _, s := range c.steps {
			if s == "|" {
				r.Interrupt()
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
