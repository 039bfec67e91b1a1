package urlcheck

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Visible returns s with every character that could hide or reorder text
// (C0 and C1 controls, bidi controls, invisible format characters, blank
// spaces other than U+0020) written as a visible <U+XXXX>, so a URL is shown
// exactly, never raw.
func Visible(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || isBidiControl(r) || sanitize.Visible(r) ||
			r == 0x200b || r == 0x200c || r == 0x200d || r == 0x2060 || r == 0xfeff || r == 0x00ad ||
			(unicode.Is(unicode.Zs, r) && r != ' ') {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SortedWarnings returns the warnings most severe first, keeping the order
// of equal ones.
func SortedWarnings(ws []Warning) []Warning {
	out := make([]Warning, 0, len(ws))
	for s := High; s >= Info; s-- {
		for _, w := range ws {
			if w.Severity == s {
				out = append(out, w)
			}
		}
	}
	return out
}

// hostSpan locates the host inside a serialized URL: URL[start:end].
func hostSpan(r Report) (start, end int) {
	if r.URL == "" || r.HostASCII == "" {
		return -1, -1
	}
	i := strings.Index(r.URL, "://")
	if i < 0 {
		return -1, -1
	}
	start = i + 3
	if r.Userinfo != "" {
		if at := strings.IndexByte(r.URL[start:], '@'); at >= 0 {
			start += at + 1
		}
	}
	if !strings.HasPrefix(r.URL[start:], r.HostASCII) {
		return -1, -1
	}
	return start, start + len(r.HostASCII)
}

// UrlParts splits the URL to show around its registrable domain (or, for IP
// literals and single-label hosts, its whole host), the part to highlight.
func UrlParts(r Report) (before, site, after string) {
	if r.URL == "" {
		return Visible(r.Input), "", ""
	}
	start, end := hostSpan(r)
	if start < 0 {
		return Visible(r.URL), "", ""
	}
	host := strings.TrimSuffix(r.URL[start:end], ".")
	siteStart := start
	if r.RegistrableDomain != "" && strings.HasSuffix(host, r.RegistrableDomain) {
		siteStart = start + len(host) - len(r.RegistrableDomain)
	}
	siteEnd := start + len(host)
	return Visible(r.URL[:siteStart]), r.URL[siteStart:siteEnd], Visible(r.URL[siteEnd:])
}

// Site is the name to show for where the URL goes: the registrable
// domain, or the host when it has none (an IP literal, localhost).
func (r Report) Site() string {
	if r.RegistrableDomain != "" {
		return r.RegistrableDomain
	}
	return strings.TrimSuffix(r.HostASCII, ".")
}

// InputDiffers reports whether the input, as given, reads differently from
// the URL that opens (more than a trailing slash), so both are worth showing.
func InputDiffers(r Report) bool {
	in := strings.TrimSpace(r.Input)
	return r.URL == "" || strings.TrimSuffix(in, "/") != strings.TrimSuffix(r.URL, "/")
}
