package urlcheck

import (
	"slices"
	"sync"
)

// Analyzer analyzes URLs against a list of well-known domains, whose
// lookalikes it warns about: the built-in list, plus the domains given to
// NewAnalyzer (the user's own sites, a --top-domains file). The list is a
// value of its own, never package state, so two analyzers with different
// lists can run side by side. A nil or zero Analyzer uses the built-in
// list alone, as the package-level Analyze does; an Analyzer is safe for
// concurrent use.
type Analyzer struct {
	// top is the index of the list, built on first use; nil: the built-in
	// list's.
	top func() *topIndex
}

// NewAnalyzer returns an Analyzer whose well-known domains are the
// built-in list and domains (in Unicode or ASCII; what is not a domain
// name is skipped). The list is indexed on first use, so an Analyzer that
// never sees a URL costs nothing.
func NewAnalyzer(domains ...string) *Analyzer {
	if len(domains) == 0 {
		return &Analyzer{}
	}
	domains = slices.Clone(domains)
	return &Analyzer{top: sync.OnceValue(func() *topIndex { return builtinIndex().with(domains) })}
}

// index is a's list's index.
func (a *Analyzer) index() *topIndex {
	if a == nil || a.top == nil {
		return builtinIndex()
	}
	return a.top()
}

// TopDomains returns a's well-known domains, in ASCII form.
func (a *Analyzer) TopDomains() []string { return slices.Clone(a.index().domains) }
