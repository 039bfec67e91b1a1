package termout

import (
	"sync/atomic"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// The filter is a hand-written streaming recogniser of ECMA-48 sequences:
// x/ansi's parsers either call back with decoded parameters (the original
// bytes, which a permitted sequence must keep, are gone) or need the whole
// input at once, and this one must keep its state across writes and stay
// cheap on the render path.

// state is where the filter is in a sequence.
type state uint8

const (
	ground   state = iota
	esc            // after ESC
	escInter       // after ESC and intermediate bytes
	csi            // inside a control sequence
	str            // inside OSC, DCS, SOS, PM or APC
	strEsc         // ESC inside a string: ST or the start of something else
)

// Bounds on sequences: a longer one is dropped and its bytes read as text.
const (
	maxCSI       = 256
	maxString    = 4096
	maxScreenStr = 1 << 20 // OSC 52 carries a base64 copy of a URL
)

type filter struct {
	policy Policy
	safe   *[256]bool // ASCII bytes passed through as they are
	st     state
	seq    []byte  // the sequence so far, from its ESC
	utf    [4]byte // a character split across writes
	nutf   int
	out    []byte
}

// safe tables, one per policy: printable ASCII, newline, tab, and the
// controls that policy keeps.
var safePipe, safePlain, safeScreen [256]bool

func init() {
	for c := 0x20; c < 0x7f; c++ {
		safePipe[c], safePlain[c], safeScreen[c] = true, true, true
	}
	for _, t := range []*[256]bool{&safePipe, &safePlain, &safeScreen} {
		t['\n'], t['\t'] = true, true
	}
	safePipe['\r'] = true
	safeScreen['\r'], safeScreen['\b'] = true, true
}

func newFilter(p Policy) filter {
	f := filter{policy: p, safe: &safePlain}
	switch p {
	case Pipe:
		f.safe = &safePipe
	case Screen:
		f.safe = &safeScreen
	}
	return f
}

// clean reports whether s passes unchanged: only safe ASCII and characters
// that need no attention.
func (f *filter) clean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !f.safe[c] {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < 0xa0 || f.policy != Pipe && visible(r) {
			return false
		}
		i += size
	}
	return true
}

// feed filters p into f.out.
func (f *filter) feed(p []byte) {
	i := 0
	if f.nutf > 0 {
		i = f.finishRune(p)
	}
	for i < len(p) {
		if f.st != ground {
			i = f.inSequence(p, i)
			continue
		}
		j, safe := i, f.safe
		for j < len(p) && safe[p[j]] {
			j++
		}
		f.out = append(f.out, p[i:j]...)
		i = j
		if i == len(p) {
			break
		}
		c := p[i]
		switch {
		case c == 0x1b:
			f.st = esc
			f.seq = append(f.seq[:0], c)
			i++
		case c < utf8.RuneSelf:
			i++ // a control this policy drops
		default:
			i = f.text(p, i)
		}
	}
}

// end finishes the input: an unfinished character becomes U+FFFD, an
// unfinished sequence is dropped.
func (f *filter) end() {
	if f.nutf > 0 {
		f.out = append(f.out, "\uFFFD"...)
		f.nutf = 0
	}
	f.st = ground
}

// text handles the non-ASCII character at p[i] and returns where the next
// one starts. A character cut off by the end of p waits for the next write.
func (f *filter) text(p []byte, i int) int {
	if !utf8.FullRune(p[i:]) {
		f.nutf = copy(f.utf[:], p[i:])
		return len(p)
	}
	r, size := utf8.DecodeRune(p[i:])
	f.rune(r, size, p[i:i+size])
	return i + size
}

// finishRune completes a character split across writes with the start of p
// and returns how many bytes of p it used.
func (f *filter) finishRune(p []byte) int {
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], f.utf[:f.nutf])
	n += copy(buf[n:], p)
	if !utf8.FullRune(buf[:n]) {
		used := copy(f.utf[f.nutf:], p)
		f.nutf += used
		return used
	}
	r, size := utf8.DecodeRune(buf[:n])
	had := f.nutf
	f.nutf = 0
	if size <= had { // invalid: the stashed lead byte alone
		f.rune(r, size, buf[:size])
		rest := buf[size:had]
		f.feedStash(rest)
		return 0
	}
	f.rune(r, size, buf[:size])
	return size - had
}

// feedStash re-reads stashed bytes that turned out not to belong to the
// character before them (only ever continuation bytes or a new lead).
func (f *filter) feedStash(b []byte) {
	if len(b) > 0 {
		f.feed(append([]byte(nil), b...))
	}
}

// rune writes one decoded character as the policy wants it.
func (f *filter) rune(r rune, size int, b []byte) {
	switch {
	case r == utf8.RuneError && size == 1:
		f.out = append(f.out, "\uFFFD"...)
	case r < 0xa0: // C1 controls, however encoded
	case visible(r):
		switch f.policy {
		case Pipe:
			f.out = append(f.out, b...)
		case Plain, Styled:
			f.out = appendVisible(f.out, r)
		}
	default:
		f.out = append(f.out, b...)
	}
}

// visiblePages caches sanitize.Visible for the BMP, one page of 256
// characters at a time, built on first use: it is on the render path, and
// the Unicode table search behind it is several times slower.
var visiblePages [256]atomic.Pointer[[256]bool]

// visible is sanitize.Visible, cached.
func visible(r rune) bool {
	if r > 0xffff {
		return sanitize.Visible(r)
	}
	page := visiblePages[r>>8].Load()
	if page == nil {
		page = new([256]bool)
		base := r &^ 0xff
		for k := range page {
			page[k] = sanitize.Visible(base + rune(k))
		}
		visiblePages[r>>8].Store(page)
	}
	return page[r&0xff]
}

const hexDigits = "0123456789ABCDEF"

// appendVisible appends r as <U+XXXX> (at least four hex digits).
func appendVisible(b []byte, r rune) []byte {
	b = append(b, "<U+"...)
	digits := 4
	for v := r >> 16; v > 0; v >>= 4 {
		digits++
	}
	for d := digits - 1; d >= 0; d-- {
		b = append(b, hexDigits[(r>>(4*d))&0xf])
	}
	return append(b, '>')
}
