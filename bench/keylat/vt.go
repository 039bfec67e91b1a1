//go:build linux

package main

import (
	"strings"
	"unicode/utf8"
)

// screen is a small terminal emulator: enough of xterm for what
// bubbletea's renderer (ultraviolet) writes, so the benchmark can tell
// when a character is drawn in a given cell, not merely present in the
// output. It keeps characters only (no colours), the cursor, a scrolling
// region, autowrap, insert mode and a saved cursor; it answers the
// queries a program may send at start-up through reply.
type screen struct {
	w, h        int
	cells       [][]rune
	x, y        int
	wrapPending bool
	autowrap    bool
	insert      bool
	top, bot    int // the scrolling region, rows, inclusive
	saveX       int
	saveY       int
	last        rune // the last printed character, for REP

	// The parser.
	state   int
	params  []byte // CSI parameter bytes (digits, ';', ':')
	prefix  byte   // CSI private marker: '?', '>', '<', '=' or 0
	inter   []byte // CSI or ESC intermediate bytes
	str     []byte // OSC text
	strKind byte   // ']' OSC, 'P' DCS, '_' APC, '^' PM, 'X' SOS
	strEsc  bool   // an ESC inside a string: ST follows
	utf     []byte // an incomplete UTF-8 sequence

	// reply, when set, is called with the terminal's answer to a query.
	reply func(string)
	// queries counts the queries seen, by a short name, for -v.
	queries map[string]int
}

const wideTail = -1 // the cell under the right half of a wide character

const (
	stGround = iota
	stEsc
	stCSI
	stString
)

func newScreen(w, h int) *screen {
	s := &screen{w: w, h: h, autowrap: true, bot: h - 1, queries: map[string]int{}}
	s.cells = make([][]rune, h)
	for i := range s.cells {
		s.cells[i] = blankRow(w)
	}
	return s
}

func blankRow(w int) []rune {
	r := make([]rune, w)
	for i := range r {
		r[i] = ' '
	}
	return r
}

// row returns line y as text (the right halves of wide characters left out).
func (s *screen) row(y int) string {
	var b strings.Builder
	for _, r := range s.cells[y] {
		if r != wideTail {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// String is the whole screen, one line per row, trailing blanks cut.
func (s *screen) String() string {
	var b strings.Builder
	for y := range s.h {
		b.WriteString(strings.TrimRight(s.row(y), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// Write feeds the program's output to the emulator.
func (s *screen) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch s.state {
		case stGround:
			if len(s.utf) > 0 || c >= 0x80 {
				s.utf = append(s.utf, c)
				if utf8.FullRune(s.utf) {
					r, _ := utf8.DecodeRune(s.utf)
					s.utf = s.utf[:0]
					s.print(r)
				}
				continue
			}
			if c >= 0x20 && c < 0x7f {
				s.print(rune(c))
				continue
			}
			s.control(c)
		case stEsc:
			s.esc(c)
		case stCSI:
			switch {
			case c >= 0x40 && c <= 0x7e:
				s.state = stGround
				s.csi(c)
			case c >= 0x30 && c <= 0x3f:
				if len(s.params) == 0 && s.prefix == 0 && (c == '?' || c == '>' || c == '<' || c == '=') {
					s.prefix = c
				} else {
					s.params = append(s.params, c)
				}
			case c >= 0x20 && c <= 0x2f:
				s.inter = append(s.inter, c)
			case c == 0x1b:
				s.state = stEsc
				s.inter = s.inter[:0]
			case c < 0x20:
				s.control(c) // C0 controls act inside a sequence
			}
		case stString:
			switch {
			case s.strEsc:
				s.strEsc = false
				if c == '\\' {
					s.endString()
				} else {
					s.state = stEsc // an ESC that is not ST ends the string
					s.inter = s.inter[:0]
					s.esc(c)
				}
			case c == 0x1b:
				s.strEsc = true
			case c == 0x07:
				s.endString()
			case len(s.str) < 4096:
				s.str = append(s.str, c)
			}
		}
	}
	return len(p), nil
}

func (s *screen) control(c byte) {
	switch c {
	case 0x1b:
		s.state = stEsc
		s.inter = s.inter[:0]
	case '\r':
		s.x, s.wrapPending = 0, false
	case '\n', 0x0b, 0x0c:
		s.lineFeed()
	case '\b':
		if s.x > 0 {
			s.x--
		}
		s.wrapPending = false
	case '\t':
		s.x = min(s.w-1, (s.x/8+1)*8)
		s.wrapPending = false
	}
}

func (s *screen) esc(c byte) {
	if c >= 0x20 && c <= 0x2f { // intermediate: ESC ( B and the like
		s.inter = append(s.inter, c)
		return
	}
	s.state = stGround
	if len(s.inter) > 0 {
		return // designate a character set and such: nothing to draw
	}
	switch c {
	case '[':
		s.state = stCSI
		s.params, s.prefix, s.inter = s.params[:0], 0, s.inter[:0]
	case ']', 'P', '_', '^', 'X':
		s.state, s.strKind, s.str, s.strEsc = stString, c, s.str[:0], false
	case '7':
		s.saveX, s.saveY = s.x, s.y
	case '8':
		s.x, s.y, s.wrapPending = s.saveX, s.saveY, false
	case 'D':
		s.lineFeed()
	case 'E':
		s.x = 0
		s.lineFeed()
	case 'M':
		s.reverseIndex()
	case 'c':
		*s = *newScreenKeep(s)
	}
}

// newScreenKeep is a reset screen (RIS) that keeps the reply hook.
func newScreenKeep(s *screen) *screen {
	n := newScreen(s.w, s.h)
	n.reply, n.queries = s.reply, s.queries
	return n
}

func (s *screen) endString() {
	s.state = stGround
	if s.strKind != ']' {
		if s.strKind == 'P' {
			s.query("DCS " + firstN(string(s.str), 12))
		}
		return
	}
	// OSC 10/11/12 with "?" asks for the foreground, background or
	// cursor colour: answer as a dark terminal.
	num, arg, _ := strings.Cut(string(s.str), ";")
	if arg == "?" {
		s.query("OSC " + num + " ?")
		switch num {
		case "10":
			s.send("\x1b]10;rgb:ffff/ffff/ffff\x1b\\")
		case "11":
			s.send("\x1b]11;rgb:0000/0000/0000\x1b\\")
		case "12":
			s.send("\x1b]12;rgb:ffff/ffff/ffff\x1b\\")
		}
	}
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (s *screen) query(name string) { s.queries[name]++ }

func (s *screen) send(b string) {
	if s.reply != nil {
		s.reply(b)
	}
}
