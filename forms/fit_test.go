package forms

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// longOptions is a multi-select (and a select) whose options have
// descriptions longer than a narrow form is wide.
func longOptions(n int) string {
	var opts []string
	for i := range n {
		opts = append(opts, fmt.Sprintf(`{"const":"o%d","title":"Option %d","description":"a description that goes on long enough to wrap and ends in END%d"}`, i, i, i))
	}
	o := strings.Join(opts, ",")
	return `{"type":"object","properties":{"tags":{"type":"array","title":"Tags","items":{"anyOf":[` + o + `]}}}}`
}

// TestLongOptionsWrap: a multi-select's options wrap whole at 60 and 40
// columns (huh clips them), a short list and a long (bigList) one alike.
func TestLongOptionsWrap(t *testing.T) {
	for _, n := range []int{3, 12} {
		for _, w := range []int{60, 40} {
			m := newTestModel(t, longOptions(n))
			m.SetSize(w, 0)
			view := ansi.Strip(m.View())
			for i := range min(n, 2) {
				if !strings.Contains(view, fmt.Sprintf("END%d", i)) {
					t.Fatalf("%d options at %d: option %d lost its end:\n%s", n, w, i, view)
				}
			}
			for _, l := range strings.Split(view, "\n") {
				if ansi.StringWidth(l) > w {
					t.Fatalf("%d options at %d: a line of %d: %q", n, w, ansi.StringWidth(l), l)
				}
			}
		}
	}
}

// TestFormKeepsHeadAndFocus: at every height down to 12 rows, the view
// fits, who asks, the title and the key line stay, and the focused field
// (a list made shorter when it must) shows with its cursor.
func TestFormKeepsHeadAndFocus(t *testing.T) {
	schema := `{"type":"object","title":"Profile","properties":{` +
		`"a":{"type":"string","title":"Alpha","description":"first"},` +
		`"b":{"type":"string","title":"Beta","enum":["b1","b2","b3","b4","b5","b6","b7","b8"]},` +
		`"c":{"type":"array","title":"Gamma","items":{"enum":["c1","c2","c3","c4","c5","c6","c7"]}},` +
		`"d":{"type":"integer","title":"Delta"},` +
		`"e":{"type":"string","title":"Epsilon","enum":["e1","e2","e3","e4","e5","e6","e7","e8","e9","e10","e11","e12"]}},"required":["b"]}`
	for _, sz := range [][2]int{{116, 36}, {76, 20}, {56, 12}} {
		m := newTestModel(t, schema)
		m.SetHeader(Header{Agent: "Demo", ToolCall: "Deploy", Message: strings.Repeat("A long message. ", 12)})
		m.SetSize(sz[0], sz[1])
		for _, f := range []string{"Alpha", "Beta", "Gamma", "Delta", "Epsilon"} {
			press(m, "<down>", "<down>") // move a list's cursor
			view := ansi.Strip(m.View())
			lines := strings.Split(view, "\n")
			if len(lines) > sz[1] {
				t.Fatalf("%v %s: %d lines:\n%s", sz, f, len(lines), view)
			}
			for _, want := range []string{"Demo asks", "Deploy", "Profile", "› " + f, "decline"} {
				if !strings.Contains(view, want) {
					t.Fatalf("%v %s: no %q:\n%s", sz, f, want, view)
				}
			}
			if f != "Alpha" && f != "Delta" && !strings.Contains(view, "> ") {
				t.Fatalf("%v %s: the list's cursor is not in view:\n%s", sz, f, view)
			}
			press(m, "<tab>")
		}
	}
}
