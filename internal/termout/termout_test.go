package termout

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/term"
)

// hostile is text an agent might send: every kind of escape, control and
// invisible character.
const hostile = "a\x1b[31mred\x1b[0m b\x1b[2J c\x1b]0;title\x07 d\x1b]52;c;Y3VybA==\x1b\\ " +
	"e\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07 f\x1bPq#0\x1b\\ g\x1b_G\x1b\\ h\x1bc i\x1b7j\x1b8 " +
	"k\u009b31ml \u202eRLO\u202c m\u200dn\u200bo\ufeffp\u200fq r\rs\bt\x07u\x00v\x7fw\x1b(0x\xffy\n\tz"

func TestPolicies(t *testing.T) {
	cases := []struct {
		policy Policy
		want   string
	}{
		{Pipe, "ared b c d elink f g h ij k31ml \u202eRLO\u202c m\u200dn\u200bo\ufeffp\u200fq r\rstuvwx\ufffdy\n\tz"},
		{Plain, "ared b c d elink f g h ij k31ml <U+202E>RLO<U+202C> m<U+200D>n<U+200B>o<U+FEFF>p<U+200F>q rstuvwx\ufffdy\n\tz"},
		{Styled, "a\x1b[31mred\x1b[0m b c d elink f g h ij k31ml <U+202E>RLO<U+202C> m<U+200D>n<U+200B>o<U+FEFF>p<U+200F>q rstuvwx\ufffdy\n\tz"},
		{Screen, "a\x1b[31mred\x1b[0m b\x1b[2J c\x1b]0;title\x07 d\x1b]52;c;Y3VybA==\x1b\\ elink f g h i\x1b7j\x1b8 k31ml RLO mnopq r\rs\btuvwx\ufffdy\n\tz"},
		{View, "a\x1b[31mred\x1b[0m b c d elink f g h ij k31ml RLO mnopq rstuvwx\ufffdy\n\tz"},
	}
	for _, c := range cases {
		t.Run(policyName(c.policy), func(t *testing.T) {
			if got := String(hostile, c.policy); got != c.want {
				t.Errorf("String =\n%q\nwant\n%q", got, c.want)
			}
			// The same bytes written one at a time: the state carries over.
			var buf bytes.Buffer
			w := New(&buf, c.policy)
			for i := range len(hostile) {
				w.Write([]byte{hostile[i]})
			}
			if got := buf.String(); got != c.want {
				t.Errorf("byte by byte =\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func policyName(p Policy) string {
	return [...]string{"pipe", "plain", "styled", "screen", "view"}[p]
}

func TestSequenceCases(t *testing.T) {
	cases := []struct {
		name   string
		policy Policy
		in     string
		want   string
	}{
		{"unterminated osc 8 at a newline", Plain, "x\x1b]8;;https://evil.example/\nafter", "x\nafter"},
		{"unterminated osc in styled", Styled, "x\x1b]8;;https://evil.example/", "x"},
		{"osc 8 st form on screen", Screen, "\x1b]8;id=1;https://e.example/\x1b\\x\x1b]8;;\x1b\\", "x"},
		{"stray esc keeps the text", Plain, "a\x1b\nb", "a\nb"},
		{"sgr with colon", Styled, "\x1b[38:2:1:2:3mx", "\x1b[38:2:1:2:3mx"},
		{"private csi is not sgr", Styled, "\x1b[>4;2mx\x1b[?25lx", "xx"},
		{"csi cursor move is not sgr", Styled, "\x1b[10Ax\x1b[2Jy", "xy"},
		{"osc with c1 inside on screen", Screen, "\x1b]0;a\u009b2Jb\x07x", "x"},
		{"osc with invalid utf8 on screen", Screen, "\x1b]2;a\x9bb\x07x", "x"},
		{"osc title utf8 on screen", Screen, "\x1b]2;elicit · demo\x07", "\x1b]2;elicit · demo\x07"},
		{"osc 7 cwd dropped on screen", Screen, "\x1b]7;file://h/x\x07y", "y"},
		{"dcs dropped on screen", Screen, "\x1bP+q544e\x1b\\y", "y"},
		{"ris dropped on screen", Screen, "\x1bcy", "y"},
		{"charset dropped on screen", Screen, "\x1b(0y", "y"},
		{"can cancels a string", Plain, "\x1b]0;t\x18y", "y"},
		{"overlong csi read as text", Styled, "\x1b[" + strings.Repeat("1;", 200) + "mz", strings.Repeat("1;", 73) + "mz"},
		{"c1 csi in utf-8", Screen, "\u009b2Jz", "2Jz"},
		{"four-byte invisible", Plain, "a\U000E0041b", "a<U+E0041>b"},
		{"emoji kept", Plain, "ok 👍 é", "ok 👍 é"},
		{"cr dropped in plain", Plain, "safe\rEVIL", "safeEVIL"},
		{"cr kept in pipe", Pipe, "a\r\nb", "a\r\nb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := String(c.in, c.policy); got != c.want {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestSplitCharacter(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, Plain)
	rlo := []byte("x\u202ey")
	w.Write(rlo[:2]) // x and the first byte of U+202E
	w.Write(rlo[2:3])
	w.Write(rlo[3:])
	if got := buf.String(); got != "x<U+202E>y" {
		t.Errorf("got %q", got)
	}
	buf.Reset()
	w = New(&buf, Plain)
	w.Write([]byte{0xe2})
	w.Write([]byte("A"))
	if got := buf.String(); got != "\ufffdA" {
		t.Errorf("broken character: got %q", got)
	}
}

func TestCleanStringNotCopied(t *testing.T) {
	s := strings.Repeat("plain text ", 10)
	if allocs := testing.AllocsPerRun(50, func() { _ = String(s, Plain) }); allocs != 0 {
		t.Errorf("clean text allocated %v times", allocs)
	}
}

func TestOneWritePerWrite(t *testing.T) {
	var cw countingWriter
	w := New(&cw, Screen)
	w.Write([]byte("\x1b[H\x1b[2Jframe\x1b[31mred\x1b[m"))
	w.Write([]byte("\x1b]8;;x\x07")) // all dropped: no write at all
	if cw.n != 1 {
		t.Errorf("%d underlying writes, want 1", cw.n)
	}
}

type countingWriter struct{ n int }

func (c *countingWriter) Write(p []byte) (int, error) { c.n++; return len(p), nil }

func TestFileIsATerminalFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tf term.File = NewFile(f, Screen) // bubbletea and colorprofile look for this
	if tf.Fd() != f.Fd() {
		t.Error("Fd differs from the file's")
	}
}

func TestEscapeJSON(t *testing.T) {
	b, _ := json.Marshal(map[string]string{"u": "a\u202eb\u200dc\u0085d\U000E0041é\x7f"})
	got := string(EscapeJSON(b))
	want := `{"u":"a\u202eb\u200dc\u0085d\udb40\udc41é\u007f"}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back["u"] != "a\u202eb\u200dc\u0085d\U000E0041é\x7f" {
		t.Errorf("the escaped JSON means something else: %q %v", back["u"], err)
	}
}
