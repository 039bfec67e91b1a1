package history

import (
	"encoding/json"
	"fmt"
	"github.com/elicit-dev/elicit/internal/testkit"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// childEnv, when set, makes the test binary a writer process: it records
// writes into the directory named by it and exits (see TestMain).
const childEnv = "ELICIT_HISTORY_TEST_CHILD"

const childWrites = 40

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		os.Exit(child(dir, os.Getenv(childEnv+"_NAME")))
	}
	testkit.SkipRaceExitSleep() // the children this binary starts exit at once
	os.Exit(m.Run())
}

// child writes childWrites sites and answers under its own name, as a
// second elicit process would.
func child(dir, name string) int {
	s, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := range childWrites {
		v, _ := json.Marshal(fmt.Sprintf("%s-%d", name, i))
		if err := s.RememberAnswers(name, strconv.Itoa(i), map[string]json.RawMessage{"k": v}, func(string) bool { return false }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := s.RecordSite(fmt.Sprintf("%s-%d.com", name, i), time.Now()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := s.RecordSite("shared.com", time.Now()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestTwoProcesses runs two real processes writing to one directory at
// the same time: no write may be lost.
func TestTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for _, name := range []string{"p1", "p2"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+dir, childEnv+"_NAME="+name)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"p1", "p2"} {
		for i := range childWrites {
			r, ok, err := s.Answers(name, strconv.Itoa(i))
			if err != nil || !ok || string(r.Values["k"]) != fmt.Sprintf("%q", fmt.Sprintf("%s-%d", name, i)) {
				t.Fatalf("%s's answer %d: %v %v %s", name, i, ok, err, r.Values["k"])
			}
			if _, ok, _ := s.Site(fmt.Sprintf("%s-%d.com", name, i)); !ok {
				t.Fatalf("%s's site %d lost", name, i)
			}
		}
		sug, _ := s.Suggestions(name, "k", 100)
		if len(sug) != childWrites {
			t.Errorf("%s: %d suggestions", name, len(sug))
		}
	}
	if v, _, _ := s.Site("shared.com"); v.Count != 2*childWrites {
		t.Errorf("shared.com opened %d times, want %d", v.Count, 2*childWrites)
	}
}
