//go:build linux

package main

import (
	"strconv"
	"strings"
)

// The control sequences the emulator understands (CSI, DEC private modes).

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
