package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// binDir holds the elicit binary the tests build, once.
var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

// moduleRoot is the checkout this package is in.
func moduleRoot(t *testing.T) string {
	t.Helper()
	// go env GOMOD, not go list -m: in the workspace (go.work) that lists
	// the patched bubbletea too.
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// elicitBinary builds elicit from this checkout, once per test run.
func elicitBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binError = os.MkdirTemp("", "elicit-cli")
		if binError != nil {
			return
		}
		binPath = filepath.Join(binDir, "elicit")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = moduleRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			binError = &buildError{err, string(out)}
		}
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "building elicit: " + e.err.Error() + "\n" + e.out }

// runBinary runs the built elicit with env added to the environment, and
// returns its exit status and output. It waits for the process to end;
// one still running after testkit.Hang hangs, and is killed.
func runBinary(t *testing.T, env []string, stdin string, args ...string) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	cmd := exec.CommandContext(ctx, elicitBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("elicit %q still ran after %v: it hangs\nstdout: %s\nstderr: %s", args, testkit.Hang, out.String(), errb.String())
	}
	r := run{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}
