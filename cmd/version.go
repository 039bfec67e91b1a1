package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	acp "github.com/coder/acp-go-sdk"
	"github.com/spf13/cobra"
)

// Version and Commit are set by a release build with -ldflags -X; empty,
// they come from the build information.
var (
	Version string
	Commit  string
)

// unknownVersion is the version of a build that has none.
const unknownVersion = "unknown (built from source)"

// versionInfo is what `elicit version` says.
type versionInfo struct {
	Version  string // a tag, a pseudo-version, or unknownVersion
	Commit   string // the VCS revision; "" when unknown
	Modified bool   // the checkout had changes
	Go       string
	Protocol int // the ACP protocol version sent in initialize
}

// readVersion reads the version from the -ldflags variables, then the
// build information: the module version of a `go install` build, the
// VCS revision and dirty flag of a checkout build.
func readVersion() versionInfo {
	v := versionInfo{Version: Version, Commit: Commit, Go: runtime.Version(), Protocol: acp.ProtocolVersionNumber}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && v.Commit == "":
				v.Commit = s.Value
			case s.Key == "vcs.modified" && Commit == "":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = unknownVersion
	}
	return v
}

// short is the version for a peer (acpconn's clientInfo): the version;
// for a build that has none, the commit, or "dev".
func (v versionInfo) short() string {
	switch {
	case v.Version != unknownVersion:
		return v.Version
	case v.Commit != "":
		return "commit " + v.Commit[:min(12, len(v.Commit))]
	}
	return "dev"
}

// versionText is the output of --version and `elicit version`.
func versionText(v versionInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "elicit %s\n", v.Version)
	if v.Commit != "" {
		dirty := ""
		if v.Modified {
			dirty = " (modified)"
		}
		fmt.Fprintf(&b, "commit    %s%s\n", v.Commit, dirty)
	}
	fmt.Fprintf(&b, "go        %s\n", v.Go)
	fmt.Fprintf(&b, "protocol  ACP %d\n", v.Protocol)
	return b.String()
}

// newVersionCommand is `elicit version`.
func newVersionCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Version, commit, Go and ACP protocol version",
		Example: "elicit version\nelicit --version",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprint(textOut(a.stdout), versionText(readVersion()))
			return nil
		},
	}
}
