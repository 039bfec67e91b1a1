// Command keylat measures keystroke-to-screen latency of elicit's full
// screen: it runs the built elicit binary in a pseudo-terminal of a given
// size, types single printable keys into the prompt and times each one
// from the write to the terminal until the terminal's screen (a small
// emulator fed with everything elicit writes) shows that character in
// its cell of the prompt line.
//
//	keylat -elicit ./elicit -size 100x32 -mode idle -- ./lineagent
//	keylat -elicit ./elicit -size 200x60 -mode flood -prompt "lines 100000" -- ./lineagent
//
// idle: at the ready prompt, nothing else happening (the baseline).
// flood: the prompt is sent (as bench/run.sh does in tmux: the text, then
// Enter) and keys are typed while the reply streams, until the status bar
// says ready again; a fresh elicit per flood, floods until -samples keys.
//
// Keys are upper-case letters, which the flood (bench/lineagent's lines:
// digits and "lorem ipsum dolor sit amet, consectetur adipiscing.") and
// the prompt's placeholder never show; each key is expected in its own
// column of the prompt line (the row that starts with "› ", searched
// from the bottom), so a key counts only once drawn where it belongs.
// After a pause of -min to -max after each draw, the next key; every
// -line keys, ctrl+u clears the prompt (not timed).
//
// It prints p50, p90, p99 and max with the number of keys; with -raw it
// appends each latency in microseconds, one a line, so runs can be
// pooled. A key that is not drawn within -timeout is a failure: the
// screen is printed, elicit ended and keylat exits 1.
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
	elicit := flag.String("elicit", "", "the elicit binary (required)")
	size := flag.String("size", "100x32", "terminal size, COLSxROWS")
	mode := flag.String("mode", "idle", "idle or flood")
	prompt := flag.String("prompt", "lines 100000", "flood: the prompt that starts the flood")
	samples := flag.Int("samples", 100, "keys to time, at least")
	minGap := flag.Duration("min", 50*time.Millisecond, "shortest pause after a key is drawn")
	maxGap := flag.Duration("max", 150*time.Millisecond, "longest pause after a key is drawn")
	timeout := flag.Duration("timeout", 2*time.Second, "a key not drawn within this is lost")
	perLine := flag.Int("line", 30, "keys on the prompt before ctrl+u clears it")
	maxFloods := flag.Int("max-floods", 60, "flood: give up after this many floods")
	raw := flag.String("raw", "", "append each latency (µs), one a line, to this file")
	dump := flag.String("dump", "", "write elicit's output (the first run) to this file")
	verbose := flag.Bool("v", false, "print the terminal queries elicit sent and each flood")
	replay := flag.String("replay", "", "print the screen a -dump file leaves at -size, and exit")
	flag.Parse()
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
	if *elicit == "" || (*mode != "idle" && *mode != "flood") || *minGap > *maxGap || *samples < 1 {
		flag.Usage()
		os.Exit(2)
	}
	argv := []string{*elicit}
	if flag.NArg() > 0 {
		argv = append(argv, "--")
		argv = append(argv, flag.Args()...)
	}
	r := &runner{argv: argv, cols: cols, rows: rows, minGap: *minGap, maxGap: *maxGap,
		timeout: *timeout, perLine: max(1, min(*perLine, cols-12)), verbose: *verbose}
	if *dump != "" {
		f, err := os.Create(*dump)
		if err != nil {
			fatalf("%v", err)
		}
		defer f.Close()
		r.dump = f
	}
	label := fmt.Sprintf("%s %s", *mode, *size)
	var err error
	floods := 0
	if *mode == "idle" {
		err = r.idle(*samples)
	} else {
		for floods < *maxFloods && len(r.lat) < *samples && err == nil {
			floods++
			err = r.flood(*prompt)
		}
		label = fmt.Sprintf("flood %q %s", *prompt, *size)
	}
	if *raw != "" && len(r.lat) > 0 {
		if werr := appendRaw(*raw, r.lat); werr != nil {
			fatalf("%v", werr)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "keylat: FAIL %s: %v (%d keys drawn before it)\n", label, err, len(r.lat))
		os.Exit(1)
	}
	if len(r.lat) < *samples {
		fmt.Fprintf(os.Stderr, "keylat: FAIL %s: %d keys in %d floods, fewer than -samples %d\n", label, len(r.lat), floods, *samples)
		os.Exit(1)
	}
	extra := ""
	if *mode == "flood" {
		extra = fmt.Sprintf(" in %d floods", floods)
	}
	fmt.Printf("keylat %s: %d keys%s, 0 lost; ms p50 %s p90 %s p99 %s max %s\n", label, len(r.lat), extra,
		ms(pct(r.lat, 50)), ms(pct(r.lat, 90)), ms(pct(r.lat, 99)), ms(slices.Max(r.lat)))
}

type runner struct {
	argv           []string
	cols, rows     int
	minGap, maxGap time.Duration
	timeout        time.Duration
	perLine        int
	verbose        bool
	dump           *os.File
	lat            []time.Duration
}

func (r *runner) start() (*term, error) {
	var t *term
	var err error
	if r.dump != nil {
		t, err = startTerm(r.argv, r.cols, r.rows, r.dump)
		r.dump = nil // the first run only
	} else {
		t, err = startTerm(r.argv, r.cols, r.rows, nil)
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

// idle times n keys at the ready prompt.
func (r *runner) idle(n int) error {
	t, err := r.start()
	if t != nil {
		defer t.stop()
	}
	if err != nil {
		return err
	}
	typed := 0
	for len(r.lat) < n {
		if err := r.key(t, &typed); err != nil {
			return err
		}
	}
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
	typed := 0
	for !t.isReady() {
		if err := r.key(t, &typed); err != nil {
			return err
		}
	}
	if r.verbose {
		fmt.Fprintf(os.Stderr, "keylat: flood of %v: %d keys timed, %d bytes of output\n",
			time.Since(start).Round(time.Millisecond), len(r.lat)-before, t.bytes)
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
	at, err := t.await(ch, r.timeout)
	if err != nil {
		return fmt.Errorf("key %q (#%d, column %d) lost: %v; the screen:\n%s", c, len(r.lat)+1, col, err, t.snapshot())
	}
	r.lat = append(r.lat, at.Sub(sent))
	*typed++
	time.Sleep(r.minGap + rand.N(r.maxGap-r.minGap+1))
	return nil
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

func fatalf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "keylat: "+format+"\n", a...)
	os.Exit(2)
}
