//go:build unix

package acpconn

import (
	"os"
	"testing"
)

// TestDrainPipe: once a command exited, what it wrote is read whole
// without waiting for end of file (a process it left behind may hold the
// pipe open), and end of file is told apart from an empty pipe.
func TestDrainPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	big := make([]byte, 48<<10) // more than one read's buffer
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	if _, err := w.Write(big); err != nil {
		t.Fatal(err)
	}
	var got []byte
	keep := func(b []byte) { got = append(got, b...) }
	buf := make([]byte, 32<<10)
	if eof := drainPipe(r, buf, keep); eof {
		t.Error("end of file reported while a writer holds the pipe")
	}
	if string(got) != string(big) {
		t.Fatalf("drained %d bytes, want %d", len(got), len(big))
	}
	w.Close()
	if eof := drainPipe(r, buf, keep); !eof {
		t.Error("no end of file once every writer closed the pipe")
	}
}
