package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// runtimeDir points XDG_RUNTIME_DIR at a new directory of the test's (as
// the login manager's /run/user/UID is) and returns the inbox directory.
func runtimeDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "inbox-") // short: socket paths are at most ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", base)
	return filepath.Join(base, "elicit")
}

func publish(t *testing.T, meta ahp.SessionMeta) (*ahp.Host, *Published) {
	t.Helper()
	h := ahp.NewHost(ahp.HostOptions{Title: meta.Agent, Meta: &meta})
	p, err := Publish(h, ahp.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(); h.Close() })
	return h, p
}

func form(id, msg string) ahp.Request {
	return ahp.Request{ID: id, Message: msg, Questions: []ahp.Question{{ID: "name", Kind: ahp.KindText, Message: "Name?"}},
		Meta: ahp.RequestMeta{Kind: ahp.MetaForm, AskedAt: time.Now().UTC().Format(time.RFC3339Nano)}.Raw()}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	t.Cleanup(cancel)
	return c
}

func TestListCountAndAnswer(t *testing.T) {
	dir := runtimeDir(t)
	h1, p1 := publish(t, ahp.SessionMeta{Agent: "demo", Cwd: "/work/a", PID: 101})
	h2, _ := publish(t, ahp.SessionMeta{Agent: "claude", Cwd: "/work/b\x1b[31m", PID: 102})
	if fi, err := os.Stat(p1.Path); err != nil || fi.Mode().Perm() != 0o600 || filepath.Dir(p1.Path) != dir {
		t.Fatalf("socket %s: %v %v", p1.Path, fi.Mode(), err)
	}
	if err := h1.Request(form("q1", "Who are you?\nsecond line")); err != nil {
		t.Fatal(err)
	}
	perm := ahp.Request{ID: "q2", Message: "rm -rf build", Questions: []ahp.Question{{ID: "option", Kind: ahp.KindSingleSelect, Message: "Allow?", Required: true,
		Options: []ahp.Option{{ID: "allow", Label: "Allow"}, {ID: "reject", Label: "Reject"}}}},
		Meta: ahp.RequestMeta{Kind: ahp.MetaPermission, Tool: "Run rm -rf build"}.Raw()}
	if err := h2.RequestPrivate(perm); err != nil {
		t.Fatal(err)
	}
	items, problems := List(ctx(t), Options{})
	if len(problems) > 0 || len(items) != 2 {
		t.Fatalf("items %+v, problems %v", items, problems)
	}
	byKind := map[string]Item{}
	for _, it := range items {
		byKind[it.Kind] = it
	}
	f, p := byKind[ahp.MetaForm], byKind[ahp.MetaPermission]
	if f.Agent != "demo" || f.Cwd != "/work/a" || f.Message != "Who are you?" || !strings.HasSuffix(f.ID, ".q1") {
		t.Fatalf("form item %+v", f)
	}
	if p.Cwd != "/work/b" || p.Tool != "Run rm -rf build" {
		t.Fatalf("permission item %+v (the escape must be gone)", p)
	}
	if n, problems := Count(ctx(t), Options{}); n != 2 || len(problems) > 0 {
		t.Fatalf("count %d %v", n, problems)
	}
	c, it, err := Open(ctx(t), Options{}, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := ahp.InputCompleted{RequestID: it.Request.ID, Response: question.Accept,
		Answers: map[string]ahp.Answer{"name": {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Ada"}}}}
	if err := Complete(ctx(t), c, done); err != nil {
		t.Fatal(err)
	}
	won, ok := h1.NextCompletion(ctx(t))
	if !ok || !won.SameUser || won.Request.Answers["name"].Value.Text != "Ada" {
		t.Fatalf("the session got %+v", won)
	}
	if _, _, err := Open(ctx(t), Options{}, f.ID); err == nil || !strings.Contains(err.Error(), "no such question") {
		t.Fatalf("answered twice: %v", err)
	}
	if n, _ := Count(ctx(t), Options{}); n != 1 {
		t.Fatalf("count after the answer: %d", n)
	}
}

// A crashed session's socket (nobody listens) is removed by the next
// listing, never connected to again; a file that is not a socket of the
// user's is left alone.
func TestStaleSocketRemoved(t *testing.T) {
	dir := runtimeDir(t)
	_, _ = publish(t, ahp.SessionMeta{Agent: "live"})
	path := filepath.Join(dir, "999999-dead.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // the socket file stays, as after a crash
	other := filepath.Join(dir, "999998-note.sock")
	if err := os.WriteFile(other, []byte("not a socket"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, problems := List(ctx(t), Options{}); len(problems) > 0 {
		t.Fatalf("a stale socket is no problem: %v", problems)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("the stale socket is still there: %v", err)
	}
	if _, err := os.Lstat(other); err != nil {
		t.Fatalf("a file not a socket was touched: %v", err)
	}
}

func TestDirRefusesWhatIsNotTheUsers(t *testing.T) {
	dir := runtimeDir(t)
	if err := os.Symlink(os.TempDir(), dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a symbolic link: %v", err)
	}
	os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); err == nil || !strings.Contains(err.Error(), "open to others") {
		t.Fatalf("mode 0755: %v", err)
	}
	if _, err := Publish(ahp.NewHost(ahp.HostOptions{}), ahp.HandlerOptions{}); err == nil {
		t.Fatal("published in a directory open to others")
	}
	if os.Getuid() == 0 {
		os.Chmod(dir, 0o700)
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := Dir(); err == nil || !strings.Contains(err.Error(), "another user") {
			t.Fatalf("another user's directory: %v", err)
		}
	}
}

// helperEnv makes the test binary list the inbox and print what it saw.
const helperEnv = "INBOX_TEST_LIST"

// TestHelperList is not a test: run as another user, it lists the inbox
// (XDG_RUNTIME_DIR pointed at the first user's) and prints the items and
// the count as JSON.
func TestHelperList(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		return
	}
	items, problems := List(context.Background(), Options{})
	n, _ := Count(context.Background(), Options{})
	ids := []string{}
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	b, _ := json.Marshal(map[string]any{"items": ids, "count": n, "problems": fmt.Sprint(problems)})
	fmt.Println(string(b))
	os.Exit(0)
}

// Another user (nobody), even with XDG_RUNTIME_DIR pointed at this
// user's, sees and counts nothing: the directory is closed to them, and
// were it open, each socket refuses them (ahp's TestUnixPeerOfAnotherUserRefused).
func TestAnotherUserSeesNothing(t *testing.T) {
	if os.Getuid() != 0 {
		t.Log("not root: running the other user's listing as this user against a directory of mode 0755, whose check refuses it")
	}
	dir := runtimeDir(t)
	h, _ := publish(t, ahp.SessionMeta{Agent: "demo"})
	if err := h.Request(form("q1", "secret question")); err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(dir)
	os.Chmod(base, 0o755) // as /run/user/UID is not; the inbox's own directory still is 0700
	exe, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "helper.test")
	if err := os.WriteFile(bin, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestHelperList$")
	cmd.Dir = "/"
	cmd.Env = append(os.Environ(), helperEnv+"=1", "XDG_RUNTIME_DIR="+base)
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		os.Chmod(dir, 0o755) // the user's own directory, but open: refused all the same
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the other user's listing: %v\n%s", err, out)
	}
	var got struct {
		Items    []string
		Count    int
		Problems string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Items) != 0 || got.Count != 0 || got.Problems == "[]" {
		t.Fatalf("the other user saw %s", out)
	}
	t.Logf("the other user was told: %s", got.Problems)
}
