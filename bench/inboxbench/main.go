// Command inboxbench measures the inbox with N sessions registered: it
// starts N-1 real `elicit serve -p /form` sessions (each publishes its
// waiting form on its socket, as every session does), publishes one more
// session's host in its own process (package ahp/inbox, the code every
// session runs), and reports:
//
//   - new question to list: the in-process session asks a new form
//     (t0), and `elicit inbox list --json` runs back to back, each a whole
//     new process, until one lists it; the time from t0 to the end of
//     that run, per sample (the list's own process start-up included);
//   - list and count: one `elicit inbox list --json` and one
//     `elicit inbox list --count` run, median wall time;
//   - idle: one idle session's context switches (all threads) over -idle,
//     with its form waiting and the inbox on;
//   - new question to screen: `elicit inbox` runs on a pseudo-terminal
//     read through a terminal emulator (screen.go); the in-process
//     session asks a new form (t0) and the time runs until the read that
//     draws the screen's header counting it;
//   - idle screen: before the sessions start, `elicit inbox` with the one
//     session and no question waiting: its context switches a second and
//     the bytes it writes (a redraw writes some) over -idle.
//
// It prints one line:
//
//	inboxbench -elicit ./elicit -sessions 50
//	sessions=50 samples=30 p50_ms=40.1 p99_ms=61.0 max_ms=63.2 list_ms=38.0 count_ms=12.0 idle_wakeups_per_s=0.0 screen_p50_ms=16.4 screen_p99_ms=34.1 screen_max_ms=34.1 idle_screen_wakeups_per_s=0.0 idle_screen_bytes=0
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "inboxbench:", err)
		os.Exit(1)
	}
}

func run() error {
	bin := flag.String("elicit", "elicit", "the elicit binary")
	n := flag.Int("sessions", 50, "sessions registered")
	samples := flag.Int("samples", 30, "new questions timed")
	idle := flag.Duration("idle", 5*time.Second, "how long to count an idle session's wake-ups")
	flag.Parse()
	if *n < 1 {
		return errors.New("-sessions must be at least 1")
	}
	dir, err := os.MkdirTemp("", "inboxbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	run := filepath.Join(dir, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		return err
	}
	os.Setenv("XDG_RUNTIME_DIR", run)
	env := append(os.Environ(), "XDG_STATE_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	h := ahp.NewHost(ahp.HostOptions{Title: "bench", Meta: &ahp.SessionMeta{Agent: "bench", PID: os.Getpid()}})
	defer h.Close()
	pub, err := inbox.Publish(h, ahp.HandlerOptions{})
	if err != nil {
		return err
	}
	defer pub.Close()
	idleWakes, idleBytes, err := idleScreen(*bin, env, *idle)
	if err != nil {
		return fmt.Errorf("the idle inbox screen: %w", err)
	}
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			_ = p.Process.Kill()
			_ = p.Wait()
		}
	}()
	for i := range *n - 1 {
		cmd := exec.Command(*bin, "serve", "-p", "/form", "--listen", "127.0.0.1:0", "--token-file", filepath.Join(dir, "tok"+strconv.Itoa(i)))
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			return err
		}
		procs = append(procs, cmd)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for {
		got, _ := inbox.Count(ctx, inbox.Options{})
		if got >= *n-1 {
			break
		}
		if ctx.Err() != nil {
			return fmt.Errorf("only %d of %d sessions asked their form", got, *n-1)
		}
		time.Sleep(100 * time.Millisecond)
	}
	list := func(args ...string) (string, time.Duration, error) {
		start := time.Now()
		cmd := exec.Command(*bin, append([]string{"inbox", "list"}, args...)...)
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if err != nil {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(errOut.String()))
		}
		return out.String(), time.Since(start), err
	}
	var lat, lists, counts []float64
	for i := range *samples {
		id := "bench" + strconv.Itoa(i)
		t0 := time.Now()
		if err := h.Request(ahp.Request{ID: id, Message: "Bench " + id, Questions: []ahp.Question{{ID: "x", Kind: ahp.KindText, Message: "x?"}},
			Meta: ahp.RequestMeta{Kind: ahp.MetaForm, AskedAt: t0.UTC().Format(time.RFC3339Nano)}.Raw()}); err != nil {
			return err
		}
		for {
			out, _, err := list("--json")
			if err != nil {
				return fmt.Errorf("elicit inbox list: %w", err)
			}
			if strings.Contains(out, "."+id+`"`) {
				lat = append(lat, ms(time.Since(t0)))
				if c := strings.Count(out, `"id"`); c != *n {
					return fmt.Errorf("listed %d questions, want %d", c, *n)
				}
				break
			}
			if ctx.Err() != nil {
				return errors.New("the new question never showed")
			}
		}
		h.Withdraw(id)
		_, d, err := list("--json")
		if err != nil {
			return err
		}
		lists = append(lists, ms(d))
		out, d, err := list("--count")
		if err != nil {
			return err
		}
		if strings.TrimSpace(out) != strconv.Itoa(*n-1) {
			return fmt.Errorf("--count said %q, want %d", strings.TrimSpace(out), *n-1)
		}
		counts = append(counts, ms(d))
	}
	time.Sleep(time.Second)
	pid := procs[0].Process.Pid
	s0 := switches(pid)
	time.Sleep(*idle)
	s1 := switches(pid)
	screenLat, err := screenLatency(*bin, env, h, *n, *samples)
	if err != nil {
		return fmt.Errorf("the inbox screen: %w", err)
	}
	sort.Float64s(lat)
	sort.Float64s(lists)
	sort.Float64s(counts)
	fmt.Printf("sessions=%d samples=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f list_ms=%.1f count_ms=%.1f idle_wakeups_per_s=%.1f "+
		"screen_p50_ms=%.1f screen_p99_ms=%.1f screen_max_ms=%.1f idle_screen_wakeups_per_s=%.1f idle_screen_bytes=%d\n",
		*n, len(lat), pct(lat, 50), pct(lat, 99), pct(lat, 100), pct(lists, 50), pct(counts, 50), float64(s1-s0)/idle.Seconds(),
		pct(screenLat, 50), pct(screenLat, 99), pct(screenLat, 100), idleWakes, idleBytes)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// pct is the p-th percentile of sorted v (nearest rank).
func pct(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	i := int(float64(len(v))*p/100+0.999999) - 1
	return v[max(0, min(i, len(v)-1))]
}

// switches is the voluntary and involuntary context switches of all of
// pid's threads.
func switches(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	n := 0
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "voluntary_ctxt_switches:") || strings.HasPrefix(l, "nonvoluntary_ctxt_switches:") {
				f := strings.Fields(l)
				v, _ := strconv.Atoi(f[len(f)-1])
				n += v
			}
		}
	}
	return n
}
