package styles

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles.
//
// elicit patch (PATCH.md): every embedded style is registered by name at
// package init, as upstream, but its XML is parsed on its first use
// (chroma.NewLazyStyle); upstream parsed all of them at init, a few
// milliseconds and some 34,000 allocations for a program that may never
// colour any code.
var Registry = func() map[string]*chroma.Style {
	registry := map[string]*chroma.Style{}
	// Register all embedded styles.
	files, err := fs.ReadDir(embedded, ".")
	if err != nil {
		panic(err)
	}
	for _, file := range files {
		if file.IsDir() {
			continue
		}
		path := file.Name()
		name, err := styleName(path)
		if err != nil {
			panic(err)
		}
		registry[name] = chroma.NewLazyStyle(name, func() (*chroma.Style, error) {
			r, err := embedded.Open(path)
			if err != nil {
				return nil, err
			}
			defer r.Close() // nolint: errcheck
			return chroma.NewXMLStyle(r)
		})
	}
	return registry
}()

// styleName reads the name attribute of the <style> element that opens an
// embedded style file, without parsing the rest (elicit patch).
func styleName(path string) (string, error) {
	f, err := embedded.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close() // nolint: errcheck
	var head [256]byte
	n, _ := io.ReadFull(f, head[:])
	s := string(head[:n])
	const open = `<style name="`
	i := strings.Index(s, open)
	if i < 0 {
		return "", fmt.Errorf("%s: no %s...\" in its first %d bytes", path, open, len(head))
	}
	s = s[i+len(open):]
	j := strings.IndexByte(s, '"')
	if j <= 0 {
		return "", fmt.Errorf("%s: unterminated or empty style name", path)
	}
	return s[:j], nil
}

// Fallback style. Reassign to change the default fallback style.
var Fallback = Registry["swapoff"]

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	Registry[style.Name] = style
	return style
}

// Names of all available styles.
func Names() []string {
	out := []string{}
	for name := range Registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	if style, ok := Registry[name]; ok {
		return style
	}
	return Fallback
}
