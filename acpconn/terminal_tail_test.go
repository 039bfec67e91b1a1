package acpconn

import (
	"bytes"
	"strings"
	"testing"
)

func TestTailKeepsTheLastBytes(t *testing.T) {
	for _, tc := range []struct {
		limit  int
		writes []string
		want   string
		trunc  bool
	}{
		{10, []string{"abc", "def"}, "abcdef", false},
		{5, []string{"a\u00e9\u00e9\u00e9\u00e9"}, "\u00e9\u00e9", true},
		{5, []string{"ab", "c\u00e9", "\u00e9\u00e9"}, "\u00e9\u00e9", true},
		{4, []string{"abcd"}, "abcd", false},
		{4, []string{"ab", "cdef"}, "cdef", true},
		{4, []string{"abcdefgh", "ij"}, "ghij", true},
		{3, []string{"a", "b", "c", "d", "e", "f", "g"}, "efg", true},
		{0, []string{"x"}, "", true},
		{0, nil, "", false},
	} {
		r := newTail(tc.limit)
		for _, w := range tc.writes {
			r.write([]byte(w))
		}
		got, trunc := r.bytes()
		if string(got) != tc.want || trunc != tc.trunc {
			t.Errorf("limit %d, writes %q: %q %v, want %q %v", tc.limit, tc.writes, got, trunc, tc.want, tc.trunc)
		}
	}
}

// A tail never holds more than its limit, whatever is written.
func TestTailStaysWithinItsLimit(t *testing.T) {
	r := newTail(1000)
	var all bytes.Buffer
	for i := 0; i < 5000; i++ {
		w := strings.Repeat(string(rune('a'+i%26)), i%700)
		r.write([]byte(w))
		all.WriteString(w)
		if cap(r.buf) > 2*r.limit || len(r.buf) > r.limit {
			t.Fatalf("after %d writes: len %d cap %d", i, len(r.buf), cap(r.buf))
		}
	}
	got, _ := r.bytes()
	if want := all.Bytes()[all.Len()-1000:]; !bytes.Equal(got, want) {
		t.Errorf("kept %.40q…, want %.40q…", got, want)
	}
}
