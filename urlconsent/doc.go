// Package urlconsent decides where a URL really leads and what tricks it
// plays (lookalike hosts, userinfo, obfuscated IPs, bidi controls), and
// draws the consent screen that must be passed before elicit opens it.
//
//	r := urlconsent.Analyze("https://xn--80ak6aa92e.com/login")
//	fmt.Println(r.HostUnicode, r.RegistrableDomain, r.Has(urlconsent.CodeConfusable))
//	// аррӏе.com xn--80ak6aa92e.com true
//
// Analyze parses like a browser (WHATWG URL) and runs the label rules of
// Chromium's IDN spoof checker over Unicode data dumped from ICU into
// tables_gen.go (go generate; see gen_tables.go). Consent is the bubbletea
// child model of the consent screen, OpenCmd opens a URL through an Opener,
// and RunCLI is `elicit url`.
package urlconsent
