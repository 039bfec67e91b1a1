package urlconsent

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/pkg/browser"

	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Opener opens a URL in the user's browser. It is the one seam tests fake.
type Opener interface {
	Open(url string) error
}

// ErrNotOpenable is returned for a URL that is not a valid http or https URL.
var ErrNotOpenable = errors.New("urlconsent: only valid http and https URLs are opened")

// ErrRemote is returned over SSH (SSH_CONNECTION or SSH_TTY set): a browser
// started there would open on the remote machine, not in front of the
// user, so none is started. The front end offers the URL to copy (and the
// full screen as a QR code, when it fits one: see SetRemote).
var ErrRemote = errors.New("no browser over SSH (it would open on the remote machine)")

// ErrNoBrowser is returned when there is nothing to open a URL with.
var ErrNoBrowser = errors.New("no browser: $BROWSER is not set and xdg-open was not found")

// BrowserOpener opens http and https URLs in the user's browser: the
// commands of $BROWSER first, else the system's (pkg/browser, with its
// output discarded so it cannot reach the screen). It never fetches
// anything itself. The zero value reads the process's environment.
type BrowserOpener struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Settle is how long a $BROWSER command may take to fail before it
	// counts as started (a browser that stays open is a success); 0 means
	// DefaultSettle.
	Settle time.Duration
}

// DefaultSettle is how long a $BROWSER command may take to fail.
const DefaultSettle = 2 * time.Second

var quietBrowser sync.Once

// osGetenv is os.Getenv, for Remote.
var osGetenv = os.Getenv

// Open opens url if Analyze finds it a valid http or https URL. Over SSH
// it returns ErrRemote without starting anything.
func (o BrowserOpener) Open(url string) error {
	r := urlcheck.Analyze(url)
	if !r.Openable() {
		return ErrNotOpenable
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if Remote(getenv) {
		return ErrRemote
	}
	if b := getenv("BROWSER"); strings.TrimSpace(b) != "" {
		return o.openWith(b, r.URL)
	}
	switch runtime.GOOS {
	case "darwin", "windows":
	default:
		if _, err := exec.LookPath("xdg-open"); err != nil {
			return ErrNoBrowser
		}
	}
	quietBrowser.Do(func() {
		browser.Stdout = io.Discard
		browser.Stderr = io.Discard
	})
	if err := browser.OpenURL(r.URL); err != nil {
		return fmt.Errorf("the system browser failed: %w", err)
	}
	return nil
}

// openWith tries each command of a $BROWSER list in turn, as xdg-open and
// sensible-browser do: entries are separated by ':', "%s" in an entry
// becomes the URL ("%%" a '%'), and an entry without "%s" gets the URL as
// its last argument. Entries are split on spaces and run without a shell,
// so nothing in the URL is interpreted. Hand-written: pkg/browser ignores
// $BROWSER.
func (o BrowserOpener) openWith(list, url string) error {
	settle := o.Settle
	if settle <= 0 {
		settle = DefaultSettle
	}
	var failed []string
	for _, entry := range strings.Split(list, ":") {
		argv := browserArgv(entry, url)
		if len(argv) == 0 {
			continue
		}
		err := run(argv, settle)
		if err == nil {
			return nil
		}
		failed = append(failed, fmt.Sprintf("%s: %v", argv[0], err))
	}
	if len(failed) == 0 {
		return ErrNoBrowser
	}
	return fmt.Errorf("$BROWSER could not open the URL (%s)", strings.Join(failed, "; "))
}

// browserArgv is one $BROWSER entry as a command line for url.
func browserArgv(entry, url string) []string {
	fields := strings.Fields(entry)
	if len(fields) == 0 {
		return nil
	}
	found := false
	for i, f := range fields {
		var b strings.Builder
		for j := 0; j < len(f); j++ {
			switch {
			case f[j] == '%' && j+1 < len(f) && f[j+1] == 's':
				b.WriteString(url)
				found = true
				j++
			case f[j] == '%' && j+1 < len(f) && f[j+1] == '%':
				b.WriteByte('%')
				j++
			default:
				b.WriteByte(f[j])
			}
		}
		fields[i] = b.String()
	}
	if !found {
		fields = append(fields, url)
	}
	return fields
}

// run starts argv with no terminal attached and reports a failure that
// comes within settle: a launcher that exits 0, or a browser still
// running by then, is a success.
func run(argv []string, settle time.Duration) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	// Stdin, Stdout and Stderr stay nil: /dev/null, so nothing reaches the screen.
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return errors.New("not found")
		}
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(settle):
		return nil
	}
}

// OpenedMsg reports the result of an OpenCmd.
type OpenedMsg struct {
	URL string
	Err error
}

// OpenCmd returns a command that opens url with o off the Update loop and
// reports an OpenedMsg. URLs that are not valid http or https are refused
// without calling o; the URL handed to o is the one Analyze found (the host
// in ASCII), so what opens is what was shown.
func OpenCmd(o Opener, url string) tea.Cmd {
	return func() tea.Msg {
		r := urlcheck.Analyze(url)
		if !r.Openable() {
			return OpenedMsg{URL: url, Err: ErrNotOpenable}
		}
		return OpenedMsg{URL: url, Err: o.Open(r.URL)}
	}
}
