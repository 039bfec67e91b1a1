package urlcheck

import (
	"strings"
)

// The URL splitting below follows the WHATWG URL standard's basic URL
// parser for the parts that decide where a browser goes (scheme, authority,
// host, port). No Go library does this: net/url keeps backslashes, tabs and
// newlines, and does not parse IPv4 the way browsers do. It is hand-written,
// and kept to what the analysis needs.

// specialPorts are the WHATWG special schemes and their default ports.
var specialPorts = map[string]string{
	"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": "",
}

// split is a URL cut into its parts, before the host is parsed.
type split struct {
	scheme    string
	special   bool
	authority bool // an authority (//host) was present
	userinfo  string
	host      string // raw, still percent-encoded
	port      string
	path      string
	query     string // without '?'
	hasQuery  bool
	fragment  string // without '#'
	hasFrag   bool
}

// cleanInput strips what browsers strip before parsing: leading and
// trailing C0 controls and spaces, and every tab and newline. It reports
// whether anything other than plain spaces was removed.
func cleanInput(raw string) (string, bool) {
	trimmed := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	changed := strings.TrimSpace(raw) != trimmed || strings.ContainsAny(strings.TrimSpace(raw), "\t\n\r")
	if strings.ContainsAny(trimmed, "\t\n\r") {
		trimmed = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, trimmed)
	}
	return trimmed, changed
}

// splitURL cuts s into scheme, authority, path, query and fragment. ok is
// false when s has no scheme (a relative reference, which has no meaning
// without a base URL).
func splitURL(s string) (split, bool) {
	var u split
	i := schemeEnd(s)
	if i < 0 {
		return u, false
	}
	u.scheme = strings.ToLower(s[:i])
	rest := s[i+1:]
	_, u.special = specialPorts[u.scheme]
	isSlash := func(c byte) bool { return c == '/' || (u.special && c == '\\') }

	if u.special && u.scheme != "file" {
		// Special authority states: any run of slashes and backslashes,
		// even none ("https:example.com"), leads to the authority.
		rest = strings.TrimLeft(rest, "/\\")
		u.authority = true
	} else if len(rest) >= 2 && isSlash(rest[0]) && isSlash(rest[1]) {
		rest = rest[2:]
		u.authority = true
	}
	if u.authority {
		end := strings.IndexFunc(rest, func(r rune) bool {
			return r == '/' || r == '?' || r == '#' || (u.special && r == '\\')
		})
		if end < 0 {
			end = len(rest)
		}
		auth := rest[:end]
		rest = rest[end:]
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			u.userinfo = auth[:at]
			auth = auth[at+1:]
		}
		u.host, u.port = splitHostPort(auth)
	}
	if h := strings.IndexByte(rest, '#'); h >= 0 {
		u.fragment, u.hasFrag = rest[h+1:], true
		rest = rest[:h]
	}
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		u.query, u.hasQuery = rest[q+1:], true
		rest = rest[:q]
	}
	if u.special {
		rest = strings.ReplaceAll(rest, "\\", "/")
		if rest == "" {
			rest = "/"
		}
	}
	u.path = rest
	return u, true
}

// schemeEnd returns the index of the ':' that ends a scheme
// (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )), or -1.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && i > 0:
			return i
		default:
			return -1
		}
	}
	return -1
}

// splitHostPort splits host[:port], keeping an IPv6 literal's brackets; the
// port is whatever follows the first colon outside brackets.
func splitHostPort(auth string) (host, port string) {
	inBrackets := false
	for i := 0; i < len(auth); i++ {
		switch auth[i] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				return auth[:i], auth[i+1:]
			}
		}
	}
	return auth, ""
}

// encodeSet percent-encodes what a browser would in a URL component:
// controls, space, non-ASCII bytes and the bytes listed in extra.
func encodeSet(s, extra string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte(extra, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
