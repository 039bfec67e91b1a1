package urlcheck

import "sort"

//go:generate go run gen_tables.go

// scriptRun is one run of code points sharing a Script value (sc, an ICU
// script code) and a Script_Extensions set (scx, an index into scriptExtSets).
type scriptRun struct {
	lo  rune
	sc  uint8
	scx uint16
}

// scriptSet is a set of ICU script codes (all of them fit in 256 bits).
type scriptSet [4]uint64

func (s *scriptSet) add(code int)          { s[code>>6] |= 1 << (code & 63) }
func (s scriptSet) has(code int) bool      { return s[code>>6]&(1<<(code&63)) != 0 }
func (s scriptSet) empty() bool            { return s == scriptSet{} }
func (s *scriptSet) intersect(o scriptSet) { s[0] &= o[0]; s[1] &= o[1]; s[2] &= o[2]; s[3] &= o[3] }

// allScripts is the set of every script, what Common and Inherited stand for.
var allScripts = scriptSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}

func runOf(r rune) scriptRun {
	i := sort.Search(len(scriptRuns), func(i int) bool { return scriptRuns[i].lo > r }) - 1
	if i < 0 {
		i = 0
	}
	return scriptRuns[i]
}

// scriptOf returns r's Script property as an ICU script code.
func scriptOf(r rune) int { return int(runOf(r).sc) }

// hasScriptExt reports whether r's Script_Extensions contain script.
func hasScriptExt(r rune, script int) bool {
	for _, c := range scriptExtSets[runOf(r).scx] {
		if int(c) == script {
			return true
		}
	}
	return false
}

// augmentedScripts returns r's Script_Extensions augmented as UTS #39
// section 5.1 says: Han adds Hanb, Jpan and Kore; Hiragana and Katakana add
// Jpan; Hangul adds Kore; Bopomofo adds Hanb; Common and Inherited stand for
// every script.
func augmentedScripts(r rune) scriptSet {
	var s scriptSet
	for _, c := range scriptExtSets[runOf(r).scx] {
		switch int(c) {
		case scriptZyyy, scriptZinh:
			return allScripts
		case scriptHani:
			s.add(scriptHanb)
			s.add(scriptJpan)
			s.add(scriptKore)
		case scriptHira, scriptKana:
			s.add(scriptJpan)
		case scriptHang:
			s.add(scriptKore)
		case scriptBopo:
			s.add(scriptHanb)
		}
		s.add(int(c))
	}
	return s
}

// inRanges reports whether r is in a table of sorted lo, hi pairs.
func inRanges(table []rune, r rune) bool {
	i := sort.Search(len(table)/2, func(i int) bool { return table[2*i+1] >= r })
	return i < len(table)/2 && table[2*i] <= r
}

// digitZero returns the zero of r's decimal digit run, or -1 when r is not
// a decimal digit (Nd).
func digitZero(r rune) rune {
	i := sort.Search(len(digitZeros), func(i int) bool { return digitZeros[i] > r }) - 1
	if i >= 0 && r-digitZeros[i] < 10 {
		return digitZeros[i]
	}
	return -1
}

// confusable returns the skeleton of a single code point that NFD leaves
// unchanged, and false when the code point is its own skeleton.
func confusable(r rune) (string, bool) {
	i := sort.Search(len(confusableKeys), func(i int) bool { return confusableKeys[i] >= r })
	if i < len(confusableKeys) && confusableKeys[i] == r {
		return confusableVals[confusableOffs[i]:confusableOffs[i+1]], true
	}
	return "", false
}
