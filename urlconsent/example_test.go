package urlconsent_test

import (
	"context"
	"fmt"
	"log"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/urlconsent"
)

// The analysis the consent screen shows, for a host that reads "pаypal.com"
// with a Cyrillic "а": where the URL really goes and every warning.
func Example() {
	r := urlcheck.Analyze("https://xn--pypal-4ve.com/signin")
	urlcheck.WriteText(os.Stdout, r)
	// Output:
	// URL       https://xn--pypal-4ve.com/signin
	// Site      xn--pypal-4ve.com
	// Host      pаypal.com  (as shown)
	//           xn--pypal-4ve.com  (as sent)
	// Verdict   high risk: opens only after a second confirmation
	// Warnings:
	//   high    mixed_script      The label "pаypal" mixes scripts (Latin, Cyrillic).
	//   high    confusable        The host pаypal.com looks like paypal.com but is not it.
	//   low     punycode          The host is internationalised: it reads pаypal.com but the browser sends xn--pypal-4ve.com.
}

// Run is the whole consent flow as a program of its own: the screen on
// stderr, the keyboard on stdin, the browser started only after the user
// chose Open (and, for a high-risk URL like this one, confirmed it).
func ExampleRun() {
	out, err := urlconsent.Run(context.Background(), "https://xn--pypal-4ve.com/signin", urlconsent.RunOptions{
		Header: urlconsent.Header{Agent: "my-agent", Message: "Sign in to continue"},
	})
	if err != nil {
		log.Fatal(err) // not an http or https URL (urlconsent.ErrNotOpenable), or no terminal
	}
	fmt.Println(out.Action) // for example: accept (the browser started)
}

// printOpener stands in for the browser: it says what it was asked to
// open, and opens nothing.
type printOpener struct{}

func (printOpener) Open(url string) error {
	fmt.Println("browser:", url)
	return nil
}

// Consent embedded in a host's bubbletea program, driven by key messages
// as the host would forward them. Typing opens nothing (no button is
// selected until an arrow key picks one); a high-risk URL needs a second,
// deliberate step; only then does the host hand the URL to its Opener.
func ExampleConsent() {
	c := urlconsent.NewConsent(urlcheck.Analyze("https://xn--pypal-4ve.com/signin"),
		urlconsent.Header{Agent: "my-agent"}, nil, 0, nil) // no grace: these keys are meant for it
	keys := []tea.KeyPressMsg{
		{Code: 'o', Text: "o"}, {Code: tea.KeyEnter}, // prose: nothing happens
		{Code: tea.KeyRight}, {Code: tea.KeyEnter}, // "Open in browser": asks again
		{Code: tea.KeyRight}, {Code: tea.KeyEnter}, // "Open anyway"
	}
	for i, k := range keys {
		c.Update(k)
		if out, done := c.Done(); done {
			fmt.Printf("after %d keys: %s (opens the browser: %v)\n", i+1, out.Action, c.OpensBrowser())
			break
		}
	}
	if c.OpensBrowser() {
		msg := urlconsent.OpenCmd(printOpener{}, c.URL())().(urlconsent.OpenedMsg) // a host returns the tea.Cmd instead
		if msg.Err == nil {
			out, _ := c.Done()
			fmt.Println("reply:", out.Action)
		}
	}
	// Output:
	// after 6 keys: accept (opens the browser: true)
	// browser: https://xn--pypal-4ve.com/signin
	// reply: accept
}
