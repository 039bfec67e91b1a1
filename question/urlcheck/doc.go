// Package urlcheck decides where a URL really leads and what tricks it
// plays (lookalike hosts, mixed scripts, userinfo, obfuscated IPs, bidi
// controls), without fetching it. It imports no terminal library, so the
// protocol layer, a consent screen and a script can all use it.
//
//	r := urlcheck.Analyze("https://xn--80ak6aa92e.com/login")
//	fmt.Println(r.HostUnicode, r.RegistrableDomain, r.Has(urlcheck.CodeConfusable))
//	// аррӏе.com xn--80ak6aa92e.com true
//
// Lookalikes are checked against a list of well-known domains: the
// built-in one for Analyze, the built-in one and the user's own for an
// Analyzer (NewAnalyzer; ReadTopDomains reads a --top-domains file).
//
// Analyze parses like a browser (WHATWG URL) and runs the label rules of
// Chromium's IDN spoof checker over Unicode data dumped from ICU into
// tables_gen.go (go generate; see gen_tables.go). `elicit url` prints
// Analyze's Report for each URL (WriteText, or JSON). Warning codes are
// stable: scripts may match on them.
package urlcheck
