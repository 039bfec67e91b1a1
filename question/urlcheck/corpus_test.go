package urlcheck

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusCase is one line of a testdata/urls TSV file.
type corpusCase struct {
	file, line string
	fields     []string
}

// readCorpus reads the tab-separated cases of testdata/urls/name; '#'
// lines are comments.
func readCorpus(t *testing.T, name string) []corpusCase {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "urls", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		out = append(out, corpusCase{file: name, line: name + ":" + itoa(n), fields: strings.Split(text, "\t")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// onlyTopDomains is an Analyzer whose well-known list is the domains of
// testdata/urls/name alone (no built-in list), as Chromium's tests have it.
func onlyTopDomains(t *testing.T, name string) *Analyzer {
	t.Helper()
	file, err := os.Open(filepath.Join("..", "..", "testdata", "urls", name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := parseTopDomains(file)
	file.Close()
	if err != nil {
		t.Fatal(err)
	}
	idx := newTopIndex()
	idx.add(d)
	return &Analyzer{top: func() *topIndex { return idx }}
}

func lookalike(r Report) bool { return r.Has(CodeConfusable) || r.Has(CodeMixedScript) }

// TestChromiumIDNCases checks every host of Chromium's IDN spoof checker
// test table: unsafe hosts get a lookalike warning, safe ones none, invalid
// ones do not parse.
func TestChromiumIDNCases(t *testing.T) {
	a := onlyTopDomains(t, "test_domains.txt")
	for _, c := range readCorpus(t, "chromium_idn.tsv") {
		host, want := c.fields[0], c.fields[1]
		r := a.Analyze("https://" + host + "/")
		var ok bool
		switch want {
		case "safe":
			ok = !r.Invalid() && !lookalike(r)
		case "unsafe":
			ok = !r.Invalid() && lookalike(r)
		case "invalid":
			ok = r.Invalid()
		default:
			t.Fatalf("%s: unknown expectation %q", c.line, want)
		}
		if !ok {
			t.Errorf("%s: %s (%s, %s): want %s, got %s", c.line, host, r.HostUnicode, c.fields[2], want, codes(r))
		}
	}
}

func codes(r Report) string {
	var s []string
	for _, w := range r.Warnings {
		s = append(s, w.Code+"/"+w.Severity.String())
	}
	return "[" + strings.Join(s, " ") + "]"
}
