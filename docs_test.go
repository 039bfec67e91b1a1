package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestPublicDocs keeps the public packages documented (README, "Use elicit
// as a library"): every package outside internal/ has a package comment,
// and every exported constant, variable, type, function and method in it
// has a doc comment (one that starts with the name, for the last three). `go doc` of a public package is its documentation, so
// a name without one is a hole in it. Packages are found by walking the
// module, so a public package added later is checked too.
func TestPublicDocs(t *testing.T) {
	dirs := publicPackageDirs(t, ".")
	if len(dirs) < 7 {
		t.Fatalf("found only %d public packages: %v", len(dirs), dirs)
	}
	for _, dir := range dirs {
		for _, problem := range undocumented(t, dir) {
			t.Errorf("%s: %s", dir, problem)
		}
	}
}

// TestPublicDocsCatchesGaps proves the check above can fail: a package
// with no package comment, one undocumented name of each kind, and a doc
// comment that starts with another name.
func TestPublicDocsCatchesGaps(t *testing.T) {
	dir := t.TempDir()
	src := `package gap

// Documented is documented.
func Documented() {}

// helper is what a comment left over from a helper looks like.
// Stale says so, but go doc shows the first line.
func Stale() {}

func Bare() {}

const Limit = 3

var ErrGap = error(nil)

type Box struct{}

func (Box) Open() {}

// Grouped constants are documented as a group.
const (
	A = 1
	B = 2
)

const (
	C = 3 // C is documented on its line.
	D = 4
)
`
	if err := os.WriteFile(filepath.Join(dir, "gap.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := undocumented(t, dir)
	want := []string{"no package comment", "const Limit", "const D", "var ErrGap", "type Box", "func Bare", "method Box.Open", "func Stale"}
	for _, w := range want {
		found := false
		for _, g := range got {
			if strings.HasPrefix(g, w+":") || g == w {
				found = true
			}
		}
		if !found {
			t.Errorf("the check missed %q; it reported %q", w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("reported %d problems, want %d: %q", len(got), len(want), got)
	}
}

// publicPackageDirs lists the module's directories that hold a Go
// package outside internal/, third_party/ and testdata/.
func publicPackageDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "internal" || name == "third_party" || name == "testdata" ||
			strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				dirs = append(dirs, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// undocumented reads the package in dir (test files left out) as go doc
// does and lists what lacks a comment.
func undocumented(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "example.com/"+filepath.ToSlash(dir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	if strings.TrimSpace(p.Doc) == "" {
		out = append(out, "no package comment")
	}
	values := func(kind string, vs []*doc.Value) {
		for _, v := range vs {
			if strings.TrimSpace(v.Doc) != "" {
				continue // the group's comment covers its names
			}
			for _, spec := range v.Decl.Specs {
				vs := spec.(*ast.ValueSpec)
				if vs.Doc != nil || vs.Comment != nil {
					continue
				}
				for _, n := range vs.Names {
					if n.IsExported() {
						out = append(out, kind+" "+n.Name+": no doc comment")
					}
				}
			}
		}
	}
	funcs := func(kind, recv string, fs []*doc.Func) {
		for _, f := range fs {
			if problem := docProblem(f.Name, f.Doc); problem != "" {
				out = append(out, kind+" "+recv+f.Name+": "+problem)
			}
		}
	}
	values("const", p.Consts)
	values("var", p.Vars)
	funcs("func", "", p.Funcs)
	for _, typ := range p.Types {
		if problem := docProblem(typ.Name, typ.Doc); problem != "" {
			out = append(out, "type "+typ.Name+": "+problem)
		}
		values("const", typ.Consts)
		values("var", typ.Vars)
		funcs("func", "", typ.Funcs)
		funcs("method", typ.Name+".", typ.Methods)
	}
	return out
}

// docProblem says what is wrong with the doc comment of a type, function
// or method called name: none at all, or one that does not start with the
// name (optionally after "A", "An" or "The"), which is how go doc and
// gopls expect it and what catches a comment left over from another
// declaration above it.
func docProblem(name, text string) string {
	w := strings.Fields(text)
	switch {
	case len(w) == 0:
		return "no doc comment"
	case w[0] == name:
	case len(w) > 1 && (w[0] == "A" || w[0] == "An" || w[0] == "The") && w[1] == name:
	default:
		return "doc comment does not start with " + name
	}
	return ""
}

// TestReadmeLibraryExamples keeps README's "Use elicit as a library" true:
// every Go snippet there must appear, line for line (indentation aside),
// in the example file the paragraph before it names, where go test runs
// it.
func TestReadmeLibraryExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Use elicit as a library\n")
	if !ok {
		t.Fatal(`README has no "Use elicit as a library" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	fileRE := regexp.MustCompile("`([a-z/]+/example_test\\.go)`")
	blocks := strings.Split(section, "```go\n")
	if len(blocks) < 4 {
		t.Fatalf("found %d Go snippets, want one each for forms, urlconsent and acpconn", len(blocks)-1)
	}
	for i := 1; i < len(blocks); i++ {
		names := fileRE.FindAllStringSubmatch(blocks[i-1], -1)
		if len(names) == 0 {
			t.Errorf("snippet %d: the paragraph before it names no example_test.go", i)
			continue
		}
		file := names[len(names)-1][1]
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("snippet %d: %v", i, err)
			continue
		}
		code, _, _ := strings.Cut(blocks[i], "```")
		if !strings.Contains(unindent(string(src)), unindent(code)) {
			t.Errorf("snippet %d is not in %s (line for line):\n%s", i, file, code)
		}
	}
}

// unindent drops every line's leading white space.
func unindent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// TestDocsLinks keeps the README and docs/ walkable: every relative link
// in README.md and docs/*.md names a file or folder that exists, and every
// #anchor names a heading of the file it points into, as GitHub spells its
// anchors. Links to other sites are not fetched.
func TestDocsLinks(t *testing.T) {
	files, _ := filepath.Glob("docs/*.md")
	if len(files) < 4 {
		t.Fatalf("found %d files in docs/, want reliability, security, performance and architecture at least", len(files))
	}
	for _, problem := range brokenLinks(t, append([]string{"README.md"}, files...)) {
		t.Error(problem)
	}
}

// TestDocsLinksCatchesBreaks proves the check above can fail: a missing
// file, a missing anchor in this file and in another, while links in code,
// to other sites, and to headings with code, punctuation and a repeated
// title pass.
func TestDocsLinksCatchesBreaks(t *testing.T) {
	dir := t.TempDir()
	a := "# A\n\n## Use `elicit mcp`: here\n\n## Twice\n\n## Twice\n\n```sh\n# not a heading\n[x](gone.md)\n```\n\n" +
		"[ok](#use-elicit-mcp-here) [ok](#twice-1) [ok](b.md#qwens-notes) [ok](https://example.com/#x) `[no](code.md)`\n" +
		"[gone](gone.md) [bad](#nowhere) [bad](b.md#nowhere) [bad](#not-a-heading) [bad](#twice-2)\n"
	for name, text := range map[string]string{"a.md": a, "b.md": "# B\n\n## qwen's notes\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := brokenLinks(t, []string{filepath.Join(dir, "a.md")})
	want := []string{"gone.md", "#nowhere", "b.md#nowhere", "#not-a-heading", "#twice-2"}
	if len(got) != len(want) {
		t.Fatalf("reported %q, want one problem each for %q", got, want)
	}
	for i, w := range want {
		if !strings.Contains(got[i], "("+w+")") {
			t.Errorf("problem %d is %q, want one about %s", i, got[i], w)
		}
	}
}

var (
	linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeRE = regexp.MustCompile("``.*?``|`[^`\n]*`")
)

// brokenLinks lists the relative links of the markdown files that lead
// nowhere.
func brokenLinks(t *testing.T, files []string) []string {
	t.Helper()
	var out []string
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prose, _ := markdownParts(string(text))
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(prose, ""), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(link, "#")
			target := file
			if path != "" {
				target = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
			}
			if _, err := os.Stat(target); err != nil {
				out = append(out, fmt.Sprintf("%s: (%s): no such file", file, link))
				continue
			}
			if anchor == "" {
				continue
			}
			body, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if _, anchors := markdownParts(string(body)); !anchors[anchor] {
				out = append(out, fmt.Sprintf("%s: (%s): no such heading", file, link))
			}
		}
	}
	return out
}

// markdownParts returns a markdown text without its fenced code blocks,
// and the anchors GitHub gives its headings: the title in lower case,
// without what is neither a letter, a digit, a space, - nor _, spaces as
// hyphens, and -1, -2, ... after a title seen before.
func markdownParts(text string) (string, map[string]bool) {
	var prose strings.Builder
	anchors, seen := map[string]bool{}, map[string]int{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		prose.WriteString(line + "\n")
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") || len(line)-len(strings.TrimLeft(line, "#")) > 6 {
			continue
		}
		slug := strings.Map(func(r rune) rune {
			switch {
			case r == ' ':
				return '-'
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				return unicode.ToLower(r)
			}
			return -1
		}, strings.TrimSpace(strings.TrimRight(title, "# ")))
		anchor := slug
		if n := seen[slug]; n > 0 {
			anchor = fmt.Sprintf("%s-%d", slug, n)
		}
		seen[slug]++
		anchors[anchor] = true
	}
	return prose.String(), anchors
}
