package urlcheck

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Severity ranks a warning. The order matters: MaxSeverity compares them.
type Severity int

// Severities, from least to most serious. High asks the consent screen for
// a second confirmation before it opens the URL.
const (
	Info Severity = iota
	Low
	Medium
	High
)

// String returns the lower-case name of s: info, low, medium or high.
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Low:
		return "low"
	case Medium:
		return "medium"
	case High:
		return "high"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalJSON encodes s as its lower-case name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON decodes a lower-case severity name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	for v := Info; v <= High; v++ {
		if v.String() == name {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("urlconsent: unknown severity %q", name)
}

// Warning codes. They are stable: scripts match on them.
const (
	CodePunycode        = "punycode"
	CodeMixedScript     = "mixed_script"
	CodeConfusable      = "confusable"
	CodeUserinfo        = "userinfo"
	CodeIPLiteral       = "ip_literal"
	CodeHTTPNotHTTPS    = "http_not_https"
	CodeNonstandardPort = "nonstandard_port"
	CodeBadScheme       = "bad_scheme"
	CodeBidiControl     = "bidi_control"
	CodeControlChars    = "control_chars"
	CodeVeryLong        = "very_long"
	CodeInvalid         = "invalid"
)

// Warning is one finding about a URL: a stable code, a severity and a
// sentence for people.
type Warning struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// Report is what Analyze found out about a URL. URL is the URL a browser
// would open (host in ASCII, default port dropped, backslashes as slashes,
// tabs and newlines removed); it is empty when the input is invalid. Input
// is the text as given.
type Report struct {
	URL               string    `json:"url"`
	Input             string    `json:"input"`
	Scheme            string    `json:"scheme"`
	Userinfo          string    `json:"userinfo,omitempty"`
	HostASCII         string    `json:"host_ascii"`
	HostUnicode       string    `json:"host_unicode"`
	Port              string    `json:"port,omitempty"`
	RegistrableDomain string    `json:"registrable_domain"`
	Path              string    `json:"path"`
	Query             string    `json:"query,omitempty"`
	Fragment          string    `json:"fragment,omitempty"`
	IsIP              bool      `json:"is_ip"`
	Warnings          []Warning `json:"warnings"`
}

// Has reports whether r carries a warning with the given code.
func (r Report) Has(code string) bool {
	for _, w := range r.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}

// MaxSeverity returns the highest severity among r's warnings, or Info
// when there is none.
func (r Report) MaxSeverity() Severity {
	m := Info
	for _, w := range r.Warnings {
		m = max(m, w.Severity)
	}
	return m
}

// Invalid reports whether the input is not a URL a browser could open.
func (r Report) Invalid() bool { return r.Has(CodeInvalid) || r.URL == "" }

// Openable reports whether the URL is valid and its scheme is http or https,
// the only schemes elicit ever hands to a browser.
func (r Report) Openable() bool {
	return !r.Invalid() && (r.Scheme == "http" || r.Scheme == "https") && r.HostASCII != ""
}

// add appends a warning unless one with the same code is there already, in
// which case the more severe one is kept and the messages are joined.
func (r *Report) add(code string, sev Severity, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for i := range r.Warnings {
		w := &r.Warnings[i]
		if w.Code != code {
			continue
		}
		w.Severity = max(w.Severity, sev)
		if !strings.Contains(w.Message, msg) {
			w.Message += " " + msg
		}
		return
	}
	r.Warnings = append(r.Warnings, Warning{Code: code, Severity: sev, Message: msg})
}
