package urlcheck

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
)

// Exit statuses of RunCLI.
const (
	ExitClean    = 0 // no URL has a warning
	ExitWarnings = 1 // some URL has a warning
	ExitInvalid  = 2 // some URL is invalid, or the command line is wrong
)

// RunCLI runs `elicit url [--json] [--top-domains FILE] URL...`. args are
// the arguments after "url"; "-" reads URLs from stdin, one per line. With
// --json it prints one Report object per line; without, a readable report
// per URL. It never opens or fetches anything. The exit status is 0 when no
// URL has a warning, 1 when some has, 2 when one is invalid.
func RunCLI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
			return ExitClean
		}
		return ExitInvalid
	}
	for _, f := range topFiles {
		if err := LoadTopDomains(f); err != nil {
			fmt.Fprintf(stderr, "elicit url: %v\n", err)
			return ExitInvalid
		}
	}
	urls, err := collectURLs(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "elicit url: reading stdin: %v\n", err)
		return ExitInvalid
	}
	if len(urls) == 0 {
		fs.Usage()
		return ExitInvalid
	}
	// Each line is escaped after encoding: encoding/json writes bidi
	// controls and invisible characters raw (all but U+2028 and U+2029).
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	status := ExitClean
	for i, u := range urls {
		r := Analyze(u)
		switch {
		case r.Invalid():
			status = ExitInvalid
		case len(r.Warnings) > 0 && status == ExitClean:
			status = ExitWarnings
		}
		if *asJSON {
			line.Reset()
			if err := enc.Encode(r); err != nil {
				fmt.Fprintf(stderr, "elicit url: %v\n", err)
				return ExitInvalid
			}
			stdout.Write(termout.EscapeJSON(line.Bytes()))
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		WriteText(stdout, r)
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
		sc.Buffer(make([]byte, 0, 64*1024), maxInputLength+1024)
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

// WriteText prints a plain-text report for people (elicit url, the
// accessible session); every string that came from the URL is made visible
// first.
func WriteText(w io.Writer, r Report) {
	field := func(label, value string) { fmt.Fprintf(w, "%-10s%s\n", label, value) }
	if r.URL != "" {
		field("URL", Visible(r.URL))
	}
	if InputDiffers(r) {
		field("Input", Visible(r.Input))
	}
	if r.HostASCII != "" {
		field("Site", r.Site())
		if r.HostUnicode != r.HostASCII {
			field("Host", Visible(r.HostUnicode)+"  (as shown)")
			field("", r.HostASCII+"  (as sent)")
		} else {
			field("Host", r.HostASCII)
		}
	}
	if len(r.Warnings) == 0 {
		field("Verdict", "no warnings")
		return
	}
	verdict := "opens only after confirming"
	switch {
	case r.Invalid():
		verdict = "invalid: will not open"
	case !r.Openable():
		verdict = "will not open (only http and https do)"
	case r.MaxSeverity() >= High:
		verdict = "high risk: opens only after a second confirmation"
	}
	field("Verdict", verdict)
	fmt.Fprintf(w, "Warnings:\n")
	for _, x := range SortedWarnings(r.Warnings) {
		fmt.Fprintf(w, "  %-7s %-17s %s\n", x.Severity, x.Code, Visible(x.Message))
	}
}
