package acpconn

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// FuzzTerminalStream feeds a command's output, in reads of the sizes
// given, to what a terminal keeps (its tail, under a limit) and to the
// pieces the UI is given. The pieces are the output, whole and in order,
// none longer than streamPiece, none cutting a character of valid UTF-8,
// each clean once sanitized; the tail is the output's end, within the
// limit, starting at a character once truncated.
func FuzzTerminalStream(f *testing.F) {
	f.Add([]byte("h\xc3\xa9llo\n\x1b]52;c;eA==\x07x\n"), []byte{3, 1, 200}, uint16(5))
	f.Add(bytes.Repeat([]byte("\xe2\x82\xac"), 5000), []byte{255, 7}, uint16(4))
	f.Add(bytes.Repeat([]byte("a"), 20000), []byte{0}, uint16(1000))
	f.Fuzz(func(t *testing.T, data, sizes []byte, limit uint16) {
		r := newTail(int(limit))
		var st streamer
		var got [][]byte
		emit := func(p []byte) { got = append(got, append([]byte(nil), p...)) }
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if len(sizes) > 0 {
				n = min(n, 1+int(sizes[i%len(sizes)])*97)
			}
			r.write(rest[:n])
			st.feed(rest[:n], emit)
			rest = rest[n:]
		}
		st.flush(emit)
		if joined := bytes.Join(got, nil); !bytes.Equal(joined, data) {
			t.Fatalf("the pieces are not the output: %q, want %q", joined, data)
		}
		valid := utf8.Valid(data)
		for _, p := range got {
			if len(p) == 0 || len(p) > streamPiece {
				t.Errorf("a piece of %d bytes", len(p))
			}
			if valid && !utf8.Valid(p) {
				t.Errorf("a piece cuts a character: %q", p)
			}
			if s := sanitize.Text(string(p)); sanitize.Text(s) != s || strings.ContainsAny(s, "\x1b\u009b") {
				t.Errorf("a sanitized piece is not clean: %q", s)
			}
		}
		kept, truncated := r.bytes()
		if len(kept) > int(limit) || !bytes.HasSuffix(data, kept) || truncated != (len(data) > int(limit)) {
			t.Fatalf("limit %d over %d bytes: kept %d (truncated %v)", limit, len(data), len(kept), truncated)
		}
		if truncated {
			// At most the UTFMax-1 bytes of one cut character go; in valid
			// UTF-8 what is kept starts at a character (in invalid UTF-8,
			// a run of stray continuation bytes stays as it was).
			if skipped := int(limit) - len(kept); skipped >= utf8.UTFMax && len(data) >= int(limit) || valid && len(kept) > 0 && !utf8.RuneStart(kept[0]) {
				t.Errorf("limit %d: kept %d bytes, starting %q", limit, len(kept), kept[:min(4, len(kept))])
			}
		}
	})
}
