package cmd

import (
	"bytes"
	"context"
	"fmt"
	"github.com/elicit-dev/elicit/internal/testkit"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	if name := os.Getenv(testAgentVar); name != "" {
		runTestAgent(name) // a scripted agent (signin_test.go)
		os.Exit(0)
	}
	// Help is as wide as fang draws it for a 100-column terminal, whatever
	// runs the tests.
	os.Setenv("__FANG_TEST_WIDTH", "100")
	testkit.SkipRaceExitSleep() // the children this binary starts exit at once
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// run is one run of the command tree in this process.
type run struct {
	code           int
	stdout, stderr string
	// session is what the root asked of a session, nil when none ran.
	session *sessionRequest
}

// runTree runs the command tree on args with stdin, recording the
// session the root would start instead of starting it.
func runTree(t *testing.T, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(stdin), &out, &errb)
	var r run
	a.session = func(req sessionRequest) int {
		r.session = &req
		return 0
	}
	r.code = execute(context.Background(), a, args)
	r.stdout, r.stderr = out.String(), errb.String()
	return r
}

func (r run) String() string {
	return fmt.Sprintf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
}
