// Package testkit holds the helpers that the tests of several packages
// share: golden files and small schemas. Only tests import it.
//
//	testkit.Golden(t, "testdata/x.golden", got) // go test -update rewrites
package testkit

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites the expected files from what the code produces now:
// go test ./internal/... -update, then review the diff.
var update = flag.Bool("update", false, "rewrite expected test files")

// Updating reports whether the run was asked to rewrite expected files.
func Updating() bool { return *update }

// Golden compares got with the file at path, or rewrites the file under
// -update.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", filepath.Base(path), got, want)
	}
}

// SkipRaceExitSleep spares the processes a test binary starts (agents,
// servers, elicit itself) the second a race-enabled binary sleeps as it
// exits (the race detector's atexit_sleep_ms): a test that waits for its
// agent to exit took a second longer under -race for each one. The
// calling process keeps its own sleep (its GORACE was read when it
// started); only its children inherit the change. Call it from TestMain
// before m.Run.
func SkipRaceExitSleep() {
	if g := os.Getenv("GORACE"); !strings.Contains(g, "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(g+" atexit_sleep_ms=0"))
	}
}
