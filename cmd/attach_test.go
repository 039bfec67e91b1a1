package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/foreignhost"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// elicit attach --answers against a host that is not elicit's (its chat
// has an id of its own, its fields are oddly typed), over a real socket.

const attachToken = "attach-cli-token-0123"

func foreignHost(t *testing.T) *foreignhost.Host {
	t.Helper()
	h, err := foreignhost.Start(foreignhost.Options{Token: attachToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func answersFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const nameRequest = `{"id":"r1","message":"Who?","questions":[{"id":"name","kind":"text","message":"Name","required":true}]}`

// --once answers the first request and exits: 0 when its accept was the
// answer; a request the file cannot fill is cancelled, with status 1.
func TestAttachOnce(t *testing.T) {
	h := foreignHost(t)
	h.Ask("", nameRequest)
	h.Ask("", `{"id":"r2","message":"Later","questions":[{"id":"city","kind":"text","message":"City"}]}`)
	r := runBinary(t, nil, "", "attach", h.URL(), "--token", attachToken, "--answers", answersFile(t, `{"name":"Ada"}`), "--once")
	if r.code != exitOK {
		t.Fatalf("exit %d: %v", r.code, r)
	}
	var line struct {
		Request, Response string
		Mine              bool
	}
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &line) != nil ||
		line.Request != "r1" || line.Response != "accept" || !line.Mine {
		t.Fatalf("stdout %q", r.stdout)
	}
	if h.Response("r1") != "accept" || h.Response("r2") != "" {
		t.Fatalf("host: r1 %q, r2 %q: once answers one request", h.Response("r1"), h.Response("r2"))
	}
	for _, d := range h.Dispatched() {
		if d.Channel != h.ChatURI() {
			t.Fatalf("dispatched to %q, not the host's chat %q", d.Channel, h.ChatURI())
		}
	}

	h2 := foreignHost(t)
	h2.Ask("", nameRequest)
	r = runBinary(t, nil, "", "attach", h2.URL(), "--token", attachToken, "--answers", answersFile(t, `{}`), "--once")
	if r.code != exitFailed || !strings.Contains(r.stderr, `cancel request r1: "name": required`) || h2.Response("r1") != "cancel" {
		t.Fatalf("a request the file cannot fill: %v (host %q)", r, h2.Response("r1"))
	}
}

// Without --once it answers every request until the host goes away, then
// exits 0.
func TestAttachAnswersUntilTheHostGoesAway(t *testing.T) {
	h := foreignHost(t)
	h.Ask("", nameRequest)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	cmd := exec.CommandContext(ctx, elicitBinary(t), "attach", h.URL(), "--token", attachToken, "--answers", answersFile(t, `{"name":"Ada","city":"Rome"}`))
	var out, errb testkit.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out.WaitFor(t, `"request":"r1"`)
	h.Ask("", `{"id":"r2","message":"Later","questions":[{"id":"city","kind":"text","message":"City"}]}`)
	out.WaitFor(t, `"request":"r2"`)
	h.Close()
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if cmd.ProcessState.ExitCode() != exitOK || h.Response("r1") != "accept" || h.Response("r2") != "accept" {
		t.Fatalf("exit %d (stderr %s); host: %q %q", cmd.ProcessState.ExitCode(), errb.String(), h.Response("r1"), h.Response("r2"))
	}
}

// --once is for --answers; an answers file elicit cannot read is a usage
// error, as the README's table says.
func TestAttachUsage(t *testing.T) {
	if r := runBinary(t, nil, "", "attach", "ws://127.0.0.1:9/", "--once"); r.code != exitUsage || !strings.Contains(r.stderr, "give --answers FILE too") {
		t.Errorf("--once alone: %v", r)
	}
	if r := runBinary(t, nil, "", "attach", "ws://127.0.0.1:9/", "--answers", answersFile(t, "[1]")); r.code != exitUsage || !strings.Contains(r.stderr, "--answers") {
		t.Errorf("an answers file that is no object: %v", r)
	}
}
