// Package urlconsent draws the consent screen that must be passed before
// elicit opens a URL, over the analysis of package urlcheck, and opens the
// URL through an Opener once the user agreed.
//
//	c := urlconsent.NewConsent(urlcheck.Analyze(raw), urlconsent.Header{Agent: "Claude"}, th, grace, time.Now)
//	// the root model forwards messages; c.Done() says open, copy, decline or cancel
package urlconsent
