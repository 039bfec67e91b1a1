package acpconn

import "unicode/utf8"

// tailOf is the last limit bytes of b, starting at a character boundary:
// the one way command output is kept within its cap (terminal/* output and
// the agents' _meta terminal extension alike).
func tailOf(b []byte, limit int) []byte {
	if len(b) <= limit {
		return b
	}
	drop := len(b) - limit
	for drop < len(b) && !utf8.RuneStart(b[drop]) {
		drop++
	}
	return b[drop:]
}
