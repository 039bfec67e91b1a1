package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyDirections keeps the layout's promises (README,
// Architecture): forms and urlconsent import no protocol, so any ACP or
// MCP client can use them; acpconn and the pure cores import no UI
// library. It reads `go list -deps`, so a promise broken through any
// chain of imports fails here.
func TestDependencyDirections(t *testing.T) {
	protocols := []string{
		"github.com/coder/acp-go-sdk",
		"github.com/modelcontextprotocol/go-sdk",
		"github.com/elicit-dev/elicit/acpconn",
		"github.com/elicit-dev/elicit/ahp",
		"github.com/elicit-dev/elicit/mcpconn",
	}
	ui := []string{
		"charm.land/bubbletea/v2",
		"charm.land/huh/v2",
		"charm.land/lipgloss/v2",
		"charm.land/glamour/v2",
		"charm.land/bubbles/v2",
		"github.com/elicit-dev/elicit/ui",
	}
	for _, tc := range []struct {
		pkg    string
		refuse []string
	}{
		{"./forms/...", protocols},
		{"./urlconsent/...", protocols},
		{"./theme", protocols},
		{"./acpconn", ui},
		{"./mcpconn", ui},
		{"./question", append(append([]string{}, protocols...), ui...)},
		{"./question/schema", ui},
		{"./question/urlcheck", ui},
		{"./session/...", append(append([]string{}, protocols...), ui...)},
		{"./permissions", append(append([]string{}, protocols...), ui...)},
		{"./ahp/...", ui},
		// The inbox finds and reads sessions: no core, no other source.
		{"./ahp/inbox", []string{"github.com/elicit-dev/elicit/session", "github.com/elicit-dev/elicit/acpconn", "github.com/elicit-dev/elicit/mcpconn"}},
		// The session opener is under ui/ (it is the front ends'), but
		// draws nothing: no Charm library.
		{"./ui/internal/opener", ui[:len(ui)-1]},
		// The web inbox draws no terminal, and runs no session.
		{"./ui/web", append(ui[:len(ui)-1:len(ui)-1], "github.com/elicit-dev/elicit/session", "github.com/elicit-dev/elicit/acpconn")},
	} {
		out, err := exec.Command("go", "list", "-deps", tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tc.pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, bad := range tc.refuse {
				if dep == bad || strings.HasPrefix(dep, bad+"/") {
					t.Errorf("%s depends on %s", tc.pkg, dep)
				}
			}
		}
	}
}

// TestNoTestFurnitureShips keeps the test furniture out of the released
// binary: the hostile agent, the model mock and the test hosts are built
// by the tests that use them, never linked into elicit.
func TestNoTestFurnitureShips(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps .: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"/internal/hostile", "/internal/modelmock", "/internal/testkit", "/internal/foreignhost", "/ui/internal/uitest", "github.com/chromedp/chromedp"} {
			if strings.HasSuffix(dep, bad) || strings.Contains(dep, bad+"/") {
				t.Errorf("elicit links %s", dep)
			}
		}
	}
}

// TestFloorPlan keeps the house's floor plan (README, Architecture): the
// top-level folders import each other without a circle, so each stands
// above everything it imports: the command tree over the front ends, the
// front ends over the core and the sources, those over the card's
// packages, the data model (question) and the foundations (internal,
// theme). A circle means an import runs from a lower floor back up.
func TestFloorPlan(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/elicit-dev/elicit"
	room := func(pkg string) string {
		if pkg == mod {
			return "main.go"
		}
		rest, ok := strings.CutPrefix(pkg, mod+"/")
		if !ok {
			return ""
		}
		first, _, _ := strings.Cut(rest, "/")
		return first
	}
	uses := map[string]map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		from := room(f[0])
		for _, imp := range f[1:] {
			if to := room(imp); to != "" && to != from {
				if uses[from] == nil {
					uses[from] = map[string]bool{}
				}
				uses[from][to] = true
			}
		}
	}
	// A depth-first walk over the rooms finds any circle.
	state := map[string]int{} // 1: on the path, 2: done
	var path []string
	var walk func(r string)
	walk = func(r string) {
		state[r] = 1
		path = append(path, r)
		for to := range uses[r] {
			switch state[to] {
			case 1:
				t.Errorf("the floors run in a circle: %s -> %s", strings.Join(path, " -> "), to)
			case 0:
				walk(to)
			}
		}
		path = path[:len(path)-1]
		state[r] = 2
	}
	for r := range uses {
		if state[r] == 0 {
			walk(r)
		}
	}
}
