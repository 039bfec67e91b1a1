//go:build linux

package main

// What the emulator does to its cells: printing, scrolling, erasing.

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
