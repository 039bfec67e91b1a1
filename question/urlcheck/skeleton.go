package urlcheck

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// skeleton is UTS #39's skeleton(X): NFD, each code point replaced by its
// confusable prototype, NFD again. Two strings with the same skeleton are
// confusable.
func skeleton(s string) string {
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	changed := false
	for _, r := range d {
		if p, ok := confusable(r); ok {
			b.WriteString(p)
			changed = true
			continue
		}
		b.WriteRune(r)
	}
	if !changed {
		return d
	}
	return norm.NFD.String(b.String())
}

// extraConfusables is Chromium's ExtraConf transliteration
// (skeleton_generator.cc): look-alikes the Unicode confusables data misses.
var extraConfusables = func() map[rune]string {
	rules := []struct{ from, to string }{
		{"æӕ", "ae"}, {"ϼҏ", "p"}, {"ħнћңҥӈӊԋԧԩ", "h"},
		{"ĸκкқҝҟҡӄԟ", "k"}, {"ŋпԥกח", "n"},
		{"ŧтҭԏ七丅丆丁", "t"}, {"ƅьҍвß", "b"}, {"ωшщพฟພຟ", "w"},
		{"мӎ", "m"}, {"єҽҿၔ", "e"}, {"ґ", "r"}, {"ғӻ", "f"},
		{"ҫင", "c"}, {"ұ丫", "y"}, {"χҳӽӿ乂", "x"},
		{"ԃძ", "d"}, {"ԍဌ", "g"}, {"ടรຣຮ", "s"}, {"၂", "j"},
		{"०০੦૦ଠ୦೦စ", "o"}, {"৭੧૧", "q"}, {"บບ", "u"}, {"θ", "0"},
		{"२২੨૨೩೭շ", "2"}, {"зҙӡउওਤ੩૩౩ဒვპੜკ", "3"}, {"੫丩ㄐ", "4"},
		{"ճ", "6"}, {"৪੪୫", "8"}, {"૭୨౨", "9"}, {"—一―⸺⸻", "-"},
	}
	m := map[rune]string{}
	for _, rule := range rules {
		for _, r := range rule.from {
			m[r] = rule.to
		}
	}
	return m
}()

// removeDiacritics is Chromium's DropAcc transliteration: NFD, drop
// nonspacing marks, NFC, then ł, ø, đ to l, o, d. Chromium applies it only
// to hosts made of Latin, Greek, Cyrillic, digits and [._-].
func removeDiacritics(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !inRanges(nonspacingMarkRanges[:], r) {
			b.WriteRune(r)
		}
	}
	return strings.NewReplacer("ł", "l", "ø", "o", "đ", "d").Replace(norm.NFC.String(b.String()))
}

// multiSkeletonChars look like more than one thing (Chromium's character_map_).
var multiSkeletonChars = map[rune][]string{
	'þ': {"b", "p"}, 'œ': {"ce", "oe"}, 'ł': {"l", "t"}, 'ı': {"l", "i"},
}

// hostSkeletons returns the skeletons Chromium's SkeletonGenerator computes
// for a Unicode host: diacritics removed when the host is all LGC, each
// alternative spelling of þ and œ, the extra confusables mapped, and ӏ read
// as both i and l.
func hostSkeletons(host string) []string {
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return nil
	}
	variants := []string{host}
	if allLGC([]rune(host)) {
		plain := removeDiacritics(host)
		variants[0] = plain
		// Diacritic removal turns ł into l; keep the spelling with ł too,
		// whose alternatives include t.
		if plain != host && strings.ContainsAny(host, "ł") {
			variants = append(variants, host)
		}
	}
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var alts []string
	for _, v := range variants {
		alts = append(alts, supplementalHosts(v)...)
	}
	for _, alt := range alts {
		var b strings.Builder
		for _, r := range alt {
			if e, ok := extraConfusables[r]; ok {
				b.WriteString(e)
			} else {
				b.WriteRune(r)
			}
		}
		m := b.String()
		if strings.ContainsRune(m, 'ӏ') {
			add(skeleton(strings.ReplaceAll(m, "ӏ", "l")))
		}
		add(skeleton(m))
	}
	return out
}

// supplementalHosts spells host every way multiSkeletonChars allow, for
// hosts up to 32 characters with at most 5 such characters (Chromium's
// limits); otherwise only host itself (where Chromium gives no skeleton at
// all, which would let long hosts skip the top-domain match).
func supplementalHosts(host string) []string {
	rs := []rune(host)
	count := 0
	for _, r := range rs {
		if _, ok := multiSkeletonChars[r]; ok {
			count++
		}
	}
	if count == 0 || len(rs) > 32 || count > 5 {
		return []string{host}
	}
	out := []string{""}
	for _, r := range rs {
		alts := append([]string{string(r)}, multiSkeletonChars[r]...)
		var next []string
		for _, prefix := range out {
			for _, a := range alts {
				next = append(next, prefix+a)
			}
		}
		out = next
	}
	return out
}
