package cmd

import (
	"bytes"
	"io"
	"regexp"
)

// trimWriter passes text on line by line without the spaces at the end
// of each line: fang pads its help to a block's width, which left
// trailing spaces on half the lines of a piped --help. Colour sequences
// among those spaces stay, so styles still end where they did.
type trimWriter struct {
	w    io.Writer
	line []byte
}

// lineTail is the blanks and colour (SGR) sequences that end a line.
var (
	lineTail = regexp.MustCompile(`(?:[ \t]|\x1b\[[0-9;:]*m)+$`)
	sgr      = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
)

// Write takes p, writing each whole line trimmed; the rest waits for its
// newline or Flush.
func (t *trimWriter) Write(p []byte) (int, error) {
	t.line = append(t.line, p...)
	for {
		i := bytes.IndexByte(t.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		if _, err := t.w.Write(append(trimLine(t.line[:i]), '\n')); err != nil {
			return len(p), err
		}
		t.line = t.line[i+1:]
	}
}

// Flush writes what is left of the last line, trimmed.
func (t *trimWriter) Flush() error {
	if len(t.line) == 0 {
		return nil
	}
	_, err := t.w.Write(trimLine(t.line))
	t.line = nil
	return err
}

// trimLine drops the blanks at the end of line, keeping the colour
// sequences among them.
func trimLine(line []byte) []byte {
	loc := lineTail.FindIndex(line)
	if loc == nil {
		return bytes.Clone(line)
	}
	out := bytes.Clone(line[:loc[0]])
	for _, s := range sgr.FindAll(line[loc[0]:], -1) {
		out = append(out, s...)
	}
	return out
}
