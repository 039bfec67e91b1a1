package urlcheck

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// idnaProfile is UTS #46 as the WHATWG URL standard runs it ("domain to
// ASCII" with beStrict false): non-transitional, bidi and joiner rules on,
// no hyphen, STD3 or DNS length checks, so it accepts what browsers accept
// (a_b.example.com). It validates and maps; it checks no spoofing.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
	idna.Transitional(false),
)

// hostInfo is a parsed host.
type hostInfo struct {
	ascii, unicode string
	ip             netip.Addr // valid for IP literals
	ipNotation     string     // how an IPv4 address was written, when not dotted-quad decimal
	percent        bool       // the host was percent-encoded
}

// forbiddenDomain are the WHATWG forbidden domain code points (ASCII part).
const forbiddenDomain = " #%/:<>?@[\\]^|"

// parseHost parses a special URL's host the way browsers do: percent-decode,
// IPv6 literal, UTS #46 to ASCII, forbidden code points, IPv4 in any notation.
func parseHost(raw string) (hostInfo, error) {
	var h hostInfo
	if raw == "" {
		return h, errors.New("the URL has no host")
	}
	if raw[0] == '[' {
		if !strings.HasSuffix(raw, "]") {
			return h, errors.New("the IPv6 address is missing its closing bracket")
		}
		inner := raw[1 : len(raw)-1]
		a, err := netip.ParseAddr(inner)
		if err != nil || !a.Is6() || a.Zone() != "" {
			return h, fmt.Errorf("%q is not an IPv6 address", inner)
		}
		h.ip = a
		h.ascii = "[" + ipv6String(a) + "]"
		h.unicode = h.ascii
		return h, nil
	}
	decoded, err := url.PathUnescape(raw)
	if err != nil {
		return h, fmt.Errorf("the host has a broken percent escape")
	}
	h.percent = decoded != raw
	if !utf8.ValidString(decoded) {
		return h, errors.New("the host is not valid UTF-8")
	}
	ascii, err := idnaProfile.ToASCII(decoded)
	if err != nil {
		return h, fmt.Errorf("the host is not a valid domain name (%v)", err)
	}
	for i := 0; i < len(ascii); i++ {
		if c := ascii[i]; c < 0x20 || c == 0x7f || strings.IndexByte(forbiddenDomain, c) >= 0 {
			return h, fmt.Errorf("the host contains the forbidden character %q", c)
		}
	}
	if ascii == "" {
		return h, errors.New("the URL has no host")
	}
	if endsInNumber(ascii) {
		a, notation, err := parseIPv4(ascii)
		if err != nil {
			return h, err
		}
		h.ip, h.ipNotation = a, notation
		h.ascii = a.String()
		h.unicode = h.ascii
		return h, nil
	}
	h.ascii = ascii
	uni, err := idnaProfile.ToUnicode(ascii)
	if err != nil {
		return h, fmt.Errorf("the host is not a valid domain name (%v)", err)
	}
	h.unicode = uni
	return h, nil
}

// hostLabels splits a host into labels, ignoring one trailing dot.
func hostLabels(host string) []string {
	return strings.Split(strings.TrimSuffix(host, "."), ".")
}

// endsInNumber is the WHATWG "ends in a number" check: the last label (a
// trailing dot aside) is all digits or parses as an IPv4 number.
func endsInNumber(host string) bool {
	labels := hostLabels(host)
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, _, err := ipv4Number(last)
	return err == nil
}

// ipv4Number parses one IPv4 part: 0x hex, 0 octal or decimal. It reports
// whether the part was not plain decimal.
func ipv4Number(s string) (uint64, bool, error) {
	base, odd := 10, false
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base, odd = s[2:], 16, true
		if s == "" {
			return 0, true, nil
		}
	case len(s) >= 2 && s[0] == '0':
		s, base, odd = s[1:], 8, true
	}
	if s == "" || strings.ContainsAny(s, "+-_") {
		return 0, odd, errors.New("bad IPv4 number")
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, odd, errors.New("IPv4 number out of range")
		}
		return 0, odd, errors.New("bad IPv4 number")
	}
	return n, odd, nil
}

// parseIPv4 is the WHATWG IPv4 parser: one to four parts, each decimal,
// octal or hex, the last filling the remaining bytes. notation describes a
// form other than four plain decimal parts ("" for the usual form).
func parseIPv4(host string) (netip.Addr, string, error) {
	parts := hostLabels(host)
	if len(parts) > 4 {
		return netip.Addr{}, "", fmt.Errorf("%q has too many parts for an IPv4 address", host)
	}
	var nums []uint64
	var odd bool
	for _, p := range parts {
		if p == "" {
			return netip.Addr{}, "", fmt.Errorf("%q has an empty IPv4 part", host)
		}
		n, o, err := ipv4Number(p)
		if err != nil {
			return netip.Addr{}, "", fmt.Errorf("%q is not a valid IPv4 address", host)
		}
		odd = odd || o
		nums = append(nums, n)
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, "", fmt.Errorf("%q is not a valid IPv4 address (part over 255)", host)
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, "", fmt.Errorf("%q is not a valid IPv4 address (out of range)", host)
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	a := netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
	var notation string
	switch {
	case odd && len(nums) == 1:
		notation = "a single hexadecimal or octal number"
	case odd:
		notation = "hexadecimal or octal parts"
	case len(nums) == 1:
		notation = "a single decimal number"
	case len(nums) < 4:
		notation = fmt.Sprintf("a short form with %d parts", len(nums))
	case strings.HasSuffix(host, "."):
		notation = "a trailing dot"
	}
	return a, notation, nil
}

// ipv6String serializes an IPv6 address as the WHATWG URL standard does:
// RFC 5952 compression, but an IPv4-mapped address in hex groups too
// ([::ffff:7f00:1], where netip writes ::ffff:127.0.0.1).
func ipv6String(a netip.Addr) string {
	if !a.Is4In6() {
		return a.String()
	}
	b := a.As16()
	return fmt.Sprintf("::ffff:%x:%x", uint16(b[12])<<8|uint16(b[13]), uint16(b[14])<<8|uint16(b[15]))
}
