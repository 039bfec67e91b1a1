package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Exit statuses of `elicit url`.
const (
	urlClean    = 0 // no URL has a warning
	urlWarnings = 1 // some URL has a warning
	urlInvalid  = 2 // some URL is invalid, or the command line is wrong
)

// urlOptions are the flags of `elicit url`.
type urlOptions struct {
	asJSON     bool
	topDomains []string
}

const urlLong = `Analyses each URL as the consent screen does, without opening or fetching anything: the host as Unicode and as ASCII, the registrable domain, and warnings (lookalikes of well-known domains, mixed scripts, punycode, user info, raw IP addresses, bidi and invisible characters). - reads URLs from stdin, one per line.

Exit status: 0 no URL has a warning, 1 some URL has a warning, 2 some URL is invalid (or a usage error).`

const urlExample = `
# A readable report:
elicit url 'https://xn--80ak6aa92e.com/login'

# One JSON object per URL, from stdin:
cat urls.txt | elicit url --json -
`

// newURLCommand is `elicit url URL...`.
func newURLCommand(a *app) *cobra.Command {
	var o urlOptions
	cmd := &cobra.Command{
		Use:     "url URL...",
		Short:   "Analyse URLs as the consent screen does",
		Long:    urlLong,
		Example: urlExample,
		Args:    needArgs(1, -1, "URL", "give one URL or more (- reads them from stdin, one a line): elicit url 'https://example.com/login'"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.exit(runURL(o, args, a.stdin, textOut(a.stdout), textOut(a.stderr)))
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print each analysis as one JSON object per line")
	addTopDomainsFlag(cmd, &o.topDomains)
	return cmd
}

// runURL runs `elicit url`: args are the URLs, "-" reads more from stdin,
// one per line. With --json it prints one Report object per line; without,
// a readable report per URL. It never opens or fetches anything. The exit
// status is 0 when no URL has a warning, 1 when some has, 2 when one is
// invalid.
func runURL(o urlOptions, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	top, err := readTopDomains(o.topDomains)
	if err != nil {
		fmt.Fprintf(stderr, "elicit url: %v\n", err)
		return urlInvalid
	}
	analyzer := urlcheck.NewAnalyzer(top...)
	urls, err := collectURLs(args, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "elicit url: reading stdin: %v\n", err)
		return urlInvalid
	}
	if len(urls) == 0 {
		fmt.Fprintln(stderr, "elicit url: no URL given (- reads them from stdin, one per line)")
		return urlInvalid
	}
	// Each line is escaped after encoding: encoding/json writes bidi
	// controls and invisible characters raw (all but U+2028 and U+2029).
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	status := urlClean
	for i, u := range urls {
		r := analyzer.Analyze(u)
		switch {
		case r.Invalid():
			status = urlInvalid
		case len(r.Warnings) > 0 && status == urlClean:
			status = urlWarnings
		}
		if o.asJSON {
			line.Reset()
			if err := enc.Encode(r); err != nil {
				fmt.Fprintf(stderr, "elicit url: %v\n", err)
				return urlInvalid
			}
			stdout.Write(termout.EscapeJSON(line.Bytes()))
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		urlcheck.WriteText(stdout, r)
	}
	return status
}

// collectURLs expands "-" into the non-blank lines of stdin.
func collectURLs(args []string, stdin io.Reader) ([]string, error) {
	var urls []string
	readStdin := false
	for _, a := range args {
		if a != "-" {
			urls = append(urls, a)
			continue
		}
		if readStdin || stdin == nil {
			continue
		}
		readStdin = true
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 0, 64*1024), urlcheck.MaxInputLength+1024)
		for sc.Scan() {
			if line := strings.TrimRight(sc.Text(), "\r"); strings.TrimSpace(line) != "" {
				urls = append(urls, line)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return urls, nil
}
