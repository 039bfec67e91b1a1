package line

import (
	"bytes"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
)

// Issue 27, case 16: 50 MB of a command's output reach the screen reader
// as its head and its tail, with a line saying how much was left out.
func TestCommandOutputIsCapped(t *testing.T) {
	var out bytes.Buffer
	o := &outputs{}
	chunk := strings.Repeat("é1234567\n", 7000) // 70 KB, a character over two bytes
	n := 0
	for n < 50<<20 {
		o.write(&out, acpconn.TerminalOutput{TerminalID: "t", Chunk: chunk})
		n += len(chunk)
	}
	o.write(&out, acpconn.TerminalOutput{TerminalID: "t", Chunk: "the end\n", Exited: true})
	got := out.String()
	if len(got) > outputHead+outputTail+200 {
		t.Fatalf("%d bytes read out of %d", len(got), n)
	}
	if !strings.Contains(got, "MB of the command's output left out") || !strings.HasSuffix(got, "1234567\nthe end\n") {
		t.Fatalf("no word of what was left out, or not the tail:\n%s", got[max(0, len(got)-300):])
	}
	if !strings.HasPrefix(got, "é1234567\n") || strings.ContainsRune(got, '\uFFFD') || !strings.Contains(got, "é") {
		t.Fatal("a character was cut")
	}
	if len(o.byID) != 0 {
		t.Fatal("the terminal was not forgotten")
	}
	// Short output is read out whole, as it comes.
	out.Reset()
	o.write(&out, acpconn.TerminalOutput{TerminalID: "u", Chunk: "ok\n"})
	o.write(&out, acpconn.TerminalOutput{TerminalID: "u", Exited: true})
	if out.String() != "ok\n" {
		t.Fatalf("%q", out.String())
	}
}
