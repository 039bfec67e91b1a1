package termout

import (
	"bytes"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Check reads out with x/ansi's parser (not this package's filter) and
// describes the first thing in it that policy p does not allow, or returns
// "": tests use it to hold captured output to a policy.
func Check(out []byte, p Policy) string {
	if !utf8.Valid(out) {
		return "invalid UTF-8"
	}
	var state byte
	parser := ansi.NewParser()
	for len(out) > 0 {
		seq, _, n, next := ansi.DecodeSequence(out, state, parser)
		state, out = next, out[n:]
		if len(seq) == 0 {
			continue
		}
		c := seq[0]
		switch {
		case c == 0x1b:
			if !allowedSeq(p, seq, parser) {
				return "sequence " + string(seq[:min(len(seq), 24)])
			}
		case c < 0x20 || c == 0x7f:
			if !keptControl(p, c) {
				return "control " + string(seq)
			}
		default:
			for _, r := range string(seq) {
				if r >= 0x80 && r < 0xa0 {
					return "C1 control"
				}
				if p != Pipe && sanitize.Visible(r) {
					return "invisible character"
				}
			}
		}
	}
	return ""
}

func keptControl(p Policy, c byte) bool {
	switch c {
	case '\n', '\t':
		return true
	case '\r':
		return p == Pipe || p == Screen
	case '\b':
		return p == Screen
	}
	return false
}

// allowedSeq is the policy's rule restated over x/ansi's parse.
func allowedSeq(p Policy, seq []byte, parser *ansi.Parser) bool {
	switch p {
	case Styled, View:
		cmd := ansi.Cmd(parser.Command())
		return ansi.HasCsiPrefix(seq) && cmd.Final() == 'm' && cmd.Prefix() == 0 && cmd.Intermediate() == 0
	case Screen:
		switch {
		case ansi.HasCsiPrefix(seq):
			return true
		case ansi.HasOscPrefix(seq):
			return screenOSC[parser.Command()]
		case len(seq) == 2:
			return bytes.IndexByte([]byte("78M=>"), seq[1]) >= 0
		}
	}
	return false
}
