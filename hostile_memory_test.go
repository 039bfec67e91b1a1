//go:build linux

package main

import (
	"fmt"
	"strings"
	"testing"
)

// maxRSS is the most resident memory elicit may reach, in MiB, whatever an
// agent or a hook makes it read.
const maxRSS = 150

// Issue 27, items 3 and 4: a terminal command printing 400 MB under an
// outputByteLimit of 100 GB (it was 2.4 GB resident), and a hook printing
// without end on stdout (12 GB), in each front end: elicit stays under
// maxRSS, the agent gets the last MiB of the output, and the hook fails.
func TestFloodsStayBounded(t *testing.T) {
	for _, tc := range []struct {
		name, steps string
		hook        []string
		args        []string
	}{
		{"terminal/-p", "flood", nil, []string{"-p", "go", "--approve"}},
		{"terminal/full screen", "flood", nil, nil},
		{"terminal/accessible", "flood", nil, []string{"--accessible"}},
		{"hook/-p", "form", []string{"sh", "-c", "exec yes"}, []string{"-p", "go"}},
		{"hook/full screen", "form", []string{"sh", "-c", "exec yes"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newProcRun(t, tc.steps, tc.hook, nil, tc.args...)
			var tm *terminal
			var out strings.Builder
			if strings.HasSuffix(tc.name, "-p") {
				r.cmd.Stdout, r.cmd.Stderr = &out, &out
				if err := r.cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = r.cmd.Process.Kill() })
			} else {
				tm = startPTYKeeping(t, r.cmd, 1<<20)
			}
			peak := r.watchRSS()
			switch {
			case tm == nil:
			case strings.HasSuffix(tc.name, "accessible"):
				tm.waitFor("Type a prompt")
				tm.send("go\r")
			default:
				tm.waitFor(connected)
				tm.send("go\r")
				if tc.hook != nil { // the failed hook leaves the form to the user: cancel it
					tm.answerUntil("the turn's end", func() bool { return len(r.step("end")) > 0 }, reply{[]string{formKeys}, "\x1b"})
				}
			}
			if r.waitStep("end", 1) {
				if f := r.step("flood"); tc.steps == "flood" && (len(f) != 1 || f[0]["output"] != float64(1<<20) || f[0]["truncated"] != true) {
					t.Errorf("the agent got %v, want the last MiB of the output", f)
				}
				if f := r.step("form"); tc.steps == "form" && (len(f) != 1 || strings.Contains(fmt.Sprint(f[0]["answer"]), "accept")) {
					t.Errorf("the form: %v", f)
				}
			}
			switch {
			case tm == nil:
			case strings.HasSuffix(tc.name, "accessible"):
				tm.send("\x04\x04")
			default:
				tm.pressQuit()
			}
			if tm != nil {
				tm.finish()
			} else {
				r.wait()
			}
			if rss := peak(); rss >= maxRSS || rss <= 0 {
				t.Errorf("peak resident memory %d MiB, want under %d", rss, maxRSS)
			} else {
				t.Logf("peak resident memory %d MiB", rss)
			}
			if tc.hook != nil && tm == nil && !strings.Contains(out.String(), "more than 64 KiB on stdout") {
				t.Errorf("no word of the hook's failure:\n%s", out.String())
			}
			r.noSurvivors(tc.name)
		})
	}
}
