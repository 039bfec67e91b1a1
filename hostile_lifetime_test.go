//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/hostile"
)

// mcpProcRun is `elicit mcp ARGS -- SERVER`, where the server first
// leaves a daemon in a session of its own (hostile.ScenarioEscape: it
// ignores SIGTERM and SIGHUP, notes its pid, and sleeps), then serves as
// the hostile MCP server.
func mcpProcRun(t *testing.T, args ...string) *procRun {
	t.Helper()
	r := newProcRun(t, "", nil, nil)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	server := []string{"sh", "-c", `"$1" && exec "$2"`, "sh", hostileAgent[0], self}
	argv := append(append(append([]string{"mcp"}, args...), "--no-history", "--"), server...)
	env := r.cmd.Env
	r.cmd = exec.Command(elicitBin, argv...)
	r.cmd.Env = append(env, hostile.Scenario+"="+hostile.ScenarioEscape, hostileMCPEnv+"=1")
	r.cmd.Dir = r.dir
	return r
}

// Issue 31, item 1: the commands that used to end their processes by
// hand (elicit mcp tools and call, through withSignals; the elicit mcp
// full screen) leave nothing behind now that one place, Main, ends every
// process elicit started: not the daemon their server left.
func TestNothingOutlivesElicitMCP(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		screen bool
	}{
		{"tools", []string{"tools"}, false},
		{"call", []string{"call", hostile.MCPTool, "--decline"}, false},
		{"full screen", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := mcpProcRun(t, tc.args...)
			if tc.screen {
				tm := startPTYWith(t, r.cmd)
				tm.waitScreen("the tool list", func(s string) bool { return strings.Contains(s, "› "+hostile.MCPTool+" ") })
				tm.pressQuit()
			} else {
				var out strings.Builder
				r.cmd.Stdout, r.cmd.Stderr = &out, &out
				if err := r.cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = r.cmd.Process.Kill() })
				defer func() {
					if t.Failed() {
						t.Logf("elicit said:\n%s", out.String())
					}
				}()
			}
			r.wait()
			if len(r.daemons()) == 0 {
				t.Fatal("the server left no daemon: the run proves nothing")
			}
			r.noSurvivors(tc.name)
		})
	}
}
