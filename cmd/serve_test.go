package cmd

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 34, item 5: `serve --token-file F` with an F someone else could
// have written (or could read) hands them the token, and with it the
// answers: refused, as the config file is (owner, mode), before anything
// is served. A missing F is created with mode 0600.
func TestServeRefusesATokenFileOthersControl(t *testing.T) {
	tok := "a-token-someone-planted-0123456789"
	cases := []struct {
		name, want string
		plant      func(path string) error
	}{
		{"writable by anyone", "writable by others (mode 0666)", func(p string) error { return os.Chmod(p, 0o666) }},
		{"readable by others", "can be read by others (mode 0644)", func(p string) error { return os.Chmod(p, 0o644) }},
		{"another user's", "belongs to another user (uid 4242)", func(p string) error { return os.Chown(p, 4242, 4242) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "token")
			if err := os.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := tc.plant(path); err != nil {
				t.Logf("cannot plant the file here (%v): the owner check is TestConfigOfAnotherUserIsRefused's", err)
				return
			}
			r := runBinary(t, []string{"XDG_CONFIG_HOME=" + dir, "XDG_STATE_HOME=" + dir}, "", "serve", "-p", "hi", "--token-file", path)
			if r.code == 0 || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "elicit attach ws://") {
				t.Fatalf("exit %d; stderr:\n%s\nwant a refusal saying %q before anything is served", r.code, r.stderr, tc.want)
			}
		})
	}
}

// Issue 34, item 3: what `elicit serve` prints to attach with names the
// token's file (mode 0600), never the token: a command line is in every
// local user's ps. The printed command works as it is; the file made for
// the run is removed when serving ends.
func TestServePrintsTheTokenFileNotTheToken(t *testing.T) {
	bin := elicitBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	server := exec.CommandContext(ctx, bin, "serve", "-p", "/form defaults")
	server.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir)
	stderr, err := server.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer server.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var line string
	for line == "" && lines.Scan() {
		if strings.HasPrefix(lines.Text(), "elicit attach ") {
			line = lines.Text()
		}
	}
	go func() {
		for lines.Scan() {
		}
	}()
	words := strings.Fields(line)
	if len(words) != 5 || words[3] != "--token-file" {
		t.Fatalf("the attach line is %q, want elicit attach URL --token-file FILE", line)
	}
	path := words[4]
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file %s: %v %v", path, fi, err)
	}
	b, _ := os.ReadFile(path)
	if tok := strings.TrimSpace(string(b)); len(tok) < 16 || strings.Contains(line, tok) {
		t.Fatalf("the line %q, the token %q", line, tok)
	}
	answers := filepath.Join(dir, "answers.json")
	os.WriteFile(answers, []byte(`{}`), 0o600)
	r := runBinary(t, nil, "", append(words[1:], "--answers", answers)...)
	if !strings.Contains(r.stdout, `"request":"q1"`) || strings.Contains(r.stderr, "--token") {
		t.Fatalf("the printed command, run: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	server.Process.Signal(syscall.SIGINT)
	server.Wait()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the token file made for the run is still there: %v", err)
	}
}

// Issue 34, item 3: `attach --token VALUE` works, and says on stderr that
// every local user can read it; --token-env NAME and --token-file do not.
func TestAttachWarnsOfATokenOnTheCommandLine(t *testing.T) {
	const warning = "every local user can read a command line"
	file := filepath.Join(t.TempDir(), "tok")
	os.WriteFile(file, []byte("0123456789abcdef0123\n"), 0o600)
	for _, tc := range []struct {
		env  []string
		args []string
		warn bool
	}{
		{nil, []string{"--token", "0123456789abcdef0123"}, true},
		{[]string{"MY_TOKEN=0123456789abcdef0123"}, []string{"--token-env", "MY_TOKEN"}, false},
		{nil, []string{"--token-file", file}, false},
	} {
		r := runBinary(t, tc.env, "", append([]string{"attach", "ws://127.0.0.1:1/", "--answers", file}, tc.args...)...)
		if strings.Contains(r.stderr, warning) != tc.warn || strings.Contains(r.stderr, "unknown flag") {
			t.Errorf("%v: stderr:\n%s", tc.args, r.stderr)
		}
	}
}
