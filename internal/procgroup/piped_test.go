//go:build unix

package procgroup

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// TestPiped: what a child writes to stdout is all there after it exited;
// its stderr tail keeps the last StderrLines lines, sanitized, long lines
// cut; Stop returns once nothing of it runs.
func TestPiped(t *testing.T) {
	l := &Lifecycle{Grace: time.Second}
	script := `i=0; while [ $i -lt 60 ]; do echo "err $i" >&2; i=$((i+1)); done
printf 'title \033]0;PWNED\007 %05000d\n' 7 >&2
head -c 200000 /dev/zero | tr '\0' o; exit 3`
	p, err := l.StartPiped([]string{"sh", "-c", script}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(p.Stdout) // to the end: all of it, after the exit too
	if err != nil || len(out) != 200000 {
		t.Fatalf("stdout: %d bytes, %v", len(out), err)
	}
	<-p.Group.Done()
	p.WaitStderr(testkit.Hang) // the end of its stderr: it exited
	tail := p.StderrTail()
	if len(tail) != StderrLines || tail[0] != "err 21" {
		t.Fatalf("tail of %d lines from %q", len(tail), tail[0])
	}
	last := tail[len(tail)-1]
	if strings.ContainsRune(last, 0x1b) || !strings.Contains(last, "bytes cut") {
		t.Errorf("the last line, %q, is not sanitized and cut", last[:min(len(last), 80)])
	}
	p.Stop()
	if p.Group.Live() {
		t.Error("the group still runs after Stop")
	}
}
