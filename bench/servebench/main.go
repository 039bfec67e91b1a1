// Command servebench measures `elicit serve` with N attached clients: it
// starts `elicit serve -p /form` (the demo agent's form, which waits for
// attached clients), attaches N AHP clients with the same client library
// `elicit attach` uses (package ahp, no UI), and reports:
//
//   - drafts: client 1 types a draft into the form's first text question
//     (InputAnswerChanged), K times, 30 to 60 ms apart; each other client
//     times it from the dispatch until its own copy of the change arrives
//     (the host's fan-out: validate, reduce, one WebSocket message per
//     client). With one client, the draft's echo to its own author.
//   - host memory: the host's RSS (VmRSS) with one client attached and
//     with N, and the difference per extra client;
//   - idle: the host's context switches (all threads) over -idle with the
//     form open and every client attached and quiet.
//
// It prints one line:
//
//	servebench -elicit ./elicit -clients 10
//	clients=10 drafts=40 samples=360 p50_ms=1.2 p99_ms=4.8 max_ms=6.0 rss1_kib=30000 rssN_kib=30900 per_client_kib=100 idle_wakeups_per_s=0
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/ahp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "servebench:", err)
		os.Exit(1)
	}
}

func run() error {
	bin := flag.String("elicit", "elicit", "the elicit binary")
	n := flag.Int("clients", 10, "attached clients")
	drafts := flag.Int("drafts", 40, "drafts typed by the first client")
	idle := flag.Duration("idle", 5*time.Second, "how long to count the idle host's wake-ups")
	flag.Parse()
	if *n < 1 {
		return errors.New("-clients must be at least 1")
	}
	dir, err := os.MkdirTemp("", "servebench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tokenFile := filepath.Join(dir, "token")
	cmd := exec.Command(*bin, "serve", "-p", "/form", "--token-file", tokenFile, "--listen", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	url, err := attachURL(stderr)
	if err != nil {
		return err
	}
	go func() { _, _ = bufio.NewReader(stderr).WriteTo(discard{}) }()
	tok, err := os.ReadFile(tokenFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := ahp.ClientOptions{URL: url, Token: strings.TrimSpace(string(tok))}

	clients := make([]*ahp.Client, *n)
	var req ahp.Request
	attach := func(i int) error {
		c, err := ahp.Dial(ctx, opts)
		if err != nil {
			return err
		}
		clients[i] = c
		r, err := waitOpen(ctx, c)
		if err != nil {
			return fmt.Errorf("client %d: %w", i+1, err)
		}
		req = r
		return nil
	}
	if err := attach(0); err != nil {
		return err
	}
	defer func() {
		for _, c := range clients {
			if c != nil {
				c.Close()
			}
		}
	}()
	settle()
	rss1 := rssKiB(cmd.Process.Pid)
	for i := 1; i < *n; i++ {
		if err := attach(i); err != nil {
			return err
		}
	}
	settle()
	rssN := rssKiB(cmd.Process.Pid)
	q := textQuestion(req)
	if q == "" {
		return errors.New("the form has no text question")
	}
	lat, err := typeDrafts(ctx, clients, req.ID, q, *drafts)
	if err != nil {
		return err
	}
	time.Sleep(time.Second)
	s0 := switches(cmd.Process.Pid)
	time.Sleep(*idle)
	s1 := switches(cmd.Process.Pid)
	perClient := 0
	if *n > 1 {
		perClient = (rssN - rss1) / (*n - 1)
	}
	sort.Float64s(lat)
	fmt.Printf("clients=%d drafts=%d samples=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f rss1_kib=%d rssN_kib=%d per_client_kib=%d idle_wakeups_per_s=%.1f\n",
		*n, *drafts, len(lat), pct(lat, 50), pct(lat, 99), pct(lat, 100), rss1, rssN, perClient, float64(s1-s0)/idle.Seconds())
	return nil
}

// attachURL reads the serve's stderr until its "elicit attach URL" line.
func attachURL(r interface{ Read([]byte) (int, error) }) (string, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		for i, w := range f {
			if strings.HasPrefix(w, "ws://") && i > 0 && f[i-1] == "attach" {
				return w, nil
			}
		}
	}
	return "", errors.New("elicit serve printed no attach line")
}

// waitOpen waits until the client sees an open request.
func waitOpen(ctx context.Context, c *ahp.Client) (ahp.Request, error) {
	for {
		in := c.Inputs()
		if open := in.OpenRequests(); len(open) > 0 {
			return open[0], nil
		}
		ev, ok := c.Next(ctx)
		if !ok {
			return ahp.Request{}, errors.New("no open request")
		}
		if cl, ok := ev.(ahp.Closed); ok {
			return ahp.Request{}, fmt.Errorf("closed: %v", cl.Err)
		}
	}
}

func textQuestion(r ahp.Request) string {
	for _, q := range r.Questions {
		if q.Kind == ahp.KindText {
			return q.ID
		}
	}
	return ""
}

// typeDrafts dispatches k drafts from the first client and returns, in
// ms, how long each took to reach each other client (or the author alone).
func typeDrafts(ctx context.Context, clients []*ahp.Client, reqID, qID string, k int) ([]float64, error) {
	readers := clients[1:]
	if len(readers) == 0 {
		readers = clients[:1]
	}
	var mu sync.Mutex
	arrived := map[string][]time.Time{}
	var wg sync.WaitGroup
	rctx, stop := context.WithCancel(ctx)
	for _, c := range readers {
		wg.Add(1)
		go func(c *ahp.Client) {
			defer wg.Done()
			for {
				ev, ok := c.Next(rctx)
				if !ok {
					return
				}
				ch, ok := ev.(ahp.Changed)
				if !ok {
					continue
				}
				a, ok := ch.Action.(ahp.InputAnswerChanged)
				if !ok || a.Answer == nil || a.Answer.Value == nil {
					continue
				}
				now := time.Now()
				mu.Lock()
				arrived[a.Answer.Value.Text] = append(arrived[a.Answer.Value.Text], now)
				mu.Unlock()
			}
		}(c)
	}
	sent := map[string]time.Time{}
	for i := 0; i < k; i++ {
		text := "draft " + strconv.Itoa(i)
		sent[text] = time.Now()
		err := clients[0].Dispatch(ahp.InputAnswerChanged{RequestID: reqID, QuestionID: qID,
			Answer: &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: text}}})
		if err != nil {
			stop()
			return nil, err
		}
		time.Sleep(time.Duration(30+rand.IntN(30)) * time.Millisecond)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := 0
		for _, ts := range arrived {
			n += len(ts)
		}
		mu.Unlock()
		if n >= k*len(readers) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	wg.Wait()
	var lat []float64
	for text, t0 := range sent {
		ts := arrived[text]
		if len(ts) < len(readers) {
			return nil, fmt.Errorf("%q reached %d of %d clients", text, len(ts), len(readers))
		}
		for _, t := range ts {
			lat = append(lat, float64(t.Sub(t0).Microseconds())/1000)
		}
	}
	return lat, nil
}

// settle lets the host finish what attaching started (and its GC run).
func settle() { time.Sleep(500 * time.Millisecond) }

func pct(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	i := int(p/100*float64(len(v))+0.999999) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(v) {
		i = len(v) - 1
	}
	return v[i]
}

func rssKiB(pid int) int { return status(fmt.Sprintf("/proc/%d/status", pid), "VmRSS:") }

// switches is the voluntary and involuntary context switches of all of
// pid's threads.
func switches(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	n := 0
	for _, t := range tasks {
		n += status(t, "voluntary_ctxt_switches:") + status(t, "nonvoluntary_ctxt_switches:")
	}
	return n
}

func status(path, key string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key) {
			f := strings.Fields(l)
			if len(f) > 1 {
				v, _ := strconv.Atoi(f[1])
				return v
			}
		}
	}
	return 0
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
