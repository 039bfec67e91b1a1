package urlcheck

import (
	"slices"
	"strings"
)

// This file follows the rules of Chromium's IDN spoof checker
// (components/url_formatter/spoof_checks/idn_spoof_checker.cc,
// IDNSpoofChecker::SafeToDisplayAsUnicode), rewritten in Go over the tables
// in tables_gen.go. Chromium shows a label in punycode when any rule fires;
// elicit turns each rule into a warning instead.

// labelVerdict is why a label is not safe to show in Unicode.
type labelVerdict int

const (
	verdictSafe labelVerdict = iota
	verdictDisallowedChar
	verdictMixedScript
	verdictMixedNumbers
	verdictInvisible
	verdictHiddenOverlay
	verdictDeviation
	verdictTLDSpecific
	verdictMiddleDot
	verdictWholeScript
	verdictDigitLookalike
	verdictLatinMixed
	verdictDangerousPattern
)

// wholeScript is one script's whole-script-confusable data: the letters of
// that script that look like Latin ones, and the ccTLDs where a label made
// only of them is expected.
type wholeScript struct {
	name     string
	script   int
	lookalik string
	tlds     []string
}

// wholeScripts is Chromium's kWholeScriptConfusables (its Linux Thai set).
var wholeScripts = []wholeScript{
	{"Armenian", scriptArmn, "ագզէլհյոսւօՙ", []string{"am"}},
	{"Cyrillic", scriptCyrl, "аысԁеԍһіюкјӏорԗԛѕтԝхуъьҽпгѵѡ", []string{"bg", "by", "kz", "pyc", "ru", "su", "ua", "uz"}},
	{"Ethiopic", scriptEthi, "ሀሠሰስበነተከዐዕዘጠፐꬅ", []string{"er", "et"}},
	{"Georgian", scriptGeor, "იოყძხჽჿ", []string{"ge"}},
	{"Greek", scriptGrek, "αικνρυωηοτ", []string{"gr"}},
	{"Hebrew", scriptHebr, "דוחיןסװײ׳ﬦ", []string{"il"}},
	{"Bengali", scriptBeng, "০৭", nil},
	{"Devanagari", scriptDeva, "ऽ०ॱ", nil},
	{"Gujarati", scriptGujr, "ડટ૦૧", nil},
	{"Gurmukhi", scriptGuru, "੦੧", nil},
	{"Kannada", scriptKnda, "ಽ೦೧", nil},
	{"Malayalam", scriptMlym, "ടഠധനറ൦", nil},
	{"Oriya", scriptOrya, "ଠ୦୮", nil},
	{"Tamil", scriptTaml, "டப௦", nil},
	{"Telugu", scriptTelu, "౦౧", nil},
	{"Myanmar", scriptMymr, "ခဂငထပဝ၀၂ၔၜ\u1090\u1091\u1095\u1096\u1097", []string{"mm"}},
	{"Thai", scriptThai, "ทนบพรหเแ๐ดลปฟม", []string{"th"}},
}

// allowedWholeScriptWords are common Cyrillic words Chromium lets through
// although they are whole-script confusables: no Latin word looks like them.
var allowedWholeScriptWords = []string{
	"секс", "как", "коса", "курс", "парк", "такий",
	"укроп", "сахарок", "покраска", "театр", "астро", "пхукет",
}

// digitLookalikes look like digits; a label made only of them and digits
// is refused.
const digitLookalikes = "θ२২੨੨૨೩೭շзҙӡउওਤ੩૩౩ဒვპੜკ੫丩ㄐճ৪੪୫૭୨౨"

// checkLabel runs Chromium's label rules on one label (Unicode, lower case,
// NFC, as IDNA produces it). tld is the last label in ASCII and tldUnicode
// the same label in Unicode. It returns the first rule that fires and, for
// whole-script confusables, the script's name.
func checkLabel(label string, tld, tldUnicode string) (labelVerdict, string) {
	rs := []rune(label)
	level := labelLevel(rs)
	switch {
	case level == levelUnrestrictive:
		return verdictDisallowedChar, ""
	case level > levelHighlyRestrictive:
		return verdictMixedScript, ""
	case mixedNumbers(rs):
		return verdictMixedNumbers, ""
	case repeatedMarks(rs):
		return verdictInvisible, ""
	case hiddenOverlay(rs):
		return verdictHiddenOverlay, ""
	}
	// Chromium's deviation check, as in its non-transitional mode (the one
	// WHATWG URL and browsers use now): ß and ς are letters like any other,
	// but the joiners ZWJ and ZWNJ are still refused.
	if strings.ContainsAny(label, "\u200c\u200d") {
		return verdictDeviation, ""
	}
	if len(rs) > 1 && tld != "is" && tld != "fo" && strings.ContainsAny(label, "\u00fe\u00f0") {
		return verdictTLDSpecific, "is and .fo"
	}
	if len(rs) > 1 && tld != "az" && strings.ContainsRune(label, 'ə') {
		return verdictTLDSpecific, "az"
	}
	if unsafeMiddleDot(rs, tld) {
		return verdictMiddleDot, ""
	}
	if level == levelASCII {
		return verdictSafe, ""
	}
	if level == levelSingleScript && !containsKanaException(rs) && !containsAnyIn(rs, 0x300, 0x339) {
		for _, ws := range wholeScripts {
			if wholeScriptConfusable(rs, ws) && !wholeScriptAllowedForTLD(ws, tld, tldUnicode) && !slices.Contains(allowedWholeScriptWords, label) {
				return verdictWholeScript, ws.name
			}
		}
		if digitLookalike(rs) {
			return verdictDigitLookalike, ""
		}
		return verdictSafe, ""
	}
	if digitLookalike(rs) {
		return verdictDigitLookalike, ""
	}
	if hasNonASCIILatin(rs) && !allLGC(rs) {
		return verdictLatinMixed, ""
	}
	if dangerousPattern(rs) {
		return verdictDangerousPattern, ""
	}
	return verdictSafe, ""
}

// unsafeMiddleDot allows U+00B7 only between two l's under .cat (Catalan
// ela geminada).
func unsafeMiddleDot(rs []rune, tld string) bool {
	for i, r := range rs {
		if r != '·' {
			continue
		}
		if tld != "cat" || i == 0 || i == len(rs)-1 || rs[i-1] != 'l' || rs[i+1] != 'l' {
			return true
		}
	}
	return false
}

func containsKanaException(rs []rune) bool {
	return containsAnyIn(rs, 0x3078, 0x307a) || containsAnyIn(rs, 0x30d8, 0x30da) || containsAnyIn(rs, 0x30fb, 0x30fe)
}

func containsAnyIn(rs []rune, lo, hi rune) bool {
	return slices.ContainsFunc(rs, func(r rune) bool { return r >= lo && r <= hi })
}

// wholeScriptConfusable reports whether the label's letters of ws's script
// exist and all look like Latin letters.
func wholeScriptConfusable(rs []rune, ws wholeScript) bool {
	found := false
	for _, r := range rs {
		if scriptOf(r) != ws.script {
			continue
		}
		if !strings.ContainsRune(ws.lookalik, r) {
			return false
		}
		found = true
	}
	return found
}

// wholeScriptAllowedForTLD allows a whole-script lookalike under a TLD
// written in that script or under the script's listed ccTLDs.
func wholeScriptAllowedForTLD(ws wholeScript, tld, tldUnicode string) bool {
	for _, r := range tldUnicode {
		if scriptOf(r) == ws.script {
			return true
		}
	}
	return slices.Contains(ws.tlds, tld)
}

// digitLookalike reports a label made only of digits and digit look-alikes,
// with at least one look-alike.
func digitLookalike(rs []rune) bool {
	has := false
	for _, r := range rs {
		switch {
		case r >= '0' && r <= '9':
		case strings.ContainsRune(digitLookalikes, r):
			has = true
		default:
			return false
		}
	}
	return has
}

func hasNonASCIILatin(rs []rune) bool {
	return slices.ContainsFunc(rs, func(r rune) bool {
		return scriptOf(r) == scriptLatn && !(r < 0x80 && isASCIILetter(byte(r)))
	})
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isLGC is Chromium's lgc_letters_n_ascii_: Latin, Greek, Cyrillic, ASCII
// digits, '.', '_', '-' and the combining marks U+0300 to U+0339.
func isLGC(r rune) bool {
	if r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' || r >= 0x300 && r <= 0x339 {
		return true
	}
	s := scriptOf(r)
	return s == scriptLatn || s == scriptGrek || s == scriptCyrl
}

func allLGC(rs []rune) bool { return !slices.ContainsFunc(rs, func(r rune) bool { return !isLGC(r) }) }
