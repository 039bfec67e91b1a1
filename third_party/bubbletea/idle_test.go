package tea

// elicit patch (PATCH.md): the renderer draws nothing while nothing changes.

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is an output the test reads while the program writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) contains(s string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Contains(b.buf.String(), s)
}

type wordMsg string

type wordModel struct{ word string }

func (m wordModel) Init() Cmd { return nil }

func (m wordModel) Update(msg Msg) (Model, Cmd) {
	switch msg := msg.(type) {
	case wordMsg:
		m.word = string(msg)
	case KeyPressMsg:
		m.word = "key-" + msg.Text
	}
	return m, nil
}

func (m wordModel) View() View { return NewView("word: " + m.word) }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestRendererSleepsWhileIdle(t *testing.T) {
	var out lockedBuffer
	p := NewProgram(wordModel{word: "first"}, WithInput(nil), WithOutput(&out), WithWindowSize(80, 24), WithFPS(60))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	waitFor(t, "the first frame", func() bool { return out.contains("first") })
	time.Sleep(100 * time.Millisecond) // the tick after the last view stops the ticker
	idle := p.frames.Load()
	time.Sleep(300 * time.Millisecond) // 18 intervals at 60 fps
	if n := p.frames.Load() - idle; n != 0 {
		t.Fatalf("the renderer drew %d frames in 300 ms with nothing to draw, want 0", n)
	}

	p.Send(wordMsg("second"))
	waitFor(t, "the frame after a pause", func() bool { return out.contains("second") })
	if p.frames.Load() == idle {
		t.Fatal("a new view was drawn without a frame")
	}

	// A burst inside one interval is still drawn, and coalesced.
	before := p.frames.Load()
	for i := range 200 {
		p.Send(wordMsg("burst" + strings.Repeat("!", i%3)))
	}
	p.Send(wordMsg("last"))
	waitFor(t, "the burst's last view", func() bool { return out.contains("last") })
	if n := p.frames.Load() - before; n >= 200 {
		t.Fatalf("201 views in a burst took %d frames: not coalesced", n)
	}
}

// TestKeyDrawnAtOnce checks that what is typed is drawn at once, not on the
// next tick: at 1 frame a second, a key pressed just after a frame shows well
// before the next one.
func TestKeyDrawnAtOnce(t *testing.T) {
	var out lockedBuffer
	p := NewProgram(wordModel{word: "first"}, WithInput(nil), WithOutput(&out), WithWindowSize(80, 24), WithFPS(1))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	waitFor(t, "the first frame", func() bool { return out.contains("first") })
	p.Send(wordMsg("ticking")) // inside the interval: drawn on the next tick
	start := time.Now()
	p.Send(KeyPressMsg{Code: 'k', Text: "k"})
	waitFor(t, "the key", func() bool { return out.contains("key-k") })
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Fatalf("a key press took %v to show at 1 frame a second: it waited for the tick", d)
	}
}

// TestFloodAtHalfRate checks that views coming on every tick for longer
// than floodAfter are drawn at half the frame rate. At 20 fps, 2 s of
// views would be 40 frames. (That the rate is whole again once the ticker
// stopped is not timed here: a loaded machine delays ticks.)
func TestFloodAtHalfRate(t *testing.T) {
	var out lockedBuffer
	p := NewProgram(wordModel{word: "first"}, WithInput(nil), WithOutput(&out), WithWindowSize(80, 24), WithFPS(20))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	waitFor(t, "the first frame", func() bool { return out.contains("first") })
	flood := func(d time.Duration) int64 {
		before := p.frames.Load()
		for i, end := 0, time.Now().Add(d); time.Now().Before(end); i++ {
			p.Send(wordMsg(strings.Repeat("x", i%7)))
			time.Sleep(5 * time.Millisecond)
		}
		return p.frames.Load() - before
	}
	if n := flood(2 * time.Second); n > 30 {
		t.Fatalf("2 s of views at 20 fps drew %d frames, want at most 30 (5 at full rate, then 10 a second)", n)
	}
}
