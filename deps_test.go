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
