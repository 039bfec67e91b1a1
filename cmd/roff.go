package cmd

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// roff is a man(7) page being written. fang's page (mango) sorts the
// flags, spells -c as "--c", keeps pflag's backquotes and has no room for
// EXIT STATUS or ENVIRONMENT; muesli/roff, under it, neither wraps lines
// nor escapes a leading apostrophe, and reads a line starting with * as a
// list. So the few roff rules a page needs are kept here: text escaped
// (backslash, minus, non-ASCII as \[uXXXX]), filled lines of at most 80
// bytes (mandoc -T lint's style), a control character at the start of a
// text line neutralised with \&.
type roff struct{ b strings.Builder }

// lineWidth is the longest text line the page holds.
const lineWidth = 80

// esc makes plain text roff text.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case r < ' ' || r == utf8.RuneError:
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		}
	}
	return b.String()
}

// bold and italic are plain text in that font.
func bold(s string) string   { return `\fB` + esc(s) + `\fR` }
func italic(s string) string { return `\fI` + esc(s) + `\fR` }

// macro writes a request line; each argument is roff text, quoted when
// it holds a space.
func (p *roff) macro(name string, args ...string) {
	p.b.WriteString("." + name)
	for _, a := range args {
		if strings.ContainsAny(a, " \t") || a == "" {
			a = `"` + strings.ReplaceAll(a, `"`, `\(dq`) + `"`
		}
		p.b.WriteString(" " + a)
	}
	p.b.WriteByte('\n')
}

// fill writes roff text as filled text lines, broken at spaces.
func (p *roff) fill(text string) {
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > lineWidth {
			p.textLine(line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		p.textLine(line)
	}
}

// textLine writes one text line.
func (p *roff) textLine(s string) {
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	p.b.WriteString(s + "\n")
}

// paragraphs writes plain text whose paragraphs are separated by blank
// lines, the first starting where the page is.
func (p *roff) paragraphs(s string) {
	for i, para := range strings.Split(strings.TrimSpace(s), "\n\n") {
		if i > 0 {
			p.macro("PP")
		}
		p.fill(esc(para))
	}
}

// example writes lines as they are, in a literal block.
func (p *roff) example(lines string) {
	p.macro("PP")
	p.macro("RS", "4")
	p.macro("nf")
	for _, l := range strings.Split(strings.Trim(lines, "\n"), "\n") {
		if l == "" {
			p.macro("sp")
			continue
		}
		p.textLine(esc(l))
	}
	p.macro("fi")
	p.macro("RE")
}

// String is the page.
func (p *roff) String() string { return p.b.String() }
