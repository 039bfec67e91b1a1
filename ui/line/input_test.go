package line

import (
	"strings"
	"testing"
)

// Lines that arrive together, typed ahead of a question, are stamped with
// the time they were read, not the time the scanner got to each: on a busy
// machine the reading goroutine can stall between two lines of one read
// while the question appears, and the later lines then passed for answers.
func TestLinesReadTogetherShareTheirReadTime(t *testing.T) {
	in := readLines(strings.NewReader("/url\nopen\nyes\n"))
	var got []line
	for l := range in.ch {
		got = append(got, l)
	}
	if len(got) != 3 {
		t.Fatalf("%d lines", len(got))
	}
	for _, l := range got[1:] {
		if !l.at.Equal(got[0].at) {
			t.Errorf("%q stamped %v, %q %v: one read, two times", got[0].s, got[0].at, l.s, l.at)
		}
	}
}
