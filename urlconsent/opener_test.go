package urlconsent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"rsc.io/qr"
)

// recorder is a real browser stand-in: a script that writes its arguments,
// one a line, to a file.
func recorder(t *testing.T) (cmd, out string) {
	t.Helper()
	dir := t.TempDir()
	out = filepath.Join(dir, "args")
	cmd = filepath.Join(dir, "fakebrowser")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + out + "\n"
	if err := os.WriteFile(cmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestBrowserEnv(t *testing.T) {
	fake, out := recorder(t)
	const u = "https://example.com/a?b=1;touch${IFS}pwned&c=%41"
	for _, tc := range []struct {
		name, browser, want string
	}{
		{"appended", fake, u},
		{"placeholder", fake + " --new-window %s --x=%%s", "--new-window\n" + u + "\n--x=%s"},
		{"first missing", "no-such-browser-here:" + fake + " -a", "-a\n" + u},
		{"empty entries", "::" + fake, u},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(out)
			err := BrowserOpener{Getenv: env(map[string]string{"BROWSER": tc.browser})}.Open(u)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(out)
			if strings.TrimSuffix(string(got), "\n") != tc.want {
				t.Fatalf("the browser got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestBrowserFailures(t *testing.T) {
	fake, out := recorder(t)
	err := BrowserOpener{Getenv: env(map[string]string{"BROWSER": "no-such-browser-here:false"})}.Open("https://example.com/")
	if err == nil || !strings.Contains(err.Error(), "no-such-browser-here: not found") || !strings.Contains(err.Error(), "false: exit status 1") {
		t.Fatalf("error %v", err)
	}
	for _, k := range []string{"SSH_CONNECTION", "SSH_TTY"} {
		err := BrowserOpener{Getenv: env(map[string]string{k: "x", "BROWSER": fake})}.Open("https://example.com/")
		if !errors.Is(err, ErrRemote) {
			t.Fatalf("%s: %v", k, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: a browser was started over SSH", k)
		}
	}
	t.Setenv("PATH", t.TempDir()) // no xdg-open
	err = BrowserOpener{Getenv: env(nil)}.Open("https://example.com/")
	if !errors.Is(err, ErrNoBrowser) || err.Error() != "no browser: $BROWSER is not set and xdg-open was not found" {
		t.Fatalf("error %v", err)
	}
	if err := (BrowserOpener{Getenv: env(map[string]string{"BROWSER": fake})}).Open("file:///etc/passwd"); !errors.Is(err, ErrNotOpenable) {
		t.Fatalf("file URL: %v", err)
	}
}

// TestQRMatchesTheLibrary reads the drawing back, module by module, and
// compares it with the library's own matrix.
func TestQRMatchesTheLibrary(t *testing.T) {
	for _, u := range []string{"https://example.com/", "https://accounts.example.com/o/oauth2/auth?client_id=abc&redirect_uri=http%3A%2F%2Flocalhost%3A8080&state=xyz123&scope=openid+email"} {
		plain, err := qrCode(u, true)
		if err != nil {
			t.Fatal(err)
		}
		code, _ := qr.Encode(u, qr.L)
		n := code.Size + 2*quietZone
		if len(plain) != (n+1)/2 {
			t.Fatalf("%d rows for %d modules", len(plain), n)
		}
		for row, line := range plain {
			cells := []rune(line)
			if len(cells) != n {
				t.Fatalf("row %d has %d cells, want %d", row, len(cells), n)
			}
			for x, c := range cells {
				top := c == '█' || c == '▀'
				bottom := c == '█' || c == '▄'
				for dy, light := range []bool{top, bottom} {
					y := 2*row + dy
					if y >= n {
						continue
					}
					mx, my := x-quietZone, y-quietZone
					want := mx < 0 || my < 0 || mx >= code.Size || my >= code.Size || !code.Black(mx, my)
					if light != want {
						t.Fatalf("module (%d,%d): drawn light=%v, library light=%v", mx, my, light, want)
					}
				}
			}
		}
		coloured, _ := qrCode(u, false)
		for i := range coloured {
			if ansi.Strip(coloured[i]) != plain[i] {
				t.Fatalf("the coloured code differs from the plain one at row %d", i)
			}
		}
	}
}

func TestCopyConfirms(t *testing.T) {
	if copyCmd("https://example.com/") == nil {
		t.Fatal("no command")
	}
	if !copyConfirms(tea.ClipboardMsg{Content: "https://example.com/"}, "https://example.com/") || copyConfirms(tea.ClipboardMsg{}, "https://example.com/") {
		t.Fatal("copyConfirms")
	}
}
