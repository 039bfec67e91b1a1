package urlcheck

import (
	"fmt"
	"io"
)

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
