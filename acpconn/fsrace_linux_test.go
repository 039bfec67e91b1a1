package acpconn

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func init() {
	// fs-race swaps "flip" (a directory inside the session) and "other" (a
	// symlink to ../outside) over and over while it reads flip/secret and
	// writes flip/w.txt, 3,000 times each; it says how often a read
	// returned the outside file.
	scripts["fs-race"] = func(a *scripted) {
		p := a.prompt()
		wd, _ := os.Getwd()
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				// flip is always there: a directory one moment, a
				// symlink to ../outside the next.
				_ = unix.Renameat2(unix.AT_FDCWD, "flip", unix.AT_FDCWD, "other", unix.RENAME_EXCHANGE)
			}
		}()
		outside := 0
		for i := 0; i < 3000; i++ {
			r := a.request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": filepath.Join(wd, "flip", "secret")})
			if strings.Contains(fsOutcome(r), "OUTSIDE") {
				outside++
			}
			a.request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": filepath.Join(wd, "flip", "w.txt"), "content": "x"})
			if _, err := os.Stat(filepath.Join(wd, "..", "outside", "w.txt")); err == nil {
				break
			}
		}
		close(stop)
		a.say(fmt.Sprintf("outside reads: %d", outside))
		a.endTurn(p, "end_turn")
	}
}

// Issue case 2: a path flipped between a directory and a symlink to outside
// while the client works on it never leads outside.
func TestFSRaceNeverEscapes(t *testing.T) {
	session, outside := sandbox(t)
	must(t, os.Mkdir(filepath.Join(session, "flip"), 0o755))
	must(t, os.WriteFile(filepath.Join(session, "flip", "secret"), []byte("inside"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("OUTSIDE"), 0o644))
	must(t, os.Symlink("../outside", filepath.Join(session, "other")))
	c := start(t, "fs-race", Config{Dir: session})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	if got := agentText(evs); got != "outside reads: 0" {
		t.Errorf("agent: %s", got)
	}
	if _, err := os.Stat(filepath.Join(outside, "w.txt")); err == nil {
		t.Error("a write landed outside the session directory")
	}
}
