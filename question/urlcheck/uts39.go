package urlcheck

import (
	"golang.org/x/text/unicode/norm"
)

// This file reimplements the parts of ICU's uspoof_check that Chromium's
// IDN spoof checker relies on (UTS #39 sections 5.1 to 5.4), over tables
// dumped from the same ICU: no Go module does this.

// restrictionLevel is UTS #39's restriction level, in ICU's order.
type restrictionLevel int

const (
	levelASCII restrictionLevel = iota
	levelSingleScript
	levelHighlyRestrictive
	levelModeratelyRestrictive
	levelMinimallyRestrictive
	levelUnrestrictive
)

// chromiumRemoved are the characters and ranges Chromium's
// SetAllowedUnicodeSet drops from the recommended and inclusion sets
// (Mozilla's blocklist, NV8 characters, rarely used LGC blocks), as lo, hi
// pairs in order. The Apple-only removals are left out.
var chromiumRemoved = []rune{
	0x0138, 0x0138, // Latin kra
	0x01CD, 0x01DC, // Latin Extended-B, Pinyin
	0x02BB, 0x02BC, // quotation mark look-alikes
	0x02EC, 0x02EC, // modifier letter voicing
	0x0338, 0x0338, // combining long solidus overlay
	0x058A, 0x058A, // Armenian hyphen
	0x1C80, 0x1C8F, // Cyrillic Extended-C
	0x1E00, 0x1E9B, // Latin Extended Additional
	0x1F00, 0x1FFF, // Greek Extended
	0x2010, 0x2010, // hyphen
	0x2019, 0x2019, // right single quotation mark
	0x2027, 0x2027, // hyphenation point
	0x30A0, 0x30A0, // Katakana-Hiragana double hyphen
	0xA640, 0xA69F, // Cyrillic Extended-B
	0xA720, 0xA7FF, // Latin Extended-D
}

// allowedInLabel reports whether r may appear in a label shown in Unicode:
// the UTS #39 identifier set as Chromium trims it.
func allowedInLabel(r rune) bool {
	return inRanges(identifierRanges[:], r) && !inRanges(chromiumRemoved, r)
}

// labelLevel computes the restriction level of a label as ICU does
// (UTS #39 section 5.2).
func labelLevel(label []rune) restrictionLevel {
	ascii := true
	for _, r := range label {
		if !allowedInLabel(r) {
			return levelUnrestrictive
		}
		if r > 0x7f {
			ascii = false
		}
	}
	if ascii {
		return levelASCII
	}
	if !resolvedScripts(label, -1).empty() {
		return levelSingleScript
	}
	noLatn := resolvedScripts(label, scriptLatn)
	if noLatn.has(scriptHanb) || noLatn.has(scriptJpan) || noLatn.has(scriptKore) {
		return levelHighlyRestrictive
	}
	if !noLatn.empty() && !noLatn.has(scriptCyrl) && !noLatn.has(scriptGrek) && !noLatn.has(scriptCher) {
		return levelModeratelyRestrictive
	}
	return levelMinimallyRestrictive
}

// resolvedScripts intersects the augmented script sets of the label's
// characters, skipping those whose set holds without (when >= 0).
func resolvedScripts(label []rune, without int) scriptSet {
	s := allScripts
	for _, r := range label {
		a := augmentedScripts(r)
		if without >= 0 && a.has(without) {
			continue
		}
		s.intersect(a)
	}
	return s
}

// mixedNumbers reports whether the label has decimal digits from more than
// one digit system (ICU's USPOOF_MIXED_NUMBERS).
func mixedNumbers(label []rune) bool {
	zero := rune(-1)
	for _, r := range label {
		if z := digitZero(r); z >= 0 {
			if zero >= 0 && z != zero {
				return true
			}
			zero = z
		}
	}
	return false
}

// repeatedMarks reports whether, after NFD, one nonspacing mark appears twice
// in a run of marks (ICU's USPOOF_INVISIBLE).
func repeatedMarks(label []rune) bool {
	var seen []rune
	for _, r := range []rune(norm.NFD.String(string(label))) {
		if !inRanges(nonspacingMarkRanges[:], r) {
			seen = seen[:0]
			continue
		}
		for _, m := range seen {
			if m == r {
				return true
			}
		}
		seen = append(seen, r)
	}
	return false
}

// hiddenOverlay reports a combining dot above (U+0307) after a character
// that already has a dot, such as i, j or l (ICU's USPOOF_HIDDEN_OVERLAY).
func hiddenOverlay(label []rune) bool {
	lead := false
	for _, r := range label {
		if lead && r == 0x0307 {
			return true
		}
		if !inRanges(otherCombiningRanges[:], r) {
			lead = dottedLead(r)
		}
	}
	return false
}

func dottedLead(r rune) bool {
	plain := func(r rune) bool {
		return r == 'i' || r == 'j' || r == 'ı' || r == 'ȷ' || r == 'l' || inRanges(softDottedRanges[:], r)
	}
	if plain(r) {
		return true
	}
	if s, ok := confusable(r); ok {
		rs := []rune(s)
		last := rs[len(rs)-1]
		return last != r && plain(last)
	}
	return false
}
