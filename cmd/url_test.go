package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question/urlcheck"
)

func TestURLCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		contains []string
		lines    int // JSON lines expected (with --json)
	}{
		{"clean", []string{"https://example.com/"}, "", urlClean, []string{"no warnings"}, 0},
		{"warnings", []string{"https://xn--80ak6aa92e.com/login"}, "", urlWarnings, []string{"аррӏе.com", "confusable", "high risk"}, 0},
		{"invalid wins", []string{"https://example.com/", "https://exa mple.com/", "http://x.example/"}, "", urlInvalid, []string{"invalid"}, 0},
		{"json", []string{"--json", "http://paypal.com@evil.example/", "https://example.com/"}, "", urlWarnings, []string{`"registrable_domain":"evil.example"`, `"code":"userinfo"`}, 2},
		{"stdin", []string{"--json", "-"}, "https://example.com/\n\n  \nhttp://0x7f000001/\r\n", urlWarnings, []string{`"host_ascii":"127.0.0.1"`}, 2},
		{"no urls", nil, "", urlInvalid, nil, 0},
		{"missing top domains", []string{"--top-domains", "/nonexistent", "https://example.com/"}, "", urlInvalid, nil, 0},
		{"bidi made visible", []string{"https://ex\u202eample.com/"}, "", urlInvalid, []string{"ex<U+202E>ample"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			o, args := urlArgs(t, tt.args)
			code := runURL(o, args, strings.NewReader(tt.stdin), &out, &errb)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errb.String())
			}
			for _, s := range tt.contains {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
			if strings.ContainsRune(out.String(), '\u202e') {
				t.Error("raw bidi control printed")
			}
			if tt.lines > 0 {
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				if len(lines) != tt.lines {
					t.Fatalf("%d JSON lines, want %d", len(lines), tt.lines)
				}
				for _, l := range lines {
					var r urlcheck.Report
					if err := json.Unmarshal([]byte(l), &r); err != nil || r.HostASCII == "" {
						t.Errorf("bad JSON line %q: %v", l, err)
					}
				}
			}
		})
	}
}

// --top-domains counts for the run that names it, and changes nothing
// for anything else in the process (issue 31: a value, not package state).
func TestRunCLITopDomains(t *testing.T) {
	file := filepath.Join(t.TempDir(), "domains.txt")
	if err := os.WriteFile(file, []byte("# ours\nacme-payments.example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	o, args := urlArgs(t, []string{"https://acrne-payments.example/", "--json", "--top-domains", file})
	code := runURL(o, args, nil, &out, &errb)
	if code != urlWarnings || !strings.Contains(out.String(), "acme-payments.example") {
		t.Fatalf("exit %d, output %s %s", code, out.String(), errb.String())
	}
	if urlcheck.Analyze("https://acrne-payments.example/").Has(urlcheck.CodeConfusable) {
		t.Error("--top-domains changed the package's own list")
	}
	out.Reset()
	o, args = urlArgs(t, []string{"https://acrne-payments.example/", "--json"})
	if code := runURL(o, args, nil, &out, &errb); code != urlClean || strings.Contains(out.String(), "acme-payments.example") {
		t.Errorf("a later run without --top-domains: exit %d, output %s", code, out.String())
	}
}

// urlArgs reads args with the flags of `elicit url`.
func urlArgs(t *testing.T, args []string) (urlOptions, []string) {
	t.Helper()
	cmd := newURLCommand(newApp(nil, nil, nil))
	if err := cmd.Flags().Parse(args); err != nil {
		t.Fatal(err)
	}
	// The command's RunE closes over its own options: read them back.
	asJSON, _ := cmd.Flags().GetBool("json")
	top, _ := cmd.Flags().GetStringArray("top-domains")
	return urlOptions{asJSON: asJSON, topDomains: top}, cmd.Flags().Args()
}
