package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// requireTool returns the path of a tool a test needs. CI installs the
// tools its tests need and names them in ELICIT_TEST_TOOLS (.ci/run):
// there a missing one fails the test. Elsewhere the test is skipped and
// says what to install.
func requireTool(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if strings.Contains(" "+os.Getenv("ELICIT_TEST_TOOLS")+" ", " "+pkg+" ") {
		t.Fatalf("%s is not on PATH, but ELICIT_TEST_TOOLS says %s is installed", name, pkg)
	}
	t.Skipf("%s is not installed (Debian's %s; .ci/run installs it)", name, pkg)
	return ""
}

// TestManPage: `elicit man` is a man(7) page mandoc finds nothing wrong
// with, not even style; short flags read "-c, --continue", value names
// have no backquotes; it has a SYNOPSIS of every command and the
// sections EXIT STATUS (the README's table), ENVIRONMENT, FILES and
// EXAMPLES.
func TestManPage(t *testing.T) {
	mandoc := requireTool(t, "mandoc", "mandoc")
	r := runBinary(t, []string{"SOURCE_DATE_EPOCH=1767225600"}, "", "man")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("elicit man: %v", r)
	}
	page := filepath.Join(t.TempDir(), "elicit.1")
	if err := os.WriteFile(page, []byte(r.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mandoc, "-T", "lint", "-W", "style", page).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("mandoc -T lint: %v\n%s", err, out)
	}
	// The source field names the version `elicit version` reports: none
	// for a build without one, a pseudo-version for a checkout built
	// with VCS stamping (Go's default), a tag for a release.
	v := runBinary(t, nil, "", "version")
	version, _, _ := strings.Cut(strings.TrimPrefix(v.stdout, "elicit "), "\n")
	source := "elicit"
	if version != unknownVersion {
		source = `"elicit ` + strings.ReplaceAll(version, "-", `\-`) + `"` // a version holds no other character roff escapes
	}
	if want := `.TH ELICIT 1 2026-01-01 ` + source + ` "User Commands"` + "\n"; !strings.HasPrefix(r.stdout, want) {
		t.Errorf("the title line (SOURCE_DATE_EPOCH sets the date): %.100q, want %q", r.stdout, want)
	}
	if strings.Contains(r.stdout, "`") {
		t.Errorf("a backquote in the page")
	}
	out, err := exec.Command(mandoc, "-T", "ascii", "-O", "width=100", page).Output()
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(".\b").ReplaceAllString(string(out), "") // mandoc's overstrike bold
	for _, want := range []string{
		"-c, --continue\n", "-p, --prompt TEXT\n", "-v, --version\n", "-h, --help\n", "--answers FILE\n", "--start-timeout DURATION\n",
		"\nSYNOPSIS\n", "elicit [OPTIONS] -- COMMAND [ARG ...]", "elicit attach [OPTIONS] URL\n", "elicit history forget AGENT\n",
		"elicit form [OPTIONS] [FILE|-]\n", "elicit demo [OPTIONS] --serve [ADDR]\n",
		"\nEXIT STATUS\n", "\nENVIRONMENT\n", "\nFILES\n", "\nEXAMPLES\n",
		"NO_COLOR", "ACCESSIBLE", "BROWSER", "TERM", "SSH_CONNECTION", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "ELICIT_AHP_TOKEN",
		"$XDG_CONFIG_HOME/elicit/config.toml", "$XDG_STATE_HOME/elicit/answers.json", "$XDG_STATE_HOME/elicit/sites.json",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"--c ", "--p ", "--h ", "--v "} {
		if strings.Contains(text, bad) {
			t.Errorf("the page spells a short flag %q", bad)
		}
	}
	// The exit statuses are the README's, row for row.
	readme, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	table := string(readme)
	if i := strings.Index(table, "| status | meaning |"); i >= 0 {
		table = table[i:]
		if j := strings.Index(table, "\n\n"); j >= 0 {
			table = table[:j]
		}
	}
	rows := regexp.MustCompile("(?m)^\\| (0|1|2|124|130) \\| (.*) \\|$").FindAllStringSubmatch(table, -1)
	if len(rows) != len(manExitStatus) {
		t.Fatalf("README has %d exit-status rows, the page %d", len(rows), len(manExitStatus))
	}
	for i, row := range rows {
		if e := manExitStatus[i]; e.tag != row[1] || e.text != strings.ReplaceAll(row[2], "`", "") {
			t.Errorf("exit status %s: the page says %q, the README %q", row[1], e.text, row[2])
		}
	}
}
