package forms

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
)

// errEndOfInput means the input ended before the form was answered.
var errEndOfInput = errors.New("input ended")

// RunAccessible asks the form as line-based prompts (huh's accessible
// mode, through Form.Run) with no full-screen redraw, for screen readers
// and plain terminals. Each field is asked in turn and re-asked until its
// answer is valid; then the answers are listed and the user sends them,
// goes through them again, declines or cancels. Input that ends before the
// form is answered cancels it. An empty answer keeps the prefilled value.
func RunAccessible(s *schema.Schema, h Header, in io.Reader, out io.Writer) (question.Outcome, error) {
	lr := &lineReader{r: in}
	th := cacheTheme(plainTheme())
	km := huh.NewDefaultKeyMap()
	entries := buildEntries(s)
	for _, e := range entries {
		for _, x := range []*entry{e, e.other} {
			if x != nil && x.f.Kind != schema.KindConst {
				x.build(km, th, false) // huh's widgets: accessible mode runs them
				titleWidget(x)
			}
		}
	}
	fmt.Fprintln(out, accessibleHeader(s, h))
	for {
		for _, e := range entries {
			if err := ask(e, lr, out); err != nil {
				return question.Outcome{Action: question.Cancel}, nil
			}
		}
		content := map[string]any{}
		fmt.Fprintln(out, "\nYour answers:")
		for _, e := range entries {
			for _, x := range []*entry{e, e.other} {
				if x == nil || (x.companion && !e.otherPicked()) {
					continue
				}
				v, _ := x.value()
				switch {
				case v != nil:
					content[x.f.Key] = v
				case x.f.SendNull:
					content[x.f.Key] = nil
				}
				fmt.Fprintf(out, "  %s: %s\n", x.f.Label(), reviewAnswer(x))
			}
		}
		const again question.Action = "" // not an outcome: the questions once more
		action := question.Accept
		sel := huh.NewSelect[question.Action]().Title("What now?").Options(
			huh.NewOption("Send these answers", question.Accept),
			huh.NewOption("Go through the questions again", again),
			huh.NewOption("Decline (tell the agent no)", question.Decline),
			huh.NewOption("Cancel (dismiss)", question.Cancel),
		).Value(&action)
		if err := runOne(sel.WithTheme(th), lr, out); err != nil {
			return question.Outcome{Action: question.Cancel}, nil
		}
		switch action {
		case question.Accept:
			if err := s.Check(content); err != nil {
				fmt.Fprintln(out, "✗ "+err.Error())
				continue
			}
			return question.Outcome{Action: question.Accept, Content: content}, nil
		case question.Decline, question.Cancel:
			return question.Outcome{Action: action}, nil
		}
	}
}

func accessibleHeader(s *schema.Schema, h Header) string {
	agent := sanitize.Line(h.Agent)
	if agent == "" {
		agent = "The agent"
	}
	var b strings.Builder
	b.WriteString(agent + " asks")
	if h.ToolCall != "" {
		b.WriteString(" (tool call: " + sanitize.Line(h.ToolCall) + ")")
	}
	if h.Total > 1 {
		fmt.Fprintf(&b, ", request %d of %d", h.Index, h.Total)
	}
	for _, t := range []string{sanitize.Line(s.Title), sanitize.Text(h.Message), sanitize.Text(s.Description)} {
		if t = strings.TrimSpace(t); t != "" {
			b.WriteString("\n" + t)
		}
	}
	return b.String()
}

// plainTheme draws accessible prompts without escape codes: screen readers
// and pipes get plain text.
func plainTheme() huh.Theme {
	return huh.ThemeFunc(func(isDark bool) *huh.Styles {
		st := huh.ThemeBase(isDark)
		for _, fs := range []*huh.FieldStyles{&st.Focused, &st.Blurred} {
			fs.Title = lipgloss.NewStyle()
			fs.SelectedOption = lipgloss.NewStyle()
			fs.ErrorMessage = lipgloss.NewStyle()
		}
		return st
	})
}

// titleWidget gives a widget its prompt title, which accessible mode reads
// out with the prompt.
func titleWidget(e *entry) {
	t := e.f.Label()
	if e.f.Required {
		t += " (required)"
	}
	switch w := e.widget.(type) {
	case *huh.Input:
		w.Title(t + ":")
	case *huh.Select[string]:
		w.Title(t)
	case *huh.MultiSelect[string]:
		w.Title(t)
	case *huh.Confirm:
		w.Title(t)
	}
}

// ask asks one entry until its answer is valid, then its "Other" text when
// that was picked.
func ask(e *entry, lr *lineReader, out io.Writer) error {
	if e.f.Kind == schema.KindConst {
		fmt.Fprintf(out, "\n%s: %s\n", e.f.Label(), e.answerText())
		return nil
	}
	for {
		fmt.Fprintln(out)
		for _, l := range accessibleNotes(e) {
			fmt.Fprintln(out, l)
		}
		prev := e.text
		if err := runOne(e.widget, lr, out); err != nil {
			return err
		}
		if _, err := e.value(); err != nil {
			fmt.Fprintln(out, "✗ "+err.Error())
			e.text = prev // Enter must not keep the rejected text
			continue
		}
		if e.other == nil || !e.otherPicked() {
			return nil
		}
		for {
			if err := ask(e.other, lr, out); err != nil {
				return err
			}
			if strings.TrimSpace(e.other.text) != "" {
				return nil
			}
			fmt.Fprintln(out, "✗ write your answer, or go back and pick an option")
		}
	}
}

// accessibleNotes are the lines read before a field's prompt.
func accessibleNotes(e *entry) []string {
	f := e.f
	var out []string
	if d := strings.TrimSpace(sanitize.Text(f.Description)); d != "" {
		out = append(out, d)
	}
	if h := f.Hints(); len(h) > 0 {
		out = append(out, "("+strings.Join(h, "; ")+")")
	}
	if f.Secret {
		out = append(out, secretWarning)
	}
	for _, n := range f.Notes {
		out = append(out, "note: "+n)
	}
	if _, ok := e.widget.(*huh.Input); ok && e.text != "" {
		out = append(out, "Press Enter to keep: "+sanitize.Line(e.text))
	}
	if f.Kind == schema.KindList {
		out = append(out, "One value a line; an empty line ends the list.")
	}
	if p := f.PatternText(); p != "" && utf8.RuneCountInString(p) <= 60 {
		out = append(out, "Required format (ECMAScript pattern): "+p)
	}
	return out
}

// runOne runs one widget as a one-field accessible form.
func runOne(w huh.Field, lr *lineReader, out io.Writer) (err error) {
	defer func() {
		// huh v2.0.3's accessible Select indexes option -1 when the input
		// ends at its prompt: that is the end of input, not a crash.
		if r := recover(); r != nil {
			if !lr.eof {
				panic(r)
			}
			err = errEndOfInput
		}
	}()
	err = huh.NewForm(huh.NewGroup(w)).WithAccessible(true).WithInput(lr).WithOutput(out).WithShowHelp(false).Run()
	if lr.eof {
		return errEndOfInput
	}
	return err
}

// lineReader hands out input at most one line per Read. huh's accessible
// prompts wrap the reader in a new bufio.Scanner for every prompt, and a
// scanner that read ahead would swallow the next answers. It reads the
// underlying reader a byte at a time, so when RunAccessible returns the
// caller's reader stands right after the last answer (the next form in a
// session gets the rest). It also records when a prompt met the end of input
// with nothing left, which huh cannot report. Hand-written: no library does
// this.
type lineReader struct {
	r       io.Reader
	one     [1]byte
	sinceNL int
	eof     bool
}

func (l *lineReader) readByte() (byte, error) {
	if br, ok := l.r.(io.ByteReader); ok {
		return br.ReadByte()
	}
	for {
		n, err := l.r.Read(l.one[:])
		if n == 1 {
			return l.one[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// Read implements io.Reader.
func (l *lineReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		b, err := l.readByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			if l.sinceNL == 0 {
				l.eof = true
			}
			l.sinceNL = 0
			return 0, err
		}
		p[n] = b
		n++
		if b == '\n' {
			l.sinceNL = 0
			return n, nil
		}
		l.sinceNL++
	}
	return n, nil
}
