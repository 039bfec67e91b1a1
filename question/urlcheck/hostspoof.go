package urlcheck

import (
	"strings"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// checkHostSpoof runs the lookalike checks on a domain host: Chromium's
// label rules on every internationalised label, then the skeleton match
// against the well-known domains of top and the embedded-domain check.
func checkHostSpoof(r *Report, top *topIndex) {
	ascii := hostLabels(r.HostASCII)
	uni := hostLabels(r.HostUnicode)
	if len(ascii) != len(uni) {
		r.add(CodeInvalid, High, "The host could not be shown in Unicode.")
		return
	}
	tld, tldUni := ascii[len(ascii)-1], uni[len(uni)-1]
	idn := false
	for i, label := range ascii {
		if !strings.HasPrefix(label, "xn--") {
			continue
		}
		idn = true
		verdict, detail := checkLabel(uni[i], tld, tldUni)
		reportVerdict(r, uni[i], verdict, detail)
	}
	if idn {
		r.add(CodePunycode, Low, "The host is internationalised: it reads %s but the browser sends %s.", sanitize.Line(r.HostUnicode), r.HostASCII)
	}
	if top := top.similarTopDomain(r.HostASCII, r.HostUnicode); top != "" {
		sev := High
		if !idn {
			sev = Medium
		}
		r.add(CodeConfusable, sev, "The host %s looks like %s but is not it.", sanitize.Line(r.HostUnicode), top)
	}
	if top := top.embeddedTopDomain(r.HostASCII, r.RegistrableDomain); top != "" {
		r.add(CodeConfusable, Medium, "The host starts with %s, but the site is %s.", top, r.RegistrableDomain)
	}
}

// reportVerdict turns a label verdict into a warning.
func reportVerdict(r *Report, label string, v labelVerdict, detail string) {
	l := sanitize.Line(label)
	switch v {
	case verdictDisallowedChar:
		r.add(CodeConfusable, High, "The label %q uses characters that are not safe in names (outside the UTS #39 identifier set).", l)
	case verdictMixedScript:
		r.add(CodeMixedScript, High, "The label %q mixes scripts (%s).", l, strings.Join(labelScripts(label), ", "))
	case verdictMixedNumbers:
		r.add(CodeMixedScript, High, "The label %q mixes digits of different number systems.", l)
	case verdictInvisible, verdictHiddenOverlay:
		r.add(CodeConfusable, High, "The label %q stacks combining marks that can hide a character.", l)
	case verdictDeviation:
		r.add(CodeConfusable, High, "The label %q contains an invisible zero-width joiner or non-joiner.", l)
	case verdictTLDSpecific:
		r.add(CodeConfusable, High, "The label %q uses letters that look like others and are expected only under .%s.", l, detail)
	case verdictMiddleDot:
		r.add(CodeConfusable, High, "The label %q contains a middle dot (·) that is not between two l's of a Catalan name.", l)
	case verdictWholeScript:
		r.add(CodeConfusable, High, "The label %q is written only with %s letters that look like Latin ones.", l, detail)
	case verdictDigitLookalike:
		r.add(CodeConfusable, High, "The label %q is made of characters that look like digits.", l)
	case verdictLatinMixed:
		r.add(CodeMixedScript, High, "The label %q mixes accented Latin letters with another script.", l)
	case verdictDangerousPattern:
		r.add(CodeConfusable, High, "The label %q places characters where they can pass for others (such as a slash or a dot).", l)
	}
}

// labelScripts names the scripts of a label's letters, Common and Inherited
// left out.
func labelScripts(label string) []string {
	var names []string
	seen := map[int]bool{}
	for _, r := range label {
		s := scriptOf(r)
		if s == scriptZyyy || s == scriptZinh || seen[s] {
			continue
		}
		seen[s] = true
		if s < len(scriptNames) {
			names = append(names, scriptNames[s])
		}
	}
	return names
}
