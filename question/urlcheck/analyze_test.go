package urlcheck

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAnalyzeCorpus checks host, registrable domain and the exact set of
// warning codes for every case of testdata/urls/analyze.tsv.
func TestAnalyzeCorpus(t *testing.T) {
	for _, c := range readCorpus(t, "analyze.tsv") {
		if len(c.fields) != 5 {
			t.Fatalf("%s: want 5 fields, got %d", c.line, len(c.fields))
		}
		input := c.fields[0]
		if strings.HasPrefix(input, `"`) {
			var err error
			if input, err = strconv.Unquote(input); err != nil {
				t.Fatalf("%s: %v", c.line, err)
			}
		}
		r := Analyze(input)
		wantHost, wantReg, wantCodes := c.fields[1], dash(c.fields[2]), c.fields[3]
		switch wantHost {
		case "invalid":
			if !r.Invalid() {
				t.Errorf("%s: %q: want invalid, got host %q", c.line, input, r.HostASCII)
			}
		default:
			if r.Invalid() {
				t.Errorf("%s: %q: unexpectedly invalid: %s", c.line, input, codes(r))
			}
			if r.HostASCII != dash(wantHost) {
				t.Errorf("%s: %q: host %q, want %q", c.line, input, r.HostASCII, wantHost)
			}
		}
		if r.RegistrableDomain != wantReg {
			t.Errorf("%s: %q: registrable domain %q, want %q", c.line, input, r.RegistrableDomain, wantReg)
		}
		var got []string
		for _, w := range r.Warnings {
			got = append(got, w.Code)
		}
		want := []string{}
		if wantCodes != "-" {
			want = strings.Split(wantCodes, ",")
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%s: %q (%s): codes %v, want %v", c.line, input, c.fields[4], codes(r), want)
		}
	}
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

// TestSeverities pins the severities that drive the second confirmation.
func TestSeverities(t *testing.T) {
	tests := []struct {
		url  string
		code string
		want Severity
	}{
		{"https://xn--80ak6aa92e.com/", CodeConfusable, High},
		{"https://xn--80ak6aa92e.com/", CodePunycode, Low},
		{"http://paypal.com@evil.example/", CodeUserinfo, High},
		{"http://0x7f000001/", CodeIPLiteral, High},
		{"http://127.0.0.1/", CodeIPLiteral, Info},
		{"http://8.8.8.8/", CodeIPLiteral, Medium},
		{"http://example.com/", CodeHTTPNotHTTPS, Medium},
		{"https://example.com:8443/", CodeNonstandardPort, Low},
		{"http://localhost:8443/", CodeNonstandardPort, Info},
		{"javascript:alert(1)", CodeBadScheme, High},
		{"https://rnicrosoft.com/", CodeConfusable, Medium},
	}
	for _, tt := range tests {
		r := Analyze(tt.url)
		var found bool
		for _, w := range r.Warnings {
			if w.Code == tt.code {
				found = true
				if w.Severity != tt.want {
					t.Errorf("%s: %s is %s, want %s", tt.url, tt.code, w.Severity, tt.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no %s warning: %s", tt.url, tt.code, codes(r))
		}
	}
}

// TestReportMethods covers Openable, Invalid, Has and MaxSeverity.
func TestReportMethods(t *testing.T) {
	tests := []struct {
		url               string
		openable, invalid bool
		max               Severity
	}{
		{"https://example.com/", true, false, Info},
		{"https://example.com:8443/", true, false, Low},
		{"http://paypal.com@evil.example/", true, false, High},
		{"javascript:alert(1)", false, false, High},
		{"ftp://example.com/", false, false, High},
		{"not a url", false, true, High},
		{"https://exa mple.com/", false, true, High},
	}
	for _, tt := range tests {
		r := Analyze(tt.url)
		if r.Openable() != tt.openable || r.Invalid() != tt.invalid || r.MaxSeverity() != tt.max {
			t.Errorf("%s: openable %v invalid %v max %s, want %v %v %s", tt.url,
				r.Openable(), r.Invalid(), r.MaxSeverity(), tt.openable, tt.invalid, tt.max)
		}
	}
}

// TestReportJSON checks the field names scripts rely on.
func TestReportJSON(t *testing.T) {
	b, err := json.Marshal(Analyze("https://xn--80ak6aa92e.com/login"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"url", "host_ascii", "host_unicode", "registrable_domain", "warnings", "scheme", "path"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON has no %q: %s", k, b)
		}
	}
	if m["host_unicode"] != "аррӏе.com" || m["url"] != "https://xn--80ak6aa92e.com/login" {
		t.Errorf("unexpected JSON %s", b)
	}
	w := m["warnings"].([]any)[0].(map[string]any)
	if w["code"] != "confusable" || w["severity"] != "high" || w["message"] == "" {
		t.Errorf("unexpected warning JSON %v", w)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil || back.Warnings[0].Severity != High {
		t.Errorf("round trip: %v %+v", err, back.Warnings)
	}
}

// TestAnalyzerTopDomains covers an Analyzer's own list: the built-in
// domains and the ones it was given, and no other's.
func TestAnalyzerTopDomains(t *testing.T) {
	if Analyze("https://acrne-intranet.corp/").Has(CodeConfusable) {
		t.Fatal("lookalike of an unknown domain flagged")
	}
	a := NewAnalyzer("acme-intranet.corp", "not a domain/")
	if !a.Analyze("https://acrne-intranet.corp/").Has(CodeConfusable) {
		t.Error("lookalike of an added domain not flagged")
	}
	if a.Analyze("https://login.acme-intranet.corp/").Has(CodeConfusable) {
		t.Error("subdomain of an added domain flagged")
	}
	if !a.Analyze("https://g00gle.com/").Has(CodeConfusable) {
		t.Error("the built-in list is missing from an Analyzer with domains of its own")
	}
	// The list is the analyzer's: the package's Analyze, a zero Analyzer
	// and another analyzer never see it.
	var zero Analyzer
	for name, r := range map[string]Report{"Analyze": Analyze("https://acrne-intranet.corp/"),
		"zero": zero.Analyze("https://acrne-intranet.corp/"), "other": NewAnalyzer("example.org").Analyze("https://acrne-intranet.corp/")} {
		if r.Has(CodeConfusable) {
			t.Errorf("%s: a domain given to another Analyzer was used", name)
		}
	}
	if n, base := len(a.TopDomains()), len(NewAnalyzer().TopDomains()); n != base+1 {
		t.Errorf("%d domains, want the %d built-in ones and the valid one added", n, base)
	}
}

// TestReadTopDomains covers --top-domains files.
func TestReadTopDomains(t *testing.T) {
	if _, err := parseTopDomains(strings.NewReader("ok.com\nnot a domain/\n")); err == nil {
		t.Error("bad line accepted")
	}
	d, err := ReadTopDomains("../../testdata/urls/test_domains.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !NewAnalyzer(d...).Analyze("https://xn--igklmo68-kcb.com/").Has(CodeConfusable) {
		t.Error("a domain read from the file is not used")
	}
	if _, err := ReadTopDomains("/nonexistent/file"); err == nil {
		t.Error("missing file accepted")
	}
}

// TestSkeletons follows Chromium's skeleton tests
// (chromium: idn_spoof_checker_unittest.cc, Skeletons and MultipleSkeletons).
func TestSkeletons(t *testing.T) {
	tests := []struct {
		host string
		want []string
	}{
		{"test‐site", []string{"test-site"}},
		{"test–site", []string{"test-site"}},
		{"test—site", []string{"test-site"}},
		{"test一site", []string{"test-site"}},
		{"test−site", []string{"test-site"}},
		{"七est.net", []string{"test.net"}},
		{"c丫xe.com", []string{"cyxe.corn"}},
		{"丩3.com", []string{"43.corn"}},
		{"appӏe.com", []string{"apple.corn", "appie.corn"}},
	}
	for _, tt := range tests {
		got := hostSkeletons(tt.host)
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: skeletons %q, want %q", tt.host, got, tt.want)
		}
	}
}

// TestSimilarTopDomain follows Chromium's GetSimilarTopDomain test.
func TestSimilarTopDomain(t *testing.T) {
	idx := onlyTopDomains(t, "test_domains.txt").index()
	tests := []struct{ host, want string }{
		{"tést.net", "test.net"}, {"subdomain.tést.net", "test.net"},
		{"test.net", ""}, {"subdomain.test.net", ""}, {"subdómain.test.net", ""},
		{"tesł.net", "test.net"}, {"łest.net", "test.net"}, {"łesł.net", "test.net"},
		{"စ2.com", "o2.com"}, {"კ9.com", "39.com"}, {"ੜ9.com", "39.com"},
	}
	for _, tt := range tests {
		ascii, err := idnaProfile.ToASCII(tt.host)
		if err != nil {
			t.Fatal(err)
		}
		if got := idx.similarTopDomain(ascii, tt.host); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.host, got, tt.want)
		}
	}
}

// FuzzAnalyze checks that Analyze never panics and keeps its invariants.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"https://xn--80ak6aa92e.com/", "http://0x7f.1/", "http://[::1]:8080/",
		"https://user:pw@example.com:8443/p?q#f", "javascript:alert(1)", "https://ex\u202Eample.com",
		"http:\\\\a\\b", "https://google.com。evil.com", "http://%30%78%63%30.1", "https://faß.de"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Analyze(s)
		if r.Openable() && r.Scheme != "http" && r.Scheme != "https" {
			t.Fatalf("openable with scheme %q", r.Scheme)
		}
		for i := 0; i < len(r.HostASCII); i++ {
			if r.HostASCII[i] >= utf8.RuneSelf {
				t.Fatalf("HostASCII %q is not ASCII", r.HostASCII)
			}
		}
		if r.Openable() {
			if strings.ContainsAny(r.URL, " \t\n\r\x00") || Analyze(r.URL).HostASCII != r.HostASCII {
				t.Fatalf("URL %q does not round-trip to host %q", r.URL, r.HostASCII)
			}
		}
		_ = r.MaxSeverity()
	})
}

// BenchmarkAnalyze measures a mix of plain, IDN and tricky URLs.
func BenchmarkAnalyze(b *testing.B) {
	urls := []string{"https://accounts.google.com/o/oauth2/auth?client_id=abc&scope=email",
		"https://xn--80ak6aa92e.com/login", "http://paypal.com@evil.example/",
		"https://xn--googlecom-gk6n.com/", "http://0x7f.1/"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Analyze(urls[i%len(urls)])
	}
}

// TestTopDomainsAreNotLookalikes checks that no built-in well-known domain
// is flagged as a lookalike of another (a false positive on a real site).
func TestTopDomainsAreNotLookalikes(t *testing.T) {
	for _, d := range NewAnalyzer().TopDomains() {
		if r := Analyze("https://" + d + "/"); len(r.Warnings) > 0 {
			t.Errorf("%s: %s", d, codes(r))
		}
	}
}
