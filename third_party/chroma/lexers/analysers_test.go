package lexers

import "testing"

// TestAnalysersSetOnLoad checks elicit's patch: the analysers upstream set
// at init on the dns, MySQL and Zed lexers are set when they are loaded.
func TestAnalysersSetOnLoad(t *testing.T) {
	for name, text := range map[string]string{
		"dns":   "@ IN SOA ns.example.com. admin.example.com. 1 2 3 4 5\n",
		"MySQL": "SELECT `a`, `b` FROM `t`",
		"Zed":   "definition user {}\ndefinition doc { relation viewer: user\n permission view = viewer }",
	} {
		l, ok := Get(name).(interface{ AnalyseText(string) float32 })
		if !ok || l.AnalyseText(text) == 0 {
			t.Errorf("%s: no analyser", name)
		}
	}
}
