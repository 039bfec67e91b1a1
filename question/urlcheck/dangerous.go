package urlcheck

import "strings"

// dangerousPattern is Chromium's dangerous_pattern regular expression
// (idn_spoof_checker.cc), written out as plain Go: each clause below is one
// alternative of that ICU regex, on a label that mixes scripts.
func dangerousPattern(rs []rune) bool {
	scx := func(r rune, scripts ...int) bool {
		for _, s := range scripts {
			if hasScriptExt(r, s) {
				return true
			}
		}
		return false
	}
	japanese := func(r rune) bool { return scx(r, scriptKana, scriptHira, scriptHani) }
	cjk := func(r rune) bool { return scx(r, scriptKana, scriptHira, scriptHani, scriptBopo) }
	const slashLike = "\u30ce\u30f3\u30bd\u30be\u4e36\u4e40\u4e41\u4e3f"
	const cjkLookalikes = "\u4e00\u3127\u4e28\u4e5b\u4e03\u4e05\u5341\u3007\u3112\u311a\u311f\u3128\u3129\u3108\u31ba\u31b3\u5de5\u31b2\u8ba0\u4e01\u4e36\u4e85\u4e8c\u4ea0\u5196\u5b80\u5ddb"
	n := len(rs)
	for i, r := range rs {
		var prev, next rune = -1, -1
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < n {
			next = rs[i+1]
		}
		// Katakana no, so, zo, n and ideographs that look like slashes,
		// between two non-Japanese characters.
		if strings.ContainsRune(slashLike, r) && prev >= 0 && next >= 0 && !japanese(prev) && !japanese(next) {
			return true
		}
		// Katakana iteration marks not after Katakana.
		if (r == 0x30fd || r == 0x30fe) && (prev < 0 || !hasScriptExt(prev, scriptKana)) {
			return true
		}
		// The prolonged sound mark out of Japanese context.
		if r == 0x30fc && (prev < 0 || !scx(prev, scriptKana, scriptHira)) {
			return true
		}
		// Katakana middle dot next to a Latin letter.
		if r == 0x30fb && (prev >= 'a' && prev <= 'z' || next >= 'a' && next <= 'z') {
			return true
		}
		// CJK characters that look like Latin letters or punctuation, next
		// to a non-CJK character.
		if strings.ContainsRune(cjkLookalikes, r) && (prev >= 0 && !cjk(prev) || next >= 0 && !cjk(next)) {
			return true
		}
		if r >= 0x300 && r <= 0x339 && prev >= 0 {
			// A combining diacritic after a non-LGC character, or after a
			// dotless i.
			if !scx(prev, scriptLatn, scriptGrek, scriptCyrl) || prev == 0x131 {
				return true
			}
		}
		// Combining Kana voiced sound marks.
		if r == 0x3099 || r == 0x309a {
			return true
		}
		// A dot above on i, j or l.
		if r == 0x307 && (prev == 'i' || prev == 'j' || prev == 'l') {
			return true
		}
	}
	// Hiragana he/be/pe among Katakana, and Katakana he/be/pe among
	// Hiragana, look exactly alike.
	return lookalikeKana(rs, 0x3078, 0x307a, scriptKana) || lookalikeKana(rs, 0x30d8, 0x30da, scriptHira)
}

// lookalikeKana matches ^[scx=script]+[lo-hi][scx=script]+$.
func lookalikeKana(rs []rune, lo, hi rune, script int) bool {
	for i := 1; i+1 < len(rs); i++ {
		if rs[i] < lo || rs[i] > hi {
			continue
		}
		ok := true
		for j, r := range rs {
			if j != i && !hasScriptExt(r, script) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
