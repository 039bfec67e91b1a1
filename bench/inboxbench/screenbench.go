package main

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/elicit-dev/elicit/ahp"
)

// quiet is the pause before each new question on the screen.
const quiet = 300 * time.Millisecond

// screenHang bounds every wait on the inbox's screen: reaching it means
// what was waited for never came.
const screenHang = 2 * time.Minute

// idleScreen runs the inbox's screen over the one session h publishes,
// with no question waiting, and counts over idle what it does while
// nothing happens: its context switches (all threads) a second, and the
// bytes it writes to its terminal (a redraw writes some).
func idleScreen(bin string, env []string, idle time.Duration) (wakeups float64, written int64, err error) {
	s, err := startScreen(bin, env)
	if err != nil {
		return 0, 0, err
	}
	defer s.close()
	deadline := time.Now().Add(screenHang)
	for _, text := range []string{"no question waits", "· 1 session"} {
		if _, err := s.waitFor(text, deadline); err != nil {
			return 0, 0, err
		}
	}
	time.Sleep(time.Second) // the start-up's last redraws and terminal queries
	pid := s.cmd.Process.Pid
	s0, b0 := switches(pid), s.Written()
	time.Sleep(idle)
	s1, b1 := switches(pid), s.Written()
	return float64(s1-s0) / idle.Seconds(), b1 - b0, nil
}

// screenLatency runs the inbox's screen over the n sessions (n-1 of them
// waiting on a form), then samples times: h asks a new question (t0) and
// the time runs until the read that draws the screen's header counting
// it; then h withdraws it and the header counts n-1 again; the samples are
// quiet apart. (The first frame after a pause is drawn at once, but a
// question shows only once the session core has prepared it, one message
// later, so it comes on the renderer's next tick: about 17 ms at 60 fps.)
// It returns the
// latencies, sorted, in ms.
func screenLatency(bin string, env []string, h *ahp.Host, n, samples int) ([]float64, error) {
	s, err := startScreen(bin, env)
	if err != nil {
		return nil, err
	}
	defer s.close()
	plural := func(k int, one string) string {
		if k == 1 {
			return "1 " + one
		}
		return strconv.Itoa(k) + " " + one + "s"
	}
	header := func(q int) string { return plural(q, "question") + " waiting · " + plural(n, "session") }
	if _, err := s.waitFor(header(n-1), time.Now().Add(screenHang)); err != nil {
		return nil, err
	}
	var lat []float64
	for i := range samples {
		// A question comes to an inbox nobody is using: after a pause
		// longer than the renderer's (it stops ticking 100 ms after the
		// last view; back to back, the samples would time its cadence).
		time.Sleep(quiet)
		id := "screen" + strconv.Itoa(i)
		t0 := time.Now()
		if err := h.Request(ahp.Request{ID: id, Message: "Bench " + id, Questions: []ahp.Question{{ID: "x", Kind: ahp.KindText, Message: "x?"}},
			Meta: ahp.RequestMeta{Kind: ahp.MetaForm, AskedAt: t0.UTC().Format(time.RFC3339Nano)}.Raw()}); err != nil {
			return nil, err
		}
		at, err := s.waitFor(header(n), time.Now().Add(screenHang))
		if err != nil {
			return nil, fmt.Errorf("question %d: %w", i, err)
		}
		lat = append(lat, ms(at.Sub(t0)))
		h.Withdraw(id)
		if _, err := s.waitFor(header(n-1), time.Now().Add(screenHang)); err != nil {
			return nil, fmt.Errorf("question %d withdrawn: %w", i, err)
		}
	}
	sort.Float64s(lat)
	return lat, nil
}
