// Command keylat measures keystroke-to-screen latency of elicit's full
// screen: it runs the built elicit binary in a pseudo-terminal of a given
// size, types single printable keys into the prompt and times each one
// from the write to the terminal until the terminal's screen (a small
// emulator fed with everything elicit writes) shows that character in
// its cell of the prompt line.
//
//	keylat -elicit ./elicit -size 100x32 -mode idle -- ./lineagent
//	keylat -elicit ./elicit -size 200x60 -mode flood -prompt "lines 100000" -- ./lineagent
//	keylat -mode floor -size 100x32
//
// idle: at the ready prompt, nothing else happening (the baseline).
// flood: the prompt is sent (as bench/run.sh does in tmux: the text, then
// Enter) and keys are typed while the reply streams, until the status bar
// says ready again; a fresh elicit per flood, floods until -samples keys.
// floor: the same keys into a program that echoes each one at once
// (keylat -echo): the harness's own latency, pty and wake-ups included.
//
// The pseudo-terminal is the only terminal elicit has: TERM=xterm-256color,
// no multiplexer. The emulator answers the queries bubbletea sends at
// start-up (background colour: dark; DECRQM for synchronized output 2026
// and grapheme widths 2027: not recognized, as xterm; kitty keyboard: no
// answer, so legacy keys); none of them blocks the program.
//
// Keys are upper-case letters, which the flood (bench/lineagent's lines:
// digits and "lorem ipsum dolor sit amet, consectetur adipiscing.") and
// the prompt's placeholder never show; each key is expected in its own
// column of the prompt line (the row that starts with "› ", searched
// from the bottom), so a key counts only once drawn where it belongs.
// After a pause of -min to -max after each draw, the next key; every
// -line keys, ctrl+u clears the prompt (not timed).
//
// A latency runs from just before the key's write to the pty until the
// read that completes its draw returns (the output is read on a goroutine
// of its own, all the time, so elicit never waits on it). keylat prints
// p50, p90, p99 and max with the number of keys, and the CPU and the
// run-queue wait of elicit and its agent meanwhile (a busy machine shows
// there: threads waiting for a CPU); with -raw it appends each
// latency in microseconds, one a line, so runs can be pooled. A key not
// drawn within -timeout is lost: keylat prints a FAIL line and the screen,
// appends nothing and exits 1. bench/run.sh runs it (group keys); it is
// never a timed unit test (the tests check the emulator only).
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"
)

// keys are typed in turn; none occurs in the flood or the placeholder.
const keys = "QXZJKVWY"

func main() {
	elicit := flag.String("elicit", "", "the elicit binary (required but for -mode floor)")
	size := flag.String("size", "100x32", "terminal size, COLSxROWS")
	mode := flag.String("mode", "idle", "idle, flood or floor")
	prompt := flag.String("prompt", "lines 100000", "flood: the prompt that starts the flood")
	samples := flag.Int("samples", 100, "keys to time, at least")
	minGap := flag.Duration("min", 50*time.Millisecond, "shortest pause after a key is drawn")
	maxGap := flag.Duration("max", 150*time.Millisecond, "longest pause after a key is drawn")
	timeout := flag.Duration("timeout", 2*time.Second, "a key not drawn within this is lost")
	perLine := flag.Int("line", 30, "keys on the prompt before ctrl+u clears it")
	maxFloods := flag.Int("max-floods", 60, "flood: give up after this many floods")
	raw := flag.String("raw", "", "append each latency (µs), one a line, to this file (when no key was lost)")
	dump := flag.String("dump", "", "write elicit's output (the first run) to this file")
	keylog := flag.String("keylog", "", "append \"KEY SENT_NS DRAWN_NS\" (Unix ns) per key to this file, to line up with traces")
	verbose := flag.Bool("v", false, "print the terminal queries elicit sent and each flood")
	var env envList
	flag.Var(&env, "env", "KEY=VALUE for elicit's environment (repeatable), e.g. ELICIT_CPUPROFILE=/tmp/x.prof or GOMAXPROCS=4")
	replay := flag.String("replay", "", "print the screen a -dump file leaves at -size, and exit")
	echoMode := flag.Bool("echo", false, "be the floor's program: draw a prompt and echo keys into it at once")
	flag.Parse()
	if *echoMode {
		if err := echo(); err != nil {
			fatalf("echo: %v", err)
		}
		return
	}
	var cols, rows int
	if _, err := fmt.Sscanf(*size, "%dx%d", &cols, &rows); err != nil || cols < 40 || rows < 10 {
		fatalf("-size %q: want COLSxROWS, at least 40x10", *size)
	}
	if *replay != "" {
		b, err := os.ReadFile(*replay)
		if err != nil {
			fatalf("%v", err)
		}
		s := newScreen(cols, rows)
		s.Write(b)
		fmt.Print(s.String())
		return
	}
	if *mode != "idle" && *mode != "flood" && *mode != "floor" || *elicit == "" && *mode != "floor" ||
		*minGap > *maxGap || *samples < 1 {
		flag.Usage()
		os.Exit(2)
	}
	argv := []string{*elicit}
	if flag.NArg() > 0 {
		argv = append(argv, "--")
		argv = append(argv, flag.Args()...)
	}
	if *mode == "floor" {
		self, err := os.Executable()
		if err != nil {
			fatalf("%v", err)
		}
		argv = []string{self, "-echo"}
	}
	r := &runner{argv: argv, env: env, cols: cols, rows: rows, minGap: *minGap, maxGap: *maxGap,
		timeout: *timeout, perLine: max(1, min(*perLine, cols-12)), verbose: *verbose}
	if *dump != "" {
		f, err := os.Create(*dump)
		if err != nil {
			fatalf("%v", err)
		}
		defer f.Close()
		r.dump = f
	}
	if *keylog != "" {
		f, err := os.OpenFile(*keylog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fatalf("%v", err)
		}
		defer f.Close()
		r.keylog = f
	}
	label := fmt.Sprintf("%s %s", *mode, *size)
	var err error
	if *mode == "flood" {
		label = fmt.Sprintf("flood %q %s", *prompt, *size)
		for len(r.periods) < *maxFloods && len(r.lat) < *samples && err == nil {
			err = r.flood(*prompt)
		}
	} else {
		err = r.idle(*samples)
	}
	if err == nil && len(r.lat) < *samples {
		err = fmt.Errorf("%d keys in %d floods, fewer than -samples %d", len(r.lat), len(r.periods), *samples)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "keylat: FAIL %s: %v (%d keys drawn before it)\n", label, err, len(r.lat))
		os.Exit(1)
	}
	if *raw != "" {
		if err := appendRaw(*raw, r.lat); err != nil {
			fatalf("%v", err)
		}
	}
	count := fmt.Sprintf("%d keys", len(r.lat))
	var wall, cpu, wait time.Duration
	for _, f := range r.periods {
		wall, cpu, wait = wall+f.wall, cpu+f.cpu, wait+f.wait
	}
	who := "elicit and agent"
	switch *mode {
	case "flood":
		count += fmt.Sprintf(" in %d floods", len(r.periods))
		who = fmt.Sprintf("a flood %.1f s, %s", wall.Seconds()/float64(len(r.periods)), who)
	case "floor":
		who = "the echo program"
	}
	extra := fmt.Sprintf("; %s meanwhile on a CPU %.2f cores, waiting for one %.2f threads (averages)",
		who, cpu.Seconds()/wall.Seconds(), wait.Seconds()/wall.Seconds())
	fmt.Printf("keylat %s: %s, 0 lost; ms p50 %s p90 %s p99 %s max %s%s\n", label, count,
		ms(pct(r.lat, 50)), ms(pct(r.lat, 90)), ms(pct(r.lat, 99)), ms(slices.Max(r.lat)), extra)
}

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

// promptRow is the lowest row above the status bar that starts with the
// prompt's "› ", or -1.
func promptRow(s *screen) int {
	for y := s.h - 2; y >= 0; y-- {
		if s.cells[y][0] == '›' && s.cells[y][1] == ' ' {
			return y
		}
	}
	return -1
}

// pct is the p-th percentile, nearest rank.
func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }

func appendRaw(path string, lat []time.Duration) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, d := range lat {
		fmt.Fprintln(&b, d.Microseconds())
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// envList is a repeatable -env flag.
type envList []string

func (e *envList) String() string { return strings.Join(*e, " ") }

func (e *envList) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	*e = append(*e, v)
	return nil
}

func fatalf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "keylat: "+format+"\n", a...)
	os.Exit(2)
}
