//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// startServe runs `elicit serve` (args after it, then the hostile agent's
// process scenario with steps) and returns the run, its stderr, the URL
// clients attach to and the token.
func startServe(t *testing.T, steps string, args ...string) (*procRun, *testkit.Buffer, string) {
	t.Helper()
	r := newProcRun(t, steps, nil, nil)
	tok := filepath.Join(t.TempDir(), "token")
	r.cmd.Args = slices.Insert(r.cmd.Args, 1, append([]string{"serve", "--token-file", tok}, args...)...)
	var errs testkit.Buffer
	r.cmd.Stderr = &errs
	return r, &errs, tok
}

// startServeP starts `elicit serve -p go` for the steps, and returns the
// run, the URL to attach to and the token.
func startServeP(t *testing.T, steps string) (*procRun, string, string) {
	t.Helper()
	r, errs, tokPath := startServe(t, steps, "-p", "go", "--timeout", "2m")
	r.cmd.Stdout = &testkit.Buffer{}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.cmd.Process.Kill() })
	return r, attachURL(t, errs), readToken(t, tokPath)
}

func readToken(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// Issue 34, item 8: one attach client sends 16 KiB drafts as fast as it
// can to a 64-field form, within every documented cap. The serving full
// screen stays under maxRSS, and a decline sent after the flood reaches
// the agent (the screen kept up; before, it took 750 MB and two
// CPU-minutes).
func TestServeDraftFloodStaysBounded(t *testing.T) {
	r, errs, tokPath := startServe(t, "wide-form")
	tm := startPTYKeeping(t, r.cmd, 1<<20)
	peak := r.watchRSS()
	url := attachURL(t, errs)
	tm.waitFor("agent title")
	tm.send("go\r")
	c := testkit.MustDialAHP(t, url, readToken(t, tokPath))
	if m := c.Initialize("flood"); m.Error != nil {
		t.Fatalf("initialize: %+v", m.Error)
	}
	c.Open("q1")
	c.Drain()
	text := strings.Repeat("x", 16384)
	start := time.Now()
	const drafts = 64 * 50
	for i := range drafts {
		if err := c.Dispatch(i+1, testkit.TextDraft("q1", "f"+twoDigits(i%64), text)); err != nil {
			t.Fatalf("draft %d: %v", i, err)
		}
	}
	if err := c.Dispatch(drafts+1, testkit.Completion("q1", "decline", nil)); err != nil {
		t.Fatal(err)
	}
	sent := time.Since(start)
	if !r.waitStep("wide-form", 1) {
		t.Fatalf("the agent never got the decline")
	}
	t.Logf("%d drafts of 16 KiB sent in %v; the agent had the decline %v after the first; serve used %v of CPU", drafts,
		sent.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), cpuTime(r.cmd.Process.Pid))
	if got := r.step("wide-form"); !strings.Contains(fmt.Sprint(got[0]["answer"]), "decline") {
		t.Errorf("the agent got %v, want the decline", got)
	}
	tm.quit()
	if p := peak(); p > maxRSS {
		t.Errorf("peak resident memory %d MiB, over %d MiB", p, maxRSS)
	} else {
		t.Logf("peak resident memory %d MiB", p)
	}
}

// attachURL is the URL in the attach line elicit serve printed.
func attachURL(t *testing.T, out *testkit.Buffer) string {
	t.Helper()
	re := regexp.MustCompile(`elicit attach (ws://127\.0\.0\.1:[0-9]+/)`)
	out.WaitUntil(t, "the attach line", func(s string) bool { return re.MatchString(s) })
	return re.FindStringSubmatch(out.String())[1]
}

// Issue 34, item 1: a client's id is echoed in every action it dispatches
// and kept for replay; with no cap, 300 small actions from a client with
// an id of 1 MiB took elicit serve from 26 MB to 1.25 GB. An id over
// ahp.MaxClientID bytes is refused at initialize, and a flood from the
// longest id allowed, made of characters JSON escapes six times over,
// leaves serve under maxRSS.
func TestServeClientIDIsCapped(t *testing.T) {
	r, url, tok := startServeP(t, "form")
	peak := r.watchRSS()
	huge := testkit.MustDialAHP(t, url, tok)
	id := strings.Repeat("a", 900<<10)
	m := huge.Initialize(id)
	if m.Error == nil {
		t.Errorf("a client id of 900 KiB was taken")
	} else {
		id = strings.Repeat("<", ahp.MaxClientID)
		if m := huge.Initialize(id); m.Error != nil {
			t.Fatalf("an id of %d bytes: %+v", ahp.MaxClientID, m.Error)
		}
	}
	huge.Open("q1")
	huge.Drain()
	for i := range 300 {
		if err := huge.Dispatch(i+1, testkit.TextDraft("q1", "branch", "x")); err != nil {
			t.Fatal(err)
		}
	}
	// The same client declines: serve ends once its host took the flood.
	if err := huge.Dispatch(301, testkit.Completion("q1", "decline", nil)); err != nil {
		t.Fatal(err)
	}
	if !r.waitStep("form", 1) {
		t.Fatal("the agent never got the decline")
	}
	r.wait()
	if p := peak(); p > maxRSS {
		t.Errorf("peak resident memory %d MiB, over %d MiB", p, maxRSS)
	} else {
		t.Logf("peak resident memory %d MiB", p)
	}
}

// Issue 34, item 2: a client that called itself the serving terminal
// (serve:USER@HOST) had its accept announced as the serving person's,
// and the agent never heard it: serve -p waited for --timeout. The id is
// refused; a client under its own id answers, and the agent gets exactly
// what every client was told won.
func TestServeClientCannotBeTheServingTerminal(t *testing.T) {
	r, url, tok := startServeP(t, "form")
	u, _ := user.Current()
	host, _ := os.Hostname()
	c := testkit.MustDialAHP(t, url, tok)
	who := "mallory"
	if m := c.Initialize("serve:" + u.Username + "@" + host); m.Error == nil {
		t.Errorf("a client took the serving terminal's id")
		who = "serve:" + u.Username + "@" + host
	} else if m := c.Initialize(who); m.Error != nil {
		t.Fatal(m.Error)
	}
	c.Open("q1")
	answer := map[string]any{"branch": map[string]any{"state": "submitted", "value": map[string]any{"kind": "text", "value": "main"}}}
	if err := c.Dispatch(1, testkit.Completion("q1", "accept", answer)); err != nil {
		t.Fatal(err)
	}
	var announced string
	for announced == "" {
		m := c.Read()
		if m.Method == "action" && strings.Contains(string(m.Params), "inputCompleted") {
			announced = string(m.Params)
		}
	}
	if !strings.Contains(announced, `"clientId":"`+who+`"`) || strings.Contains(announced, "rejectionReason") {
		t.Fatalf("announced: %s", announced)
	}
	if !r.waitStep("form", 1) {
		t.Fatal("the agent never got the answer")
	}
	if got := fmt.Sprint(r.step("form")[0]["answer"]); !strings.Contains(got, "accept") || !strings.Contains(got, "main") {
		t.Fatalf("the agent got %s; every client was told %s accepted with main", got, who)
	}
	r.wait()
}

// cpuTime is the CPU time pid used so far (user and system).
func cpuTime(pid int) time.Duration {
	stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return time.Duration(u+s) * time.Second / 100 // USER_HZ
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }
