package fullscreen

import (
	"fmt"
	"strings"
)

// lineStyle is how an entry of plain lines (kindLines) is drawn: what an
// MCP server's tool returned, its logs and stderr, a call being made.
type lineStyle int

const (
	lineText   lineStyle = iota // a tool's text, as the server wrote it (sanitized)
	lineCall                    // a call being made
	lineNote                    // content that is not shown (an image, a link)
	lineOK                      // a call done
	lineFailed                  // a tool's error
	lineQuiet                   // a log line, stderr, the server's instructions
)

// maxLinesText is how much of its text a log entry keeps, the last bytes:
// a server that logs without end cannot make elicit hold more.
const maxLinesText = 64 << 10

// lines adds text, sanitized already, as an entry of plain lines in style
// st, and returns it. Its text goes to the transcript's log (stow), as a
// finished thought's does: a tool's text can be long.
func (t *transcript) lines(st lineStyle, text string) *item {
	t.endStream()
	it := &item{kind: kindLines, style: st}
	it.text.WriteString(text)
	t.add(it)
	t.stow(it)
	return it
}

// logLine adds a line of the server's log or stderr: lines that follow one
// another share an entry, which keeps their last maxLinesText bytes.
func (t *transcript) logLine(text string) {
	if n := len(t.items); n > 0 && t.current == nil {
		if it := t.items[n-1]; it.kind == kindLines && it.style == lineQuiet && !it.logged && it.fold == 0 {
			it.text.WriteString("\n" + text)
			if it.text.Len() > maxLinesText {
				keep := it.text.String()[it.text.Len()-maxLinesText/2:]
				if i := strings.IndexByte(keep, '\n'); i >= 0 {
					keep = keep[i+1:]
				}
				it.text.Reset()
				it.text.WriteString("…\n" + keep)
			}
			it.dirty = true
			return
		}
	}
	t.endStream()
	it := &item{kind: kindLines, style: lineQuiet}
	it.text.WriteString(text)
	t.add(it)
}

// drawLines draws an entry of plain lines: its first fold lines when it
// is folded (the export has them all).
func (t *transcript) drawLines(it *item, width int) []string {
	text := t.textOf(it)
	if it.fold > 0 {
		if src := strings.Split(strings.TrimSpace(text), "\n"); len(src) > it.fold {
			text = strings.Join(src[:it.fold], "\n") + fmt.Sprintf("\n… (%d more lines of instructions; the transcript keeps them after exit)", len(src)-it.fold)
		}
	}
	th := t.th
	style := th.Base.Render
	switch it.style {
	case lineCall:
		style = th.ToolLabel.Render
	case lineNote:
		style = th.Secondary.Render
	case lineOK:
		style = th.Success.Render
	case lineFailed:
		style = th.Danger.Render
	case lineQuiet:
		style = th.Muted.Render
	}
	lines := plainLines(text, width+2)
	for i, l := range lines {
		lines[i] = style(l)
	}
	return lines
}
