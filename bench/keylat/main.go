//go:build linux

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
