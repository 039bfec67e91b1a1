package sanitize

import (
	"strings"
	"testing"
)

// BenchmarkText measures Text on a 4 KiB agent message: clean (the fast
// path, no copy) and dirty (escape sequences, controls and a bidi override
// scattered through it).
func BenchmarkText(b *testing.B) {
	clean := strings.Repeat("The quick brown fox jumps over the lazy dog; naïve café. ", 72)
	dirty := strings.Repeat("The \x1b[31mquick\x1b[0m brown \x1b]8;;https://x.example\x07fox\x1b]8;;\x07 jumps\r over\x7f the \u202elazy dog. ", 40)
	tests := []struct {
		name, in string
	}{
		{"clean", clean},
		{"dirty", dirty},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.in)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Text(tt.in)
			}
		})
	}
}
