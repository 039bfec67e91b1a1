package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/urlconsent/urlcheck"
)

// Exit statuses of `elicit url`.
const (
	urlClean    = 0 // no URL has a warning
	urlWarnings = 1 // some URL has a warning
	urlInvalid  = 2 // some URL is invalid, or the command line is wrong
)

// runURL runs `elicit url [--json] [--top-domains FILE] URL...`. args are
// the arguments after "url"; "-" reads URLs from stdin, one per line. With
// --json it prints one Report object per line; without, a readable report
// per URL. It never opens or fetches anything. The exit status is 0 when no
// URL has a warning, 1 when some has, 2 when one is invalid.
func runURL(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("elicit url", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print each analysis as one JSON object per line")
	var topFiles []string
	fs.Func("top-domains", "add the well-known domains listed in `FILE` (one per line) to the lookalike checks", func(s string) error {
		topFiles = append(topFiles, s)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: elicit url [--json] [--top-domains FILE] URL... (- reads URLs from stdin)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return urlClean
		}
		return urlInvalid
	}
	for _, f := range topFiles {
		if err := urlcheck.LoadTopDomains(f); err != nil {
			fmt.Fprintf(stderr, "elicit url: %v\n", err)
			return urlInvalid
		}
	}
	urls, err := collectURLs(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "elicit url: reading stdin: %v\n", err)
		return urlInvalid
	}
	if len(urls) == 0 {
		fs.Usage()
		return urlInvalid
	}
	// Each line is escaped after encoding: encoding/json writes bidi
	// controls and invisible characters raw (all but U+2028 and U+2029).
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	status := urlClean
	for i, u := range urls {
		r := urlcheck.Analyze(u)
		switch {
		case r.Invalid():
			status = urlInvalid
		case len(r.Warnings) > 0 && status == urlClean:
			status = urlWarnings
		}
		if *asJSON {
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
