package cmd

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/acpserve"
	"github.com/elicit-dev/elicit/internal/procgroup"
)

const demoLong = `Serves elicit's built-in demo agent (the one elicit runs when no agent is named: every kind of question) over ACP's remote transport, WebSocket and Streamable HTTP on one endpoint, so that elicit --url can be tried without a third-party agent: run elicit demo --serve in one terminal and the command it prints in another. Each connection gets a demo agent of its own; Ctrl+C ends them all.

ADDR is host:port, by default 127.0.0.1:0 (a free port), and must be a loopback address: the demo serves plain http, which would carry the token in clear text. The bearer token is random, in a file of mode 0600 (--token-file FILE keeps one across runs; by default a new file, removed when serving ends), and the printed command reads it into an environment variable for --token-env: it never goes on a command line.`

const demoExample = `
# Serve the demo agent; the lines to connect with are printed:
elicit demo --serve

# In another terminal, as printed:
export DEMO_TOKEN="$(cat /tmp/elicit-demo-123/token)"
elicit --url http://127.0.0.1:41234/acp --token-env DEMO_TOKEN

# A fixed port, and a token kept in a file:
elicit demo --serve 127.0.0.1:4170 --token-file ~/.elicit-demo-token
`

// demoTokenVar is the variable the printed command puts the token in.
const demoTokenVar = "DEMO_TOKEN"

// newDemoCommand is `elicit demo --serve [ADDR]`.
func newDemoCommand(a *app) *cobra.Command {
	var serveIt bool
	var tokenFile string
	cmd := &cobra.Command{
		Use:     "demo --serve [ADDR]",
		Short:   "Serve the built-in demo agent over ACP's remote transport, for elicit --url",
		Long:    demoLong,
		Example: demoExample,
		Args:    needArgs(0, 1, "ADDR", ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !serveIt {
				return usageError{err: errors.New("give --serve: elicit demo --serve [ADDR] serves the demo agent for elicit --url (elicit alone runs it here)"), cmd: cmd}
			}
			addr := "127.0.0.1:0"
			if len(args) == 1 {
				addr = args[0]
			}
			host, _, err := net.SplitHostPort(addr)
			switch {
			case err != nil:
				return usageError{err: fmt.Errorf("ADDR %q: want host:port, such as 127.0.0.1:4170", addr), cmd: cmd}
			case !ahp.Loopback(host):
				return usageError{err: fmt.Errorf("%s is not a loopback address: the demo serves plain http, which would carry the token in clear text (serve on 127.0.0.1 and forward the port with ssh -L)", host), cmd: cmd}
			}
			return a.exit(a.serveDemo(addr, tokenFile))
		},
	}
	cmd.Flags().BoolVar(&serveIt, "serve", false, "serve the demo agent on ADDR (default 127.0.0.1:0; loopback only)")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "read the token from `FILE`, or write a new one there (mode 0600); default: a new file, removed when serving ends")
	return cmd
}

// serveDemo serves the demo agent on addr until a signal, and returns
// the exit status.
func (a *app) serveDemo(addr, tokenFile string) int {
	stdout, stderr := textOut(a.stdout), textOut(a.stderr)
	fail := func(code int, err error) int {
		fmt.Fprintln(stderr, "elicit demo:", err)
		return code
	}
	token, path, cleanup, err := demoToken(tokenFile)
	if err != nil {
		return fail(exitFailed, err)
	}
	defer cleanup()
	self, err := os.Executable()
	if err != nil {
		return fail(exitFailed, err)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fail(exitFailed, err)
	}
	// Each connection's agent starts through procgroup.Default, like every
	// process elicit starts, so that Main's endAll ends what Drop left.
	agents := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) {
		p, err := procgroup.Default.StartPiped([]string{self, demoAgentCommand}, "", nil)
		if err != nil {
			return acpserve.Agent{}, err
		}
		return acpserve.Agent{In: p.Stdin, Out: p.Stdout, Close: func() { p.Stop(); p.Stdout.Close() }}, nil
	}}
	mux := http.NewServeMux()
	mux.Handle("/acp", bearer(token, agents))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 30 * time.Second}
	url := "http://" + l.Addr().String() + "/acp"
	where := path + " (mode 0600)"
	if tokenFile == "" {
		where = path + " (mode 0600; removed when serving ends)"
	}
	fmt.Fprintf(stdout, "elicit demo: serving the demo agent over ACP (WebSocket and Streamable HTTP) until Ctrl+C\n"+
		"url    %s\ntoken  %s\n\nIn another terminal:\n  export %s=\"$(cat %s)\"\n  elicit --url %s --token-env %s\n",
		url, where, demoTokenVar, shellWord(path), url, demoTokenVar)
	caught := make(chan os.Signal, 1)
	stop := procgroup.TrapSignals(context.Background(), func(s os.Signal) {
		select {
		case caught <- s:
		default:
		}
	})
	defer stop()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	select {
	case s := <-caught:
		hs.Close()
		agents.Drop()
		<-served
		return procgroup.ExitCode(s)
	case err := <-served:
		agents.Drop()
		return fail(exitFailed, err)
	}
}

// bearer lets through the requests that carry token as their bearer
// token (compared in constant time); acpserve's own check is a test
// server's.
func bearer(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			http.Error(w, "invalid bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// demoToken is the token and the file that holds it: tokenFile's (read,
// or written with mode 0600 when missing), else a new file in a private
// directory, which cleanup removes.
func demoToken(tokenFile string) (token, path string, cleanup func(), err error) {
	if tokenFile != "" {
		token, err = ahp.TokenFile(tokenFile)
		if err != nil {
			return "", "", nil, fmt.Errorf("--token-file: %w", err)
		}
		return token, tokenFile, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "elicit-demo-")
	if err != nil {
		return "", "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, "token")
	if token, err = ahp.TokenFile(path); err != nil {
		cleanup()
		return "", "", nil, err
	}
	return token, path, cleanup, nil
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
