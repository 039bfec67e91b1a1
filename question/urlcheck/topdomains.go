package urlcheck

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"os"
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

var (
	topMu    sync.RWMutex
	topIdx   *topIndex // nil until first use: the built-in list and topExtra
	topExtra []string  // domains added before first use
)

// currentTop returns the index, building it from the built-in list on first
// use: the skeletons of a few hundred domains cost milliseconds that a
// process which never sees a URL should not pay at start-up.
func currentTop() *topIndex {
	topMu.RLock()
	idx := topIdx
	topMu.RUnlock()
	if idx != nil {
		return idx
	}
	topMu.Lock()
	defer topMu.Unlock()
	if topIdx == nil {
		topIdx = builtinTop()
		topIdx.add(topExtra)
		topExtra = nil
	}
	return topIdx
}

func builtinTop() *topIndex {
	d, err := parseTopDomains(strings.NewReader(builtinTopDomains))
	if err != nil {
		panic(err) // the embedded list is checked by the tests
	}
	idx := newTopIndex()
	idx.add(d)
	return idx
}

// TopDomains returns the well-known domains lookalikes are checked against,
// in ASCII form.
func TopDomains() []string {
	topMu.RLock()
	defer topMu.RUnlock()
	return append([]string(nil), currentTop().domains...)
}

// SetTopDomains replaces the list of well-known domains (the built-in list
// is the default). Domains may be given in Unicode or ASCII; invalid ones
// are skipped. It is safe to call while Analyze runs elsewhere.
func SetTopDomains(domains []string) {
	idx := newTopIndex()
	idx.add(domains)
	topMu.Lock()
	topIdx, topExtra = idx, nil
	topMu.Unlock()
}

// AddTopDomains adds domains to the list of well-known domains.
func AddTopDomains(domains ...string) {
	if len(domains) == 0 {
		return
	}
	topMu.Lock()
	defer topMu.Unlock()
	if topIdx == nil { // not built yet: the first use adds them
		topExtra = append(topExtra, domains...)
		return
	}
	idx := newTopIndex()
	idx.add(topIdx.domains)
	idx.add(domains)
	topIdx = idx
}

// LoadTopDomains adds the domains listed in a file (one per line, '#'
// starts a comment) to the well-known domains.
func LoadTopDomains(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	d, err := parseTopDomains(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	AddTopDomains(d...)
	return nil
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
		if _, err := idnaProfile.ToASCII(line); err != nil || strings.ContainsAny(line, "/:@ ") {
			return nil, fmt.Errorf("line %d: %q is not a domain name", n, line)
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

func (idx *topIndex) add(domains []string) {
	for _, d := range domains {
		ascii, err := idnaProfile.ToASCII(strings.TrimSuffix(strings.TrimSpace(d), "."))
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
func similarTopDomain(hostASCII, hostUnicode string) string {
	idx := currentTop()
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
func embeddedTopDomain(hostASCII, registrable string) string {
	if registrable == "" {
		return ""
	}
	prefix := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(hostASCII, "."), registrable), ".")
	if prefix == "" {
		return ""
	}
	idx := currentTop()
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
