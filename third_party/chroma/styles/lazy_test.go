package styles

import (
	"io/fs"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// TestLazyStylesMatchEagerParse checks elicit's patch (PATCH.md): every
// embedded style registered by name at init reads, on first use, exactly
// what upstream's eager parse of the same file gives.
func TestLazyStylesMatchEagerParse(t *testing.T) {
	files, err := fs.ReadDir(embedded, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(Registry) != len(files) {
		t.Fatalf("%d styles registered for %d files", len(Registry), len(files))
	}
	for _, f := range files {
		r, err := embedded.Open(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		eager, err := chroma.NewXMLStyle(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		lazy := Get(eager.Name)
		if lazy.Name != eager.Name || lazy == Fallback && eager.Name != "swapoff" {
			t.Fatalf("%s: registered as %q", f.Name(), lazy.Name)
		}
		for tt := range chroma.StandardTypes {
			if got, want := lazy.Get(tt), eager.Get(tt); got != want {
				t.Errorf("%s: Get(%s) = %v, want %v", eager.Name, tt, got, want)
			}
		}
	}
	if Fallback == nil || Fallback.Name != "swapoff" || SwapOff != Fallback {
		t.Errorf("Fallback = %v", Fallback)
	}
}
