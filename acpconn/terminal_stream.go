package acpconn

import (
	"bytes"
	"unicode/utf8"
)

// streamer cuts a command's output into the pieces the UI is given: each
// ends after a line break where it can (so an escape sequence is not cut
// in two before it is sanitized), an unfinished line is held until
// streamHold bytes of it wait, and no piece is longer than streamPiece.
// A character is never cut in two. The zero value is ready.
type streamer struct{ hold []byte }

// feed takes more output and gives emit every piece now ready.
func (s *streamer) feed(b []byte, emit func([]byte)) {
	s.hold = append(s.hold, b...)
	if cut := streamCut(s.hold); cut > 0 {
		pieces(s.hold[:cut], emit)
		s.hold = append(s.hold[:0:0], s.hold[cut:]...)
	}
}

// flush gives emit what is held (the command ended).
func (s *streamer) flush(emit func([]byte)) {
	pieces(s.hold, emit)
	s.hold = s.hold[:0]
}

// pieces gives emit b in pieces of at most streamPiece bytes.
func pieces(b []byte, emit func([]byte)) {
	for len(b) > 0 {
		n := len(b)
		if n > streamPiece {
			n = pieceCut(b[:streamPiece])
		}
		emit(b[:n])
		b = b[n:]
	}
}

// streamCut is how much of held output to stream now: up to the last line
// break, or all but an unfinished character once too much is held.
func streamCut(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	if len(b) < streamHold {
		return 0
	}
	i := len(b) - 1 // the start of the last character
	for i > 0 && i > len(b)-utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	if utf8.FullRune(b[i:]) {
		return len(b)
	}
	return i
}

// pieceCut is where to cut b, a piece too long to stream whole: after its
// last line break, else before its last character when that is cut short.
func pieceCut(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	i := len(b) - 1
	for i > 0 && i > len(b)-utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	if utf8.FullRune(b[i:]) || i == 0 {
		return len(b)
	}
	return i
}
