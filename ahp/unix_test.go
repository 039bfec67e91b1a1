package ahp

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// serveUnix serves h on a Unix socket in a private directory, as the
// inbox does, and returns the socket's path.
func serveUnix(t *testing.T, h *Host) (string, *UnixListener) {
	t.Helper()
	dir, err := os.MkdirTemp("", "ahp-unix-") // short: a socket path is at most ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s.sock")
	ln, err := ListenUnix(path)
	if err != nil {
		t.Fatal(err)
	}
	ws := NewHandler(h, HandlerOptions{SameUser: true})
	srv := &http.Server{Handler: ws}
	go srv.Serve(ln)
	t.Cleanup(func() { ws.Close(); srv.Close() })
	return path, ln
}

func dialUnix(t *testing.T, path string) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := Dial(ctx, ClientOptions{Socket: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// A permission is asked with RequestPrivate: the inbox's same-user socket
// sees it and may answer it; a network client holding the token neither
// sees it nor can answer it, and is not told the session's directory.
func TestPrivateRequestOnlyOverTheSameUserSocket(t *testing.T) {
	h, url := startHost(t, HostOptions{Meta: &SessionMeta{Agent: "demo", Cwd: "/work/a", PID: 42}})
	path, _ := serveUnix(t, h)
	inbox := dialUnix(t, path)
	remote := dial(t, url, ClientOptions{})
	if m := inbox.SessionMeta(); m.Cwd != "/work/a" || m.PID != 42 || m.Agent != "demo" {
		t.Fatalf("the socket's client was told %+v", m)
	}
	if m := remote.SessionMeta(); m != (SessionMeta{}) {
		t.Fatalf("a network client was told %+v", m)
	}
	perm := Request{ID: "p1", Message: "run rm -rf build", Questions: []Question{{ID: "option", Kind: KindSingleSelect, Message: "allow?", Required: true,
		Options: []Option{{ID: "allow", Label: "Allow"}, {ID: "reject", Label: "Reject"}}}}, Meta: RequestMeta{Kind: MetaPermission}.Raw()}
	if err := h.RequestPrivate(perm); err != nil {
		t.Fatal(err)
	}
	ask(t, h, Request{ID: "f1", Message: "Name?", Questions: []Question{textQ("name", false)}}, remote)
	waitFor(t, inbox, "both requests", changedTo(func(in Inputs) bool { return in.Open("p1") != nil && in.Open("f1") != nil }))
	if in := remote.Inputs(); in.Find("p1") != nil {
		t.Fatalf("the network client sees the permission: %+v", in)
	}
	in := inbox.Inputs()
	if got := MetaOf(&in.Open("p1").Request).Kind; got != MetaPermission {
		t.Fatalf("kind %q", got)
	}
	// A network client that guesses the id is refused as if there were none.
	remote.Dispatch(InputCompleted{RequestID: "p1", Response: question.Accept, Answers: map[string]Answer{"option": {State: Submitted, Value: &Value{Kind: ValueSelected, Selected: "allow"}}}})
	rejected(t, remote, `no open request "p1"`)
	// A network reconnect's replay leaves it out too.
	h.dropClient(remote.ID())
	waitFor(t, remote, "reconnect", func(ev Event) bool { c, ok := ev.(Connection); return ok && c.Up })
	if in := remote.Inputs(); in.Find("p1") != nil {
		t.Fatalf("the permission reached the network client on reconnect: %+v", in)
	}
	inbox.Dispatch(InputCompleted{RequestID: "p1", Response: question.Accept, Answers: map[string]Answer{"option": {State: Submitted, Value: &Value{Kind: ValueSelected, Selected: "reject"}}}})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, ok := h.NextCompletion(ctx)
	if !ok || c.Request.ID != "p1" || !c.SameUser || c.Request.Answers["option"].Value.Selected != "reject" {
		t.Fatalf("completion %+v (ok %v)", c, ok)
	}
}

// helperEnv names the socket the helper process dials.
const helperEnv = "AHP_TEST_DIAL_SOCKET"

// TestHelperDialSocket is not a test: run as another process (another
// user's), it dials the socket in $AHP_TEST_DIAL_SOCKET and exits 3 if it
// got a session, 0 if it was refused.
func TestHelperDialSocket(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := Dial(ctx, ClientOptions{Socket: path})
	if err == nil {
		c.Close()
		os.Exit(3)
	}
	fmt.Println("refused:", err)
	os.Exit(0)
}

// A process of another user reaches the socket (its walls of mode 0700
// and 0600 taken down here, so only the peer check stands) and is closed
// unread. As root the other process really runs as nobody; otherwise the
// listener expects another uid than this process's, which then plays the
// stranger.
func TestUnixPeerOfAnotherUserRefused(t *testing.T) {
	h := NewHost(HostOptions{})
	t.Cleanup(h.Close)
	path, ln := serveUnix(t, h)
	if err := os.Chmod(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDialSocket$")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		exe, err := os.ReadFile(os.Args[0]) // nobody may not read the test binary where it is
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(filepath.Dir(path), "helper.test")
		if err := os.WriteFile(bin, exe, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd.Path, cmd.Args[0] = bin, bin
		cmd.Dir = "/"
	} else {
		ln.uid = os.Getuid() + 1
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the other user's client: %v\n%s", err, out)
	}
	if n := ln.PeerRefused(); n < 1 {
		t.Fatalf("refused %d connections\n%s", n, out)
	}
	t.Logf("uid %s: %s", strconv.Itoa(os.Getuid()), out)
}
