package fullscreen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
)

// spilledTranscript is a transcript whose log keeps keep bytes in memory,
// in chunks of chunk bytes, and the rest in a file in a test directory.
func spilledTranscript(t *testing.T, keep int64, chunk int) *transcript {
	tr := newTestTranscript()
	tr.log = newTextLog(t.TempDir(), keep)
	tr.log.chunk = chunk
	t.Cleanup(tr.close)
	return tr
}

// memoryTranscript keeps everything in memory, as before there was a log.
func memoryTranscript() *transcript {
	tr := newTestTranscript()
	tr.log = newTextLog("", 0)
	return tr
}

// firstReply is the first turn's reply: markdown of every kind a block
// can hold, and a code fence long enough to be split.
var firstReply = "# Turn one\n\nThe **first** reply, with `code` and a list:\n\n- one\n- two\n\n```go\n" +
	strings.Repeat("fmt.Println(\"a line of code in the first turn's reply\")\n", 60) + "```\n\nThe end of turn one.\n"

// playTurns streams turns into tr: a prompt, a thought, a reply (the
// first is firstReply; the others long runs of lines) and a tool call,
// with a view now and then as the screen draws them.
func playTurns(tr *transcript, turns int) {
	for n := 1; n <= turns; n++ {
		tr.newTurn()
		tr.user(fmt.Sprintf("turn %d, please", n))
		tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleThought, Text: fmt.Sprintf("Thinking about turn %d. ", n)})
		tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleThought, Text: strings.Repeat("more thought ", 40)})
		reply := firstReply
		if n > 1 {
			reply = strings.Repeat(fmt.Sprintf("turn %d: a line of the reply, sixty bytes or so of it.\n", n), 150)
		}
		for i := 0; i < len(reply); i += 97 {
			tr.chunk(acpconn.MessageChunk{Role: acpconn.RoleAgent, Text: reply[i:min(len(reply), i+97)]})
			if i%(97*20) == 0 {
				tr.viewHold(90, 30, 0, false, true)
			}
		}
		tr.toolCall(acpconn.ToolCall{ID: fmt.Sprintf("t%d", n), Title: "Read README.md", Kind: "read", Status: "completed"})
		tr.endStream()
		tr.view(90, 30, 0)
	}
}

// settled waits for the spool's writes and lets go of what they wrote.
func settled(tr *transcript) {
	tr.log.sp.wait()
	tr.log.reclaim()
}

// The mechanism's bound: after many turns the text the transcript holds
// in memory stays under its cap (one chunk over, the one being filled),
// and the rest is in the file.
func TestTranscriptTextInMemoryStaysUnderItsCap(t *testing.T) {
	const keep, chunk = 32 << 10, 8 << 10
	tr := spilledTranscript(t, keep, chunk)
	playTurns(tr, 40)
	settled(tr)
	if err := tr.log.sp.failure(); err != nil {
		t.Fatal(err)
	}
	if tr.log.size < 10*keep {
		t.Fatalf("only %d bytes of text: the test does not reach the cap", tr.log.size)
	}
	if tr.log.held > keep+chunk {
		t.Errorf("%d bytes of text held in memory after %d bytes in all; the cap is %d", tr.log.held, tr.log.size, keep+chunk)
	}
	if tr.log.sp.written.Load() < tr.log.size-keep-chunk {
		t.Errorf("%d bytes written to the file of %d", tr.log.sp.written.Load(), tr.log.size)
	}
}

// What went to the file reads back the same everywhere: scrolled to the
// top and at every offset on the way, the screen is the one a transcript
// that kept everything in memory draws; the markdown (/export, the text
// printed at exit) is the same and holds the first reply exactly, and so
// do shown thoughts.
func TestSpilledTranscriptShowsTheSame(t *testing.T) {
	mem, sp := memoryTranscript(), spilledTranscript(t, 16<<10, 4<<10)
	playTurns(mem, 12)
	playTurns(sp, 12)
	settled(sp)
	if sp.log.freed == 0 {
		t.Fatal("nothing went to the file")
	}
	if first := sp.items[2].body; sp.items[2].kind != kindAgent || sp.log.find(first.blocks[0].off) >= sp.log.freed {
		t.Fatal("the first reply is still in memory: the test reads nothing back")
	}
	md := sp.markdown()
	if md != mem.markdown() {
		t.Error("the markdown differs from the in-memory transcript's")
	}
	if !strings.Contains(md, "> turn 1, please\n\n"+firstReply+"\n") {
		t.Errorf("the markdown does not hold the first reply exactly:\n%.2000s", md)
	}
	var b strings.Builder
	if err := sp.export().writeTo(&b); err != nil || b.String() != md {
		t.Errorf("the written export differs from the markdown (%v)", err)
	}
	// At a width nothing was drawn at yet: every block in sight is
	// rendered from its source, read back from the file.
	top, _ := sp.view(91, 30, 1<<30)
	if !strings.Contains(top, "turn 1, please") || !strings.Contains(top, "Turn one") {
		t.Errorf("the top does not show the first turn:\n%s", top)
	}
	for _, thoughts := range []bool{false, true} {
		mem.showThoughts, sp.showThoughts = thoughts, thoughts
		for _, it := range append(mem.items, sp.items...) {
			it.invalidate()
		}
		whole, _ := mem.view(91, 1<<20, 0)
		lines := len(strings.Split(strings.TrimLeft(whole, "\n"), "\n"))
		for off := 0; off < lines+30; off += 29 {
			want, wantOff := mem.view(91, 30, off)
			got, gotOff := sp.view(91, 30, off)
			if got != want || gotOff != wantOff {
				t.Fatalf("thoughts %v, offset %d: the screens differ\ngot  (%d)\n%s\nwant (%d)\n%s", thoughts, off, gotOff, got, wantOff, want)
			}
		}
	}
}

// A state directory that cannot hold the file loses nothing: the
// transcript says why once and keeps its text in memory.
func TestSpoolFailureKeepsTheText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	must(t, os.WriteFile(dir, []byte("a file where the directory should be"), 0o600))
	tr := newTestTranscript()
	tr.log = newTextLog(dir, 8<<10)
	tr.log.chunk = 4 << 10
	playTurns(tr, 4)
	tr.log.sp.wait()
	playTurns(tr, 2)
	md := tr.markdown()
	if n := strings.Count(md, "could not keep its older text on disk"); n != 1 {
		t.Errorf("the failure is reported %d times:\n%.3000s", n, md)
	}
	if !strings.Contains(md, firstReply) || tr.log.freed != 0 {
		t.Error("text was lost")
	}
	top, _ := tr.view(90, 30, 1<<30)
	if !strings.Contains(top, "turn 1, please") {
		t.Errorf("the top does not show the first turn:\n%s", top)
	}
}
