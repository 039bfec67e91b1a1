package acpconn

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func init() {
	// long-stray prints a 5 MiB line that is not JSON-RPC, then answers.
	scripts["long-stray"] = func(a *scripted) {
		p := a.prompt()
		a.raw(strings.Repeat("x", 5<<20))
		a.say("after")
		a.endTurn(p, "end_turn")
	}
}

// A stray stdout line is shown cut to maxOutputLine: 200 of them at the
// 10 MiB line limit were 2 GB for the UI to hold.
func TestStrayLineIsCut(t *testing.T) {
	c := start(t, "long-stray", Config{})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	for _, ev := range evs {
		if o, ok := ev.(AgentOutput); ok {
			if len(o.Line) > maxOutputLine+100 || !strings.Contains(o.Line, "a line of 5242880 bytes, cut") {
				t.Errorf("stray line of %d bytes shown: %.80q…", len(o.Line), o.Line)
			}
			return
		}
	}
	t.Fatal("no AgentOutput for the stray line")
}

func init() {
	// fs-flood sends 30 reads of big.txt at once, then reads the answers
	// (without decoding them: 300 MB of JSON).
	scripts["fs-flood"] = func(a *scripted) {
		p := a.prompt()
		wd, _ := os.Getwd()
		const n = 30
		for i := 0; i < n; i++ {
			a.nextID++
			a.send(map[string]any{"jsonrpc": "2.0", "id": a.nextID, "method": "fs/read_text_file", "params": map[string]any{"sessionId": "s1", "path": filepath.Join(wd, "big.txt")}})
		}
		got := 0
		for got < n {
			line, err := a.in.ReadBytes('\n')
			if err != nil {
				return
			}
			if head := string(line[:min(len(line), 64)]); strings.Contains(head, `"result"`) || strings.Contains(head, `"error"`) {
				got++
			}
		}
		a.say(fmt.Sprint("answers: ", got))
		a.endTurn(p, "end_turn")
	}
}

// Reads the agent sends at once are answered one at a time: 30 reads of
// a 10 MB file held 1.8 GB (every answer and its JSON at once); of the
// 3 MB file here, 0.8 GB.
func TestPipelinedReadsAreBounded(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("\x01bcdefghi\n", 300_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t, "fs-flood", Config{Dir: dir})
	runtime.GC()
	before := maxRSS()
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.StopReason != "end_turn" || agentText(evs) != "answers: 30" {
		t.Fatalf("turn: %q %v %q", end.StopReason, end.Err, agentText(evs))
	}
	if grew := maxRSS() - before; grew > 100*raceFactor {
		t.Errorf("resident memory grew by %d MiB", grew)
	} else {
		t.Logf("resident memory grew by %d MiB", grew)
	}
}

// maxRSS is this process's peak resident memory in MiB.
func maxRSS() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss >> 10
}
