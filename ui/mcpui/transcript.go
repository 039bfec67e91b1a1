package mcpui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
)

// lineKind is how a transcript line is drawn.
type lineKind int

const (
	lineInfo lineKind = iota
	lineNotice
	lineError
	lineCall
	lineText // a tool's text, as the server wrote it (sanitized)
	lineData // structured content
	lineNote // content that is not shown (an image, a link)
	lineLog
	lineStderr
	lineOK
)

type line struct {
	kind lineKind
	text string // safe to draw: everything from the server was sanitized
}

// transcript is what happened, newest last. Every string added is already
// sanitized, or is sanitized here.
type transcript struct {
	lines  []line
	scroll int // lines scrolled up from the bottom; 0 follows the end
	// instructions are the server's, whole, when the screen showed only
	// their start: plain keeps them.
	instructions string
}

// maxLines bounds what the transcript holds: a server that prints without
// end cannot make elicit hold more.
const maxLines = 5000

func (t *transcript) add(k lineKind, text string) {
	for _, l := range strings.Split(text, "\n") {
		t.lines = append(t.lines, line{k, l})
	}
	if over := len(t.lines) - maxLines; over > 0 {
		t.lines = append(t.lines[:0:0], t.lines[over:]...)
	}
}

func (t *transcript) info(s string) { t.add(lineInfo, s) }

func (t *transcript) notice(s string, isErr bool) {
	if isErr {
		t.add(lineError, s)
		return
	}
	t.add(lineNotice, s)
}

// result adds a call's result: its text, structured content, and a note
// for each thing that is not text (images, audio, links, resources).
func (t *transcript) result(res *mcp.CallToolResult, took time.Duration) {
	textKind := lineText
	if res.IsError {
		textKind = lineError
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			t.add(textKind, sanitize.Text(capText(c.Text)))
		case *mcp.ImageContent:
			t.add(lineNote, fmt.Sprintf("[an image: %s, %d bytes; not shown]", sanitize.Line(c.MIMEType), len(c.Data)))
		case *mcp.AudioContent:
			t.add(lineNote, fmt.Sprintf("[audio: %s, %d bytes; not played]", sanitize.Line(c.MIMEType), len(c.Data)))
		case *mcp.ResourceLink:
			name := c.Title
			if name == "" {
				name = c.Name
			}
			t.add(lineNote, fmt.Sprintf("→ %s <%s>", sanitize.Line(name), urlcheck.Visible(c.URI)))
			if c.Description != "" {
				t.add(lineNote, "  "+sanitize.Summary(c.Description, 200))
			}
		case *mcp.EmbeddedResource:
			if r := c.Resource; r != nil {
				t.add(lineNote, fmt.Sprintf("[a resource: %s %s]", urlcheck.Visible(r.URI), sanitize.Line(r.MIMEType)))
				if r.Text != "" {
					t.add(textKind, sanitize.Text(capText(r.Text)))
				} else if len(r.Blob) > 0 {
					t.add(lineNote, fmt.Sprintf("[%d bytes of data; not shown]", len(r.Blob)))
				}
			}
		default:
			t.add(lineNote, "[content of another kind; not shown]")
		}
	}
	if res.StructuredContent != nil {
		b, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err == nil {
			t.add(lineNote, "structured content:")
			t.add(lineData, sanitize.Text(string(b)))
		}
	}
	if res.IsError {
		t.add(lineError, "✗ the tool reported an error")
		return
	}
	t.add(lineOK, fmt.Sprintf("✓ done in %s", took.Round(10*time.Millisecond)))
}

// maxText is how much of one text block the screen shows.
const maxText = 256 << 10

// capText cuts a text block to maxText bytes, saying so.
func capText(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… (%d more bytes not shown)", len(s)-cut)
}

// style is how a line of kind k is drawn.
func style(th *theme.Theme, k lineKind) func(...string) string {
	switch k {
	case lineNotice:
		return th.Notice.Render
	case lineError:
		return th.Danger.Render
	case lineCall:
		return th.ToolLabel.Render
	case lineInfo, lineLog, lineStderr:
		return th.Muted.Render
	case lineNote:
		return th.Secondary.Render
	case lineOK:
		return th.Success.Render
	}
	return th.Base.Render
}

// render draws the last height lines (less the scroll) at width.
func (t *transcript) render(th *theme.Theme, width, height int) []string {
	if height <= 0 {
		return nil
	}
	var rows []string
	// Wrap from the end until the screen is full (plus the scroll).
	need := height + t.scroll
	for i := len(t.lines) - 1; i >= 0 && len(rows) < need; i-- {
		l := t.lines[i]
		wrapped := strings.Split(ansi.Wrap(l.text, max(width, 10), ""), "\n")
		st := style(th, l.kind)
		for j := len(wrapped) - 1; j >= 0; j-- {
			rows = append(rows, st(wrapped[j]))
		}
	}
	if t.scroll > len(rows)-height {
		t.scroll = max(len(rows)-height, 0)
	}
	// rows are newest first: take the window and turn it over.
	start := min(t.scroll, len(rows))
	end := min(start+height, len(rows))
	win := rows[start:end]
	out := make([]string, 0, height)
	for i := len(win) - 1; i >= 0; i-- {
		out = append(out, win[i])
	}
	return out
}

// plain is the whole transcript as text.
func (t *transcript) plain() string {
	var b strings.Builder
	if t.instructions != "" {
		b.WriteString("server instructions:\n" + t.instructions + "\n\n")
	}
	for _, l := range t.lines {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}
