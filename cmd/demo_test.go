package cmd

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// TestDemoServe runs what the README tells a newcomer: `elicit demo
// --serve` in one process, then the two lines it prints, run by a shell
// with -p hi added, in another: the demo agent answers over each remote
// transport. The token is in a 0600 file, never in what is printed; a
// wrong token is refused; Ctrl+C ends the server (130) and removes the
// file.
func TestDemoServe(t *testing.T) {
	bin := elicitBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	server := exec.CommandContext(ctx, bin, "demo", "--serve")
	server.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	stdout, err := server.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	server.Stderr = &stderr
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer server.Process.Kill()

	// What it prints, read line by line up to the command to run.
	var printed []string
	var url, tokenFile string
	lines := bufio.NewScanner(stdout)
	for len(printed) == 0 || !strings.HasPrefix(printed[len(printed)-1], "  elicit --url ") {
		if !lines.Scan() {
			t.Fatalf("elicit demo --serve ended its output (%v) after:\n%s\nstderr: %s", lines.Err(), strings.Join(printed, "\n"), stderr.String())
		}
		l := lines.Text()
		printed = append(printed, l)
		if u, ok := strings.CutPrefix(l, "url    "); ok {
			url = u
		}
		if f, ok := strings.CutPrefix(l, "token  "); ok {
			tokenFile, _, _ = strings.Cut(f, " (")
		}
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/acp") || tokenFile == "" {
		t.Fatalf("no url or token file in:\n%s", strings.Join(printed, "\n"))
	}
	fi, err := os.Stat(tokenFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file %s: %v %v", tokenFile, fi, err)
	}
	token, _ := os.ReadFile(tokenFile)
	if strings.TrimSpace(string(token)) == "" || strings.Contains(strings.Join(printed, "\n"), strings.TrimSpace(string(token))) {
		t.Fatalf("the token is empty, or printed:\n%s", strings.Join(printed, "\n"))
	}

	// The printed lines, as a newcomer pastes them, with -p hi.
	exportLine, clientLine := strings.TrimSpace(printed[len(printed)-2]), strings.TrimSpace(printed[len(printed)-1])
	client := func(export, extra string) run {
		t.Helper()
		sh := exec.CommandContext(ctx, "sh", "-c", export+"\n"+clientLine+" "+extra)
		sh.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
		var out, errb strings.Builder
		sh.Stdout, sh.Stderr = &out, &errb
		err := sh.Run()
		r := run{stdout: out.String(), stderr: errb.String()}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			r.code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, transport := range []string{"ws", "http"} {
		r := client(exportLine, "--transport "+transport+" -p hi")
		if r.code != 0 || !strings.Contains(r.stdout, "## Demo reply") || !strings.Contains(r.stdout, "> hi") {
			t.Errorf("%s: %q then %q -p hi: %v", transport, exportLine, clientLine, r)
		}
	}
	if r := client("export DEMO_TOKEN=wrong-token", "-p hi"); r.code != exitFailed || !strings.Contains(r.stderr, "refused the credentials (HTTP 401") {
		t.Errorf("a wrong token: %v", r)
	}

	// Ctrl+C ends it: every agent, and the token's file.
	if err := server.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() { // the rest of its output, to its end
	}
	err = server.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("after SIGINT: %v, stderr: %s", err, stderr.String())
	}
	if _, err := os.Stat(filepath.Dir(tokenFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the token's directory is still there: %v", err)
	}
}

// TestDemoServeRefusesOtherAddresses: the demo serves plain http, so an
// address off loopback (the token would cross the network in clear
// text), or one that is no host:port, is a usage error, before anything
// listens.
func TestDemoServeRefusesOtherAddresses(t *testing.T) {
	for _, tc := range []struct{ addr, says string }{
		{"0.0.0.0:0", "0.0.0.0 is not a loopback address"},
		{"192.0.2.1:4170", "is not a loopback address"},
		{"4170", `ADDR "4170": want host:port`},
	} {
		r := runTree(t, "", "demo", "--serve", tc.addr)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.says) || !strings.Contains(r.stderr, "Try 'elicit demo --help'") {
			t.Errorf("%s: %v", tc.addr, r)
		}
	}
}
