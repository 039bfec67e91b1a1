package fullscreen

import (
	"fmt"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/ui/internal/say"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/diffview"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// maxToolLines is how many lines of a tool call's content are shown.
const maxToolLines = 12

// draw renders one entry other than an agent message (see walkBody) for
// width. Agent text arrives sanitized; only markdown and our own styles
// add escape codes here.
func (t *transcript) draw(it *item, width int) []string {
	th := t.th
	switch it.kind {
	case kindUser:
		body := plainLines(t.textOf(it), width-2)
		out := make([]string, len(body))
		for i, l := range body {
			prefix := "  "
			if i == 0 {
				prefix = th.UserLabel.Render("› ")
			}
			out[i] = prefix + th.Base.Render(l)
		}
		return out
	case kindThought:
		if !t.showThoughts {
			return []string{th.ThoughtLabel.Render(fmt.Sprintf("▸ thought (%s, alt+t shows)", say.Plural(it.words, "word", "words")))}
		}
		out := []string{th.ThoughtLabel.Render("▾ thought")}
		for _, l := range plainLines(t.textOf(it), width-4) {
			out = append(out, "  "+th.Muted.Render(l))
		}
		return out
	case kindTool:
		return t.drawTool(it, width)
	case kindPlan:
		out := []string{th.Accent.Render("Plan")}
		for _, e := range it.plan.Entries {
			mark, style := "☐", th.Base
			switch e.Status {
			case "in_progress":
				mark, style = "◐", th.Info
			case "completed":
				mark, style = "☑", th.Muted
			}
			for i, l := range plainLines(e.Content, width-4) {
				p := "    "
				if i == 0 {
					p = "  " + mark + " "
				}
				out = append(out, style.Render(p+l))
			}
		}
		return out
	case kindInfo:
		lines := plainLines(it.text.String(), width-2)
		for i, l := range lines {
			lines[i] = th.Muted.Render(l)
		}
		return indent(lines, th.Muted.Render("· "))
	case kindNotice:
		return indent(plainLines(it.text.String(), width-2), th.Notice.Render("! "))
	case kindLines:
		return t.drawLines(it, width)
	case kindError:
		lines := indent(plainLines(it.text.String(), width-2), th.Danger.Render("✗ "))
		for _, l := range it.stderr {
			lines = append(lines, th.Muted.Render("  │ "+ansi.Truncate(l, width-5, "…")))
		}
		return lines
	}
	return nil
}

func (t *transcript) drawTool(it *item, width int) []string {
	th := t.th
	tc := it.tool
	status := tc.Status
	if (it.clock.granted || it.clock.started) && status == "pending" {
		status = "running" // allowed, or its terminal is up; the agent has not said more yet
	}
	glyph, st := "○", th.Muted
	switch status {
	case "in_progress", "running":
		glyph, st = "◐", th.Info
	case "completed":
		glyph, st = "●", th.Success
	case "failed":
		glyph, st = "✗", th.Danger
	}
	status = strings.ReplaceAll(status, "_", " ")
	if it.refused != "" { // not done as approved, whatever the agent says
		glyph, st = "✗", th.Danger
		status = "write refused (the agent says " + strings.ReplaceAll(tc.Status, "_", " ") + ")"
	}
	head := st.Render(glyph) + " " + th.ToolLabel.Render(orID(tc))
	if tc.Kind != "" {
		head += th.Muted.Render(" [" + tc.Kind + "]")
	}
	head += " " + st.Render(status)
	if d := it.clock.elapsed(t.now()); it.clock.running() || it.clock.done && d >= time.Second {
		head += th.Muted.Render(" · " + clockText(d))
	}
	out := []string{ansi.Truncate(head, width, "…")}
	if it.refused != "" {
		out = append(out, indent(plainLines(it.refused, width-4), "  "+th.Danger.Render("✗ "))...)
	}
	if it.wrote != "" {
		out = append(out, th.Success.Render("  ✓ ")+th.Muted.Render(ansi.Truncate(it.wrote, width-4, "…")))
	}
	for _, l := range tc.Locations {
		out = append(out, th.Muted.Render("  ↳ "+ansi.Truncate(say.RelPath(t.root, l), width-5, "…")))
	}
	for _, d := range tc.Diffs { // coloured hunks instead of the text summary
		lines, _ := diffview.Render(diffview.Diff{Path: d.Path, Old: d.Old, New: d.New}, width-4, maxToolLines, false, th)
		for _, l := range lines {
			out = append(out, "  "+l)
		}
	}
	var body []string
	if len(tc.Diffs) == 0 {
		for _, c := range tc.Content { // tool output is often markdown (```console)
			if isTerminalRef(tc.Terminals, c) {
				continue // its output is shown below, once there is some
			}
			body = append(body, t.md.render(c, width-4)...)
		}
	}
	if it.output.Len() > 0 { // what the agent's terminal printed, newest last
		body = append(body, strings.Split(strings.TrimRight(it.output.String(), "\n"), "\n")...)
		if len(body) > maxToolLines {
			body = body[len(body)-maxToolLines:]
		}
	}
	shown := body
	if len(shown) > maxToolLines {
		shown = shown[:maxToolLines]
	}
	border := th.Border
	for _, l := range shown {
		out = append(out, border.Render("  │ ")+ansi.Truncate(l, width-5, "…"))
	}
	if more := len(body) - len(shown); more > 0 {
		out = append(out, th.Muted.Render(fmt.Sprintf("  │ … %s more", say.Plural(more, "line", "lines"))))
	}
	return out
}

// isTerminalRef says whether content c is only the summary of one of the
// call's terminals ("[terminal ID]", see acpconn's toolContent).
func isTerminalRef(terminals []string, c string) bool {
	for _, id := range terminals {
		if c == sanitize.Line("[terminal "+id+"]") {
			return true
		}
	}
	return false
}

func indent(lines []string, first string) []string {
	pad := strings.Repeat(" ", ansi.StringWidth(first))
	for i, l := range lines {
		if i == 0 {
			lines[i] = first + l
		} else {
			lines[i] = pad + l
		}
	}
	return lines
}

func orID(tc acpconn.ToolCall) string {
	if tc.Title != "" {
		return tc.Title
	}
	return sanitize.ID(tc.ID)
}
