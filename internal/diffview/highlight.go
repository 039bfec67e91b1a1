package diffview

import (
	"image/color"
	"path/filepath"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/theme"
)

// painter colours one diff: chroma's lexer for the file's name and its
// style for the background, over a tint for inserted and deleted lines.
// Styles are cached per token type and line kind for the call.
type painter struct {
	lexer   chroma.Lexer // nil: no syntax colour (NO_COLOR)
	style   *chroma.Style
	bg      [3]color.Color // by kind: delete, insert, equal
	noColor bool
	cache   map[paintKey]string // SGR prefix by token type and kind
}

type paintKey struct {
	t    chroma.TokenType
	kind kind
}

// kind is a row's part in the diff.
type kind int

const (
	kDelete kind = iota
	kInsert
	kEqual
)

func newPainter(path string, th *theme.Theme) *painter {
	p := &painter{noColor: th == nil || th.NoColor, cache: map[paintKey]string{}}
	if p.noColor {
		return p
	}
	l := lexers.Match(filepath.Base(path))
	if l == nil {
		l = lexers.Fallback
	}
	p.lexer = chroma.Coalesce(l)
	name := "github"
	if th.IsDark {
		name = "github-dark"
	}
	p.style = styles.Get(name)
	ld := lipgloss.LightDark(th.IsDark)
	p.bg[kDelete] = ld(lipgloss.Color("#FFEBE9"), lipgloss.Color("#4A1F24"))
	p.bg[kInsert] = ld(lipgloss.Color("#DAFBE1"), lipgloss.Color("#1B3A26"))
	return p
}

// paint returns text (one sanitized line) with syntax colour on the
// background of its kind; without syntax, only the background.
func (p *painter) paint(text string, k kind, syntax bool) string {
	if p.noColor || text == "" {
		return text
	}
	if !syntax {
		return p.sgr(chroma.Text, k) + text + ansi.ResetStyle
	}
	it, err := p.lexer.Tokenise(nil, text)
	if err != nil {
		return p.sgr(chroma.Text, k) + text + ansi.ResetStyle
	}
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		v := strings.TrimSuffix(tok.Value, "\n") // some lexers end a line with one
		if v == "" {
			continue
		}
		b.WriteString(p.sgr(tok.Type, k))
		b.WriteString(v)
	}
	b.WriteString(ansi.ResetStyle)
	return b.String()
}

// pad fills a row's remaining width with its kind's background.
func (p *painter) pad(n int, k kind) string {
	if n <= 0 {
		return ""
	}
	if p.noColor || p.bg[k] == nil {
		return strings.Repeat(" ", n)
	}
	return p.sgr(chroma.Text, k) + strings.Repeat(" ", n) + ansi.ResetStyle
}

// sgr is the escape sequence that starts a token of type t on a row of
// kind k. Sequences, not lipgloss.Style.Render: a whole file of tokens
// is drawn when the diff is expanded, and Render costs far more.
func (p *painter) sgr(t chroma.TokenType, k kind) string {
	key := paintKey{t, k}
	if s, ok := p.cache[key]; ok {
		return s
	}
	st := ansi.NewStyle().Reset()
	if e := p.style.Get(t); e.Colour.IsSet() {
		st = st.ForegroundColor(lipgloss.Color(e.Colour.String()))
	}
	if p.bg[k] != nil {
		st = st.BackgroundColor(p.bg[k])
	}
	s := st.String()
	p.cache[key] = s
	return s
}
