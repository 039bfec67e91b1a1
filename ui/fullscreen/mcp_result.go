package fullscreen

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// callResult adds a tool call's result: its text, structured content, and
// a note for each thing that is not text (images, audio, links,
// resources), all sanitized.
func (t *transcript) callResult(res *mcp.CallToolResult, took time.Duration) {
	textStyle := lineText
	if res.IsError {
		textStyle = lineFailed
	}
	parts := 0
	add := func(st lineStyle, text string) { // the result's parts, one under another
		t.lines(st, text).joined = parts > 0
		parts++
	}
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	flush := func() { // the notes so far, as one entry
		if len(notes) > 0 {
			add(lineNote, strings.Join(notes, "\n"))
			notes = nil
		}
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			flush()
			add(textStyle, sanitize.Text(capText(c.Text)))
		case *mcp.ImageContent:
			note(fmt.Sprintf("[an image: %s, %d bytes; not shown]", sanitize.Line(c.MIMEType), len(c.Data)))
		case *mcp.AudioContent:
			note(fmt.Sprintf("[audio: %s, %d bytes; not played]", sanitize.Line(c.MIMEType), len(c.Data)))
		case *mcp.ResourceLink:
			name := c.Title
			if name == "" {
				name = c.Name
			}
			note(fmt.Sprintf("→ %s <%s>", sanitize.Line(name), urlcheck.Visible(c.URI)))
			if c.Description != "" {
				note("  " + sanitize.Summary(c.Description, 200))
			}
		case *mcp.EmbeddedResource:
			r := c.Resource
			if r == nil {
				continue
			}
			note(fmt.Sprintf("[a resource: %s %s]", urlcheck.Visible(r.URI), sanitize.Line(r.MIMEType)))
			switch {
			case r.Text != "":
				flush()
				add(textStyle, sanitize.Text(capText(r.Text)))
			case len(r.Blob) > 0:
				note(fmt.Sprintf("[%d bytes of data; not shown]", len(r.Blob)))
			}
		default:
			note("[content of another kind; not shown]")
		}
	}
	if res.StructuredContent != nil {
		if b, err := json.MarshalIndent(res.StructuredContent, "", "  "); err == nil {
			note("structured content:")
			flush()
			add(lineText, sanitize.Text(string(b)))
		}
	}
	flush()
	if res.IsError {
		add(lineFailed, "✗ the tool reported an error")
		return
	}
	add(lineOK, fmt.Sprintf("✓ done in %s", took.Round(10*time.Millisecond)))
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
