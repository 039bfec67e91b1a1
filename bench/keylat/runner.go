//go:build linux

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

type runner struct {
	argv           []string
	env            []string
	cols, rows     int
	minGap, maxGap time.Duration
	timeout        time.Duration
	perLine        int
	verbose        bool
	dump           *os.File
	keylog         *os.File
	lat            []time.Duration
	periods        []period // the floods, or the one idle stretch
}

// period is a stretch of typing (a flood, or all of idle): how long it
// ran, and the CPU time and the time runnable but waiting for a CPU of
// the program's threads and its children's (/proc/PID/task/*/schedstat),
// summed over threads.
type period struct {
	wall, cpu, wait time.Duration
}

func (r *runner) start() (*term, error) {
	var t *term
	var err error
	if r.dump != nil {
		t, err = startTerm(r.argv, r.env, r.cols, r.rows, r.dump)
		r.dump = nil // the first run only
	} else {
		t, err = startTerm(r.argv, r.env, r.cols, r.rows, nil)
	}
	if err != nil {
		return nil, err
	}
	if err := t.waitFor(statusReady, 30*time.Second); err != nil {
		return t, fmt.Errorf("the status bar never said ready: %v\n%s", err, t.snapshot())
	}
	time.Sleep(300 * time.Millisecond) // the first frames settle
	if r.verbose {
		fmt.Fprintf(os.Stderr, "keylat: terminal queries answered or seen: %v\n", t.queries())
	}
	return t, nil
}

// idle times n keys at the ready prompt (elicit's, or the floor's).
func (r *runner) idle(n int) error {
	t, err := r.start()
	if t != nil {
		defer t.stop()
	}
	if err != nil {
		return err
	}
	start := time.Now()
	cpu0, wait0 := schedStat(t.cmd.Process.Pid)
	typed := 0
	for len(r.lat) < n {
		if err := r.key(t, &typed); err != nil {
			return err
		}
	}
	cpu1, wait1 := schedStat(t.cmd.Process.Pid)
	r.periods = append(r.periods, period{wall: time.Since(start), cpu: cpu1 - cpu0, wait: wait1 - wait0})
	return nil
}

// flood sends the prompt and times keys until the status bar says ready.
func (r *runner) flood(prompt string) error {
	t, err := r.start()
	if t != nil {
		defer t.stop()
	}
	if err != nil {
		return err
	}
	if err := t.write(prompt); err != nil {
		return err
	}
	if err := t.waitFor(func(s *screen) bool {
		y := promptRow(s)
		return y >= 0 && strings.Contains(s.row(y), prompt)
	}, r.timeout); err != nil {
		return fmt.Errorf("the prompt %q was not drawn: %v\n%s", prompt, err, t.snapshot())
	}
	if err := t.write("\r"); err != nil {
		return err
	}
	if err := t.waitFor(func(s *screen) bool { return !statusReady(s) }, 10*time.Second); err != nil {
		return fmt.Errorf("the flood did not start: %v\n%s", err, t.snapshot())
	}
	start, before := time.Now(), len(r.lat)
	cpu0, wait0 := schedStat(t.cmd.Process.Pid)
	typed := 0
	for !t.isReady() {
		if err := r.key(t, &typed); err != nil {
			return err
		}
	}
	cpu1, wait1 := schedStat(t.cmd.Process.Pid)
	f := period{wall: time.Since(start), cpu: cpu1 - cpu0, wait: wait1 - wait0}
	r.periods = append(r.periods, f)
	if r.verbose {
		t.mu.Lock()
		n := t.bytes
		t.mu.Unlock()
		fmt.Fprintf(os.Stderr, "keylat: flood of %v: %d keys timed, %d bytes of output; elicit and agent threads: %v on a CPU, %v runnable waiting for one\n",
			f.wall.Round(time.Millisecond), len(r.lat)-before, n, f.cpu.Round(time.Millisecond), f.wait.Round(time.Millisecond))
	}
	return nil
}

// key types the next key, times its draw, then pauses; every perLine
// keys it clears the prompt first.
func (r *runner) key(t *term, typed *int) error {
	if *typed == r.perLine {
		if err := r.clear(t); err != nil {
			return err
		}
		*typed = 0
	}
	col := 2 + *typed // after "› "
	c := rune(keys[len(r.lat)%len(keys)])
	cpu0, wait0 := schedStat(t.cmd.Process.Pid) // for the diagnosis of a lost key
	_, self0 := schedStatOf(os.Getpid(), false)
	ch, err := t.arm(func(s *screen) bool {
		y := promptRow(s)
		return y >= 0 && s.cells[y][col] == c
	})
	if err != nil {
		return fmt.Errorf("key %q in column %d: %v\n%s", c, col, err, t.snapshot())
	}
	sent := time.Now()
	if err := t.write(string(c)); err != nil {
		return err
	}
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	var at time.Time
	select {
	case at = <-ch:
	case <-t.done:
		return fmt.Errorf("key %q (#%d): elicit exited; the screen:\n%s", c, len(r.lat)+1, t.snapshot())
	case <-timer.C:
		return r.lost(t, ch, c, col, sent, cpu0, wait0, self0)
	}
	r.lat = append(r.lat, at.Sub(sent))
	if r.keylog != nil {
		fmt.Fprintf(r.keylog, "%c %d %d\n", c, sent.UnixNano(), at.UnixNano())
	}
	*typed++
	time.Sleep(r.minGap + rand.N(r.maxGap-r.minGap+1))
	return nil
}

// lost describes a key not drawn within the timeout: what elicit wrote
// and the CPU it got meanwhile (a stall of the machine or a hang), and
// whether the key comes later (it waits 8 s more).
func (r *runner) lost(t *term, ch chan time.Time, c rune, col int, sent time.Time, cpu0, wait0, self0 time.Duration) error {
	cpu1, wait1 := schedStat(t.cmd.Process.Pid)
	_, self1 := schedStatOf(os.Getpid(), false)
	t.mu.Lock()
	last, n := t.lastRead, t.bytes
	t.mu.Unlock()
	screen := t.snapshot()
	b, _ := os.ReadFile("/proc/loadavg")
	load := strings.Fields(string(b))
	why := fmt.Sprintf("in those %v the program and its children ran %v and waited %v for a CPU, keylat's threads waited %v; the program had written nothing for %v (%d bytes in all); load average %s",
		r.timeout, (cpu1 - cpu0).Round(time.Millisecond), (wait1 - wait0).Round(time.Millisecond), (self1 - self0).Round(time.Millisecond),
		time.Since(last).Round(time.Millisecond), n, strings.Join(load[:min(3, len(load))], " "))
	late := "not drawn 8 s later either"
	select {
	case at := <-ch:
		late = fmt.Sprintf("drawn after %v", at.Sub(sent).Round(time.Millisecond))
	case <-time.After(8 * time.Second):
		t.disarm()
	case <-t.done:
		late = "elicit exited"
	}
	return fmt.Errorf("key %q (#%d, column %d) not on screen within %v (%s); %s; the screen at %v:\n%s",
		c, len(r.lat)+1, col, r.timeout, late, why, r.timeout, screen)
}

// clear sends ctrl+u (delete to the start of the line) and waits until
// none of the keys is left in the prompt's first column.
func (r *runner) clear(t *term) error {
	if err := t.write("\x15"); err != nil {
		return err
	}
	err := t.waitFor(func(s *screen) bool {
		y := promptRow(s)
		return y >= 0 && !strings.ContainsRune(keys, s.cells[y][2])
	}, r.timeout)
	if err != nil {
		return fmt.Errorf("ctrl+u did not clear the prompt: %v\n%s", err, t.snapshot())
	}
	time.Sleep(r.minGap)
	return nil
}
