package termout

import "unicode/utf8"

// inSequence advances through an escape sequence from p[i] and returns
// where it stopped. A finished sequence is written when the policy allows
// it; a broken one is dropped and the byte that broke it read again as
// text (so nothing after a stray ESC is lost).
func (f *filter) inSequence(p []byte, i int) int {
	for i < len(p) {
		c := p[i]
		switch f.st {
		case esc:
			switch {
			case c == '[':
				f.st = csi
			case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
				f.st = str
			case c >= 0x20 && c <= 0x2f:
				f.st = escInter
			case c >= 0x30 && c <= 0x7e:
				f.seq = append(f.seq, c)
				f.finish()
				return i + 1
			case c == 0x1b:
				f.seq = f.seq[:1] // a new escape replaces the old
				return i + 1
			default:
				f.abort()
				return i
			}
			f.seq = append(f.seq, c)
			i++
		case escInter, csi:
			// An ESC sequence takes intermediates (0x20-0x2f) and ends
			// at 0x30-0x7e; a CSI also takes parameters (to 0x3f) and
			// ends at 0x40-0x7e.
			lastBody := byte(0x2f)
			if f.st == csi {
				lastBody = 0x3f
			}
			switch {
			case c >= 0x20 && c <= lastBody && len(f.seq) < maxCSI:
				f.seq = append(f.seq, c)
				i++
			case c > lastBody && c <= 0x7e:
				f.seq = append(f.seq, c)
				f.finish()
				return i + 1
			default:
				f.abort()
				return i
			}
		case str:
			// Scan the body in one go: most of it is printable.
			j := i
			limit := maxString
			if f.policy == Screen {
				limit = maxScreenStr
			}
			for j < len(p) && (p[j] >= 0x20 && p[j] != 0x7f) {
				j++
			}
			if len(f.seq)+(j-i) > limit {
				f.abort()
				return i
			}
			f.seq = append(f.seq, p[i:j]...)
			i = j
			if i == len(p) {
				return i
			}
			switch c := p[i]; c {
			case 0x07: // BEL ends an OSC
				f.seq = append(f.seq, c)
				f.finish()
				return i + 1
			case 0x1b:
				f.st = strEsc
				i++
			case 0x18, 0x1a: // CAN and SUB cancel it
				f.abort()
				return i + 1
			default:
				f.abort()
				return i
			}
		case strEsc:
			if c == '\\' {
				f.seq = append(f.seq, 0x1b, c)
				f.finish()
				return i + 1
			}
			// Not ST: the string is broken; this ESC starts afresh.
			f.st = esc
			f.seq = append(f.seq[:0], 0x1b)
		}
	}
	return i
}

// abort drops the sequence so far.
func (f *filter) abort() {
	f.st = ground
	f.seq = f.seq[:0]
}

// finish writes the complete sequence in f.seq if the policy allows it.
func (f *filter) finish() {
	if allowed(f.policy, f.seq) {
		f.out = append(f.out, f.seq...)
	}
	f.abort()
}

// screenOSC are the OSC commands elicit's full screen writes: window title
// (0, 1, 2), notifications and progress (9, 777), colour queries and resets
// (4, 10, 11, 12, 104, 110, 111, 112), pointer shape (22), clipboard (52).
var screenOSC = map[int]bool{0: true, 1: true, 2: true, 4: true, 9: true, 10: true, 11: true, 12: true,
	22: true, 52: true, 104: true, 110: true, 111: true, 112: true, 777: true}

// allowed reports whether the policy lets the finished sequence seq through.
func allowed(p Policy, seq []byte) bool {
	switch p {
	case Styled, View:
		return isSGR(seq)
	case Screen:
		switch seq[1] {
		case '[':
			return true
		case ']':
			return screenOSC[oscNumber(seq)] && plainString(seq)
		case '7', '8', 'M', '=', '>':
			return len(seq) == 2
		}
	}
	return false
}

// plainString reports whether an OSC's bytes are valid UTF-8 with no C1
// control, which some terminals would obey even inside the string.
func plainString(seq []byte) bool {
	if !utf8.Valid(seq) {
		return false
	}
	for i := 0; i+1 < len(seq); i++ {
		if seq[i] == 0xc2 && seq[i+1] >= 0x80 && seq[i+1] < 0xa0 {
			return false
		}
	}
	return true
}

// isSGR reports whether seq is ESC [ params m with only digits, ';' and
// ':' as parameters (no private prefix, no intermediates).
func isSGR(seq []byte) bool {
	if len(seq) < 3 || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for _, c := range seq[2 : len(seq)-1] {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// oscNumber is the command number of an OSC sequence, or -1.
func oscNumber(seq []byte) int {
	n, digits := 0, 0
	for _, c := range seq[2:] {
		if c < '0' || c > '9' {
			if c != ';' && c != 0x07 && c != 0x1b {
				return -1
			}
			break
		}
		if digits++; digits > 4 {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	if digits == 0 {
		return -1
	}
	return n
}
