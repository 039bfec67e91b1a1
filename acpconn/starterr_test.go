package acpconn

import (
	"context"
	"slices"
	"testing"
)

// An agent that exits before answering initialize: the error carries its
// last stderr lines, which say why (usually a usage message).
func TestStartFailureKeepsStderr(t *testing.T) {
	_, err := Start(context.Background(), Config{Argv: []string{"bash", "-c", "echo 'usage: agent FOO' >&2; exit 2"}, Dir: t.TempDir()})
	if err == nil {
		t.Fatal("started")
	}
	if got := StderrOf(err); !slices.Contains(got, "usage: agent FOO") {
		t.Fatalf("stderr %q, error %v", got, err)
	}
}
