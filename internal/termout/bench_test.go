package termout

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// frame is a 100x32 full-screen redraw as bubbletea writes it: a cursor
// move, colours and box drawing on every line.
func frame() []byte {
	var b strings.Builder
	b.WriteString("\x1b[?2026h\x1b[?25l")
	for y := 1; y <= 32; y++ {
		fmt.Fprintf(&b, "\x1b[%d;1H\x1b[90m│\x1b[m \x1b[94;1mline %2d\x1b[m ", y, y)
		b.WriteString(strings.Repeat("text é ", 12))
		b.WriteString("\x1b[90m─────\x1b[m\x1b[K")
	}
	b.WriteString("\x1b[?25h\x1b[?2026l")
	return []byte(b.String())
}

// BenchmarkFrame compares a frame written through the Screen policy with
// the same frame copied into a buffer (what a plain write to a terminal
// costs in-process, before the system call).
func BenchmarkFrame(b *testing.B) {
	fr := frame()
	b.Run("plain copy", func(b *testing.B) {
		var buf bytes.Buffer
		b.SetBytes(int64(len(fr)))
		for b.Loop() {
			buf.Reset()
			buf.Write(fr)
		}
	})
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	b.Run("write to /dev/null", func(b *testing.B) {
		b.SetBytes(int64(len(fr)))
		for b.Loop() {
			null.Write(fr)
		}
	})
	b.Run("screen to /dev/null", func(b *testing.B) {
		w := New(null, Screen)
		b.SetBytes(int64(len(fr)))
		for b.Loop() {
			w.Write(fr)
		}
	})
	for _, p := range []Policy{Screen, View, Styled} {
		b.Run(policyName(p), func(b *testing.B) {
			w := New(io.Discard, p)
			b.SetBytes(int64(len(fr)))
			b.ReportAllocs()
			for b.Loop() {
				w.Write(fr)
			}
		})
	}
}
