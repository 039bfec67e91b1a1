package urlcheck

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
)

//go:embed topdomains.txt
var builtinTopDomains string

// topIndex maps each skeleton of a well-known domain to that domain.
type topIndex struct {
	domains  []string
	skeleton map[string]string
	folded   map[string]string // lower-cased skeletons, for ASCII hosts
	set      map[string]bool
}

func newTopIndex() *topIndex {
	return &topIndex{skeleton: map[string]string{}, folded: map[string]string{}, set: map[string]bool{}}
}

// builtinIndex is the built-in list's index, built on first use: the
// skeletons of a few hundred domains cost milliseconds that a process
// which never sees a URL should not pay at start-up.
var builtinIndex = sync.OnceValue(func() *topIndex {
	d, err := parseTopDomains(strings.NewReader(builtinTopDomains))
	if err != nil {
		panic(err) // the embedded list is checked by the tests
	}
	idx := newTopIndex()
	idx.add(d)
	return idx
})

// with is a new index of idx's domains and domains (idx is unchanged).
func (idx *topIndex) with(domains []string) *topIndex {
	out := &topIndex{domains: slices.Clone(idx.domains), skeleton: maps.Clone(idx.skeleton),
		folded: maps.Clone(idx.folded), set: maps.Clone(idx.set)}
	out.add(domains)
	return out
}

// ReadTopDomains reads a list of well-known domains from the file at path
// (one per line; blank lines and text after '#' are ignored), for
// NewAnalyzer. A line that is not a domain name is an error that names it.
func ReadTopDomains(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := parseTopDomains(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// parseTopDomains reads one domain per line; blank lines and text after '#'
// are ignored. A line that is not a valid host is an error.
func parseTopDomains(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !domainName(line) {
			return nil, fmt.Errorf("line %d: %q is not a domain name", n, line)
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

// domainName reports whether s reads as a domain name (in Unicode or
// ASCII): no URL, no address, no blank.
func domainName(s string) bool {
	_, err := idnaProfile.ToASCII(s)
	return err == nil && !strings.ContainsAny(s, "/:@ ")
}

// add indexes domains; what is not a domain name is skipped.
func (idx *topIndex) add(domains []string) {
	for _, d := range domains {
		d = strings.TrimSuffix(strings.TrimSpace(d), ".")
		if !domainName(d) {
			continue
		}
		ascii, err := idnaProfile.ToASCII(d)
		if err != nil || ascii == "" || idx.set[ascii] {
			continue
		}
		uni, err := idnaProfile.ToUnicode(ascii)
		if err != nil {
			continue
		}
		idx.set[ascii] = true
		idx.domains = append(idx.domains, ascii)
		for _, s := range hostSkeletons(uni) {
			if _, taken := idx.skeleton[s]; !taken {
				idx.skeleton[s] = ascii
			}
			if f := strings.ToLower(s); idx.folded[f] == "" {
				idx.folded[f] = ascii
			}
		}
	}
}

// similarTopDomain returns the well-known domain whose skeleton the host's
// skeleton matches (Chromium's GetSimilarTopDomain): the last two to four
// labels of each host skeleton are looked up, longest first. A host that is
// the domain itself or one of its subdomains does not count.
//
// For an all-ASCII host the skeletons are also compared lower-cased, which
// Chromium does not do: its IDN checker leaves ASCII hosts alone, but
// g00gle.com (digit zeros, whose prototype is capital O) is a lookalike too.
func (idx *topIndex) similarTopDomain(hostASCII, hostUnicode string) string {
	hostASCII = strings.TrimSuffix(hostASCII, ".")
	table, fold := idx.skeleton, false
	if hostASCII == strings.TrimSuffix(hostUnicode, ".") {
		table, fold = idx.folded, true
	}
	for _, sk := range hostSkeletons(hostUnicode) {
		if fold {
			sk = strings.ToLower(sk)
		}
		labels := strings.Split(sk, ".")
		if len(labels) > 4 {
			labels = labels[len(labels)-4:]
		}
		for ; len(labels) >= 2; labels = labels[1:] {
			top, ok := table[strings.Join(labels, ".")]
			if !ok {
				continue
			}
			if hostASCII == top || strings.HasSuffix(hostASCII, "."+top) {
				break
			}
			return top
		}
	}
	return ""
}

// embeddedTopDomain finds a well-known domain spelled out in the labels of
// host left of its registrable domain, as in google.com.evil.example: the
// trick Chromium's lookalike checks call target embedding.
func (idx *topIndex) embeddedTopDomain(hostASCII, registrable string) string {
	if registrable == "" {
		return ""
	}
	prefix := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(hostASCII, "."), registrable), ".")
	if prefix == "" {
		return ""
	}
	labels := strings.Split(prefix, ".")
	for i := range labels {
		// Well-known domains have at most four labels.
		for j := i + 2; j <= min(i+4, len(labels)); j++ {
			cand := strings.Join(labels[i:j], ".")
			if idx.set[cand] && cand != registrable {
				return cand
			}
		}
	}
	return ""
}
