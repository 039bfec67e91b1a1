package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionOfCheckoutBuild builds elicit from a checkout with VCS
// stamping on and checks that --version and `elicit version` name its
// commit. go stamps only a checkout whose .git is a directory, so a git
// worktree is first cloned (sharing its objects) at its HEAD.
func TestVersionOfCheckoutBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds elicit")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := moduleRoot(t)
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	commit := strings.TrimSpace(string(head))
	src := root
	if fi, err := os.Stat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
		src = filepath.Join(t.TempDir(), "src")
		for _, args := range [][]string{{"clone", "-q", "--shared", "--no-checkout", root, src}, {"-C", src, "checkout", "-q", "--detach", commit}} {
			if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	}
	bin := filepath.Join(t.TempDir(), "elicit")
	// -buildvcs=true overrides a GOFLAGS=-buildvcs=false in the environment.
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		text := string(out)
		for _, re := range []string{
			`(?m)^elicit \S`,
			`(?m)^commit +` + commit + `( \(modified\))?$`,
			`(?m)^go +go1\.\d+`,
			`(?m)^protocol +ACP 1$`,
		} {
			if !regexp.MustCompile(re).MatchString(text) {
				t.Errorf("%v: no match for %s in:\n%s", args, re, text)
			}
		}
	}
}

// TestReleaseVersion: a release build's -ldflags name the version and
// commit.
func TestReleaseVersion(t *testing.T) {
	old, oldCommit := Version, Commit
	defer func() { Version, Commit = old, oldCommit }()
	Version, Commit = "v1.2.3", "0123456789abcdef0123456789abcdef01234567"
	v := readVersion()
	text := versionText(v)
	if !strings.HasPrefix(text, "elicit v1.2.3\ncommit    0123456789abcdef0123456789abcdef01234567\n") || v.Modified {
		t.Errorf("%q", text)
	}
	if v.short() != "v1.2.3" {
		t.Errorf("short %q", v.short())
	}
	Version, Commit = "", ""
	if v := readVersion(); v.Version != unknownVersion && !strings.HasPrefix(v.Version, "v") {
		t.Errorf("version of a test binary: %q", v.Version)
	}
	if (versionInfo{Version: unknownVersion}).short() != "dev" {
		t.Error("a build with no version is not dev to the agent")
	}
}

// TestCompletion: each shell gets a script, and bash's completion of the
// agent lists a configured agent and the subcommands.
func TestCompletion(t *testing.T) {
	for shell, marker := range map[string]string{
		"bash":       "complete -o default -F __start_elicit elicit",
		"zsh":        "#compdef elicit",
		"fish":       "complete -c elicit",
		"powershell": "Register-ArgumentCompleter",
	} {
		r := runBinary(t, nil, "", "completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, marker) {
			t.Errorf("completion %s: exit %d, no %q (%d bytes)\n%s", shell, r.code, marker, len(r.stdout), r.stderr)
		}
	}
	home := t.TempDir()
	cfg := filepath.Join(home, "elicit", "config.toml")
	os.Mkdir(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("[agents.probe]\ncommand = [\"probe-acp\", \"--stdio\"]\n"), 0o600)
	env := []string{"XDG_CONFIG_HOME=" + home, "PATH=" + t.TempDir()}
	// What bash's script asks: the words so far, and the one to complete.
	r := runBinary(t, env, "", "__complete", "")
	for _, want := range []string{"probe\tconfig: probe-acp --stdio", "claude\tbuilt-in: claude-agent-acp (not installed)", "form\t", "sessions\t", ":4"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("__complete lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runBinary(t, env, "", "__complete", "--config", cfg, "pr")
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], "probe\t") {
		t.Errorf("__complete pr: %q", lines)
	}
	// sessions completes agents too; after -- the shell completes files.
	if r := runBinary(t, env, "", "__complete", "sessions", "--config", cfg, "pro"); !strings.Contains(r.stdout, "probe\t") {
		t.Errorf("sessions: %s", r.stdout)
	}
	if r := runBinary(t, []string{"XDG_CONFIG_HOME=/nonexistent"}, "", "__complete", "--config", cfg, "-p", "hi", "pro"); !strings.Contains(r.stdout, "probe\t") {
		t.Errorf("--config: %s", r.stdout)
	}
	if r := runBinary(t, env, "", "__complete", "--", "pro"); strings.Contains(r.stdout, "probe") || !strings.Contains(r.stdout, ":0") {
		t.Errorf("after --: %s", r.stdout)
	}
}
