package urlcheck

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"golang.org/x/net/publicsuffix"
)

// Length limits past which a URL or host gets a very_long warning: a host
// that long pushes the part that matters off a narrow screen.
const (
	maxURLLength  = 2048
	maxHostLength = 63
	maxHostLabels = 6
)

// MaxInputLength is the longest input Analyze reads; a longer one is
// reported invalid without being analysed.
const MaxInputLength = 1 << 16

// Analyze parses raw the way a browser would and reports where it leads and
// every trick it finds, checking lookalikes against the built-in list of
// well-known domains (the zero Analyzer's). It never fetches anything.
func Analyze(raw string) Report { return (*Analyzer)(nil).Analyze(raw) }

// Analyze parses raw the way a browser would and reports where it leads and
// every trick it finds, checking lookalikes against a's well-known domains.
// It never fetches anything.
func (a *Analyzer) Analyze(raw string) Report {
	r := Report{Input: raw, Warnings: []Warning{}}
	if len(raw) > MaxInputLength {
		r.add(CodeVeryLong, High, "The URL is %d bytes long.", len(raw))
		r.add(CodeInvalid, High, "The URL is too long to analyse.")
		return r
	}
	scanCharacters(&r, raw)
	s, stripped := cleanInput(raw)
	if stripped {
		r.add(CodeControlChars, Medium, "Tabs, newlines or control characters around or inside the URL were removed, as a browser removes them.")
	}
	if len(s) > maxURLLength {
		r.add(CodeVeryLong, Low, "The URL is %d characters long.", len(s))
	}
	u, ok := splitURL(s)
	if !ok {
		r.add(CodeInvalid, High, "This is not an absolute URL (it has no scheme such as https:).")
		return r
	}
	r.Scheme = u.scheme
	if u.scheme != "http" && u.scheme != "https" {
		r.add(CodeBadScheme, High, "The scheme %q is not http or https; elicit opens only web pages.", sanitize.Line(u.scheme))
	}
	r.Path, r.Query, r.Fragment = u.path, u.query, u.fragment
	if !u.special || u.scheme == "file" {
		// Not a web URL: there is no host to check, and it never opens.
		r.URL = s
		return r
	}
	h, err := parseHost(u.host)
	if err != nil {
		r.add(CodeInvalid, High, "%s.", upperFirst(sanitize.Line(err.Error())))
		return r
	}
	port, err := parsePort(u.port, u.scheme)
	if err != nil {
		r.add(CodeInvalid, High, "%s.", err.Error())
		return r
	}
	r.HostASCII, r.HostUnicode, r.Port, r.Userinfo = h.ascii, h.unicode, port, u.userinfo
	r.IsIP = h.ip.IsValid()
	if !r.IsIP {
		if d, err := publicsuffix.EffectiveTLDPlusOne(strings.TrimSuffix(h.ascii, ".")); err == nil {
			r.RegistrableDomain = d
		}
	}
	r.URL = serialize(u, h.ascii, port)

	loopback := isLoopback(h)
	if u.userinfo != "" {
		r.add(CodeUserinfo, High, "The text before @ (%q) is only a user name: the browser goes to %s.", sanitize.Line(u.userinfo), sanitize.Line(h.unicode))
	}
	checkIP(&r, h, loopback)
	if u.scheme == "http" && !loopback {
		r.add(CodeHTTPNotHTTPS, Medium, "The page is plain http: anyone on the network can read or change it.")
	}
	if port != "" {
		sev := Low
		if loopback {
			sev = Info
		}
		r.add(CodeNonstandardPort, sev, "The URL uses port %s, not the usual one for %s.", port, u.scheme)
	}
	if h.percent {
		r.add(CodeConfusable, Low, "The host was percent-encoded (%s); the browser decodes it.", sanitize.Line(u.host))
	}
	if !r.IsIP {
		checkHostSpoof(&r, a.index())
		if len(h.ascii) > maxHostLength || len(hostLabels(h.ascii)) > maxHostLabels {
			r.add(CodeVeryLong, Medium, "The host is %d characters and %d labels long; only the end of it (%s) says whose site it is.", len(h.ascii), len(hostLabels(h.ascii)), r.RegistrableDomain)
		}
	}
	return r
}

// scanCharacters warns about bidi controls, invisible format characters and
// other controls anywhere in the input.
func scanCharacters(r *Report, raw string) {
	for i, c := range raw {
		switch {
		case c == utf8.RuneError && !strings.HasPrefix(raw[i:], "\uFFFD"):
			r.add(CodeControlChars, Medium, "The URL is not valid UTF-8.")
		case isBidiControl(c):
			r.add(CodeBidiControl, High, "The URL contains the bidirectional control U+%04X, which can make text display in a different order than it is read.", c)
		case c == '\t' || c == '\n' || c == '\r':
			// Reported by cleanInput when removed.
		case c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0:
			r.add(CodeControlChars, High, "The URL contains the control character U+%04X.", c)
		case sanitize.Visible(c) || c == 0x200b || c == 0x2060 || c == 0xfeff || c == 0x00ad || c == 0x200c || c == 0x200d || unicode.Is(unicode.Zs, c) && c != ' ':
			r.add(CodeControlChars, Medium, "The URL contains the invisible or blank character U+%04X.", c)
		}
	}
}

// isBidiControl reports the Unicode bidirectional formatting characters.
func isBidiControl(c rune) bool {
	return c == 0x061c || c == 0x200e || c == 0x200f || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069
}

// parsePort validates a port and drops the scheme's default one.
func parsePort(p, scheme string) (string, error) {
	if p == "" {
		return "", nil
	}
	if strings.Trim(p, "0123456789") != "" {
		return "", fmt.Errorf("The port %q is not a number", sanitize.Line(p))
	}
	n, err := strconv.Atoi(strings.TrimLeft(p, "0") + "0")
	if err != nil || n/10 > 65535 {
		return "", fmt.Errorf("The port %s is out of range", p)
	}
	port := strconv.Itoa(n / 10)
	if port == specialPorts[scheme] {
		return "", nil
	}
	return port, nil
}

// isLoopback reports localhost names and loopback addresses.
func isLoopback(h hostInfo) bool {
	if h.ip.IsValid() {
		return h.ip.IsLoopback()
	}
	host := strings.TrimSuffix(h.ascii, ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

func checkIP(r *Report, h hostInfo, loopback bool) {
	if !h.ip.IsValid() {
		return
	}
	switch {
	case h.ipNotation != "":
		r.add(CodeIPLiteral, High, "The host is the IP address %s written as %s, a way to hide where the link goes.", h.ascii, h.ipNotation)
	case loopback:
		r.add(CodeIPLiteral, Info, "The host is the IP address %s, this computer.", h.ascii)
	case h.ip.IsPrivate() || h.ip.IsLinkLocalUnicast() || h.ip == netip.IPv4Unspecified():
		r.add(CodeIPLiteral, Medium, "The host is the local network address %s, not a domain name.", h.ascii)
	default:
		r.add(CodeIPLiteral, Medium, "The host is the IP address %s, not a domain name.", h.ascii)
	}
}

// serialize builds the URL a browser would open from its parts.
func serialize(u split, host, port string) string {
	var b strings.Builder
	b.WriteString(u.scheme)
	b.WriteString("://")
	if u.userinfo != "" {
		user, pass, hasPass := strings.Cut(u.userinfo, ":")
		const userinfoSet = "\"#<>?`{}/:;=@[\\]^|"
		b.WriteString(encodeSet(user, userinfoSet))
		if hasPass {
			b.WriteByte(':')
			b.WriteString(encodeSet(pass, userinfoSet))
		}
		b.WriteByte('@')
	}
	b.WriteString(host)
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	b.WriteString(encodeSet(u.path, "\"<>`{}"))
	if u.hasQuery {
		b.WriteByte('?')
		b.WriteString(encodeSet(u.query, "\"#<>'"))
	}
	if u.hasFrag {
		b.WriteByte('#')
		b.WriteString(encodeSet(u.fragment, "\"<>`"))
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
