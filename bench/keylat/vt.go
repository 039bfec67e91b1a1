package main

import (
	"strconv"
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

// nums parses the CSI parameters; missing ones are def.
func (s *screen) nums(def int, n int) []int {
	out := make([]int, 0, n)
	for f := range strings.SplitSeq(string(s.params), ";") {
		f, _, _ = strings.Cut(f, ":") // sub-parameters: the first only
		v, err := strconv.Atoi(f)
		if err != nil || v == 0 && def != 0 {
			v = def
		}
		out = append(out, v)
	}
	for len(out) < n {
		out = append(out, def)
	}
	return out
}

func (s *screen) csi(final byte) {
	if len(s.inter) > 0 {
		// DECRQM (CSI ? Ps $ p): answer "not recognized", as xterm does
		// for modes it lacks, so the renderer does not turn on
		// synchronized output (2026) or grapheme widths (2027).
		if s.inter[0] == '$' && final == 'p' {
			mode := string(s.params)
			s.query("DECRQM " + string(s.prefix) + mode)
			p := ""
			if s.prefix == '?' {
				p = "?"
			}
			s.send("\x1b[" + p + mode + ";0$y")
		}
		return // cursor style, soft reset and the like
	}
	if s.prefix != 0 {
		switch final {
		case 'h', 'l':
			s.privateMode(final == 'h')
		case 'c':
			s.query("DA" + string(s.prefix))
		case 'u':
			s.query("kitty keyboard " + string(s.prefix))
		case 'q':
			s.query("XTVERSION")
		case 'n':
			s.query("DSR " + string(s.prefix) + string(s.params))
		}
		return
	}
	a := s.nums(1, 2)
	n := a[0]
	switch final {
	case '@': // ICH
		s.shiftRight(s.x, n)
	case 'A': // CUU
		s.y = max(s.y-n, s.topFor(s.y))
	case 'B', 'e': // CUD, VPR
		s.y = min(s.y+n, s.botFor(s.y))
	case 'C', 'a': // CUF, HPR
		s.x = min(s.x+n, s.w-1)
	case 'D': // CUB
		s.x = max(s.x-n, 0)
	case 'E': // CNL
		s.y, s.x = min(s.y+n, s.botFor(s.y)), 0
	case 'F': // CPL
		s.y, s.x = max(s.y-n, s.topFor(s.y)), 0
	case 'G', '`': // CHA, HPA
		s.x = clamp(n-1, 0, s.w-1)
	case 'H', 'f': // CUP, HVP
		s.y, s.x = clamp(a[0]-1, 0, s.h-1), clamp(a[1]-1, 0, s.w-1)
	case 'I': // CHT
		for range n {
			s.x = min(s.w-1, (s.x/8+1)*8)
		}
	case 'Z': // CBT
		for range n {
			s.x = max(0, (s.x-1)/8*8)
		}
	case 'J': // ED
		s.eraseDisplay(s.nums(0, 1)[0])
	case 'K': // EL
		s.eraseLine(s.nums(0, 1)[0])
	case 'L': // IL
		if s.y >= s.top && s.y <= s.bot {
			s.scrollDownAt(s.y, n)
			s.x = 0
		}
	case 'M': // DL
		if s.y >= s.top && s.y <= s.bot {
			s.scrollUpAt(s.y, n)
			s.x = 0
		}
	case 'P': // DCH
		row := s.cells[s.y]
		n = min(n, s.w-s.x)
		copy(row[s.x:], row[s.x+n:])
		for i := s.w - n; i < s.w; i++ {
			row[i] = ' '
		}
	case 'S': // SU
		s.scrollUpAt(s.top, n)
	case 'T': // SD
		s.scrollDownAt(s.top, n)
	case 'X': // ECH
		for i := s.x; i < min(s.w, s.x+n); i++ {
			s.cells[s.y][i] = ' '
		}
	case 'b': // REP
		if s.last != 0 {
			for range min(n, s.w*s.h) {
				s.print(s.last)
			}
		}
	case 'd': // VPA
		s.y = clamp(n-1, 0, s.h-1)
	case 's': // SCOSC
		s.saveX, s.saveY = s.x, s.y
	case 'u': // SCORC
		s.x, s.y = s.saveX, s.saveY
	case 'h', 'l':
		if string(s.params) == "4" { // IRM
			s.insert = final == 'h'
		}
	case 'r': // DECSTBM
		m := s.nums(0, 2)
		top, bot := m[0]-1, m[1]-1
		if m[0] == 0 {
			top = 0
		}
		if m[1] == 0 || bot >= s.h {
			bot = s.h - 1
		}
		if top < bot {
			s.top, s.bot = top, bot
			s.x, s.y = 0, 0
		}
	case 'c':
		s.query("DA1")
		s.send("\x1b[?62;22c")
	case 'n':
		switch string(s.params) {
		case "5":
			s.query("DSR 5")
			s.send("\x1b[0n")
		case "6":
			s.query("DSR 6 (cursor position)")
			s.send("\x1b[" + strconv.Itoa(s.y+1) + ";" + strconv.Itoa(s.x+1) + "R")
		}
	}
	if final != 'b' && final != 'm' {
		s.wrapPending = false
	}
}

func (s *screen) privateMode(set bool) {
	for _, m := range s.nums(0, 1) {
		switch m {
		case 7:
			s.autowrap = set
		case 47, 1047, 1049:
			// The alternate screen: both start blank here.
			if m == 1049 && set {
				s.saveX, s.saveY = s.x, s.y
			}
			for y := range s.h {
				s.cells[y] = blankRow(s.w)
			}
			if m == 1049 && !set {
				s.x, s.y = s.saveX, s.saveY
			}
		}
	}
}

// topFor and botFor bound cursor moves: inside the region when the cursor
// is in it, else the screen.
func (s *screen) topFor(y int) int {
	if y >= s.top && y <= s.bot {
		return s.top
	}
	return 0
}

func (s *screen) botFor(y int) int {
	if y >= s.top && y <= s.bot {
		return s.bot
	}
	return s.h - 1
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

func (s *screen) print(r rune) {
	wd := runeWidth(r)
	if wd == 0 {
		return // a combining mark or a zero-width character: on the cell before
	}
	if s.wrapPending && s.autowrap {
		s.x = 0
		s.lineFeed()
	}
	s.wrapPending = false
	if s.x+wd > s.w {
		if !s.autowrap {
			s.x = s.w - wd
		} else {
			s.x = 0
			s.lineFeed()
		}
	}
	if s.insert {
		s.shiftRight(s.x, wd)
	}
	row := s.cells[s.y]
	if row[s.x] == wideTail && s.x > 0 {
		row[s.x-1] = ' ' // overwriting half a wide character erases it
	}
	row[s.x] = r
	if wd == 2 {
		row[s.x+1] = wideTail
	} else if s.x+1 < s.w && row[s.x+1] == wideTail {
		row[s.x+1] = ' '
	}
	s.last = r
	s.x += wd
	if s.x >= s.w {
		s.x = s.w - 1
		s.wrapPending = s.autowrap
	}
}

func (s *screen) shiftRight(x, n int) {
	row := s.cells[s.y]
	n = min(n, s.w-x)
	copy(row[x+n:], row[x:s.w-n])
	for i := x; i < x+n; i++ {
		row[i] = ' '
	}
}

func (s *screen) lineFeed() {
	switch {
	case s.y == s.bot:
		s.scrollUpAt(s.top, 1)
	case s.y < s.h-1:
		s.y++
	}
}

func (s *screen) reverseIndex() {
	switch {
	case s.y == s.top:
		s.scrollDownAt(s.top, 1)
	case s.y > 0:
		s.y--
	}
}

// scrollUpAt moves rows from..bot up by n; blank rows come in at bot.
func (s *screen) scrollUpAt(from, n int) {
	n = min(n, s.bot-from+1)
	for y := from; y <= s.bot; y++ {
		if y+n <= s.bot {
			s.cells[y] = s.cells[y+n]
		} else {
			s.cells[y] = blankRow(s.w)
		}
	}
}

// scrollDownAt moves rows from..bot down by n; blank rows come in at from.
func (s *screen) scrollDownAt(from, n int) {
	n = min(n, s.bot-from+1)
	for y := s.bot; y >= from; y-- {
		if y-n >= from {
			s.cells[y] = s.cells[y-n]
		} else {
			s.cells[y] = blankRow(s.w)
		}
	}
}

func (s *screen) eraseLine(mode int) {
	row := s.cells[s.y]
	from, to := s.x, s.w
	switch mode {
	case 1:
		from, to = 0, min(s.x+1, s.w)
	case 2:
		from = 0
	}
	for i := from; i < to; i++ {
		row[i] = ' '
	}
}

func (s *screen) eraseDisplay(mode int) {
	switch mode {
	case 0:
		s.eraseLine(0)
		for y := s.y + 1; y < s.h; y++ {
			s.cells[y] = blankRow(s.w)
		}
	case 1:
		s.eraseLine(1)
		for y := 0; y < s.y; y++ {
			s.cells[y] = blankRow(s.w)
		}
	default:
		for y := range s.h {
			s.cells[y] = blankRow(s.w)
		}
	}
}

// runeWidth is wcwidth for what a terminal program draws: 0 for
// combining marks and zero-width characters, 2 for East Asian wide and
// emoji, else 1. (The renderer measures the same way unless the terminal
// says it does grapheme clustering, mode 2027, which this one does not.)
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r >= 0x300 && r <= 0x36f, r >= 0x200b && r <= 0x200f, r >= 0xfe00 && r <= 0xfe0f,
		r >= 0x1ab0 && r <= 0x1aff, r >= 0x1dc0 && r <= 0x1dff, r >= 0x20d0 && r <= 0x20ff,
		r >= 0xfe20 && r <= 0xfe2f, r >= 0xe0100 && r <= 0xe01ef:
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x231a && r <= 0x231b, r >= 0x2329 && r <= 0x232a,
		r >= 0x23e9 && r <= 0x23ec, r == 0x23f0, r == 0x23f3, r >= 0x25fd && r <= 0x25fe,
		r >= 0x2614 && r <= 0x2615, r >= 0x2648 && r <= 0x2653, r == 0x267f, r == 0x2693,
		r == 0x26a1, r >= 0x26aa && r <= 0x26ab, r >= 0x26bd && r <= 0x26be, r >= 0x26c4 && r <= 0x26c5,
		r == 0x26ce, r == 0x26d4, r == 0x26ea, r >= 0x26f2 && r <= 0x26f3, r == 0x26f5, r == 0x26fa,
		r == 0x26fd, r == 0x2705, r >= 0x270a && r <= 0x270b, r == 0x2728, r == 0x274c, r == 0x274e,
		r >= 0x2753 && r <= 0x2755, r == 0x2757, r >= 0x2795 && r <= 0x2797, r == 0x27b0, r == 0x27bf,
		r >= 0x2b1b && r <= 0x2b1c, r == 0x2b50, r == 0x2b55,
		r >= 0x2e80 && r <= 0x303e, r >= 0x3041 && r <= 0x33ff, r >= 0x3400 && r <= 0x4dbf,
		r >= 0x4e00 && r <= 0x9fff, r >= 0xa000 && r <= 0xa4cf, r >= 0xa960 && r <= 0xa97f,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe10 && r <= 0xfe19,
		r >= 0xfe30 && r <= 0xfe6f, r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6,
		r >= 0x1f004 && r <= 0x1f004, r == 0x1f0cf, r == 0x1f18e, r >= 0x1f191 && r <= 0x1f19a,
		r >= 0x1f200 && r <= 0x1f251, r >= 0x1f300 && r <= 0x1f64f, r >= 0x1f680 && r <= 0x1f6ff,
		r >= 0x1f7e0 && r <= 0x1f7eb, r >= 0x1f90c && r <= 0x1f9ff, r >= 0x1fa70 && r <= 0x1faff,
		r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}
