package urlconsent

import (
	"errors"
	"io"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/elicit-dev/elicit/internal/urlcheck"
	"github.com/pkg/browser"
)

// Opener opens a URL in the user's browser. It is the one seam tests fake.
type Opener interface {
	Open(url string) error
}

// BrowserOpener opens http and https URLs in the system browser through
// pkg/browser, with the launcher's output discarded so it cannot reach the
// screen. It never fetches anything itself.
type BrowserOpener struct{}

var quietBrowser sync.Once

// ErrNotOpenable is returned for a URL that is not a valid http or https URL.
var ErrNotOpenable = errors.New("urlconsent: only valid http and https URLs are opened")

// Open opens url if Analyze finds it a valid http or https URL.
func (BrowserOpener) Open(url string) error {
	r := urlcheck.Analyze(url)
	if !r.Openable() {
		return ErrNotOpenable
	}
	quietBrowser.Do(func() {
		browser.Stdout = io.Discard
		browser.Stderr = io.Discard
	})
	return browser.OpenURL(r.URL)
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
