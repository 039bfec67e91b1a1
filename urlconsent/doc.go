// Package urlconsent asks a person before a URL is opened: a consent
// screen over the URL's analysis (package urlcheck: the full URL, its
// site highlighted, punycode and lookalike warnings), a typed outcome (a
// question.Outcome: Accept, Decline or Cancel), and the browser hand-off
// through an Opener that nothing reaches without consent. It imports no protocol
// package, so any ACP or MCP client can answer a URL elicitation with it.
//
// Standalone, Run shows the screen as a program of its own and opens the
// URL once the user agreed:
//
//	out, err := urlconsent.Run(ctx, "https://xn--pypal-4ve.com/signin", urlconsent.RunOptions{
//		Header: urlconsent.Header{Agent: "my-agent", Message: "Sign in to continue"},
//	})
//	reply(out) // accept (the browser started), decline or cancel
//
// Inside a bubbletea program of your own, NewConsent is a child model:
// forward messages to Update, draw View, read Done, and when OpensBrowser
// says so run OpenCmd with your Opener; answer the agent once OpenedMsg
// says it worked (and call OpenFailed when it did not). The Opener is the one seam tests
// fake (see the examples).
package urlconsent
