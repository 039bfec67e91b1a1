package cmd

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/procgroup"
)

// prepared is what every command that runs an ACP agent (elicit, elicit
// serve) sets up the same way before its front end: the files (top
// domains, config, memory), the agent's configuration and trace, the API
// key's variable, and signals: from prepare on, no signal kills elicit
// outright (what elicit started ends in Main, endAll).
type prepared struct {
	st     *setup
	cfg    acpconn.Config
	keyEnv string
	stderr io.Writer
	prefix string // "elicit", "elicit serve"
	undo   []func()
}

// prepare sets up req for the command named prefix. On failure it has
// said why and undone what it did; code is the exit status then.
func (a *app) prepare(req sessionRequest, prefix string) (p *prepared, code int) {
	o := req.opts
	p = &prepared{stderr: textOut(a.stderr), prefix: prefix}
	top, err := readTopDomains(o.files.topDomains)
	if err != nil {
		return nil, p.fail(exitUsage, err)
	}
	file, _, err := loadConfig(o.files.configFile)
	if err != nil {
		return nil, p.fail(exitUsage, err)
	}
	if p.st, err = newSetup(req, file, top); err != nil {
		return nil, p.fail(exitUsage, err)
	}
	p.undo = append(p.undo, p.st.close)
	// From here on no signal kills elicit outright: each front end handles
	// the ones it ends on, and one that comes while the children are being
	// ended (a closed terminal sends a second SIGHUP when its shell exits)
	// must not cut the grace and the SIGKILL short; nor does SIGPIPE (a
	// closed stdout is a write error).
	procgroup.HoldSignals()
	cfg, closeLog, code := agentConfig(o.agent, p.st.agent, p.stderr)
	if code != 0 {
		p.close()
		return nil, code
	}
	cfg.URLs = p.st.urls
	p.cfg = cfg
	p.undo = append(p.undo, closeLog)
	if p.keyEnv, err = apiKeyEnv(o.start.apiKeyEnv, p.st.agent); err != nil {
		p.close()
		return nil, p.fail(exitUsage, err)
	}
	return p, 0
}

// close undoes prepare, last step first: the trace file, the files.
func (p *prepared) close() {
	for _, u := range slices.Backward(p.undo) {
		u()
	}
	p.undo = nil
}

// fail says err after the command's name and returns code.
func (p *prepared) fail(code int, err error) int {
	fmt.Fprintf(p.stderr, "%s: %v\n", p.prefix, err)
	return code
}

// signalled is the exit status of a front end that returned code: when s
// (the signal endOnSignal caught, or nil) ended its agents, the signal's
// (128+n), said on stderr; else code.
func (p *prepared) signalled(s os.Signal, code int) int {
	if s != nil {
		fmt.Fprintf(p.stderr, "%s: %v: the agent was ended\n", p.prefix, s)
		return procgroup.ExitCode(s)
	}
	return code
}
