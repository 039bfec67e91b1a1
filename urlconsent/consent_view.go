package urlconsent

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/dialog"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// labelWidth is the width of the left column ("Site", "Host").
const labelWidth = 8

// View draws the screen in the dialog frame, as wide and as tall as
// SetSize allows. On top and always in view: the title and who asks; then,
// in view while they leave the rest any room, the full URL wrapped (never
// cut) with its site highlighted and the host in Unicode and ASCII when
// they differ. The agent's message and every warning with its severity
// scroll (↑/↓, pgup/pgdn); the buttons and the keys stay at the bottom.
// The message comes after the URL, so an agent cannot push the URL out of
// sight with a long one.
func (c *Consent) View() string {
	if c.qr {
		return c.qrView()
	}
	th := c.th
	inner := max(c.width-4, 20) // border and padding
	wrap := func(s string, w int) string { return ansi.Wrap(s, w, "") }
	f := c.frame()

	title := "Open a link?"
	if c.header.Total > 1 {
		title += fmt.Sprintf("  (%d of %d)", c.header.Index, c.header.Total)
	}
	who := "Agent: " + orUnknown(sanitize.Line(c.header.Agent))
	if tc := sanitize.Line(c.header.ToolCall); tc != "" {
		who += "  ·  Tool call: " + tc
	}
	head := []string{th.ModalTitle.Render(title), th.Muted.Render(wrap(who, inner)), ""}

	r := c.report
	before, site, after := urlcheck.UrlParts(r)
	// A URL has no spaces to break at: hard-wrap it, cutting nothing.
	head = append(head, c.field("URL", ansi.Hardwrap(before+th.Highlight.Render(site)+after, inner-labelWidth, true), inner))
	if r.HostASCII != "" {
		site := th.Highlight.Render(r.Site())
		if c.header.Visits != "" {
			site += th.Muted.Render(" · " + c.header.Visits)
		}
		head = append(head, c.field("Site", site, inner))
		if r.HostUnicode != r.HostASCII {
			head = append(head, c.field("Host", urlcheck.Visible(r.HostUnicode)+th.Muted.Render("  (as shown)"), inner),
				c.field("", r.HostASCII+th.Muted.Render("  (as sent)"), inner))
		} else if r.HostASCII != r.Site() {
			head = append(head, c.field("Host", r.HostASCII, inner))
		}
	}
	if r.URL != "" && urlcheck.InputDiffers(r) {
		head = append(head, th.Muted.Render(ansi.Hardwrap("as sent: "+urlcheck.Visible(strings.TrimSpace(r.Input)), inner, true)))
	}
	f.Head, f.Pin = head, 2

	var body []string
	if msg := strings.TrimSpace(sanitize.Text(c.header.Message)); msg != "" {
		body = append(body, wrap(msg, inner), "")
	}
	if len(r.Warnings) == 0 {
		body = append(body, th.Success.Render("No warnings."))
	} else {
		body = append(body, th.Bold.Render(fmt.Sprintf("Warnings (%d)", len(r.Warnings))))
		for _, w := range urlcheck.SortedWarnings(r.Warnings) {
			tag := c.severityStyle(w.Severity).Render(fmt.Sprintf("%-6s", strings.ToUpper(w.Severity.String())))
			text := wrap(w.Code+": "+sanitize.Line(w.Message), inner-labelWidth)
			body = append(body, tag+"  "+indent(text, labelWidth))
		}
	}

	var foot []string
	var keys string
	switch {
	case c.confirming:
		foot = append(foot, th.Danger.Render(wrap("This link has high-risk warnings. Open it anyway?", inner)),
			c.drawButtons([]string{"Go back", "Open anyway"}, map[bool]int{false: 0, true: 1}[c.sure], inner))
		keys = c.keys(c.Keys(), inner)
	default:
		switch {
		case c.remote:
			foot = append(foot, th.Warning.Render(wrap(c.qrNote(), inner)))
		case c.failure != "":
			foot = append(foot, th.Danger.Render(wrap("The browser could not be opened: "+sanitize.Line(c.failure), inner)))
		}
		switch {
		case c.copied && c.confirmed:
			foot = append(foot, th.Success.Render(wrap(copyConfirmed, inner)))
		case c.copied:
			foot = append(foot, th.Warning.Render(wrap(copyUnconfirmed, inner)))
		}
		if c.refused || !r.Openable() {
			foot = append(foot, th.Danger.Render(wrap("This URL cannot be opened: elicit opens only valid http and https links.", inner)))
		}
		labels := buttonLabels
		if c.remote {
			labels[btnOpen] = "QR code"
		}
		if c.waiting && c.sel < 0 {
			foot = append(foot, th.Warning.Render(wrap("No button is selected, so Enter does nothing: choose one with ←/→ first.", inner)))
		}
		foot = append(foot, c.drawButtons(labels[:c.buttons()], c.sel, inner))
		keys = c.keys(c.Keys(), inner)
	}
	if c.inGrace() {
		keys = "" // the keys count once they are shown (Init's tick redraws)
	}
	f.Body, f.Foot, f.Keys = body, foot, keys
	return f.View(inner+4, c.height)
}

// frame is the screen's scrolling frame, made at the first use.
func (c *Consent) frame() *dialog.Frame {
	if c.fr == nil {
		c.fr = dialog.New(c.th)
	}
	return c.fr
}

// scroll moves the warnings by a row, a page or to an end, and reports
// whether k was one of those keys.
func (c *Consent) scroll(k string) bool {
	switch f := c.frame(); k {
	case "up":
		f.Up()
	case "down":
		f.Down()
	default:
		return f.ScrollKey(k)
	}
	return true
}

// buttons draws a row of buttons with the selected one marked, breaking
// lines between buttons only.
func (c *Consent) drawButtons(labels []string, sel, inner int) string {
	var b strings.Builder
	w := 0
	for i, l := range labels {
		text := "[ " + l + " ]"
		style := c.th.Muted
		if i == sel {
			text = "[›" + l + "‹]"
			style = c.th.Selected
		}
		tw := ansi.StringWidth(text) + 1
		if w > 0 && w+tw > inner {
			b.WriteByte('\n')
			w = 0
		}
		b.WriteString(style.Render(text) + " ")
		w += tw
	}
	return strings.TrimRight(b.String(), " ")
}

// field draws a label and a value that wraps under itself.
func (c *Consent) field(label, value string, inner int) string {
	return c.th.Muted.Render(fmt.Sprintf("%-*s", labelWidth, label)) + indent(ansi.Wrap(value, inner-labelWidth, ""), labelWidth)
}

// keys draws the help of bindings, breaking lines between items only.
func (c *Consent) keys(bindings []key.Binding, inner int) string {
	var b strings.Builder
	sep := c.th.KeyHelp.Render("  ·  ")
	width := 0
	for i, item := range c.keyItems(bindings) {
		w := ansi.StringWidth(item)
		switch {
		case i == 0:
		case width+5+w > inner:
			b.WriteByte('\n')
			width = 0
		default:
			b.WriteString(sep)
			width += 5
		}
		b.WriteString(item)
		width += w
	}
	return b.String()
}

// keyItems is the help of bindings, each "key what", styled.
func (c *Consent) keyItems(bindings []key.Binding) []string {
	items := make([]string, 0, len(bindings))
	for _, kb := range bindings {
		h := kb.Help()
		items = append(items, c.th.Key.Render(h.Key)+" "+c.th.KeyHelp.Render(h.Desc))
	}
	return items
}

func (c *Consent) severityStyle(s urlcheck.Severity) lipgloss.Style {
	switch s {
	case urlcheck.High:
		return c.th.Danger
	case urlcheck.Medium:
		return c.th.Warning
	case urlcheck.Low:
		return c.th.Notice
	}
	return c.th.Muted
}

// indent indents every line of s but the first by n spaces.
func indent(s string, n int) string {
	return strings.ReplaceAll(s, "\n", "\n"+strings.Repeat(" ", n))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown agent"
	}
	return s
}
